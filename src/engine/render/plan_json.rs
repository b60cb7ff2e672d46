//! The plan as `terraform show -json` writes it (format 1.2, `internal/command/jsonplan`):
//! variables, planned_values, resource_changes, output_changes, prior_state, and the plan's
//! status flags; `configuration` (config_json.rs) and `relevant_attributes` (relevant.rs) were
//! computed by the plan walk.

use crate::addrs::{InstanceKey, ResourceMode};
use crate::engine::shared;
use crate::eval::value_json::{sensitive_as_bool, type_json, unknown_as_bool, value};
use crate::plans::Action;
use crate::providers::Provider;
use crate::state::TERRAFORM_VERSION;
use serde_json::{json, Map, Value as Json};
use shared::plan::{InstanceChange, Plan};
use shared::state_read::{index_state, object_value, PriorObject};
use std::collections::BTreeMap;

pub fn actions(a: Action) -> Json {
    json!(a.words())
}

fn key_json(k: &Option<InstanceKey>) -> Option<Json> {
    k.as_ref().map(|k| match k {
        InstanceKey::Int(i) => json!(i),
        InstanceKey::Str(s) => json!(s),
    })
}

/// The head every resource entry shares: address, module, mode, type, name, index, provider.
fn head(c: &InstanceChange) -> Map<String, Json> {
    let mut m = Map::new();
    m.insert("address".into(), json!(c.address()));
    m.insert("mode".into(), json!(c.mode.as_str()));
    m.insert("type".into(), json!(c.type_name));
    m.insert("name".into(), json!(c.name));
    if let Some(k) = key_json(&c.key) {
        m.insert("index".into(), k);
    }
    m.insert("provider_name".into(), json!(c.provider));
    m
}

fn resource_change(c: &InstanceChange) -> Json {
    let mut m = head(c);
    if !c.module.is_empty() {
        m.insert("module_address".into(), json!(c.module));
    }
    if let Some(d) = &c.deposed {
        m.insert("deposed".into(), json!(d));
    }
    let mut ch = Map::new();
    ch.insert("actions".into(), actions(c.action));
    ch.insert("before".into(), c.before.as_ref().map(value).unwrap_or(Json::Null));
    ch.insert("after".into(), c.after.as_ref().map(value).unwrap_or(Json::Null));
    // Wholly known: `{}` (jsonplan writes cty.EmptyObjectVal), else the unknown shape.
    ch.insert(
        "after_unknown".into(),
        c.after.as_ref().filter(|v| !v.is_wholly_known()).map(unknown_as_bool).unwrap_or_else(|| json!({})),
    );
    ch.insert("before_sensitive".into(), c.before.as_ref().map(sensitive_as_bool).unwrap_or(json!(false)));
    ch.insert("after_sensitive".into(), c.after.as_ref().map(sensitive_as_bool).unwrap_or(json!(false)));
    if !c.replace_paths.is_empty() {
        ch.insert("replace_paths".into(), json!(c.replace_paths.iter().map(|p| vec![p]).collect::<Vec<_>>()));
    }
    if let Some(id) = &c.importing {
        ch.insert("importing".into(), json!({"id": id}));
    }
    m.insert("change".into(), Json::Object(ch));
    if let Some(r) = c.reason {
        m.insert("action_reason".into(), json!(r));
    }
    if let Some(p) = &c.previous_address {
        m.insert("previous_address".into(), json!(p));
    }
    Json::Object(m)
}

/// Resources of one module tree, as `root_module` / `child_modules` nest them.
fn module_tree(mut entries: Vec<(String, Json)>) -> Json {
    crate::util::sort::sort_by(&mut entries, |a, b| a.1["address"].as_str().cmp(&b.1["address"].as_str()));
    let mut by_module: BTreeMap<String, Vec<Json>> = BTreeMap::new();
    for (module, e) in entries {
        by_module.entry(module).or_default().push(e);
    }
    let mut root = Map::new();
    if let Some(rs) = by_module.remove("") {
        root.insert("resources".into(), Json::Array(rs));
    }
    if !by_module.is_empty() {
        // Nest `module.a.module.b` under `module.a`.
        fn child(addr: &str, by_module: &BTreeMap<String, Vec<Json>>) -> Json {
            let mut m = Map::new();
            if let Some(rs) = by_module.get(addr) {
                m.insert("resources".into(), Json::Array(rs.clone()));
            }
            m.insert("address".into(), json!(addr));
            let kids: Vec<Json> = direct_children(addr, by_module).iter().map(|k| child(k, by_module)).collect();
            if !kids.is_empty() {
                m.insert("child_modules".into(), Json::Array(kids));
            }
            Json::Object(m)
        }
        fn direct_children(addr: &str, by_module: &BTreeMap<String, Vec<Json>>) -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            for k in by_module.keys() {
                let rest = if addr.is_empty() { Some(k.as_str()) } else { k.strip_prefix(&format!("{addr}.")) };
                let Some(rest) = rest else { continue };
                // The first `module.NAME[key]` step below `addr`.
                let first_len = rest
                    .strip_prefix("module.")
                    .map(|r| 7 + r.find(".module.").unwrap_or(r.len()))
                    .unwrap_or(rest.len());
                let full = if addr.is_empty() {
                    rest[..first_len].to_string()
                } else {
                    format!("{addr}.{}", &rest[..first_len])
                };
                if !out.contains(&full) {
                    out.push(full);
                }
            }
            out
        }
        let kids: Vec<Json> = direct_children("", &by_module).iter().map(|k| child(k, &by_module)).collect();
        root.insert("child_modules".into(), Json::Array(kids));
    }
    Json::Object(root)
}

fn values_entry(c: &InstanceChange, v: &crate::eval::Value, schema_version: u64) -> Json {
    let mut m = head(c);
    m.insert("schema_version".into(), json!(schema_version));
    // `values,omitempty` in jsonplan: an object with no known attribute has no `values`.
    let values = value(v);
    if values.as_object().is_none_or(|o| !o.is_empty()) {
        m.insert("values".into(), values);
    }
    m.insert(
        "sensitive_values".into(),
        match sensitive_as_bool(v) {
            Json::Bool(_) => json!({}),
            other => other,
        },
    );
    Json::Object(m)
}

/// The prior (refreshed) state in `jsonstate` form, or `None` when it is empty.
fn prior_state(plan: &Plan, provider: &dyn Provider) -> Option<Json> {
    let prior = plan.prior_state.as_ref();
    let index = index_state(prior);
    let mut entries = Vec::new();
    for ((module, mode, type_name, name), (prov, objs)) in &index {
        let m = if mode == "data" { ResourceMode::Data } else { ResourceMode::Managed };
        let schema = if m == ResourceMode::Data {
            provider.data_source_schema(type_name)
        } else {
            provider.resource_schema(type_name)
        };
        let reread = |o: &PriorObject| {
            plan.data_read.iter().any(|c| {
                &c.module == module && c.mode == m && &c.type_name == type_name && &c.name == name && c.key == o.key
            })
        };
        for o in objs {
            if m == ResourceMode::Data && reread(o) {
                continue;
            }
            let c = InstanceChange {
                module: module.clone(),
                mode: m,
                type_name: type_name.clone(),
                name: name.clone(),
                key: o.key.clone(),
                deposed: o.deposed.clone(),
                action: Action::NoOp,
                before: None,
                after: None,
                reason: None,
                replace_paths: Vec::new(),
                provider: provider_source(prov),
                provider_config: prov.clone(),
                schema_version: 0,
                dependencies: o.dependencies.clone(),
                create_before_destroy: o.create_before_destroy,
                previous_address: None,
                importing: None,
            };
            let v = object_value(o, schema);
            let mut e = values_entry(&c, &v, schema.map(|s| s.version).unwrap_or(0));
            if let Json::Object(em) = &mut e {
                em.insert("values".into(), o.attributes.clone());
                // As the refresh left them (refreshed_deps.rs).
                let deps = &o.dependencies;
                if !deps.is_empty() && m != ResourceMode::Data {
                    em.insert("depends_on".into(), json!(deps));
                }
                if o.tainted {
                    em.insert("tainted".into(), json!(true));
                }
                if let Some(d) = &o.deposed {
                    em.insert("deposed_key".into(), json!(d));
                }
            }
            entries.push((module.clone(), e));
        }
    }
    for c in &plan.data_read {
        if let Some(v) = &c.after {
            entries.push((c.module.clone(), values_entry(c, v, c.schema_version)));
        }
    }
    // The refreshed state's outputs: the prior ones, updated with the plan's known values.
    let mut om = Map::new();
    for (k, o) in prior.and_then(|p| p.get("outputs")).and_then(Json::as_object).into_iter().flatten() {
        let mut e = Map::new();
        e.insert("sensitive".into(), json!(o.get("sensitive").and_then(Json::as_bool).unwrap_or(false)));
        e.insert("value".into(), o.get("value").cloned().unwrap_or(Json::Null));
        if let Some(t) = o.get("type") {
            e.insert("type".into(), t.clone());
        }
        om.insert(k.clone(), Json::Object(e));
    }
    if !plan.destroy {
        for o in &plan.outputs {
            if let Some(v) = o.after.as_ref().filter(|v| v.is_wholly_known()) {
                om.insert(
                    o.name.clone(),
                    json!({"sensitive": o.sensitive, "value": value(v), "type": type_json(&v.ty())}),
                );
            }
        }
    }
    if entries.is_empty() && om.is_empty() {
        return None;
    }
    let mut values = Map::new();
    if !om.is_empty() {
        values.insert("outputs".into(), Json::Object(om));
    }
    values.insert("root_module".into(), module_tree(entries));
    Some(json!({"format_version": "1.0", "terraform_version": TERRAFORM_VERSION, "values": values}))
}

/// A v4 state in `jsonstate` values form (`outputs`, `root_module`), as `prior_state`'s
/// `values` show a plan's prior state.
pub fn state_values(state: &Json, provider: &dyn Provider) -> Json {
    let plan = Plan { prior_state: Some(state.clone()), ..Plan::default() };
    prior_state(&plan, provider).and_then(|p| p.get("values").cloned()).unwrap_or_else(|| json!({"root_module": {}}))
}

/// `provider["registry.terraform.io/hashicorp/mock"]` → `registry.terraform.io/hashicorp/mock`.
fn provider_source(p: &str) -> String {
    p.strip_prefix("provider[\"").and_then(|r| r.split('"').next()).unwrap_or(p).to_string()
}

/// The plan in `terraform show -json` form.
pub fn to_json(plan: &Plan, provider: &dyn Provider) -> Json {
    let mut out = Map::new();
    out.insert("format_version".into(), json!("1.2"));
    out.insert("terraform_version".into(), json!(TERRAFORM_VERSION));
    if !plan.variables.is_empty() {
        out.insert(
            "variables".into(),
            Json::Object(crate::util::sort::json_map(
                plan.variables.iter().map(|(k, v)| (k.clone(), json!({"value": value(v)}))),
            )),
        );
    }
    // planned_values: every object that will exist after the apply, and the known outputs.
    let mut pv = Map::new();
    let mut outs = Map::new();
    for o in &plan.outputs {
        if o.action == Action::Delete {
            continue;
        }
        let mut e = Map::new();
        e.insert("sensitive".into(), json!(o.sensitive));
        if let Some(v) = o.after.as_ref().filter(|v| v.is_wholly_known()) {
            e.insert("type".into(), type_json(&v.ty()));
            e.insert("value".into(), value(v));
        }
        outs.insert(o.name.clone(), Json::Object(e));
    }
    if !outs.is_empty() {
        pv.insert("outputs".into(), Json::Object(outs));
    }
    let mut planned: Vec<(String, Json)> = plan
        .changes
        .iter()
        .filter(|c| !matches!(c.action, Action::Delete | Action::Forget) && c.deposed.is_none())
        .filter_map(|c| c.after.as_ref().map(|v| (c.module.clone(), values_entry(c, v, c.schema_version))))
        .collect();
    // A forgotten object stays in planned values, without values.
    for c in plan.changes.iter().filter(|c| c.action == Action::Forget && c.deposed.is_none()) {
        let mut m = head(c);
        m.insert("schema_version".into(), json!(c.schema_version));
        m.insert("sensitive_values".into(), json!(false));
        planned.push((c.module.clone(), Json::Object(m)));
    }
    if let Json::Object(m) = module_tree(planned) {
        pv.insert("root_module".into(), Json::Object(m));
    }
    out.insert("planned_values".into(), Json::Object(pv));
    if !plan.changes.is_empty() {
        out.insert("resource_changes".into(), Json::Array(plan.changes.iter().map(resource_change).collect()));
    }
    if !plan.outputs.is_empty() {
        let mut oc = Map::new();
        for o in &plan.outputs {
            let mut e = Map::new();
            e.insert("actions".into(), actions(o.action));
            e.insert("before".into(), o.before.as_ref().map(value).unwrap_or(Json::Null));
            // A wholly unknown value has no `after`; a partly unknown one has nulls there.
            if o.after.as_ref().is_none_or(|v| v.is_known()) {
                e.insert("after".into(), o.after.as_ref().map(value).unwrap_or(Json::Null));
            }
            e.insert(
                "after_unknown".into(),
                o.after.as_ref().filter(|v| !v.is_wholly_known()).map(unknown_as_bool).unwrap_or(json!(false)),
            );
            let before_sensitive = if o.action == Action::Delete { o.before_sensitive } else { o.sensitive };
            e.insert("before_sensitive".into(), json!(before_sensitive));
            e.insert("after_sensitive".into(), json!(o.sensitive));
            oc.insert(o.name.clone(), Json::Object(e));
        }
        out.insert("output_changes".into(), Json::Object(oc));
    }
    if !plan.checks.is_empty() {
        out.insert("checks".into(), shared::checks::plan_json(&plan.checks));
    }
    if let Some(ps) = prior_state(plan, provider) {
        out.insert("prior_state".into(), ps);
    }
    if let Some(c) = &plan.configuration {
        out.insert("configuration".into(), c.clone());
    }
    let relevant = plan.relevant_attributes.get(provider, &plan.changes, &plan.outputs);
    if !relevant.is_empty() {
        out.insert("relevant_attributes".into(), Json::Array(relevant.to_vec()));
    }
    out.insert(
        "applyable".into(),
        json!(
            !plan.errored()
                && (plan
                    .changes
                    .iter()
                    .any(|c| c.action != Action::NoOp || c.previous_address.is_some() || c.importing.is_some())
                    || plan.outputs.iter().any(|o| o.action != Action::NoOp))
        ),
    );
    // A targeted plan leaves changes out: it is not complete.
    out.insert("complete".into(), json!(!plan.errored() && plan.targets.is_empty()));
    out.insert("errored".into(), json!(plan.errored()));
    Json::Object(out)
}
