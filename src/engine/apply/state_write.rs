//! State v4 as the apply writes it (Terraform's `statefile` v4 shape): resources with their
//! instances, sensitive attribute paths, dependencies and create_before_destroy, the root
//! outputs, the serial and lineage.

use super::nodes::{current_values, ApplyNodes};
use super::objects::Obj;
use crate::addrs::InstanceKey;
use crate::diag::Diagnostics;
use crate::engine::shared;
use crate::eval::value_json::{type_json, value as value_json};
use crate::eval::{Kind, Value};
use crate::plans::Action;
use serde_json::{json, Map, Value as Json};
use shared::instance::{self, with_root_scope};
use shared::plan::InstanceChange;
use shared::scope::ResourceKey;
use std::collections::{BTreeMap, HashMap};

/// Paths of the sensitive parts of a value, as state v4's `sensitive_attributes` writes them.
fn sensitive_paths(v: &Value, path: &mut Vec<Json>, out: &mut Vec<Json>) {
    if v.sensitive && !path.is_empty() {
        out.push(Json::Array(path.clone()));
        return;
    }
    match &v.kind {
        Kind::Object(m) => {
            for (k, x) in m {
                path.push(json!({"type": "get_attr", "value": k}));
                sensitive_paths(x, path, out);
                path.pop();
            }
        }
        Kind::Map(_, m) => {
            for (k, x) in m {
                path.push(json!({"type": "index", "value": {"value": k, "type": "string"}}));
                sensitive_paths(x, path, out);
                path.pop();
            }
        }
        Kind::List(_, items) | Kind::Tuple(items) => {
            for (i, x) in items.iter().enumerate() {
                path.push(json!({"type": "index", "value": {"value": i, "type": "number"}}));
                sensitive_paths(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Each configured resource's dependencies and create_before_destroy, which its current
/// objects record (what the plan's changes say).
pub(super) type Configured = HashMap<ResourceKey, (Vec<String>, bool)>;

pub(super) fn configured(plan: &shared::plan::Plan) -> Configured {
    let mut conf = Configured::new();
    for c in &plan.changes {
        if c.deposed.is_none() && !matches!(c.action, Action::Delete | Action::Forget) {
            let mode = c.mode.as_str();
            conf.insert(
                (c.module.clone(), mode.into(), c.type_name.clone(), c.name.clone()),
                (c.dependencies.clone(), c.create_before_destroy),
            );
        }
    }
    conf
}

/// One object as a state v4 instance.
pub(super) fn instance_json(o: &Obj, conf: &Configured) -> Json {
    let mut m = Map::new();
    match &o.key {
        Some(InstanceKey::Int(i)) => {
            m.insert("index_key".into(), json!(i));
        }
        Some(InstanceKey::Str(s)) => {
            m.insert("index_key".into(), json!(s));
        }
        None => {}
    }
    if o.tainted {
        m.insert("status".into(), json!("tainted"));
    }
    if let Some(d) = &o.deposed {
        m.insert("deposed".into(), json!(d));
    }
    m.insert("schema_version".into(), json!(o.schema_version));
    // Marks do not show in JSON: no unmarked copy of the value is needed.
    m.insert("attributes".into(), value_json_nulls(&o.value));
    let mut paths = Vec::new();
    sensitive_paths(&o.value, &mut Vec::new(), &mut paths);
    m.insert("sensitive_attributes".into(), Json::Array(paths));
    let configured = if o.deposed.is_none() { conf.get(&o.resource_key()) } else { None };
    let (deps, cbd) = configured.map(|(d, c)| (d, *c)).unwrap_or((&o.deps, o.cbd));
    if !deps.is_empty() {
        m.insert("dependencies".into(), json!(deps));
    }
    if cbd {
        m.insert("create_before_destroy".into(), json!(true));
    }
    Json::Object(m)
}

/// When a state document is made.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Moment {
    /// For the caller to see (`onState`, a provider's configure): every output evaluated.
    Snapshot,
    /// As Terraform's state hook writes it after an object: the outputs the walk has evaluated
    /// by then (those whose resources' operations have all ended), the others as the prior
    /// state had them, the prior state's check results (recorded only after the walk), and
    /// the resources being created recorded with no instance yet (`ApplyNodes::husks`).
    Written,
    /// After the walk.
    Final,
}

/// A resource's record in state v4: its address parts, provider and instances.
fn resource_json(key: &ResourceKey, provider: &str, instances: Vec<Json>) -> Json {
    let mut r = Map::new();
    if !key.0.is_empty() {
        r.insert("module".into(), json!(key.0));
    }
    r.insert("mode".into(), json!(key.1));
    r.insert("type".into(), json!(key.2));
    r.insert("name".into(), json!(key.3));
    r.insert("provider".into(), json!(provider));
    r.insert("instances".into(), Json::Array(instances));
    Json::Object(r)
}

/// The working state of `s` as state v4 at `moment`: its objects grouped by resource, the root
/// outputs evaluated over them, the serial as it stands, the prior lineage kept. `warnings`
/// receives the check blocks' failed assertions.
pub(super) fn write_state(s: &ApplyNodes<'_>, moment: Moment, mut warnings: Option<&mut Diagnostics>) -> Json {
    let (files, config, plan, prior, objs, walkables) = (s.files, s.config, s.plan, s.prior, &s.objs, &s.walkables[..]);
    let mut groups: BTreeMap<ResourceKey, Vec<&Obj>> = BTreeMap::new();
    for o in objs.iter() {
        groups.entry(o.resource_key()).or_default().push(o);
    }
    // Written during the walk: the resources recorded with no instance yet.
    let husks = if moment == Moment::Written { s.husks() } else { Default::default() };
    let mut resources = Vec::new();
    for (key, provider) in husks.into_iter().filter(|(k, _)| !groups.contains_key(k)) {
        let r = resource_json(&key, &provider, Vec::new());
        resources.push((key, r));
    }
    for (key, mut list) in groups {
        crate::util::sort::sort_by(&mut list, |a, b| (&a.key, &a.deposed).cmp(&(&b.key, &b.deposed)));
        let r = resource_json(&key, &list[0].provider, list.iter().map(|o| instance_json(o, &s.conf)).collect());
        resources.push((key, r));
    }
    crate::util::sort::sort_by(&mut resources, |a, b| a.0.cmp(&b.0));
    let resources: Vec<Json> = resources.into_iter().map(|(_, r)| r).collect();
    // Outputs, evaluated over the final objects (none after a destroy).
    let mut outputs = Map::new();
    let mut check_results;
    if !plan.destroy {
        let hidden: Vec<&InstanceChange> = s.hidden.iter().map(|&i| &plan.changes[i]).collect();
        let values = current_values(objs, &hidden, walkables.iter());
        let (outs, checks) =
            with_root_scope(files, config, s.variables, &values, false, &plan.module_overrides, &mut |root, inputs| {
                let mut scratch = Diagnostics::new();
                let checks = shared::checks::evaluate(
                    root,
                    inputs,
                    config,
                    walkables,
                    &values,
                    &Default::default(),
                    &mut scratch,
                    false,
                );
                // Failed check assertions are the apply's warnings, as Terraform prints them.
                if let Some(w) = warnings.as_deref_mut() {
                    for d in scratch.iter().filter(|d| d.severity == crate::diag::Severity::Warning) {
                        w.push(d.clone());
                    }
                }
                (instance::outputs(root), checks)
            });
        let mut checks = checks;
        if let Some(kept) = &plan.kept {
            // The outputs the targeted plan kept are those it planned.
            shared::targets::leave_out_checks(&mut checks, kept, &|o| plan.outputs.iter().any(|p| p.name == o));
        }
        check_results = shared::checks::state_json(&checks);
        let prior_outputs = prior.and_then(|p| p.get("outputs")).and_then(Json::as_object);
        let pending = if moment == Moment::Written { s.outputs_pending() } else { Default::default() };
        for (name, v, sensitive) in outs {
            if pending.contains(&name) {
                if let Some(was) = prior_outputs.and_then(|o| o.get(&name)) {
                    outputs.insert(name, was.clone());
                }
                continue;
            }
            // Null root outputs leave the state. Unknown parts of an output a targeted plan kept
            // (the target left out an instance it reads) are kept as nulls of their type, as
            // Terraform's `cty.UnknownAsNull`; any other unknown output read something that
            // failed or was not planned, and Terraform's walk skipped it.
            let kept = !plan.targets.is_empty() && plan.outputs.iter().any(|o| o.name == name);
            if v.is_null() || (!v.is_wholly_known() && !kept) {
                continue;
            }
            let v = if v.is_wholly_known() { v } else { unknown_as_null(v) };
            let mut e = Map::new();
            e.insert("value".into(), value_json(&v));
            e.insert("type".into(), type_json(&v.ty()));
            if sensitive || v.has_sensitive() {
                e.insert("sensitive".into(), json!(true));
            }
            outputs.insert(name, Json::Object(e));
        }
    } else {
        // A destroy evaluates no condition: its checks are the plan's, every one unknown.
        check_results = shared::checks::state_json(&plan.checks);
        if !plan.targets.is_empty() {
            // A targeted destroy leaves the outputs as they were.
            if let Some(Json::Object(prior_outputs)) = prior.and_then(|p| p.get("outputs")) {
                outputs = prior_outputs.clone();
            }
        }
    }
    if moment == Moment::Written {
        check_results = prior.and_then(|p| p.get("check_results")).cloned().unwrap_or(Json::Null);
    }
    let lineage = prior.and_then(|p| p.get("lineage")).and_then(Json::as_str).unwrap_or(&s.lineage).to_string();
    let serial = s.serial.value;
    json!({
        "version": 4,
        "terraform_version": crate::state::TERRAFORM_VERSION,
        "serial": serial,
        "lineage": lineage,
        "outputs": outputs,
        "resources": resources,
        "check_results": check_results,
    })
}

/// Attributes as state writes them: every attribute, null where unset.
fn value_json_nulls(v: &Value) -> Json {
    match &v.kind {
        Kind::Object(m) | Kind::Map(_, m) => {
            Json::Object(crate::util::sort::json_map(m.iter().map(|(k, x)| (k.clone(), value_json_nulls(x)))))
        }
        _ => value_json(v),
    }
}

/// Which object of a state v4 document a JSON object is, for its key order.
#[derive(Clone, Copy)]
enum Shape {
    State,
    Outputs,
    Output,
    Resource,
    Instance,
    /// `sensitive_attributes`: a list of paths, each a list of steps.
    SensitiveAttributes,
    SensitivePath,
    PathStep,
    PathKey,
    Check,
    CheckObject,
    /// Everything else (attributes, output values and types): keys sorted, as Go's
    /// encoding/json sorts map keys and cty marshals object attributes.
    Sorted,
}

impl Shape {
    /// The field order of Terraform's structs (`states/statefile/version4.go`); keys not listed
    /// come after, sorted.
    fn keys(self) -> &'static [&'static str] {
        match self {
            Shape::State => {
                &["version", "terraform_version", "serial", "lineage", "outputs", "resources", "check_results"]
            }
            Shape::Output => &["value", "type", "sensitive"],
            Shape::Resource => &["module", "mode", "type", "name", "each", "provider", "instances"],
            Shape::Instance => &[
                "index_key",
                "status",
                "deposed",
                "schema_version",
                "attributes",
                "attributes_flat",
                "sensitive_attributes",
                "identity_schema_version",
                "identity",
                "private",
                "dependencies",
                "create_before_destroy",
            ],
            Shape::PathStep => &["type", "value"],
            // An index step's key is cty JSON: `{"value": ..., "type": ...}`.
            Shape::PathKey => &["value", "type"],
            Shape::Check => &["object_kind", "config_addr", "status", "objects"],
            Shape::CheckObject => &["object_addr", "status", "failure_messages"],
            Shape::Outputs | Shape::SensitiveAttributes | Shape::SensitivePath | Shape::Sorted => &[],
        }
    }

    /// The shape of the value under `key` (or of an array's items, `key` None).
    fn child(self, key: Option<&str>) -> Shape {
        match (self, key) {
            (Shape::State, Some("outputs")) => Shape::Outputs,
            (Shape::State, Some("resources")) => Shape::Resource,
            (Shape::State, Some("check_results")) => Shape::Check,
            (Shape::Outputs, Some(_)) => Shape::Output,
            (Shape::Resource, Some("instances")) => Shape::Instance,
            (Shape::Instance, Some("sensitive_attributes")) => Shape::SensitiveAttributes,
            (Shape::SensitiveAttributes, None) => Shape::SensitivePath,
            (Shape::SensitivePath, None) => Shape::PathStep,
            (Shape::PathStep, Some("value")) => Shape::PathKey,
            (Shape::Check, Some("objects")) => Shape::CheckObject,
            // Arrays of resources, instances, checks and objects keep their items' shape.
            (s @ (Shape::Resource | Shape::Instance | Shape::Check | Shape::CheckObject), None) => s,
            _ => Shape::Sorted,
        }
    }
}

/// A state v4 document serialised with Terraform's key order (what `statefile.Write` writes),
/// where a `serde_json::Value` alone would sort every object's keys.
pub struct TerraformOrder<'a>(pub &'a Json);

struct Shaped<'a>(&'a Json, Shape);

impl serde::Serialize for TerraformOrder<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Shaped(self.0, Shape::State).serialize(s)
    }
}

impl serde::Serialize for Shaped<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        let Shaped(v, shape) = *self;
        match v {
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for x in items {
                    seq.serialize_element(&Shaped(x, shape.child(None)))?;
                }
                seq.end()
            }
            Json::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                let listed = shape.keys();
                for k in listed {
                    if let Some(x) = m.get(*k) {
                        map.serialize_entry(k, &Shaped(x, shape.child(Some(k))))?;
                    }
                }
                for (k, x) in m.iter().filter(|(k, _)| !listed.contains(&k.as_str())) {
                    map.serialize_entry(k, &Shaped(x, shape.child(Some(k))))?;
                }
                map.end()
            }
            other => other.serialize(s),
        }
    }
}

/// The text of terraform.tfstate for `state`, byte for byte as Terraform writes it: its key
/// order, two-space indentation, a final newline, and Go's HTML-safe escapes of `<`, `>`, `&`,
/// U+2028 and U+2029 (which occur only inside strings, so replacing them in the text is exact).
pub fn state_text(state: &Json) -> String {
    let text = serde_json::to_string_pretty(&TerraformOrder(state)).unwrap_or_default();
    let mut out = String::with_capacity(text.len() + 1);
    for c in text.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out.push('\n');
    out
}

/// `v` with every unknown value replaced by a null of its type.
fn unknown_as_null(mut v: Value) -> Value {
    fn fix(v: &mut Value) {
        let ty = match &mut v.kind {
            Kind::Unknown(t) => t.clone(),
            Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => return items.iter_mut().for_each(fix),
            Kind::Map(_, m) | Kind::Object(m) => return m.values_mut().for_each(fix),
            _ => return,
        };
        v.kind = Kind::Null(ty);
    }
    fix(&mut v);
    v
}
