//! The scopes the engine evaluates in: a resource instance's (`count.index`, `each.key`,
//! `each.value`, `self` in postconditions) over its module's, and the walk's resource values,
//! which the module scope reads ahead of the prior state; a module instance's scope reached
//! from the root.

use crate::eval::module_scope::{ModuleKey, ModuleScope};
use crate::eval::scope::{unshare, LookupError, ResourceSource, Scope};
use crate::eval::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A resource instance's scope: its repetition values, then the module's names.
pub struct InstanceScope<'s, 'm> {
    pub module: &'s ModuleScope<'m>,
    pub count_index: Option<i64>,
    pub each: Option<(Value, Value)>,
    pub self_value: Option<Value>,
}

impl Scope for InstanceScope<'_, '_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        self.lookup_shared(names).map(|(v, n)| (unshare(v), n))
    }

    fn lookup_shared(&self, names: &[&str]) -> Result<(Rc<Value>, usize), LookupError> {
        let own = |v: Option<&Value>, n: usize| Ok((Rc::new(v.cloned().unwrap_or_else(Value::dynamic)), n));
        match (names[0], names.get(1).copied()) {
            ("count", Some("index")) if self.count_index.is_some() => {
                Ok((Rc::new(Value::int(self.count_index.unwrap_or(0))), 2))
            }
            ("each", Some("key")) if self.each.is_some() => own(self.each.as_ref().map(|e| &e.0), 2),
            ("each", Some("value")) if self.each.is_some() => own(self.each.as_ref().map(|e| &e.1), 2),
            ("self", _) if self.self_value.is_some() => own(self.self_value.as_ref(), 1),
            _ => self.module.lookup_shared(names),
        }
    }
}

/// (module instance, mode, type, name): a resource in the walk.
pub type ResourceKey = (String, String, String, String);

/// The values of the resources the walk has reached: a single instance's object, a tuple for
/// `count`, an object for `for_each`. A resource the walk has not reached is unknown (the walk
/// visits in dependency order, so only unrelated readers see that).
#[derive(Default)]
pub struct WalkValues {
    /// Shared with the references that read them (see [`ResourceSource`]).
    values: RefCell<HashMap<ResourceKey, Rc<Value>>>,
}

impl WalkValues {
    pub fn insert(&self, key: ResourceKey, value: Value) {
        self.values.borrow_mut().insert(key, Rc::new(value));
    }

    /// The value the walk has for `key`, shared.
    pub fn shared(&self, key: &ResourceKey) -> Option<Rc<Value>> {
        self.values.borrow().get(key).cloned()
    }

    /// A copy of the value the walk has for `key`.
    pub fn get(&self, key: &ResourceKey) -> Option<Value> {
        self.values.borrow().get(key).map(|v| (**v).clone())
    }
}

impl ResourceSource for WalkValues {
    fn resource(&self, module: &str, mode: &str, type_name: &str, name: &str) -> Option<Rc<Value>> {
        let key = (module.to_string(), mode.to_string(), type_name.to_string(), name.to_string());
        Some(self.values.borrow().get(&key).cloned().unwrap_or_else(|| Rc::new(Value::dynamic())))
    }
}

/// Runs `f` in the scope of the module instance at `path` (call names) and `keys`.
pub fn with_scope<R>(
    scope: &ModuleScope<'_>,
    path: &[String],
    keys: &[Option<ModuleKey>],
    f: &mut dyn FnMut(&ModuleScope<'_>) -> R,
) -> Option<R> {
    match path.split_first() {
        None => Some(f(scope)),
        Some((first, rest)) => {
            let child = match keys.first().cloned().flatten() {
                Some(k) => scope.child_instance(first, k)?,
                None => scope.child_scope(first).ok().flatten()?,
            };
            let r = with_scope(&child, rest, keys.get(1..).unwrap_or(&[]), f);
            let d = std::mem::take(&mut *child.diagnostics.borrow_mut());
            scope.diagnostics.borrow_mut().extend(d);
            r
        }
    }
}

/// The instances of module call `call` in the module instance at `path`/`keys`
/// ([`ModuleScope::module_keys`]), evaluated once: when they make none, Terraform's error for
/// its `count` or `for_each` with the values its expression read (`Err(None)` when the call is
/// not expanded or that module instance is not available).
pub fn module_expansion(
    scope: &ModuleScope<'_>,
    path: &[String],
    keys: &[Option<ModuleKey>],
    call: &str,
) -> Result<Vec<ModuleKey>, Option<crate::diag::Diagnostic>> {
    let mut expand = |s: &ModuleScope<'_>| {
        s.module_keys(call).map_err(|failed| {
            let (d, read) = *failed?;
            let values = match read {
                Some((source, caused_by)) => super::snippets::expression_values(s, s.inputs(), &source, caused_by),
                None => Vec::new(),
            };
            Some(super::snippets::with_source(d, s.inputs().files, values))
        })
    };
    with_scope(scope, path, keys, &mut expand).unwrap_or(Err(None))
}

/// [`module_expansion`]'s instances (`None` when it makes none).
pub fn module_keys(
    scope: &ModuleScope<'_>,
    path: &[String],
    keys: &[Option<ModuleKey>],
    call: &str,
) -> Option<Vec<ModuleKey>> {
    with_scope(scope, path, keys, &mut |s| s.module_keys(call).ok()).flatten()
}
