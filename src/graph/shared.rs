//! The interner a graph build makes its shared strings and module paths with, and [`Span`],
//! a source range with a shared file name. The shared types themselves are in
//! [`crate::util`] (re-exported here).

use crate::addrs::ModulePath;
use crate::diag::{Pos, SourceRange};
use serde::Serialize;
use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use crate::util::shared::StrInterner;
pub use crate::util::{FastBuild, FastHasher, FastMap, FastSet, SharedStr, SharedVec};

/// A source range whose file name is shared: the [`SourceRange`] of graph nodes and edge
/// reasons. Serializes, prints (`Debug`) and compares as the [`SourceRange`] it stands for.
#[derive(Clone, PartialEq, Eq, Serialize)]
pub struct Span {
    pub filename: SharedStr,
    pub start: Pos,
    pub end: Pos,
}

impl Span {
    /// The range as diagnostics and the query API carry it.
    pub fn to_source_range(&self) -> SourceRange {
        SourceRange { filename: self.filename.to_string(), start: self.start, end: self.end }
    }
}

impl From<&SourceRange> for Span {
    fn from(r: &SourceRange) -> Self {
        Span { filename: r.filename.as_str().into(), start: r.start, end: r.end }
    }
}

impl From<SourceRange> for Span {
    fn from(r: SourceRange) -> Self {
        Span::from(&r)
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_source_range(), f)
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_source_range(), f)
    }
}

/// One copy of every distinct string and module path a build hands to nodes and edges.
/// Interior mutability, so transformers can intern through the shared
/// [`BuildContext`](super::transform::BuildContext).
#[derive(Default)]
pub struct Interner {
    strings: StrInterner,
    paths: RefCell<FastMap<ModulePath, Arc<ModulePath>>>,
}

impl Interner {
    /// The shared copy of `s`.
    pub fn str(&self, s: &str) -> SharedStr {
        self.strings.str(s)
    }

    /// The shared copy of `r` with its file name interned.
    pub fn span(&self, r: &SourceRange) -> Span {
        Span { filename: self.str(&r.filename), start: r.start, end: r.end }
    }

    /// The shared copy of a module path.
    pub fn path(&self, p: &ModulePath) -> Arc<ModulePath> {
        let mut map = self.paths.borrow_mut();
        if let Some(x) = map.get(p) {
            return Arc::clone(x);
        }
        let x = Arc::new(p.clone());
        map.insert(p.clone(), Arc::clone(&x));
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_strings_read_and_serialize_as_strings() {
        let i = Interner::default();
        let a = i.str("main.tf");
        let b = i.str("main.tf");
        assert!(a.ptr_eq(&b));
        assert_eq!(a, "main.tf");
        assert_eq!(format!("{a:?} {a}"), "\"main.tf\" main.tf");
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"main.tf\"");
        let v: SharedVec<SharedStr> = vec![a.clone(), "x".into()].into();
        assert_eq!(format!("{v:?}"), "[\"main.tf\", \"x\"]");
        assert_eq!(v, ["main.tf", "x"]);
        let p = ModulePath(vec!["a".into()]);
        assert!(Arc::ptr_eq(&i.path(&p), &i.path(&p)));
    }

    #[test]
    fn spans_print_as_source_ranges() {
        let r = SourceRange {
            filename: "main.tf".into(),
            start: Pos { line: 1, column: 2, byte: 1 },
            end: Pos { line: 1, column: 5, byte: 4 },
        };
        let s = Span::from(&r);
        assert_eq!(format!("{s:?}"), format!("{r:?}"));
        assert_eq!(serde_json::to_value(&s).unwrap(), serde_json::to_value(&r).unwrap());
        assert_eq!(s.to_source_range(), r);
    }
}
