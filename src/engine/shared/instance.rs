//! One resource instance's configuration evaluated on its own, as the apply walk needs it:
//! the module scope of a fresh evaluation over the walk's current resource values, the
//! instance's `count.index` / `each`, its block's arguments in the schema's type.

use super::body;
use super::order::Walkable;
use super::scope::with_scope;
use super::scope::{InstanceScope, WalkValues};
use crate::addrs::InstanceKey;
use crate::config::model::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::eval::functions::Registry;
use crate::eval::module_overrides::ModuleOverrides;
use crate::eval::module_scope::{eval_config_expr, Inputs, ModuleScope};
use crate::eval::scope::ResourceSource;
use crate::eval::{Kind, MapFilesystem, Value};
use crate::providers::ResourceSchema;
use std::collections::BTreeMap;

/// What every root scope of a walk shares: the root module's files (paths relative to it)
/// and the function registry, made once per walk instead of once per instance.
pub struct RootEnv {
    root_files: Vec<(String, String)>,
    funcs: Registry,
    /// The plan's `override_module`s.
    overrides: ModuleOverrides,
}

impl RootEnv {
    pub fn new(files: &BTreeMap<String, String>, config: &Config, overrides: &ModuleOverrides) -> RootEnv {
        let root_files = crate::eval::module_scope::root_files(files, &config.root.dir);
        RootEnv { root_files, funcs: Registry::builtin(), overrides: overrides.clone() }
    }
}

/// Runs `f` with the root module's scope over `values` (as the plan walk builds it).
pub fn with_root_scope<R>(
    files: &BTreeMap<String, String>,
    config: &Config,
    variables: &BTreeMap<String, serde_json::Value>,
    values: &WalkValues,
    planning: bool,
    overrides: &ModuleOverrides,
    f: &mut dyn FnMut(&ModuleScope<'_>, &Inputs<'_>) -> R,
) -> R {
    with_root_env(&RootEnv::new(files, config, overrides), files, config, variables, values, planning, f)
}

/// [`with_root_scope`] with the walk's shared [`RootEnv`].
pub fn with_root_env<R>(
    env: &RootEnv,
    files: &BTreeMap<String, String>,
    config: &Config,
    variables: &BTreeMap<String, serde_json::Value>,
    values: &dyn ResourceSource,
    planning: bool,
    f: &mut dyn FnMut(&ModuleScope<'_>, &Inputs<'_>) -> R,
) -> R {
    let file_source = MapFilesystem(files);
    let inputs = Inputs {
        planning,
        resources: Some(values),
        overrides: Some(&env.overrides),
        ..Inputs::of(config, variables, &file_source, &env.funcs)
    };
    let scope = ModuleScope::root(config, &inputs, &env.root_files);
    f(&scope, &inputs)
}

/// The configuration of instance `key` of `w`, evaluated in `scope` (the root's).
pub fn evaluate(
    root: &ModuleScope<'_>,
    inputs: &Inputs<'_>,
    args: &body::Body,
    w: &Walkable<'_>,
    key: &Option<InstanceKey>,
    schema: &ResourceSchema,
) -> Result<Value, Diagnostics> {
    let r = w.resource;
    let out = with_scope(root, &w.path, &w.keys, &mut |scope| {
        let mut diags = Diagnostics::new();
        let (count_index, each) = match key {
            Some(InstanceKey::Int(i)) => (Some(*i), None),
            Some(InstanceKey::Str(k)) => {
                let value = r
                    .for_each
                    .as_ref()
                    .and_then(|e| eval_config_expr(scope, inputs, e).ok())
                    .and_then(|v| match &v.kind {
                        Kind::Map(_, m) | Kind::Object(m) => m.get(k).cloned(),
                        _ => Some(Value::string(k.clone())),
                    })
                    .unwrap_or_else(|| Value::string(k.clone()));
                (None, Some((Value::string(k.clone()), value)))
            }
            None => (None, None),
        };
        let inst = InstanceScope { module: scope, count_index, each, self_value: None };
        let v = body::evaluate(&inst, inputs, args, schema, &mut diags);
        if diags.has_errors() {
            Err(diags)
        } else {
            Ok(v)
        }
    });
    out.unwrap_or_else(|| {
        let mut d = Diagnostics::new();
        d.push(Diagnostic::error(
            "Module not available",
            format!("The module of {} could not be evaluated.", w.address),
        ));
        Err(d)
    })
}

/// The root module's outputs over `values`: name → (value, sensitive).
pub fn outputs(root: &ModuleScope<'_>) -> Vec<(String, Value, bool)> {
    root.module()
        .outputs
        .iter()
        .map(|o| (o.name.clone(), root.output(&o.name).unwrap_or_else(Value::dynamic), o.sensitive))
        .collect()
}
