//! Terraform's built-in functions and cty's function-call machinery.
//!
//! A function is declared as cty declares one: typed parameters (each saying whether it takes
//! null, unknown, dynamic-typed and sensitive arguments), an optional variadic parameter, a
//! return type (fixed, or computed from the arguments), and an implementation that only ever
//! sees arguments it declared it can take. [`call`] does the rest as cty's `Function.Call`
//! does: converts each argument to its parameter's type, returns an unknown of the return type
//! when an argument is not wholly known and the parameter does not take unknowns, strips
//! sensitive marks the parameter does not take and puts them back on the result, and turns
//! errors into Terraform's "Invalid function argument" / "Error in function call" texts.
//!
//! ## Adding a family
//! A family file (`string.rs`, `collection.rs`, ...) has `pub(super) fn register(r: &mut
//! Registry)` that calls `r.add(Function { .. })` once per function; add the file's `mod` line
//! and its `register` call in [`Registry::builtin`]. Implementations return
//! [`FuncError::Arg`] for a problem with one argument (cty's `NewArgErrorf`) and
//! [`FuncError::Other`] for the rest; the message has no trailing period (one is added).

mod collection;
mod collection_map;
mod collection_seq;
mod collection_set;
mod conversion;
mod core;
mod crypto;
mod crypto_rsa;
mod datetime;
mod encoding;
mod encoding_gzip;
mod encoding_text;
pub mod encoding_text_tables;
mod encoding_yaml;
mod encoding_yamldecode;
pub mod filesystem;
mod network;
mod numeric;
pub mod platform;
mod special;
pub(crate) use conversion::convert_to_constraint;
mod string;
mod string_format_go;
mod string_format_num;
pub use string_format_num::text_g;
pub mod string_regex_fold;
mod string_regex_go;
mod string_regex_syntax;
pub mod string_regex_unicode;
mod string_text;

use super::convert::{convert_at_path, convertible};
use super::types::Type;
use super::value::Value;
use std::collections::HashMap;

/// One parameter, with cty's flags.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: &'static str,
    pub ty: Type,
    pub allow_null: bool,
    pub allow_unknown: bool,
    pub allow_dynamic: bool,
    pub allow_marked: bool,
}

impl Param {
    /// A parameter that takes none of null, unknown, dynamic or marked arguments.
    pub fn new(name: &'static str, ty: Type) -> Param {
        Param { name, ty, allow_null: false, allow_unknown: false, allow_dynamic: false, allow_marked: false }
    }
    pub fn null(mut self) -> Param {
        self.allow_null = true;
        self
    }
    pub fn unknown(mut self) -> Param {
        self.allow_unknown = true;
        self
    }
    pub fn dynamic(mut self) -> Param {
        self.allow_dynamic = true;
        self
    }
    pub fn marked(mut self) -> Param {
        self.allow_marked = true;
        self
    }
}

/// cty's `function.ArgError` and plain errors.
#[derive(Clone, Debug, PartialEq)]
pub enum FuncError {
    Arg(usize, String),
    Other(String),
}

/// What a function may need beyond its arguments.
pub struct FuncContext<'a> {
    /// Planning: `timestamp()`, `uuid()`, `bcrypt()` are unknown, as in Terraform's plan.
    pub planning: bool,
    /// The loaded files, by path relative to the root module's directory.
    pub files: &'a dyn Filesystem,
    /// The root module's directory among the loaded files: relative paths (Terraform's are
    /// relative to the working directory, where the root module is) resolve against it.
    pub base_dir: &'a str,
    /// The working directory's absolute path (`path.cwd`), when the caller gave one:
    /// `abspath` of a relative path, and absolute paths under it found among the loaded files.
    pub cwd: Option<&'a str>,
}

/// Read access to the loaded files (filesystem functions never touch a real disk).
pub trait Filesystem {
    fn read(&self, path: &str) -> Option<&[u8]>;
    /// Every file path, for `fileset`.
    fn paths(&self) -> Vec<&str>;
}

/// No files at all.
pub struct NoFilesystem;

impl Filesystem for NoFilesystem {
    fn read(&self, _: &str) -> Option<&[u8]> {
        None
    }
    fn paths(&self) -> Vec<&str> {
        Vec::new()
    }
}

pub type ReturnTypeFn = fn(&[Value]) -> Result<Type, FuncError>;
pub type ImplFn = fn(&FuncContext<'_>, &[Value], &Type) -> Result<Value, FuncError>;

pub enum Returns {
    Type(Type),
    Computed(ReturnTypeFn),
}

pub struct Function {
    pub name: &'static str,
    pub params: Vec<Param>,
    pub variadic: Option<Param>,
    pub returns: Returns,
    pub imp: ImplFn,
}

#[derive(Default)]
pub struct Registry {
    funcs: HashMap<&'static str, Function>,
}

impl Registry {
    /// Every built-in function of Terraform this crate has.
    pub fn builtin() -> Registry {
        let mut r = Registry::default();
        core::register(&mut r);
        conversion::register(&mut r);
        collection::register(&mut r);
        string::register(&mut r);
        string::register_regex(&mut r);
        filesystem::register(&mut r);
        special::register(&mut r);
        numeric::register(&mut r);
        network::register(&mut r);
        crypto::register(&mut r);
        encoding::register(&mut r);
        datetime::register(&mut r);
        r
    }

    /// [`Registry::builtin`] and the console-only `type()`, for `terraform console`'s scope,
    /// which has no `plantimestamp` (internal/lang/functions.go: "doesn't make sense in the
    /// terraform console"); the locals the console reads keep it, unknown outside a plan.
    pub fn console() -> Registry {
        let mut r = Registry::builtin();
        conversion::register_console(&mut r);
        r.funcs.remove("plantimestamp");
        r
    }

    pub fn add(&mut self, f: Function) {
        self.funcs.insert(f.name, f);
    }

    pub fn get(&self, name: &str) -> Option<&Function> {
        self.funcs.get(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.funcs.keys().copied()
    }
}

/// Why a call failed, for the evaluator to turn into a diagnostic with ranges.
#[derive(Debug, PartialEq)]
pub enum CallError {
    /// "Not enough function arguments" / "Too many function arguments": (summary, detail).
    Arity(String, String),
    /// "Invalid function argument" on argument `index`.
    Arg { index: usize, detail: String },
    /// "Error in function call".
    Failed(String),
}

/// Calls `f` on `args` as cty's `Function.Call` does (see the module doc).
/// HCL's argument-count check, before any argument is looked at.
pub fn check_arity(f: &Function, given: usize) -> Result<(), CallError> {
    let n = f.params.len();
    if given < n {
        let missing = f.params[given].name;
        return Err(CallError::Arity(
            "Not enough function arguments".into(),
            format!(
                "Function {:?} expects {}{} argument(s). Missing value for {:?}.",
                f.name,
                if f.variadic.is_some() { "at least " } else { "" },
                n,
                missing
            ),
        ));
    }
    if given > n && f.variadic.is_none() {
        return Err(CallError::Arity(
            "Too many function arguments".into(),
            format!("Function {:?} expects only {} argument(s).", f.name, n),
        ));
    }
    Ok(())
}

pub fn call(f: &Function, ctx: &FuncContext<'_>, args: Vec<Value>) -> Result<Value, CallError> {
    let n = f.params.len();
    check_arity(f, args.len())?;
    let spec = |i: usize| -> &Param {
        if i < n {
            &f.params[i]
        } else {
            f.variadic.as_ref().expect("checked")
        }
    };
    let arg_err = |index: usize, msg: String| CallError::Arg {
        index,
        detail: format!("Invalid value for {:?} parameter: {}.", spec(index).name, msg),
    };

    // Convert each argument to its parameter's type.
    let mut conv = Vec::with_capacity(args.len());
    for (i, a) in args.into_iter().enumerate() {
        let p = spec(i);
        // A value that fails to convert although its type could (a string that is no number, an
        // element of a tuple) is reported without its path, as cty's PathError prints itself;
        // a type that cannot convert at all gets cty's MismatchMessage, which names the element.
        let v = if p.ty == Type::Dynamic {
            a
        } else {
            convert_at_path(&a, &p.ty).map_err(|(path, m)| {
                arg_err(i, if path.is_empty() || convertible(&a.ty(), &p.ty) { m } else { format!("{path}: {m}") })
            })?
        };
        conv.push(v);
    }
    // cty's type check: nulls where a parameter takes none are errors; a `dynamic`-typed
    // argument where the parameter takes none makes the whole result `dynamic` unknown.
    for (i, v) in conv.iter().enumerate() {
        let p = spec(i);
        if v.is_null() && !p.allow_null {
            return Err(arg_err(i, "argument must not be null".into()));
        }
        if v.ty() == Type::Dynamic && !p.allow_dynamic {
            return Ok(Value::dynamic().mark(conv.iter().any(Value::has_sensitive)));
        }
    }
    let ret = match &f.returns {
        Returns::Type(t) => t.clone(),
        Returns::Computed(tf) => {
            // The return type sees the arguments without the marks their parameters do not take.
            let plain: Vec<Value> = conv
                .iter()
                .enumerate()
                .map(|(i, v)| if spec(i).allow_marked { v.clone() } else { v.unmark_deep().0 })
                .collect();
            match tf(&plain) {
                Ok(t) => t,
                Err(FuncError::Arg(i, m)) => return Err(arg_err(i, m)),
                Err(FuncError::Other(m)) => {
                    return Err(CallError::Failed(format!("Call to function {:?} failed: {}.", f.name, m)))
                }
            }
        }
    };
    // cty's Call: an unknown argument (at its top level: elements may be unknown) where the
    // parameter takes none makes the result an unknown of the return type; marks the parameter
    // does not take come off and go onto the result.
    let mut sensitive = false;
    for (i, v) in conv.iter_mut().enumerate() {
        let p = spec(i);
        if !p.allow_marked && v.has_sensitive() {
            let (plain, _) = v.unmark_deep();
            *v = plain;
            sensitive = true;
        }
    }
    for (i, v) in conv.iter().enumerate() {
        if !v.is_known() && !spec(i).allow_unknown {
            return Ok(Value::unknown(ret).mark(sensitive));
        }
    }
    match (f.imp)(ctx, &conv, &ret) {
        Ok(v) => Ok(v.mark(sensitive)),
        Err(FuncError::Arg(i, m)) => Err(arg_err(i, m)),
        Err(FuncError::Other(m)) => Err(CallError::Failed(format!("Call to function {:?} failed: {}.", f.name, m))),
    }
}
