//! Syntax trees kept with the loaded configuration, so that evaluation reads the trees the
//! loader parsed instead of parsing expression text again.
//!
//! A native file's tree borrows names and literal text from the file ([`crate::hcl::ast`]), so
//! the tree and its text travel together: a [`SyntaxFile`] owns the text (as the loader's
//! [`SourceFile`], which also gives positions) and the tree parsed from it. Handles to nodes
//! inside it ([`KeptExpr`], [`KeptBody`]) hold the file by reference count: a clone costs a
//! counter increment, and the configuration stays `'static` (no lifetime on `Config` or its
//! users).
//!
//! Handles are made only through [`SyntaxFile::with`] or a handle's own `with`, whose closure
//! gets the tree and a [`Keeper`] branded with the same fresh lifetime: the keeper accepts
//! nothing but nodes of that tree, so a handle always points into the file it keeps alive.
//!
//! Cost (bench/RESULTS.md, 2026-11-27): the trees stay in memory as long as the configuration.

use crate::diag::SourceFile;
use crate::hcl::ast;
use crate::hcl::SyntaxError;
use std::fmt;
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::Arc;

/// One native-syntax file: its text and line index, and the tree parsed from it.
pub struct SyntaxFile {
    // Declared first so it is dropped first: it borrows `source.text`.
    body: ast::Body<'static>,
    source: SourceFile,
}

impl SyntaxFile {
    /// Parses `source` (HCL's native syntax) and keeps the tree with it; the syntax errors come
    /// back beside it (the tree holds what could be parsed, as [`crate::hcl::parse_body`] says).
    pub fn parse(source: SourceFile) -> (Arc<SyntaxFile>, Vec<SyntaxError>) {
        // SAFETY: the tree borrows the text's heap buffer, which neither moves nor changes while
        // `source` lives: moving a `String` leaves its buffer in place, `SyntaxFile` hands out
        // only shared references to `source`, and its `body` is dropped before `source`.
        let text: &'static str = unsafe { &*(source.text.as_str() as *const str) };
        let parsed = crate::hcl::parse_body(text);
        (Arc::new(SyntaxFile { body: parsed.body, source }), parsed.errors)
    }

    /// The file's name, text and positions.
    pub fn source(&self) -> &SourceFile {
        &self.source
    }

    /// The file's top-level body.
    pub fn body(&self) -> &ast::Body<'_> {
        &self.body
    }

    /// Calls `f` with the tree and a keeper that makes handles to its nodes.
    pub fn with<R>(self: &Arc<Self>, f: impl for<'b> FnOnce(&'b ast::Body<'b>, Keeper<'b>) -> R) -> R {
        f(&self.body, Keeper { file: self, brand: PhantomData })
    }
}

impl fmt::Debug for SyntaxFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SyntaxFile({})", self.source.name)
    }
}

/// Makes handles to nodes of one tree. The lifetime is a brand: [`SyntaxFile::with`] gives each
/// call its own, which only that tree's nodes carry (invariant, so it cannot be widened or
/// narrowed to another tree's).
#[derive(Clone, Copy)]
pub struct Keeper<'b> {
    file: &'b Arc<SyntaxFile>,
    brand: PhantomData<fn(&'b ()) -> &'b ()>,
}

impl<'b> Keeper<'b> {
    pub fn expr(&self, e: &'b ast::Expr<'b>) -> KeptExpr {
        KeptExpr { file: Arc::clone(self.file), node: NonNull::from(e).cast() }
    }

    pub fn body(&self, b: &'b ast::Body<'b>) -> KeptBody {
        KeptBody { file: Arc::clone(self.file), node: NonNull::from(b).cast() }
    }

    /// The file the tree belongs to.
    pub fn file(&self) -> &'b SyntaxFile {
        self.file
    }
}

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $node:ident) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            file: Arc<SyntaxFile>,
            node: NonNull<ast::$node<'static>>,
        }

        // SAFETY: a handle only reads an immutable tree that it keeps alive; the tree's types
        // (borrowed and owned strings, vectors, numbers) are themselves `Send` and `Sync`, which
        // the compiler checks here, so a `Cell` or `Rc` added to the tree fails the build.
        const _: () = {
            fn send_sync<T: Send + Sync>() {}
            let _ = send_sync::<ast::$node<'static>>;
        };
        unsafe impl Send for $name {}
        unsafe impl Sync for $name {}

        impl $name {
            /// The node.
            pub fn get(&self) -> &ast::$node<'_> {
                // SAFETY: `node` points into `file`'s tree (only a `Keeper` of that tree makes
                // one), which lives as long as `file` and is never changed.
                unsafe { self.node.as_ref() }
            }

            /// The file the node is in.
            pub fn file(&self) -> &SyntaxFile {
                &self.file
            }

            /// Calls `f` with the node and a keeper for handles to nodes inside it.
            pub fn with<R>(&self, f: impl for<'b> FnOnce(&'b ast::$node<'b>, Keeper<'b>) -> R) -> R {
                let node = self.get();
                f(node, Keeper { file: &self.file, brand: PhantomData })
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self.file.source.name)
            }
        }
    };
}

handle!(
    /// An expression of a kept tree: what the evaluator reads for a loaded expression.
    KeptExpr,
    Expr
);
handle!(
    /// A body of a kept tree (a resource's or a provider configuration's block body).
    KeptBody,
    Body
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_outlive_the_parse_and_read_the_kept_tree() {
        let (file, errors) = SyntaxFile::parse(SourceFile::new("main.tf", "a = 1 + 2\nb {\n  c = \"x\"\n}\n"));
        assert!(errors.is_empty());
        let (a, b) = file.with(|body, k| {
            let ast::Item::Attr(a) = &body.items[0] else { panic!("an attribute first") };
            let ast::Item::Block(b) = &body.items[1] else { panic!("a block second") };
            (k.expr(&a.expr), k.body(&b.body))
        });
        drop(file);
        assert_eq!(a.get().span, 4..9);
        assert_eq!(&a.file().source().text[a.get().span.clone()], "1 + 2");
        let c = b.with(|body, k| match &body.items[0] {
            ast::Item::Attr(c) => k.expr(&c.expr),
            ast::Item::Block(_) => panic!("an attribute"),
        });
        drop(b);
        assert_eq!(&c.file().source().text[c.get().span.clone()], "\"x\"");
    }
}
