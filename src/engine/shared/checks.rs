//! Custom conditions and check blocks (Terraform's `checks.State`): resource pre- and
//! postconditions, output preconditions and `check` assertions, each object's status
//! (pass, fail with messages, unknown while a value is known only after apply), for the plan's
//! `checks` and the state's `check_results`.

use super::order::Walkable;
use super::scope::{InstanceScope, WalkValues};
use crate::addrs::{InstanceKey, ResourceMode};
use crate::config::model::{Condition, Config};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::eval::module_scope::{eval_config_expr, Inputs, ModuleScope};
use crate::eval::scope::Scope;
use crate::eval::{Kind, Value};
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    Unknown,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Unknown => "unknown",
        }
    }
    fn combine(list: impl Iterator<Item = Status>) -> Status {
        let mut out = Status::Pass;
        for s in list {
            match s {
                Status::Fail => return Status::Fail,
                Status::Unknown => out = Status::Unknown,
                Status::Pass => {}
            }
        }
        out
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind2 {
    Resource {
        mode: ResourceMode,
        type_name: String,
        name: String,
    },
    /// A root output, or a module's (`config_addr` `module.m.output.o`).
    Output {
        name: String,
    },
    Check {
        name: String,
    },
    /// An input variable's validations (`var.x`, `module.m.var.x`).
    Variable {
        name: String,
    },
}

/// One checkable configuration object and its instances.
#[derive(Clone, Debug)]
pub struct CheckResult {
    pub kind: Kind2,
    pub config_addr: String,
    pub status: Status,
    /// `None` when the object was never evaluated (a failed plan stopped before it).
    pub objects: Option<Vec<(String, Status, Vec<String>)>>,
}

/// The diagnostic of a failed condition as Terraform reports it (`evalCheckRules`): pointing at
/// the condition, with its snippet and the values the condition read in `scope`.
pub fn failed_condition(
    d: Diagnostic,
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
    condition: &crate::config::model::Expr,
) -> Diagnostic {
    let values = super::snippets::expression_values(scope, inputs, &condition.source, crate::diag::CausedBy::Other);
    super::snippets::with_source(d, inputs.files, values)
}

/// Evaluates one condition: its status, and the message when it fails.
pub fn condition(
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
    c: &Condition,
    diags: &mut Diagnostics,
) -> (Status, Option<String>) {
    let v = match eval_config_expr(scope, inputs, &c.condition) {
        Ok(v) => v,
        Err(d) => {
            diags.push(*d);
            return (Status::Fail, None);
        }
    };
    if !v.is_known() {
        return (Status::Unknown, None);
    }
    if v.as_bool() != Some(false) {
        return (Status::Pass, None);
    }
    let msg = c
        .error_message
        .as_ref()
        .and_then(|m| eval_config_expr(scope, inputs, m).ok())
        .and_then(|m| m.as_str().map(String::from))
        .unwrap_or_default();
    (Status::Fail, Some(msg))
}

fn instances(v: &Value, counted: bool, each: bool) -> Vec<(Option<InstanceKey>, Value)> {
    match (&v.kind, counted, each) {
        (Kind::Tuple(items) | Kind::List(_, items), true, _) => {
            items.iter().enumerate().map(|(i, x)| (Some(InstanceKey::Int(i as i64)), x.clone())).collect()
        }
        (Kind::Object(m) | Kind::Map(_, m), _, true) => {
            m.iter().map(|(k, x)| (Some(InstanceKey::Str(k.clone())), x.clone())).collect()
        }
        (Kind::Unknown(_), _, _) => Vec::new(),
        (_, false, false) => vec![(None, v.clone())],
        _ => Vec::new(),
    }
}

#[allow(clippy::too_many_arguments)]
/// Every checkable object of the root module, over the walk's `values`. `failed` holds the
/// resources whose plan failed (their dependents were not evaluated); `failed_preconditions`
/// the precondition messages that stopped them.
pub fn evaluate(
    root: &ModuleScope<'_>,
    inputs: &Inputs<'_>,
    config: &Config,
    walkables: &[Walkable<'_>],
    values: &WalkValues,
    not_evaluated: &BTreeSet<String>,
    diags: &mut Diagnostics,
    planning: bool,
) -> Vec<CheckResult> {
    let mut out = Vec::new();
    let mut scratch = Diagnostics::new();
    for w in walkables.iter().filter(|w| w.path.is_empty()) {
        let r = w.resource;
        if r.lifecycle.preconditions.is_empty() && r.lifecycle.postconditions.is_empty() {
            continue;
        }
        let mode = if r.mode == ResourceMode::Data { "data" } else { "managed" };
        let v = values
            .get(&(String::new(), mode.to_string(), r.type_name.clone(), r.name.clone()))
            .unwrap_or_else(Value::dynamic);
        let list = if not_evaluated.contains(&w.address) && !v.is_known() {
            vec![(None, Value::dynamic())]
        } else {
            instances(&v, r.count.is_some(), r.for_each.is_some())
        };
        let mut objects = Vec::new();
        for (key, obj) in list {
            let each = match &key {
                Some(InstanceKey::Str(k)) => Some((Value::string(k.clone()), Value::dynamic())),
                _ => None,
            };
            let count_index = match &key {
                Some(InstanceKey::Int(i)) => Some(*i),
                _ => None,
            };
            let pre = InstanceScope { module: root, count_index, each: each.clone(), self_value: None };
            let post = InstanceScope { module: root, count_index, each, self_value: Some(obj) };
            let mut statuses = Vec::new();
            let mut problems = Vec::new();
            for c in &r.lifecycle.preconditions {
                let (s, m) = condition(&pre, inputs, c, &mut scratch);
                statuses.push(s);
                problems.extend(m);
            }
            // Postconditions run after the instance's plan (or apply): not for one whose plan failed.
            if !problems.is_empty() || !not_evaluated.contains(&w.address) {
                for c in &r.lifecycle.postconditions {
                    let (s, m) = if problems.is_empty() {
                        condition(&post, inputs, c, &mut scratch)
                    } else {
                        (Status::Unknown, None)
                    };
                    if s == Status::Fail && planning {
                        diags.push(failed_condition(
                            Diagnostic::error("Resource postcondition failed", m.clone().unwrap_or_default())
                                .with_range(c.condition.range.clone()),
                            &post,
                            inputs,
                            &c.condition,
                        ));
                    }
                    statuses.push(s);
                    problems.extend(m);
                }
            }
            let addr = format!("{}{}", w.address, key.as_ref().map(|k| k.to_string()).unwrap_or_default());
            objects.push((addr, Status::combine(statuses.into_iter()), problems));
        }
        out.push(CheckResult {
            kind: Kind2::Resource { mode: r.mode, type_name: r.type_name.clone(), name: r.name.clone() },
            config_addr: w.address.clone(),
            status: Status::combine(objects.iter().map(|o| o.1)),
            objects: Some(objects),
        });
    }
    for v in config.root.variables.iter().filter(|v| !v.validations.is_empty()) {
        // Validated before the walk (a failure refused the plan): here only their statuses.
        let statuses: Vec<Status> = v.validations.iter().map(|c| condition(root, inputs, c, &mut scratch).0).collect();
        let (addr, s) = (format!("var.{}", v.name), Status::combine(statuses.into_iter()));
        let objects = Some(vec![(addr.clone(), s, Vec::new())]);
        out.push(CheckResult { kind: Kind2::Variable { name: v.name.clone() }, config_addr: addr, status: s, objects });
    }
    for o in &config.root.outputs {
        if o.preconditions.is_empty() {
            continue;
        }
        let addr = format!("output.{}", o.name);
        let blocked = o.references.iter().any(|r| matches!(&r.subject, crate::addrs::Subject::Resource(ra) | crate::addrs::Subject::ResourceInstance(ra, _) if not_evaluated.contains(&ra.to_string())));
        if blocked {
            out.push(CheckResult {
                kind: Kind2::Output { name: o.name.clone() },
                config_addr: addr,
                status: Status::Unknown,
                objects: None,
            });
            continue;
        }
        let mut statuses = Vec::new();
        let mut problems = Vec::new();
        // A failed one is reported by the output's node (the plan walk's `settle_value`).
        for c in &o.preconditions {
            let (s, m) = condition(root, inputs, c, &mut scratch);
            statuses.push(s);
            problems.extend(m);
        }
        let s = Status::combine(statuses.into_iter());
        out.push(CheckResult {
            kind: Kind2::Output { name: o.name.clone() },
            config_addr: addr.clone(),
            status: s,
            objects: Some(vec![(addr, s, problems)]),
        });
    }
    for c in &config.root.checks {
        let addr = format!("check.{}", c.name);
        let mut statuses = Vec::new();
        let mut problems = Vec::new();
        for a in &c.asserts {
            let (s, m) = condition(root, inputs, a, &mut scratch);
            // Warnings both (`evalCheckRules`): a failed assertion, and at plan one not known yet.
            let warning = match s {
                Status::Fail => Some(("Check block assertion failed", m.clone().unwrap_or_default())),
                Status::Unknown if planning => Some(("Check block assertion known after apply", "The condition could not be evaluated at this time, a result will be known when this plan is applied.".to_string())),
                _ => None,
            };
            if let Some((summary, detail)) = warning {
                let mut d = Diagnostic::error(summary, detail).with_range(a.condition.range.clone());
                d.severity = Severity::Warning;
                diags.push(failed_condition(d, root, inputs, &a.condition));
            }
            statuses.push(s);
            problems.extend(m);
        }
        let s = Status::combine(statuses.into_iter());
        out.push(CheckResult {
            kind: Kind2::Check { name: c.name.clone() },
            config_addr: addr.clone(),
            status: s,
            objects: Some(vec![(addr, s, problems)]),
        });
    }
    out
}

/// The check of a module's variable validations or output preconditions below the root, as
/// its node found it in each module instance (`instances`: module instance address, what the
/// conditions found); `None` when the walk skipped the node: unknown, with no instances, as
/// Terraform's `checks.State` starts every checkable object.
pub fn of_node(
    output: bool,
    path: &[String],
    name: &str,
    instances: Option<Vec<(String, crate::eval::module_scope::Conditions)>>,
) -> CheckResult {
    let what = if output { "output" } else { "var" };
    let objects: Option<Vec<(String, Status, Vec<String>)>> = instances.map(|list| {
        let mut objects = Vec::new();
        for (module, c) in list {
            let s = match (c.ok && c.failed.is_empty(), c.unknown) {
                (false, _) => Status::Fail,
                (true, true) => Status::Unknown,
                (true, false) => Status::Pass,
            };
            objects.push((format!("{module}.{what}.{name}"), s, c.failed));
        }
        objects
    });
    let mut config_addr = String::new();
    for p in path {
        config_addr.push_str(&format!("module.{p}."));
    }
    config_addr.push_str(&format!("{what}.{name}"));
    let status = match &objects {
        Some(list) => Status::combine(list.iter().map(|o| o.1)),
        None => Status::Unknown,
    };
    let name = name.to_string();
    CheckResult {
        kind: if output { Kind2::Output { name } } else { Kind2::Variable { name } },
        config_addr,
        status,
        objects,
    }
}

/// The module of a module output's or variable's address (`module.m[0]` of
/// `module.m[0].var.x`), for the JSON's `module`: what precedes its own `.var.x` /
/// `.output.o`; `None` for the root's and for other kinds.
fn module_of<'a>(kind: &Kind2, addr: &'a str) -> Option<&'a str> {
    let own = match kind {
        Kind2::Variable { name } => name.len() + ".var.".len(),
        Kind2::Output { name } => name.len() + ".output.".len(),
        _ => return None,
    };
    addr.get(..addr.len().checked_sub(own)?).filter(|m| !m.is_empty())
}

/// The plan JSON's `checks` (sorted by address as Terraform lists them).
pub fn plan_json(results: &[CheckResult]) -> Json {
    let mut list: Vec<&CheckResult> = results.iter().collect();
    crate::util::sort::sort_by(&mut list, |a, b| a.config_addr.cmp(&b.config_addr));
    Json::Array(
        list.into_iter()
            .map(|r| {
                let mut addr = Map::new();
                match &r.kind {
                    Kind2::Resource { mode, type_name, name } => {
                        addr.insert("kind".into(), json!("resource"));
                        addr.insert("mode".into(), json!(if *mode == ResourceMode::Data { "data" } else { "managed" }));
                        addr.insert("type".into(), json!(type_name));
                        addr.insert("name".into(), json!(name));
                    }
                    Kind2::Output { name } => {
                        addr.insert("kind".into(), json!("output_value"));
                        addr.insert("name".into(), json!(name));
                    }
                    Kind2::Check { name } => {
                        addr.insert("kind".into(), json!("check"));
                        addr.insert("name".into(), json!(name));
                    }
                    Kind2::Variable { name } => {
                        addr.insert("kind".into(), json!("var"));
                        addr.insert("name".into(), json!(name));
                    }
                }
                if let Some(module) = module_of(&r.kind, &r.config_addr) {
                    addr.insert("module".into(), json!(module));
                }
                addr.insert("to_display".into(), json!(r.config_addr));
                let mut m = Map::new();
                m.insert("address".into(), Json::Object(addr));
                m.insert("status".into(), json!(r.status.as_str()));
                if let Some(objs) = &r.objects {
                    m.insert(
                        "instances".into(),
                        Json::Array(
                            objs.iter()
                                .map(|(a, s, p)| {
                                    let mut i = Map::new();
                                    let mut address = Map::new();
                                    if let Some(module) = module_of(&r.kind, a) {
                                        address.insert("module".into(), json!(module));
                                    }
                                    address.insert("to_display".into(), json!(a));
                                    // A resource instance's key (`makeDynamicObjectAddr`).
                                    let key = matches!(r.kind, Kind2::Resource { .. })
                                        .then(|| crate::addrs::InstanceAddr::parse(a).ok()?.key)
                                        .flatten();
                                    match key {
                                        Some(InstanceKey::Int(k)) => address.insert("instance_key".into(), json!(k)),
                                        Some(InstanceKey::Str(k)) => address.insert("instance_key".into(), json!(k)),
                                        None => None,
                                    };
                                    i.insert("address".into(), Json::Object(address));
                                    i.insert("status".into(), json!(s.as_str()));
                                    if !p.is_empty() {
                                        i.insert(
                                            "problems".into(),
                                            Json::Array(p.iter().map(|x| json!({"message": x})).collect()),
                                        );
                                    }
                                    Json::Object(i)
                                })
                                .collect(),
                        ),
                    );
                }
                Json::Object(m)
            })
            .collect(),
    )
}

/// The state's `check_results` (resources, then outputs, then checks), or null.
pub fn state_json(results: &[CheckResult]) -> Json {
    if results.is_empty() {
        return Json::Null;
    }
    let rank = |k: &Kind2| match k {
        Kind2::Resource { .. } => 0,
        Kind2::Output { .. } | Kind2::Variable { .. } => 1,
        Kind2::Check { .. } => 2,
    };
    let mut list: Vec<&CheckResult> = results.iter().collect();
    crate::util::sort::sort_by_key(&mut list, |r| rank(&r.kind));
    Json::Array(
        list.into_iter()
            .map(|r| {
                let kind = match r.kind {
                    Kind2::Resource { .. } => "resource",
                    Kind2::Output { .. } => "output",
                    Kind2::Check { .. } => "check",
                    Kind2::Variable { .. } => "var",
                };
                let objects: Vec<Json> = r
                    .objects
                    .iter()
                    .flatten()
                    .map(|(a, s, p)| {
                        let mut o = Map::new();
                        o.insert("object_addr".into(), json!(a));
                        o.insert("status".into(), json!(s.as_str()));
                        if !p.is_empty() {
                            o.insert("failure_messages".into(), json!(p));
                        }
                        Json::Object(o)
                    })
                    .collect();
                // No object results is a nil slice in Terraform's state: `null`.
                let objects = if objects.is_empty() { Json::Null } else { Json::Array(objects) };
                json!({"object_kind": kind, "config_addr": r.config_addr, "status": r.status.as_str(), "objects": objects})
            })
            .collect(),
    )
}
