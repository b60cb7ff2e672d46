//! How the evaluator reads names: it knows no graph, no state and no providers, only a
//! [`Scope`] that answers for the roots of references (`var`, `local`, `module`, `path`,
//! `terraform`, `count`, `each`, `self`, `data`, resource types).

use super::value::Value;
use std::rc::Rc;

/// A failed lookup, worded as Terraform words it (the evaluator adds the range).
#[derive(Clone, Debug, PartialEq)]
pub struct LookupError {
    pub summary: String,
    pub detail: String,
    /// How many of the names the error is about (its range covers them).
    pub names: usize,
}

impl LookupError {
    /// `var`, `local`, `run`, ... named alone, without an attribute: Terraform's error.
    pub fn whole_object(root: &str) -> LookupError {
        LookupError {
            summary: "Invalid reference".into(),
            detail: format!(
                "The {} object cannot be accessed directly. Instead, access one of its attributes.",
                crate::dag::go_quote(root)
            ),
            names: 1,
        }
    }
}

pub trait Scope {
    /// The value that the first names of a reference stand for, and how many names that took:
    /// `["var", "region"]` → (the variable's value, 2); `["aws_instance", "web", "id"]` → (the
    /// resource's value, 2). `names` holds the root and every attribute name after it, up to the
    /// first index or splat.
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError>;

    /// [`Scope::lookup`], with the value shared where the scope keeps it (a resource's object,
    /// a local's value): a reference that reads one attribute of it then copies only that
    /// attribute, not the whole object.
    fn lookup_shared(&self, names: &[&str]) -> Result<(Rc<Value>, usize), LookupError> {
        self.lookup(names).map(|(v, n)| (Rc::new(v), n))
    }
}

/// The value out of a shared one: moved when nothing else holds it, else copied.
pub fn unshare(v: Rc<Value>) -> Value {
    Rc::try_unwrap(v).unwrap_or_else(|v| (*v).clone())
}

/// A scope with no names: every reference is an error (for constant expressions).
pub struct EmptyScope;

impl Scope for EmptyScope {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        Err(LookupError {
            summary: "Variables not allowed".into(),
            detail: "Variables may not be used here.".into(),
            names: names.len().min(1),
        })
    }
}

/// Where a module scope reads resources from when not from a state file: the engine's planned
/// (or applied) values, unknown where computed. `module` is the module instance in state
/// terms (`""`, `module.a`); `None` lets the scope fall back to its state.
pub trait ResourceSource {
    /// Shared: the walk keeps each resource's value, and a reference reads only part of it.
    fn resource(&self, module: &str, mode: &str, type_name: &str, name: &str) -> Option<Rc<Value>>;
}
