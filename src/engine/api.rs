//! The engine's API shapes (the package's `plan()`, `apply()`, `destroy()`): the plan's JSON,
//! text and changes, the apply's report and events, as the package returns them. What runs is
//! the session's (`session`); these only shape its results.

use crate::engine::apply::events::{ApplyResult, OpEvent, OpEventKind};
use crate::engine::render;
use crate::engine::shared::plan::Plan;
use crate::eval::value_json::{unknown_as_bool, value};
use crate::plans::render_human::{render_plan, PlanMode, RenderOptions};
use crate::plans::Action;
use crate::providers::{Op, Provider};
use render::plan_json::{actions, to_json};
use serde_json::{json, Value as Json};

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
