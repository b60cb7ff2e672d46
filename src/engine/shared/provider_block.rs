//! A provider configuration's block evaluated for `configure()`, as Terraform's
//! `NodeApplyableProvider.ConfigureProvider` evaluates it: in its module's scope, against the
//! provider's schema (every attribute it leaves out null), unknown values passed as unknown
//! (plan and apply configure with `verifyConfigIsKnown` false), sensitive marks stripped.
//! Without a provider schema from `schema().provider`, the block's own arguments are the schema.
//! Native and `.tf.json` blocks alike.
//!
//! Terraform's provider node depends on what its block references, and every resource the
//! configuration serves depends on the provider node: so a resource waits for the resources its
//! provider's block reaches, at plan (its refresh) and at apply, and records them in its state
//! `dependencies` (`AttachDependenciesTransformer` takes every resource ancestor). The graph says
//! which; a block's resource values are the plan's when the plan configures, the working
//! state's when the apply does (after those resources were applied).

use super::body::{self, BlockKind, Body};
use super::plan::Plan;
use super::scope::WalkValues;
use crate::addrs::InstanceKey;
use crate::config::model::{Config, Module, ProviderConfig};
use crate::diag::Diagnostics;
use crate::eval::functions::Registry;
use crate::eval::module_overrides::ModuleOverrides;
use crate::eval::module_scope::{Inputs, ModuleScope};
use crate::eval::scope::ResourceSource;
use crate::eval::Value;
use crate::providers::{AttributeSchema, ResourceSchema};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// Provider blocks' meta-arguments (and JSON comments), which are not the provider's.
const META: &[&str] = &["alias", "version", "//"];

/// The `provider` block at `address`, if the configuration writes one.
pub fn block<'c>(config: &'c Config, address: &str) -> Option<(&'c Module, &'c ProviderConfig)> {
    fn find<'c>(m: &'c Module, address: &str) -> Option<(&'c Module, &'c ProviderConfig)> {
        if let Some(pc) = m.providers.iter().find(|p| p.address == address) {
            return Some((m, pc));
        }
        m.module_calls.iter().filter_map(|c| c.module.as_deref()).find_map(|child| find(child, address))
    }
    find(&config.root, address)
}

/// The block's arguments and nested blocks as written: a native block from the tree the loader
/// kept, a `.tf.json` block from its file (the loader keeps no tree for JSON).
fn body_of(files: &BTreeMap<String, String>, pc: &ProviderConfig) -> Body {
    let found = match &pc.body {
        Some(kept) => Some(body::kept_body(kept)),
        None => json_body_of(files, pc),
    };
    let mut out = found.unwrap_or_default();
    out.attributes.retain(|a| !META.contains(&a.name.as_str()));
    out
}

/// A `.tf.json` provider block's body: the file's `provider.NAME` entry with the same alias.
fn json_body_of(files: &BTreeMap<String, String>, pc: &ProviderConfig) -> Option<Body> {
    let filename = pc.range.filename.as_str();
    if !filename.ends_with(".json") {
        return None;
    }
    let text = body::file_text(files, filename)?;
    let alias_of = |b: &Body| b.attribute("alias").map(|a| a.text.trim().trim_matches('"').to_string());
    let bodies = super::body_json::provider_bodies(filename, text);
    bodies.into_iter().filter(|(name, _)| *name == pc.name).map(|(_, b)| b).find(|b| alias_of(b) == pc.alias)
}

/// Where Terraform puts a diagnostic about the block as a whole (`MissingItemRange` of its
/// body): the empty range at its opening brace; the block's declaration when that is not found.
pub fn body_range(files: &BTreeMap<String, String>, pc: &ProviderConfig) -> crate::diag::SourceRange {
    let filename = pc.range.filename.as_str();
    let found = body::file_text(files, filename).and_then(|text| {
        let from = pc.range.end.byte as usize;
        let brace = from + text.get(from..)?.find('{')?;
        let pos = crate::diag::SourceFile::new(filename, text.as_str()).pos(brace);
        Some(crate::diag::SourceRange { filename: filename.to_string(), start: pos, end: pos })
    });
    found.unwrap_or_else(|| pc.range.clone())
}

/// A schema of what `body` writes (any type), for a provider that declares none.
fn written(body: &Body) -> ResourceSchema {
    let mut s = ResourceSchema::default();
    for a in &body.attributes {
        s.attributes.insert(
            a.name.clone(),
            AttributeSchema {
                ty: crate::eval::Type::Dynamic,
                optional: true,
                computed: false,
                required: false,
                sensitive: false,
                requires_replace: false,
            },
        );
    }
    for b in &body.blocks {
        let inner = match &b.kind {
            BlockKind::Static(x) => written(x),
            BlockKind::Dynamic { content, .. } => written(content),
        };
        s.blocks.entry(b.type_name.clone()).or_default().attributes.extend(inner.attributes);
    }
    s
}

/// The resources' values in `plan` as the plan walk gives them to expressions: an object per
/// instance, a tuple for `count`, an object for `for_each`. A resource whose every object the
/// plan deletes is absent, or with `emptied` an empty tuple (as a test run's assertions see it).
pub fn planned_values(plan: &Plan, emptied: bool) -> WalkValues {
    type Instances = Vec<(Option<InstanceKey>, Value)>;
    let mut grouped: BTreeMap<(String, String, String, String), Instances> = BTreeMap::new();
    for c in plan.changes.iter().chain(&plan.data_read).filter(|c| c.deposed.is_none()) {
        let mode = c.mode.as_str();
        let instances =
            grouped.entry((c.module.clone(), mode.to_string(), c.type_name.clone(), c.name.clone())).or_default();
        instances.extend(c.after.clone().map(|after| (c.key.clone(), after)));
    }
    let values = WalkValues::default();
    for (key, mut instances) in grouped {
        let value = match instances.first().map(|(k, _)| k) {
            None if emptied => Value::tuple(Vec::new()),
            None => continue,
            Some(None) => instances.pop().map(|(_, v)| v).unwrap_or_else(Value::dynamic),
            Some(Some(InstanceKey::Int(_))) => {
                crate::util::sort::sort_by_key(&mut instances, |(k, _)| match k {
                    Some(InstanceKey::Int(i)) => *i,
                    _ => i64::MAX,
                });
                Value::tuple(instances.into_iter().map(|(_, v)| v).collect())
            }
            Some(Some(InstanceKey::Str(_))) => {
                Value::object(crate::util::sort::btree_map(instances.into_iter().map(|(k, v)| {
                    let name = match k {
                        Some(InstanceKey::Str(s)) => s,
                        _ => String::new(),
                    };
                    (name, v)
                })))
            }
        };
        values.insert(key, value);
    }
    values
}

/// The configuration `configure()` receives for the provider configuration at `address`, with
/// resources' values from `resources` (the plan's), else from `state` (the apply's working
/// state): `Err` holds the evaluation's errors (with their ranges).
pub fn evaluate(
    files: &BTreeMap<String, String>,
    config: &Config,
    variables: &BTreeMap<String, Json>,
    resources: Option<&dyn ResourceSource>,
    state: Option<&Json>,
    address: &str,
    schema: Option<&ResourceSchema>,
) -> Result<Value, Diagnostics> {
    let (funcs, file_source) = (Registry::builtin(), crate::eval::MapFilesystem(files));
    let inputs = Inputs { state, planning: true, resources, ..Inputs::of(config, variables, &file_source, &funcs) };
    evaluate_block(files, config, &inputs, block(config, address), schema)
}

/// The errors of the provider blocks of `config`'s child modules, evaluated with a plan's
/// `resources` (made only when there is a block) as its provider nodes configure them: all but those in a module instance
/// `overrides` covers (Terraform configures no provider declared in an overridden module:
/// `terraform test`'s `override_module`, tests/fixtures/test/overridemoduleprovider). The root
/// module's are the caller's (a test file's blocks stand in for them).
pub fn child_errors<R: ResourceSource>(
    files: &BTreeMap<String, String>,
    config: &Config,
    variables: &BTreeMap<String, Json>,
    resources: impl FnOnce() -> R,
    overrides: &ModuleOverrides,
) -> Diagnostics {
    let mut blocks = Vec::new();
    let mut modules: Vec<&Module> = config.root.module_calls.iter().filter_map(|c| c.module.as_deref()).collect();
    while let Some(m) = modules.pop() {
        if !overrides.covers(&m.address) {
            modules.extend(m.module_calls.iter().filter_map(|c| c.module.as_deref()));
            blocks.extend(m.providers.iter().map(|pc| (m, pc)));
        }
    }
    let mut out = Diagnostics::new();
    if blocks.is_empty() {
        return out;
    }
    let (funcs, file_source) = (Registry::builtin(), crate::eval::MapFilesystem(files));
    let values = resources();
    let inputs = Inputs {
        planning: true,
        resources: Some(&values),
        overrides: Some(overrides),
        ..Inputs::of(config, variables, &file_source, &funcs)
    };
    for found in blocks {
        if let Err(d) = evaluate_block(files, config, &inputs, Some(found), None) {
            out.extend(d);
        }
    }
    out
}

/// Block `found` (none: an empty one) evaluated in its module's scope with `inputs`, against
/// `schema` (else what the block writes).
fn evaluate_block(
    files: &BTreeMap<String, String>,
    config: &Config,
    inputs: &Inputs<'_>,
    found: Option<(&Module, &ProviderConfig)>,
    schema: Option<&ResourceSchema>,
) -> Result<Value, Diagnostics> {
    let body = found.map(|(_, pc)| body_of(files, pc)).unwrap_or_default();
    let derived;
    let schema = match schema {
        Some(s) => s,
        None => {
            derived = written(&body);
            &derived
        }
    };
    let root_files = crate::eval::module_scope::root_files(files, &config.root.dir);
    let scope = ModuleScope::root(config, inputs, &root_files);
    let mut diags = Diagnostics::new();
    let path: Vec<String> = found.map(|(m, _)| m.path.0.clone()).unwrap_or_default();
    let value =
        super::scope::with_scope(&scope, &path, &[], &mut |s| body::evaluate(s, inputs, &body, schema, &mut diags));
    diags.extend(std::mem::take(&mut *scope.diagnostics.borrow_mut()));
    if diags.has_errors() {
        return Err(diags);
    }
    Ok(value.unwrap_or_else(Value::dynamic).unmark_deep().0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn configured(files: &BTreeMap<String, String>, address: &str) -> String {
        let config = crate::config::load(files, &Default::default()).config;
        let v =
            evaluate(files, &config, &BTreeMap::new(), None, None, address, None).unwrap_or_else(|d| panic!("{d:?}"));
        crate::eval::render::console(&v)
    }

    #[test]
    fn json_blocks_evaluate_as_native_ones() {
        let aws = "provider[\"registry.terraform.io/hashicorp/aws\"]";
        let native = files(&[("main.tf", "variable \"r\" {\n  default = \"us-west-2\"\n}\nprovider \"aws\" {\n  region = \"eu-west-1\"\n}\nprovider \"aws\" {\n  alias  = \"west\"\n  region = var.r\n}\n")]);
        let json = files(&[
            ("main.tf", "variable \"r\" {\n  default = \"us-west-2\"\n}\n"),
            (
                "providers.tf.json",
                r#"{"provider": {"aws": [{"region": "eu-west-1"}, {"alias": "west", "region": "${var.r}", "//": "a JSON comment"}]}}"#,
            ),
        ]);
        for f in [&native, &json] {
            assert_eq!(configured(f, aws), "{\n  \"region\" = \"eu-west-1\"\n}");
            assert_eq!(configured(f, &format!("{aws}.west")), "{\n  \"region\" = \"us-west-2\"\n}");
        }
    }
}
