//! What `terraform apply` prints (`-no-color`): a progress line per operation event
//! (`aws_instance.web[0]: Creating...`, `Creation complete after 0s [id=...]`), the warnings,
//! then the summary and the root outputs, as a function of the apply's events and state. Elapsed
//! times are written `<t>` (they depend on the clock).

use crate::engine::apply;
use crate::engine::shared;
use crate::providers::Op;
use apply::events::{ApplyResult, OpEvent, OpEventKind};
use serde_json::Value as Json;

/// One event's line in an apply's output, its elapsed time written `<t>` (`None` for events
/// Terraform prints nothing for).
pub fn line(e: &OpEvent) -> Option<String> {
    line_in(e, false, "<t>")
}

/// The one writer of Terraform's progress lines (`command/views/hook_ui.go`), for the package's
/// live events (the CLI prints them, the page shows them) and [`render`]: `e`'s line in a plan
/// (`plan`: refreshes and data source reads, `Preparing import...`) or an apply, `elapsed` the
/// operation's time as it is printed (`0s`, `1m5s`). `None` for events Terraform prints nothing
/// for (a refresh's end, a failure, a skip, a cancel).
pub fn line_in(e: &OpEvent, plan: bool, elapsed: &str) -> Option<String> {
    let id = |id: &Option<String>| id.as_ref().map(|i| format!(" [id={i}]")).unwrap_or_default();
    let who = match &e.deposed {
        Some(k) if matches!(e.kind, OpEventKind::Start) => format!("{} (deposed object {k})", e.address),
        _ => e.address.clone(),
    };
    Some(match (&e.kind, e.op) {
        (OpEventKind::Start, Op::Create) => format!("{who}: Creating..."),
        (OpEventKind::Start, Op::Update) => format!("{who}: Modifying...{}", id(&e.prior_id)),
        (OpEventKind::Start, Op::Delete) => format!("{who}: Destroying...{}", id(&e.prior_id)),
        (OpEventKind::Start, Op::ReadData) => format!("{who}: Reading..."),
        // A managed resource's read is the plan's refresh (PreRefresh: no end line).
        (OpEventKind::Start, Op::Read) if plan => format!("{who}: Refreshing state...{}", id(&e.prior_id)),
        (OpEventKind::Start, Op::Import) if plan => format!("{who}: Preparing import...{}", id(&e.prior_id)),
        (OpEventKind::Start, Op::Import) => format!("{who}: Importing...{}", id(&e.prior_id)),
        (OpEventKind::Complete { id: new }, Op::Import) if !plan => {
            format!("{who}: Import complete{}", id(if new.is_some() { new } else { &e.prior_id }))
        }
        (OpEventKind::Complete { id: new }, Op::Create) => {
            format!("{who}: Creation complete after {elapsed}{}", id(new))
        }
        (OpEventKind::Complete { id: new }, Op::Update) => {
            format!("{who}: Modifications complete after {elapsed}{}", id(new))
        }
        (OpEventKind::Complete { .. }, Op::Delete) => format!("{who}: Destruction complete after {elapsed}"),
        (OpEventKind::Complete { id: new }, Op::ReadData) => format!("{who}: Read complete after {elapsed}{}", id(new)),
        _ => return None,
    })
}

/// An operation's elapsed time as Terraform's UI prints it: its end and its start each rounded
/// to the second, subtracted (`time.Now().Round(time.Second).Sub(start.Round(time.Second))`),
/// from the end's time and the duration in milliseconds.
pub fn elapsed_text(end_ms: u64, elapsed_ms: u64) -> String {
    let round = |ms: u64| (ms + 500) / 1000;
    let start = end_ms.saturating_sub(elapsed_ms);
    go_seconds(round(end_ms).saturating_sub(round(start)) * 1000)
}

/// The whole stdout of `terraform apply -no-color` (errors go to stderr).
pub fn render(r: &ApplyResult) -> String {
    let mut out = String::new();
    let mut events: Vec<&OpEvent> = r.events.iter().collect();
    crate::util::sort::sort_by_key(&mut events, |e| e.at_ms);
    for e in events {
        if let Some(l) = line(e) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out.push_str(&summary(r));
    out
}

/// What follows the progress lines: the warnings, `Apply complete! ...` and the root outputs
/// (nothing after an error: Terraform prints errors to stderr and stops).
fn summary(r: &ApplyResult) -> String {
    let mut out = String::new();
    if r.diagnostics.has_errors() {
        return out;
    }
    for d in r.diagnostics.iter().filter(|d| d.severity == crate::diag::Severity::Warning) {
        // Wrapped as Terraform wraps a detail when its output is not a terminal (78 columns).
        let d = crate::diag::Diagnostic { detail: crate::plans::render_human::word_wrap(&d.detail, 78), ..d.clone() };
        out.push_str(&shared::snippets::plain(&d));
    }
    let imported = if r.imported > 0 { format!("{} imported, ", r.imported) } else { String::new() };
    out.push_str(&format!(
        "\nApply complete! Resources: {imported}{} added, {} changed, {} destroyed.\n",
        r.added, r.changed, r.destroyed
    ));
    if let Some(outputs) = r.state.get("outputs").and_then(Json::as_object).filter(|m| !m.is_empty()) {
        out.push_str("\nOutputs:\n\n");
        for (name, o) in outputs {
            let value = o.get("value").unwrap_or(&Json::Null);
            // A null keeps its type (`tostring(null)`): the state stores it beside the value.
            let typed_null =
                value.is_null().then(|| o.get("type").and_then(crate::eval::value_json::type_from_json)).flatten();
            let v = if o.get("sensitive").and_then(Json::as_bool) == Some(true) {
                "<sensitive>".to_string()
            } else if let Some(t) = typed_null {
                crate::eval::render::console(&crate::eval::Value::null(t))
            } else {
                format_value(value)
            };
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

/// [`render`] with each `<t>` replaced by the operation's elapsed time as Terraform prints it
/// ([`elapsed_text`]: `0s`, `12s`, `1m5s`), from the events' times in milliseconds.
pub fn render_timed(r: &ApplyResult) -> String {
    let mut r = r.clone();
    crate::util::sort::sort_by_key(&mut r.events, |e| e.at_ms);
    let mut started: std::collections::HashMap<(&str, Op), u64> = std::collections::HashMap::new();
    let mut out = String::new();
    for e in &r.events {
        if e.kind == OpEventKind::Start {
            started.insert((&e.address, e.op), e.at_ms);
        }
        if let Some(l) = line(e) {
            let began = started.get(&(e.address.as_str(), e.op)).copied().unwrap_or(e.at_ms);
            out.push_str(&l.replace("<t>", &elapsed_text(e.at_ms, e.at_ms.saturating_sub(began))));
            out.push('\n');
        }
    }
    out.push_str(&summary(&r));
    out
}

/// Go's `Duration.String()` of a duration truncated to whole seconds.
pub fn go_seconds(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 {
        format!("{h}h{m}m{s}s")
    } else if m > 0 {
        format!("{m}m{s}s")
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::{elapsed_text, go_seconds, line_in};
    use crate::engine::apply::events::{OpEvent, OpEventKind};
    use crate::providers::Op;

    fn event(kind: OpEventKind, op: Op, address: &str, deposed: Option<&str>, prior_id: Option<&str>) -> OpEvent {
        OpEvent {
            at_ms: 0,
            address: address.into(),
            deposed: deposed.map(Into::into),
            op,
            prior_id: prior_id.map(Into::into),
            kind,
        }
    }

    #[test]
    fn progress_lines_in_terraforms_words() {
        let done = |id: &str| OpEventKind::Complete { id: Some(id.into()) };
        let cases = [
            (
                false,
                event(OpEventKind::Start, Op::Create, "mock_resource.a", None, None),
                Some("mock_resource.a: Creating..."),
            ),
            (
                false,
                event(done("a-1"), Op::Create, "mock_resource.a", None, None),
                Some("mock_resource.a: Creation complete after 0s [id=a-1]"),
            ),
            (
                false,
                event(OpEventKind::Start, Op::Update, "mock_resource.b", None, Some("b-1")),
                Some("mock_resource.b: Modifying... [id=b-1]"),
            ),
            (
                false,
                event(done("b-1"), Op::Update, "mock_resource.b", None, Some("b-1")),
                Some("mock_resource.b: Modifications complete after 0s [id=b-1]"),
            ),
            // The deposed key on the start line only; no id on a destruction's end.
            (
                false,
                event(OpEventKind::Start, Op::Delete, "mock_resource.c", Some("00000001"), Some("c-0")),
                Some("mock_resource.c (deposed object 00000001): Destroying... [id=c-0]"),
            ),
            (
                false,
                event(OpEventKind::Complete { id: None }, Op::Delete, "mock_resource.c", Some("00000001"), Some("c-0")),
                Some("mock_resource.c: Destruction complete after 0s"),
            ),
            (
                false,
                event(OpEventKind::Start, Op::ReadData, "data.mock_data.d", None, None),
                Some("data.mock_data.d: Reading..."),
            ),
            (
                true,
                event(done("d-1"), Op::ReadData, "data.mock_data.d", None, None),
                Some("data.mock_data.d: Read complete after 0s [id=d-1]"),
            ),
            (
                true,
                event(OpEventKind::Start, Op::Read, "mock_resource.net", None, Some("net-1")),
                Some("mock_resource.net: Refreshing state... [id=net-1]"),
            ),
            (true, event(done("net-1"), Op::Read, "mock_resource.net", None, Some("net-1")), None),
            (
                true,
                event(OpEventKind::Start, Op::Import, "mock_resource.i", None, Some("i-1")),
                Some("mock_resource.i: Preparing import... [id=i-1]"),
            ),
            (true, event(done("i-1"), Op::Import, "mock_resource.i", None, Some("i-1")), None),
            (
                false,
                event(OpEventKind::Start, Op::Import, "mock_resource.i", None, Some("i-1")),
                Some("mock_resource.i: Importing... [id=i-1]"),
            ),
            (
                false,
                event(done("i-1"), Op::Import, "mock_resource.i", None, Some("i-1")),
                Some("mock_resource.i: Import complete [id=i-1]"),
            ),
            (false, event(OpEventKind::Fail, Op::Create, "mock_resource.e", None, None), None),
            (false, event(OpEventKind::Skip, Op::Create, "mock_resource.f", None, None), None),
            (false, event(OpEventKind::Cancel, Op::Create, "mock_resource.f", None, None), None),
        ];
        for (plan, e, want) in cases {
            assert_eq!(line_in(&e, plan, "0s").as_deref(), want, "{e:?}");
        }
    }

    #[test]
    fn elapsed_times_subtract_the_rounded_start_from_the_rounded_end() {
        // 0.4 s rounds to 0; 0.4 s to 1.6 s is 2 s (Terraform rounds each time, then subtracts).
        for (end, elapsed, want) in [(400, 400, "0s"), (1600, 1200, "2s"), (700, 400, "1s"), (65_400, 65_000, "1m5s")] {
            assert_eq!(elapsed_text(end, elapsed), want, "{end} {elapsed}");
        }
    }

    #[test]
    fn durations_as_go_prints_them_truncated_to_seconds() {
        for (ms, want) in [
            (0, "0s"),
            (999, "0s"),
            (1000, "1s"),
            (59_999, "59s"),
            (60_000, "1m0s"),
            (65_400, "1m5s"),
            (3_600_000, "1h0m0s"),
            (3_725_000, "1h2m5s"),
        ] {
            assert_eq!(go_seconds(ms), want, "{ms}");
        }
    }
}
