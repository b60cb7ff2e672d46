//! The engine's API shapes (the package's `plan()`, `apply()`, `destroy()`): one request as
//! JSON in, the plan (its JSON, its text, its changes) and optionally the apply's state and
//! report out. Pure Rust, so the bindings stay mechanical and native tests reach it.

use super::apply::{apply, ApplyOptions, EventKind};
use super::plan::plan;
use super::plan_json::{actions, to_json};
use super::values_json::{unknown_as_bool, value};
use super::PlanOptions;
use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::plans::render_human::{render_plan, PlanMode, RenderOptions};
use crate::providers::mock::MockOptions;
use crate::providers::{Op, Provider};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;

/// The mock provider's options from the API's `mock: { delayMs, delayByName, failNames, failOps }`.
pub fn mock_options(mock: Option<&Json>) -> MockOptions {
    let mut o = MockOptions::default();
    let Some(m) = mock else { return o };
    o.delay_ms = m.get("delayMs").and_then(Json::as_f64).map(|f| f.max(0.0) as u64).unwrap_or(0);
    if let Some(by) = m.get("delayByName").and_then(Json::as_object) {
        o.delay_by_name = by.iter().filter_map(|(k, v)| v.as_f64().map(|f| (k.clone(), f.max(0.0) as u64))).collect();
    }
    if let Some(names) = m.get("failNames").and_then(Json::as_array) {
        o.fail_names = names.iter().filter_map(|v| v.as_str().map(String::from)).collect();
    }
    if let Some(ops) = m.get("failOps").and_then(Json::as_array) {
        let text: Vec<&str> = ops.iter().filter_map(Json::as_str).collect();
        o.fail_ops = MockOptions::from_env([("MOCK_FAIL_OPS", text.join(",").as_str())]).fail_ops;
    }
    // Seeded jitter and transient rate limits (retried by the provider with backoff).
    o.knobs.seed = m.get("seed").and_then(Json::as_u64).unwrap_or(0);
    o.knobs.jitter_ms = m.get("jitterMs").and_then(Json::as_f64).map(|f| f.max(0.0) as u64).unwrap_or(0);
    o.knobs.rate_limit = m.get("rateLimit").and_then(Json::as_f64).map(|f| f.clamp(0.0, 1.0)).unwrap_or(0.0);
    o.knobs.max_retries = m.get("maxRetries").and_then(Json::as_u64).map(|n| n.min(32) as u32);
    o
}

/// Runs a request: `{ state, variables, mock, destroy, parallelism, apply, plan }` (`plan`: a
/// plan JSON to apply exactly, refused when the configuration and state now plan otherwise).
pub fn run(files: &BTreeMap<String, String>, config: &Config, load_diagnostics: Diagnostics, request: &Json) -> Json {
    // The built-in mock for hashicorp/mock, the generic mock for every other source.
    let provider = super::schemas::providers(files, config, mock_options(request.get("mock")));
    let state = request.get("state").filter(|s| !s.is_null());
    let variables: BTreeMap<String, Json> = request.get("variables").and_then(Json::as_object).map(|m| m.clone().into_iter().collect()).unwrap_or_default();
    let destroy = request.get("destroy").and_then(Json::as_bool).unwrap_or(false);
    let mut diagnostics = load_diagnostics;
    if diagnostics.has_errors() {
        return json!({"plan": null, "planText": "", "changes": [], "diagnostics": diagnostics, "apply": null});
    }
    let p = plan(files, config, state, &provider, &PlanOptions { variables: variables.clone(), destroy });
    let mut plan_json = to_json(&p, &provider);
    let mut opts = RenderOptions::from_plan(&plan_json);
    if destroy {
        opts.mode = PlanMode::Destroy;
    }
    let text = render_plan(&plan_json, Some(&provider.schema_document()), &opts);
    diagnostics.extend(p.diagnostics.clone());
    let changes: Vec<Json> = p
        .changes
        .iter()
        .map(|c| {
            json!({
                "address": c.address(),
                "actions": actions(c.action),
                "before": c.before.as_ref().map(value),
                "after": c.after.as_ref().map(value),
                "afterUnknown": c.after.as_ref().map(unknown_as_bool).unwrap_or(json!(false)),
                "replacePaths": c.replace_paths.iter().map(|p| vec![p]).collect::<Vec<_>>(),
                "actionReason": c.reason,
                "deposed": c.deposed,
            })
        })
        .collect();
    if let Some(obj) = plan_json.as_object_mut() {
        obj.insert("timestamp".into(), json!(null));
    }
    let mut out = json!({"plan": plan_json, "planText": text, "changes": changes, "diagnostics": diagnostics, "apply": null});
    if request.get("apply").and_then(Json::as_bool) != Some(true) || p.errored() {
        return out;
    }
    if let Some(saved) = request.get("plan").filter(|p| !p.is_null()) {
        if saved != &out["plan"] {
            let mut d = Diagnostics::new();
            d.push(Diagnostic::error("Saved plan is stale", "The given plan file can no longer be applied because the state was changed by another operation after the plan was created."));
            out["apply"] = json!({"state": state, "diagnostics": d, "report": null});
            return out;
        }
    }
    let parallelism = request.get("parallelism").and_then(Json::as_u64).unwrap_or(10) as usize;
    let r = apply(files, config, &p, state, &provider, &ApplyOptions { variables, parallelism, ..Default::default() });
    let events: Vec<Json> = r
        .events
        .iter()
        .map(|e| {
            let (kind, id) = match &e.kind {
                EventKind::Start => ("start", None),
                EventKind::Complete { id } => ("finish", id.clone()),
                EventKind::Fail => ("fail", None),
                EventKind::Skip => ("skip", None),
            };
            json!({"atMs": e.at_ms, "address": e.address, "deposed": e.deposed, "operation": op_word(e.op), "kind": kind, "id": id})
        })
        .collect();
    let text = super::progress::render(&r);
    out["apply"] = json!({
        "state": r.state,
        "diagnostics": r.diagnostics,
        "report": {"waves": r.waves, "maxConcurrency": r.max_concurrency, "events": events, "text": text, "added": r.added, "changed": r.changed, "destroyed": r.destroyed},
    });
    out
}

fn op_word(op: Op) -> &'static str {
    match op {
        Op::Create => "create",
        Op::Update => "update",
        Op::Delete => "delete",
        Op::Read => "read",
        Op::ReadData => "read",
    }
}
