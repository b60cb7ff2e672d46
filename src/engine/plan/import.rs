//! `import` blocks (Terraform ≥ 1.5): each block expanded (`for_each`) into the instance it
//! imports to and the id it imports, checked against the configuration, and the imported
//! objects added to the plan's prior state (where Terraform's plan keeps them).
//!
//! The plan walk does the importing itself (`ImportResourceState`, then a refresh), for an
//! instance that has no object in the state yet: an import block whose instance already has
//! one is ignored, as Terraform ignores it.

use crate::addrs::{index_spans, InstanceAddr, InstanceKey};
use crate::config::model::{Config, Import};
use crate::diag::{CausedBy, Diagnostic, Diagnostics, Pos, SourceRange};
use crate::engine::shared;
use crate::eval::module_scope::{eval_config_expr, eval_text, Inputs, ModuleScope};
use crate::eval::{Kind, Value};
use serde_json::{json, Map, Value as Json};
use shared::plan::InstanceChange;
use shared::scope::InstanceScope;

/// One instance to import.
#[derive(Clone, Debug)]
pub struct ImportTarget {
    /// The instance address (`mock_resource.each["x"]`).
    pub address: String,
    pub id: String,
    /// The block's `to` (what diagnostics point at).
    pub range: SourceRange,
}

/// The import blocks each resource node expands, by configuration resource (its index).
pub type ByResource<'c> = Vec<Vec<&'c Import>>;

/// The root module's import blocks before the walk: those naming a resource the configuration
/// declares (`configured`: its index among `count`) are left to its node (Terraform 1.7+ expands them in
/// `nodeExpandPlannableResource`, over what was planned before it: the graph orders what they
/// refer to first), and returned by resource; the others are expanded now only to say that
/// their resource does not exist (into `diags`). `Err`: a `for_each` block's `to` that does not
/// evaluate, which Terraform's validate walk finds (`NodeValidatableResource.validateImportTargets`),
/// refusing the plan before it starts.
///
/// What is evaluated here is evaluated in a scope of its own, over nothing planned yet, as the
/// validate walk's: the plan's scope remembers what it evaluates, and must not remember a
/// value read before the walk planned it.
pub fn before_walk<'c>(
    config: &'c Config,
    inputs: &'c Inputs<'c>,
    root_files: &[(String, String)],
    configured: &dyn Fn(&str) -> Option<usize>,
    count: usize,
    diags: &mut Diagnostics,
) -> Result<ByResource<'c>, Diagnostics> {
    let mut by_resource: ByResource<'c> = vec![Vec::new(); count];
    if config.root.imports.is_empty() {
        return Ok(by_resource);
    }
    let scope = ModuleScope::root(config, inputs, root_files);
    let (mut validated, mut others) = (Vec::new(), Vec::new());
    for b in &config.root.imports {
        match crate::addrs::import_to_resource(&b.to).and_then(|a| configured(&a)) {
            Some(i) => {
                if b.for_each.is_some() {
                    validated.push(b);
                }
                by_resource[i].push(b);
            }
            None => others.push(b),
        }
    }
    expand(&validated, &scope, inputs, &mut Diagnostics::new())?;
    let others = expand(&others, &scope, inputs, diags)?;
    unconfigured(config, &others, inputs, diags);
    Ok(by_resource)
}

/// Import blocks expanded in `scope`: the instances they import to; what cannot be is an error
/// in `diags`. `Err`: a `for_each` block's `to` that does not evaluate.
pub fn expand(
    blocks: &[&Import],
    scope: &ModuleScope<'_>,
    inputs: &Inputs<'_>,
    diags: &mut Diagnostics,
) -> Result<Vec<ImportTarget>, Diagnostics> {
    let mut out = Vec::new();
    for &block in blocks {
        let repetitions: Vec<Option<(Value, Value)>> = match &block.for_each {
            None => vec![None],
            Some(e) => match eval_config_expr(scope, inputs, e) {
                Ok(v) => match import_values(&v) {
                    Ok(items) => items.into_iter().map(Some).collect(),
                    Err((d, caused_by)) => {
                        // The diagnostic carries the expression: its snippet names the values read.
                        let values = shared::snippets::expression_values(scope, inputs, &e.source, caused_by);
                        diags.push(shared::snippets::with_source(d.with_range(e.range.clone()), inputs.files, values));
                        continue;
                    }
                },
                Err(d) => {
                    diags.push(*d);
                    continue;
                }
            },
        };
        for each in repetitions {
            if block.for_each.is_some() {
                if let Err(d) = resolve_to(&block.to, &block.to_range, each.as_ref(), inputs) {
                    let mut refused = Diagnostics::new();
                    refused.push(in_import(*d, inputs));
                    return Err(refused);
                }
            }
            let inst = InstanceScope { module: scope, count_index: None, each, self_value: None };
            match target(block, &inst, inputs) {
                Ok(t) => out.push(t),
                Err(d) => diags.push(*d),
            }
        }
    }
    Ok(out)
}

/// An import block's `for_each` as Terraform's `forEachEvaluator.ImportValues` iterates it:
/// wholly known, null for no imports, any collection, each element with cty's iteration key
/// (a list's or tuple's index, a set's element itself, a map's or object's key).
fn import_values(v: &Value) -> Result<Vec<(Value, Value)>, (Diagnostic, CausedBy)> {
    if !v.is_wholly_known() {
        let d = Diagnostic::error("Invalid for_each argument", "The \"for_each\" expression includes values derived from other resource attributes that cannot be determined until apply, and so Terraform cannot determine the full set of values that might be used to import this resource.");
        return Err((d, CausedBy::Unknown));
    }
    let indexed = |items: &[Value]| items.iter().enumerate().map(|(i, x)| (Value::int(i as i64), x.clone())).collect();
    let keyed =
        |m: &std::collections::BTreeMap<String, Value>| m.iter().map(|(k, x)| (Value::string(k), x.clone())).collect();
    match &v.kind {
        Kind::Null(_) => Ok(Vec::new()),
        Kind::List(_, items) | Kind::Tuple(items) => Ok(indexed(items)),
        Kind::Set(_, items) => Ok(items.iter().map(|x| (x.clone(), x.clone())).collect()),
        Kind::Map(_, m) | Kind::Object(m) => Ok(keyed(m)),
        _ => Err((
            Diagnostic::error("Invalid for_each argument", "The \"for_each\" expression must be a collection."),
            CausedBy::Other,
        )),
    }
}

fn target(block: &Import, scope: &InstanceScope<'_, '_>, inputs: &Inputs<'_>) -> Result<ImportTarget, Box<Diagnostic>> {
    let address = resolve_to(&block.to, &block.to_range, scope.each.as_ref(), inputs)?;
    let invalid_id = |detail: &str| {
        Box::new(Diagnostic::error("Invalid import id argument", detail.to_string()).with_range(block.range.clone()))
    };
    if let (None, Some(e)) = (&block.id, &block.identity) {
        return Err(by_identity(&address, e, scope, inputs));
    }
    let Some(e) = &block.id else { return Err(invalid_id("The import block must have an \"id\" argument.")) };
    let v = eval_config_expr(scope, inputs, e)?;
    if !v.is_wholly_known() {
        return Err(invalid_id("The import block \"id\" argument depends on resource attributes that cannot be determined until apply, so Terraform cannot plan to import this resource."));
    }
    let id = match v.as_str() {
        Some(s) if !s.is_empty() => s.to_string(),
        _ => return Err(invalid_id("The import ID cannot be null or empty.")),
    };
    Ok(ImportTarget { address, id, range: block.to_range.clone() })
}

/// An import by `identity` (Terraform 1.12+): evaluated as `evaluateImportIdentityExpression`
/// evaluates it, against the type's resource identity schema, and then refused as Terraform's
/// provider client refuses an identity for a type whose schema declares none (`unknown identity
/// type`): no provider here declares identities (the built-in and generic mocks have none, and
/// a JS provider's `schema()` has no place for one), so no import by identity can succeed.
fn by_identity(
    address: &str,
    e: &crate::config::model::Expr,
    scope: &InstanceScope<'_, '_>,
    inputs: &Inputs<'_>,
) -> Box<Diagnostic> {
    let invalid = |detail: &str| {
        Box::new(Diagnostic::error("Invalid import identity argument", detail.to_string()).with_range(e.range.clone()))
    };
    let v = match eval_config_expr(scope, inputs, e) {
        Ok(v) => v,
        Err(d) => return d,
    };
    if v.is_null() {
        return invalid("The import identity cannot be null.");
    }
    if !v.is_wholly_known() {
        return invalid("The import block \"identity\" argument depends on resource attributes that cannot be determined until apply, so Terraform cannot plan to import this resource.");
    }
    let type_name = InstanceAddr::parse(address).map(|a| a.resource.type_name).unwrap_or_default();
    Box::new(Diagnostic::error(format!("unknown identity type {}", crate::addrs::go_quote(&type_name)), String::new()))
}

/// `to` as an instance address: static, or with index expressions (the resource's or any
/// module call's: `module.m[each.key].x.y`) evaluated as Terraform's
/// `parseImportToKeyExpression` evaluates them, with `each` as the only name.
fn resolve_to(
    to: &str,
    range: &SourceRange,
    each: Option<&(Value, Value)>,
    inputs: &Inputs<'_>,
) -> Result<String, Box<Diagnostic>> {
    if let Ok(a) = InstanceAddr::parse(to) {
        return Ok(a.to_string());
    }
    let invalid = || {
        Box::new(
            Diagnostic::error(
                "Invalid import address",
                format!("The import block's \"to\" argument {to:?} is not a resource instance address."),
            )
            .with_range(range.clone()),
        )
    };
    let scope = EachOnly(each);
    let mut out = String::new();
    let mut from = 0;
    for (open, close) in index_spans(to) {
        out.push_str(&to[from..open]);
        let text = &to[open + 1..close];
        let start = Pos {
            line: range.start.line,
            column: range.start.column + to[..open + 1].chars().count() as u32,
            byte: range.start.byte + (open + 1) as u32,
        };
        let key = eval_text(&scope, inputs, &range.filename, text, start)?;
        if key.sensitive || key.has_sensitive() {
            let r = SourceRange {
                filename: range.filename.clone(),
                start,
                end: Pos {
                    line: start.line,
                    column: start.column + text.chars().count() as u32,
                    byte: start.byte + text.len() as u32,
                },
            };
            return Err(Box::new(
                Diagnostic::error("Invalid index expression", "Import address index expression cannot be sensitive.")
                    .with_range(r),
            ));
        }
        match &key.kind {
            Kind::String(k) => out.push_str(&format!("[{}]", crate::addrs::go_quote(k))),
            Kind::Number(n) if n.is_integer() => out.push_str(&format!("[{}]", n.to_i64().ok_or_else(invalid)?)),
            _ => return Err(invalid()),
        }
        from = close + 1;
    }
    out.push_str(&to[from..]);
    InstanceAddr::parse(&out).map(|a| a.to_string()).map_err(|_| invalid())
}

/// What an index expression of `to` may read: `each.key` and `each.value`, nothing else
/// (`parseImportToKeyExpression`'s evaluation context).
struct EachOnly<'e>(Option<&'e (Value, Value)>);

impl crate::eval::scope::Scope for EachOnly<'_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), crate::eval::scope::LookupError> {
        if names[0] == "each" {
            let (key, value) = self
                .0
                .cloned()
                .unwrap_or_else(|| (Value::null(crate::eval::Type::Dynamic), Value::null(crate::eval::Type::Dynamic)));
            return Ok((
                Value::object(crate::util::sort::btree_map([("key".to_string(), key), ("value".to_string(), value)])),
                1,
            ));
        }
        // HCL's "Unknown variable", with the sentence Terraform appends (no space between).
        Err(crate::eval::scope::LookupError {
            summary: "Unknown variable".into(),
            detail: format!("There is no variable named {}.Only \"each.key\" and \"each.value\" can be used in import address index expressions.", crate::addrs::go_quote(names[0])),
            names: 1,
        })
    }
}

/// Imports whose resource the configuration does not declare (Terraform's plan stops at
/// those; the rest of the plan goes on).
fn unconfigured(config: &Config, targets: &[ImportTarget], inputs: &Inputs<'_>, diags: &mut Diagnostics) {
    let mut found = Diagnostics::new();
    for t in targets {
        let Ok(a) = InstanceAddr::parse(&t.address) else { continue };
        let names: Vec<String> = a.module.iter().map(|(n, _)| n.clone()).collect();
        let resource = a.config_resource();
        match shared::order::module_at(config, &names) {
            None => found.push(
                Diagnostic::error("Configuration for import target does not exist", format!("The configuration for the given import target {resource} does not exist. All target instances must have an associated configuration to be imported."))
                    .with_range(t.range.clone()),
            ),
            Some(m) if !m.resources.iter().any(|r| r.mode == a.resource.mode && r.type_name == a.resource.type_name && r.name == a.resource.name) => found.push(
                Diagnostic::error(
                    "Configuration for import target does not exist",
                    format!("The configuration for the given import target {resource} does not exist. If you wish to automatically generate config for this resource, use the -generate-config-out option within terraform plan. Otherwise, make sure the target resource exists within your configuration. For example:\n\n  terraform plan -generate-config-out=generated.tf"),
                )
                .with_range(t.range.clone()),
            ),
            Some(_) => {}
        }
    }
    for d in found.iter() {
        diags.push(in_import(d.clone(), inputs));
    }
}

/// `d` with its source line and Terraform's `in import` context (the block around its range).
fn in_import(d: Diagnostic, inputs: &Inputs<'_>) -> Diagnostic {
    shared::snippets::with_source(d, inputs.files, Vec::new())
}

/// An import to an instance its resource's expansion does not have.
pub fn instance_not_configured(address: &str) -> Diagnostic {
    Diagnostic::error(
        "Configuration for import target does not exist",
        format!("The configuration for the given import {address} does not exist. All target instances must have an associated configuration to be imported."),
    )
}

/// Adds an imported object to the prior state (state v4 JSON; created when there was none),
/// where Terraform's plan records it.
pub fn add_to_state(state: &mut Option<Json>, change: &InstanceChange, value: &Value) {
    let state = state.get_or_insert_with(|| {
        let mut s = json!({"version": 4, "serial": 0, "lineage": "", "outputs": {}, "resources": []});
        s["terraform_version"] = crate::state::TERRAFORM_VERSION.into();
        s
    });
    let Some(resources) = state.get_mut("resources").and_then(Json::as_array_mut) else { return };
    let (mode, module) = (change.mode.as_str(), change.module.as_str());
    let text = |r: &Json, k: &str| r.get(k).and_then(Json::as_str).unwrap_or("").to_string();
    let same = |r: &Json| {
        [text(r, "module"), text(r, "mode"), text(r, "type"), text(r, "name")]
            == [module, mode, change.type_name.as_str(), change.name.as_str()]
    };
    let i = match resources.iter().position(same) {
        Some(i) => i,
        None => {
            let mut r = Map::new();
            if !module.is_empty() {
                r.insert("module".into(), module.into());
            }
            for (k, v) in [("mode", mode), ("type", &change.type_name), ("name", &change.name)] {
                r.insert(k.into(), v.into());
            }
            r.insert("provider".into(), change.provider_config.as_str().into());
            r.insert("instances".into(), Json::Array(Vec::new()));
            resources.push(Json::Object(r));
            resources.len() - 1
        }
    };
    let mut instance = Map::new();
    match &change.key {
        Some(InstanceKey::Int(n)) => instance.insert("index_key".into(), (*n).into()),
        Some(InstanceKey::Str(k)) => instance.insert("index_key".into(), k.as_str().into()),
        None => None,
    };
    instance.insert("schema_version".into(), change.schema_version.into());
    instance.insert("attributes".into(), crate::eval::value_json::value(&value.unmark_deep().0));
    instance.insert("sensitive_attributes".into(), Json::Array(Vec::new()));
    if let Some(list) = resources[i].get_mut("instances").and_then(Json::as_array_mut) {
        list.push(Json::Object(instance));
    }
}

#[cfg(test)]
mod tests {
    use crate::addrs::index_spans;

    /// The plan's error summaries, or the loader's.
    fn plan_errors(main: &str) -> Vec<String> {
        let files: std::collections::BTreeMap<String, String> =
            [("main.tf".to_string(), main.to_string())].into_iter().collect();
        let loaded = crate::config::load(&files, &Default::default());
        if loaded.diagnostics.has_errors() {
            return loaded.diagnostics.errors().map(|d| format!("{}: {}", d.summary, d.detail)).collect();
        }
        let provider = crate::providers::mock::MockProvider::new(Default::default());
        let p = crate::engine::plan::nodes::plan(&files, &loaded.config, None, &provider, &Default::default());
        p.diagnostics.errors().map(|d| format!("{}: {}", d.summary, d.detail)).collect()
    }

    #[test]
    fn imports_by_identity_are_refused_as_by_a_provider_without_identities() {
        let r = "resource \"mock_resource\" \"a\" {\n  name = \"a\"\n}\n";
        assert_eq!(
            plan_errors(&format!("{r}import {{\n  to       = mock_resource.a\n  identity = {{ id = \"x\" }}\n}}\n")),
            ["unknown identity type \"mock_resource\": "]
        );
        assert_eq!(
            plan_errors(&format!("{r}import {{\n  to       = mock_resource.a\n  identity = null\n}}\n")),
            ["Invalid import identity argument: The import identity cannot be null."]
        );
        assert_eq!(
            plan_errors(&format!(
                "{r}import {{\n  to       = mock_resource.a\n  id       = \"x\"\n  identity = {{ id = \"x\" }}\n}}\n"
            )),
            ["Invalid import block: Only one of 'id' or 'identity' can be specified."]
        );
        assert_eq!(
            plan_errors(&format!("{r}import {{\n  to = mock_resource.a\n}}\n")),
            ["Invalid import block: At least one of 'id' or 'identity' must be specified."]
        );
    }

    #[test]
    fn the_indexes_of_an_address() {
        assert_eq!(index_spans("x.y[each.key]"), [(3, 12)]);
        assert_eq!(index_spans("module.m[each.key].x.y[local.k[1]]"), [(8, 17), (22, 33)]);
        assert_eq!(index_spans(r#"module.m["a]"].x.y"#), [(8, 13)]);
        assert_eq!(index_spans("x.y"), []);
    }
}
