//! The engine's API shapes (the package's `plan()`, `apply()`, `destroy()`): the plan's JSON,
//! text and changes, the apply's report and events, as the package returns them, and the mock's
//! options as it reads them. What runs is the session's (`session`); these only shape.

use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::apply::events::{ApplyResult, OpEvent, OpEventKind};
use crate::engine::render;
use crate::engine::shared;
use crate::engine::shared::plan::Plan;
use crate::eval::value_json::{unknown_as_bool, value};
use crate::plans::render_human::{render_plan, PlanMode, RenderOptions};
use crate::plans::Action;
use crate::providers::mock::MockOptions;
use crate::providers::{Op, Provider};
use render::plan_json::{actions, to_json};
use serde_json::{json, Value as Json};

/// The mock provider's options from the API's `mock: { delayMs, delayByName, failNames,
/// failAddresses, failOps, seed, jitterMs, rateLimit, maxRetries }`.
pub fn mock_options(mock: Option<&Json>) -> MockOptions {
    let mut o = MockOptions::default();
    let Some(m) = mock else { return o };
    o.delay_ms = m.get("delayMs").and_then(Json::as_f64).map(|f| f.max(0.0) as u64).unwrap_or(0);
    if let Some(by) = m.get("delayByName").and_then(Json::as_object) {
        o.delay_by_name = crate::util::sort::btree_map(
            by.iter().filter_map(|(k, v)| v.as_f64().map(|f| (k.clone(), f.max(0.0) as u64))),
        );
    }
    if let Some(names) = m.get("failNames").and_then(Json::as_array) {
        o.fail_names = crate::util::sort::btree_set(names.iter().filter_map(|v| v.as_str().map(String::from)));
    }
    o.fail_addresses =
        fail_address_entries(Some(m)).into_iter().filter_map(crate::providers::mock::FailAddress::parse).collect();
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

/// `mock.failAddresses` as given: an array of addresses, or one comma-separated string (the CLI's
/// `MOCK_FAIL_ADDRESS`, the page's input), split where the mock splits its knob.
fn fail_address_entries(mock: Option<&Json>) -> Vec<&str> {
    match mock.and_then(|m| m.get("failAddresses")) {
        Some(Json::Array(items)) => items.iter().filter_map(Json::as_str).collect(),
        Some(Json::String(list)) => crate::providers::mock::split_addresses(list).collect(),
        _ => Vec::new(),
    }
}

/// Errors for `mock.failAddresses` entries that are not resource instance addresses (the mock
/// could fail nothing by them), refused before planning as a bad `-target` is.
pub fn mock_diagnostics(mock: Option<&Json>) -> Diagnostics {
    let mut d = Diagnostics::new();
    for a in fail_address_entries(mock) {
        if crate::addrs::InstanceAddr::parse(a.trim()).is_err() {
            // Terraform's words for a bad resource instance address (as -replace's).
            let why = shared::targets::address_error(a.trim(), true);
            let detail = format!("The mock fails resource instances by address, such as aws_instance.web[1] or module.m.aws_subnet.a[\"x\"] (a resource's address: all its instances). {why}");
            d.push(Diagnostic::error(format!("Invalid failAddresses entry {}", crate::addrs::go_quote(a)), detail));
        }
    }
    d
}

/// `terraform show -json` of `p`, its timestamp null.
pub fn plan_json(p: &Plan, provider: &dyn Provider) -> Json {
    let mut plan_json = to_json(p, provider);
    if let Some(obj) = plan_json.as_object_mut() {
        obj.insert("timestamp".into(), json!(null));
    }
    plan_json
}

/// `terraform plan`'s text of `p`, from its JSON ([`plan_json`]) and the providers' `schemas`.
pub fn plan_text(p: &Plan, plan_json: &Json, schemas: &Json) -> String {
    // No plan, no text: Terraform prints only the errors of a plan it refused outright.
    if p.refused {
        return String::new();
    }
    let mut opts = RenderOptions::from_plan(plan_json);
    if p.destroy {
        opts.mode = PlanMode::Destroy;
    }
    render_plan(plan_json, Some(schemas), &opts)
}

/// One change in the API's shape (`Plan.changes()`), serialized as it is, without a JSON tree of
/// its own. Its keys in the order they print in.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeView<'p> {
    action_reason: Option<&'static str>,
    actions: Json,
    address: String,
    after: Option<Json>,
    after_unknown: Json,
    before: Option<Json>,
    deposed: &'p Option<String>,
    importing: &'p Option<String>,
    replace_paths: Vec<[&'p String; 1]>,
}

/// The changes of `p` in the API's shape.
pub fn changes_json(p: &Plan) -> Vec<ChangeView<'_>> {
    p.changes
        .iter()
        .map(|c| ChangeView {
            action_reason: c.reason,
            actions: actions(c.action),
            address: c.address(),
            after: c.after.as_ref().map(value),
            after_unknown: c.after.as_ref().map(unknown_as_bool).unwrap_or(Json::Bool(false)),
            before: c.before.as_ref().map(value),
            deposed: &c.deposed,
            importing: &c.importing,
            replace_paths: c.replace_paths.iter().map(|p| [p]).collect(),
        })
        .collect()
}

/// Whether `p` changes anything: an action, an import or an output change.
pub fn has_changes(p: &Plan) -> bool {
    p.changes.iter().any(|c| c.action != Action::NoOp || c.importing.is_some())
        || p.outputs.iter().any(|o| o.action != Action::NoOp)
}

/// The apply's report in the API's shape (`progress`: what `terraform apply` prints, elapsed
/// times as Terraform prints them when `timed`, else `<t>`).
pub fn apply_report(r: &ApplyResult, timed: bool, elapsed_ms: f64) -> Json {
    let events: Vec<Json> = r.events.iter().map(|e| event_json(e, "apply")).collect();
    let text = if timed { render::progress::render_timed(r) } else { render::progress::render(r) };
    json!({"waves": r.waves, "maxConcurrency": r.max_concurrency, "events": events, "progress": text, "added": r.added, "changed": r.changed, "destroyed": r.destroyed, "imported": r.imported, "elapsedMs": elapsed_ms})
}

/// One event in the API's shape (`onEvent`'s argument).
pub fn event_json(e: &OpEvent, phase: &str) -> Json {
    let (kind, id) = match &e.kind {
        OpEventKind::Start => ("start", None),
        OpEventKind::Complete { id } => ("finish", id.clone()),
        OpEventKind::Fail => ("fail", None),
        OpEventKind::Skip => ("skip", None),
        OpEventKind::Cancel => ("cancel", None),
    };
    json!({"kind": kind, "address": e.address, "operation": op_word(e.op), "deposed": e.deposed, "phase": phase, "priorId": e.prior_id, "id": id, "time": e.at_ms})
}

/// The API's word for an operation.
pub fn op_word(op: Op) -> &'static str {
    match op {
        Op::Create => "create",
        Op::Update => "update",
        Op::Delete => "delete",
        Op::Read => "read",
        Op::ReadData => "read",
        Op::Import => "import",
    }
}
