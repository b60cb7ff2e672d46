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
            let v = if o.get("sensitive").and_then(Json::as_bool) == Some(true) { "<sensitive>".to_string() } else { format_value(o.get("value").unwrap_or(&Json::Null), 0) };
            out.push_str(&format!("{name} = {v}\n"));
        }
    }
    out
}

/// A value as Terraform's `repl.FormatValue` prints it (HCL-like, keys aligned).
pub fn format_value(v: &Json, indent: usize) -> String {
    let pad = " ".repeat(indent + 2);
    let close = " ".repeat(indent);
    match v {
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => quote(s),
        Json::Array(items) if items.is_empty() => "[]".into(),
        Json::Array(items) => {
            let mut s = "[\n".to_string();
            for x in items {
                s.push_str(&format!("{pad}{},\n", format_value(x, indent + 2)));
            }
            s.push_str(&format!("{close}]"));
            s
        }
        Json::Object(m) if m.is_empty() => "{}".into(),
        Json::Object(m) => {
            let keys: Vec<String> = m.keys().map(|k| quote(k)).collect();
            let width = keys.iter().map(|k| k.chars().count()).max().unwrap_or(0);
            let mut s = "{\n".to_string();
            for (k, (_, x)) in keys.iter().zip(m) {
                s.push_str(&format!("{pad}{k:<width$} = {}\n", format_value(x, indent + 2)));
            }
            s.push_str(&format!("{close}}}"));
            s
        }
    }
}

/// A string in HCL's quoted form (as Terraform prints values).
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
