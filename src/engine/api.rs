//! The engine's API shapes (the package's `plan()`, `apply()`, `destroy()`): one request as
//! JSON in, the plan (its JSON, its text, its changes) and optionally the apply's state and
//! report out. Pure Rust, so the bindings stay mechanical and native tests reach it.

use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::apply;
use crate::engine::plan;
use crate::engine::render;
use crate::engine::shared;
use crate::eval::value_json::{unknown_as_bool, value};
use crate::plans::render_human::{render_plan, PlanMode, RenderOptions};
use crate::plans::Action;
use crate::providers::mock::MockOptions;
use crate::providers::{Op, Provider};
use apply::events::{ApplyResult, OpEvent, OpEventKind};
use apply::native::{apply, ApplyOptions};
use plan::nodes::plan;
use render::plan_json::{actions, to_json};
use serde_json::{json, Value as Json};
use shared::plan::{Plan, PlanOptions};
use std::collections::BTreeMap;

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

/// What the package's `Plan` shows of a plan: its JSON (`terraform show -json`, timestamp
/// null), its text (`terraform plan`), its changes in the API's shape, whether it changes
/// anything. Each part has its own function too, so the package computes the JSON and the text
/// only when asked for them.
pub struct PlanView {
    pub json: Json,
    pub text: String,
    pub changes: Json,
    pub has_changes: bool,
}

/// The views of `p`, rendered with `schemas` (`terraform providers schema -json`).
pub fn plan_view(p: &Plan, provider: &dyn Provider, schemas: &Json) -> PlanView {
    let json = plan_json(p, provider);
    let text = plan_text(p, &json, schemas);
    PlanView { json, text, changes: changes_json(p), has_changes: has_changes(p) }
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

/// The changes of `p` in the API's shape.
pub fn changes_json(p: &Plan) -> Json {
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
                "importing": c.importing,
            })
        })
        .collect();
    Json::Array(changes)
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

/// The diagnostic of a saved plan applied to a state it was not made from (Terraform's
/// `backend/local`: lineage first, then serial).
pub fn stale_plan(planned_from: Option<&Json>, now: Option<&Json>) -> Option<Diagnostic> {
    let meta = |s: Option<&Json>| {
        (
            s.and_then(|s| s.get("lineage")).and_then(Json::as_str).unwrap_or("").to_string(),
            s.and_then(|s| s.get("serial")).and_then(Json::as_u64).unwrap_or(0),
        )
    };
    let (plan_lineage, plan_serial) = meta(planned_from);
    let (lineage, serial) = meta(now);
    let first_plan = plan_lineage.is_empty() && plan_serial == 0;
    if !first_plan && plan_lineage != lineage {
        return Some(Diagnostic::error(
            "Saved plan does not match the given state",
            "The given plan file can not be applied because it was created from a different state lineage.",
        ));
    }
    if plan_serial != serial {
        return Some(Diagnostic::error("Saved plan is stale", "The given plan file can no longer be applied because the state was changed by another operation after the plan was created."));
    }
    None
}

/// Runs a request: `{ state, variables, mock, destroy, parallelism, apply, plan }` (`plan`: a
/// plan JSON to apply exactly, refused when the configuration and state now plan otherwise).
pub fn run(files: &BTreeMap<String, String>, config: &Config, load_diagnostics: Diagnostics, request: &Json) -> Json {
    // The built-in mock for hashicorp/mock, the generic mock for every other source.
    let provider = shared::schemas::providers(files, config, mock_options(request.get("mock")));
    let state = request.get("state").filter(|s| !s.is_null());
    let variables: BTreeMap<String, Json> = request
        .get("variables")
        .and_then(Json::as_object)
        .map(|m| crate::util::sort::btree_map(m.clone()))
        .unwrap_or_default();
    let destroy = request.get("destroy").and_then(Json::as_bool).unwrap_or(false);
    // Configuration errors with Terraform's snippet and `in BLOCK` context, as the plan's own.
    let mut diagnostics = shared::snippets::with_sources(load_diagnostics, &crate::eval::MapFilesystem(files));
    diagnostics.extend(mock_diagnostics(request.get("mock")));
    if diagnostics.has_errors() {
        return json!({"plan": null, "planText": "", "changes": [], "diagnostics": diagnostics, "apply": null});
    }
    let no_refresh = request.get("refresh").and_then(Json::as_bool) == Some(false);
    let strings = |key: &str| -> Vec<String> {
        request
            .get(key)
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(String::from))
            .collect()
    };
    let options = PlanOptions {
        variables: variables.clone(),
        destroy,
        no_refresh,
        targets: strings("targets"),
        replace: strings("replace"),
        on_op: None,
        cancel: None,
        module_overrides: Default::default(),
    };
    let p = plan(files, config, state, &provider, &options);
    let view = plan_view(&p, &provider, &provider.schema_document());
    diagnostics.extend(p.diagnostics.clone());
    let mut out = json!({"plan": view.json, "planText": view.text, "changes": view.changes, "diagnostics": diagnostics, "apply": null});
    if request.get("apply").and_then(Json::as_bool) != Some(true) || p.diagnostics.has_errors() {
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
    out["apply"] = json!({"state": r.state, "diagnostics": r.diagnostics, "report": apply_report(&r, false, 0.0)});
    out
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
