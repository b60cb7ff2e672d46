//! What `terraform apply` prints (`-no-color`): a progress line per operation event
//! (`aws_instance.web[0]: Creating...`, `Creation complete after 0s [id=...]`), then the
//! summary and the root outputs, as a function of the apply's events and state. Elapsed
//! times are written `<t>` (they depend on the clock).

use super::apply::{ApplyResult, Event, EventKind};
use crate::providers::Op;
use serde_json::Value as Json;

/// One event's line (`None` for events Terraform prints nothing for).
pub fn line(e: &Event) -> Option<String> {
    let id = |id: &Option<String>| id.as_ref().map(|i| format!(" [id={i}]")).unwrap_or_default();
    let who = match &e.deposed {
        Some(k) if matches!(e.kind, EventKind::Start) => format!("{} (deposed object {k})", e.address),
        _ => e.address.clone(),
    };
    Some(match (&e.kind, e.op) {
        (EventKind::Start, Op::Create) => format!("{who}: Creating..."),
        (EventKind::Start, Op::Update) => format!("{who}: Modifying...{}", id(&e.prior_id)),
        (EventKind::Start, Op::Delete) => format!("{who}: Destroying...{}", id(&e.prior_id)),
        (EventKind::Start, Op::ReadData) => format!("{who}: Reading..."),
        (EventKind::Complete { id: new }, Op::Create) => format!("{who}: Creation complete after <t>{}", id(new)),
        (EventKind::Complete { id: new }, Op::Update) => format!("{who}: Modifications complete after <t>{}", id(new)),
        (EventKind::Complete { .. }, Op::Delete) => format!("{who}: Destruction complete after <t>"),
        (EventKind::Complete { id: new }, Op::ReadData) => format!("{who}: Read complete after <t>{}", id(new)),
        _ => return None,
    })
}

/// The whole stdout of `terraform apply -no-color` (errors go to stderr).
pub fn render(r: &ApplyResult) -> String {
    let mut out = String::new();
    let mut events: Vec<&Event> = r.events.iter().collect();
    events.sort_by_key(|e| e.at_ms);
    for e in events {
        if let Some(l) = line(e) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    if r.diagnostics.has_errors() {
        return out;
    }
    out.push_str(&format!("\nApply complete! Resources: {} added, {} changed, {} destroyed.\n", r.added, r.changed, r.destroyed));
    if let Some(outputs) = r.state.get("outputs").and_then(Json::as_object).filter(|m| !m.is_empty()) {
        out.push_str("\nOutputs:\n\n");
        for (name, o) in outputs {
            let v = if o.get("sensitive").and_then(Json::as_bool) == Some(true) { "<sensitive>".to_string() } else { format_value(o.get("value").unwrap_or(&Json::Null)) };
            out.push_str(&format!("{name} = {v}\n"));
        }
    }
    out
}

/// An output's value as `terraform apply` prints it: Terraform's `repl.FormatValue`, which is
/// what `terraform console` prints (`eval::render::console`), on the value read from the state.
pub fn format_value(v: &Json) -> String {
    crate::eval::render::console(&crate::eval::json::from_json(v))
}
