//! A suite's events as `terraform test` prints them (`command/views/test.go`): the human text
//! (stdout and stderr apart: errors go to stderr, the rest to stdout), the `-json` lines
//! (`views/json`), and the `-junit-xml` report (`command/junit`).

use super::runner::{Status, Suite, TestEvent};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use serde_json::Value as Json;

/// The human output: `(stdout, stderr)`.
pub fn text(suite: &Suite) -> (String, String) {
    let mut out = String::new();
    let mut err = String::new();
    let diagnostics = |diags: &Diagnostics, out: &mut String, err: &mut String| {
        for d in sorted(diags) {
            match d.severity {
                Severity::Error => err.push_str(&plain(d, 78)),
                Severity::Warning => out.push_str(&plain(d, 78)),
            }
        }
    };
    for e in &suite.events {
        match e {
            TestEvent::Diagnostics { diagnostics: d } => diagnostics(d, &mut out, &mut err),
            TestEvent::FileStart { file } => out.push_str(&format!("{file}... in progress\n")),
            TestEvent::RunComplete { run, status, diagnostics: d, verbose, .. } => {
                out.push_str(&format!("  run \"{run}\"... {}\n", human_word(*status)));
                if let Some(v) = verbose {
                    out.push_str(&v.text());
                }
                diagnostics(d, &mut out, &mut err);
                if d.iter().any(|d| d.severity == Severity::Warning) {
                    out.push('\n');
                }
            }
            TestEvent::FileTeardown { file } => out.push_str(&format!("{file}... tearing down\n")),
            TestEvent::DestroyFailed { file, run, diagnostics: d, left } => {
                let id = match run {
                    Some(r) => format!("{file}/{r}"),
                    None => file.clone(),
                };
                if d.has_errors() {
                    err.push_str(&crate::plans::render_human::word_wrap(
                        &format!("Terraform encountered an error destroying resources created while executing {id}.\n"),
                        78,
                    ));
                }
                diagnostics(d, &mut out, &mut err);
                if !left.is_empty() {
                    err.push_str(&crate::plans::render_human::word_wrap(&format!("\nTerraform left the following resources in state after executing {id}, and they need to be cleaned up manually:\n"), 78));
                    for a in left {
                        err.push_str(&format!("  - {a}\n"));
                    }
                }
            }
            TestEvent::FileComplete { file, status, diagnostics: d } => {
                out.push_str(&format!("{file}... {}\n", human_word(*status)));
                diagnostics(d, &mut out, &mut err);
            }
            TestEvent::Conclusion { .. } => out.push_str(&conclusion(suite)),
            TestEvent::Abstract { .. } | TestEvent::RunStart { .. } | TestEvent::RunTeardown { .. } => {}
        }
    }
    (out, err)
}

/// Diagnostics in the order Terraform's human view prints them (`tfdiags` `Sort`): warnings
/// first, those without a range first, then by file (fewer path segments first) and position.
pub fn sorted(diags: &Diagnostics) -> Vec<&Diagnostic> {
    let mut v: Vec<&Diagnostic> = diags.iter().collect();
    crate::util::sort::sort_by(&mut v, |a, b| {
        let sev = |d: &Diagnostic| if d.severity == Severity::Warning { 0 } else { 1 };
        sev(a).cmp(&sev(b)).then_with(|| match (&a.range, &b.range) {
            (None, None) => std::cmp::Ordering::Equal,
            (None, Some(_)) => std::cmp::Ordering::Less,
            (Some(_), None) => std::cmp::Ordering::Greater,
            (Some(x), Some(y)) if x.filename != y.filename => {
                let n = |f: &str| f.matches('/').count();
                n(&x.filename).cmp(&n(&y.filename)).then_with(|| x.filename.cmp(&y.filename))
            }
            (Some(x), Some(y)) => x.start.byte.cmp(&y.start.byte).then(x.end.byte.cmp(&y.end.byte)),
        })
    });
    v
}

fn human_word(s: Status) -> &'static str {
    match s {
        Status::Error => "fail",
        other => other.word(),
    }
}

/// The counts of every run's status.
fn counts(suite: &Suite) -> (usize, usize, usize, usize) {
    let (mut pass, mut fail, mut error, mut skip) = (0, 0, 0, 0);
    for f in &suite.files {
        for r in &f.runs {
            match r.status {
                Status::Pass => pass += 1,
                Status::Fail => fail += 1,
                Status::Error => error += 1,
                Status::Skip => skip += 1,
                Status::Pending => {}
            }
        }
    }
    (pass, fail, error, skip)
}

/// `Success! 3 passed, 0 failed.` and its kin, with the blank line before it.
fn conclusion(suite: &Suite) -> String {
    let (pass, fail, error, skip) = counts(suite);
    let mut s = String::from("\n");
    if suite.status <= Status::Skip {
        s.push_str("Executed 0 tests");
        if skip > 0 {
            s.push_str(&format!(", {skip} skipped.\n"));
        } else {
            s.push_str(".\n");
        }
        return s;
    }
    s.push_str(if suite.status == Status::Pass { "Success!" } else { "Failure!" });
    s.push_str(&format!(" {pass} passed, {} failed", fail + error));
    if skip > 0 {
        s.push_str(&format!(", {skip} skipped.\n"));
    } else {
        s.push_str(".\n");
    }
    s
}

fn conclusion_line(suite: &Suite) -> String {
    conclusion(suite).trim().to_string()
}

/// A JSON object from `(key, value)` pairs. Every object the runner writes is made here: the
/// `json!` macro expanded each key inline, with typed values through serde's value serializer.
pub(super) fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

pub(super) fn s(v: &str) -> Json {
    Json::String(v.to_string())
}

pub(super) fn diags(d: &Diagnostics) -> Json {
    serde_json::to_value(d).unwrap_or_default()
}

/// A file or run event as both its `onEvent` object (`api::event`) and its `-json` line are
/// made from it.
pub(super) struct Progress<'a> {
    /// `file` or `run`.
    pub kind: &'static str,
    pub file: &'a str,
    pub run: Option<&'a str>,
    /// `starting`, `complete` or `teardown`.
    pub progress: &'static str,
    pub status: Option<Status>,
    pub diagnostics: Option<&'a Diagnostics>,
}

pub(super) fn progress(e: &TestEvent) -> Option<Progress<'_>> {
    let (kind, file, run, progress, status, diagnostics) = match e {
        TestEvent::FileStart { file } => ("file", file, None, "starting", None, None),
        TestEvent::RunStart { file, run } => ("run", file, Some(run), "starting", None, None),
        TestEvent::RunComplete { file, run, status, diagnostics, .. } => {
            ("run", file, Some(run), "complete", Some(*status), Some(diagnostics))
        }
        TestEvent::FileTeardown { file } => ("file", file, None, "teardown", None, None),
        TestEvent::RunTeardown { file, run } => ("run", file, Some(run), "teardown", None, None),
        TestEvent::FileComplete { file, status, diagnostics } => {
            ("file", file, None, "complete", Some(*status), Some(diagnostics))
        }
        _ => return None,
    };
    Some(Progress { kind, file, run: run.map(String::as_str), progress, status, diagnostics })
}

impl Progress<'_> {
    /// The fields both renderings have: the file (under `file_key`), run, progress and status.
    pub fn fields(&self, file_key: &'static str) -> Vec<(&'static str, Json)> {
        let mut v = vec![(file_key, s(self.file)), ("progress", s(self.progress))];
        if let Some(r) = self.run {
            v.push(("run", s(r)));
        }
        if let Some(st) = self.status {
            v.push(("status", s(st.word())));
        }
        v
    }

    /// The `-json` line's fields (`test_file` / `test_run`).
    fn json_line(&self) -> Vec<(&'static str, Json)> {
        let mut inner = self.fields("path");
        let word = match self.progress {
            "starting" => "in progress",
            "teardown" => "tearing down",
            _ => human_word(self.status.unwrap_or(Status::Pending)),
        };
        let (message, kind) = match self.run {
            Some(r) => {
                if self.progress != "complete" {
                    inner.push(("elapsed", Json::from(0)));
                }
                (format!("  \"{r}\"... {word}"), "test_run")
            }
            None => (format!("{}... {word}", self.file), "test_file"),
        };
        let mut v = vec![
            ("@level", s("info")),
            ("@message", Json::String(message)),
            ("@testfile", s(self.file)),
            (kind, obj(inner)),
            ("type", s(kind)),
        ];
        if let Some(r) = self.run {
            v.push(("@testrun", s(r)));
        }
        v
    }
}

/// A diagnostic's `-json` line.
fn diag_line(d: &Diagnostic, file: Option<&str>, run: Option<&str>) -> Vec<(&'static str, Json)> {
    let (level, word) = if d.severity == Severity::Error { ("error", "Error") } else { ("warn", "Warning") };
    let mut v = vec![
        ("@level", s(level)),
        ("@message", Json::String(format!("{word}: {}", d.summary))),
        ("diagnostic", serde_json::to_value(d).unwrap_or_default()),
        ("type", s("diagnostic")),
    ];
    if let Some(f) = file {
        v.push(("@testfile", s(f)));
    }
    if let Some(r) = run {
        v.push(("@testrun", s(r)));
    }
    v
}

/// The `-json` lines (without timestamps when `timestamp` is `None`).
pub fn json_lines(suite: &Suite, version: &str, timestamp: Option<&dyn Fn() -> String>) -> Vec<Json> {
    let mut lines = Vec::new();
    let mut push = |mut pairs: Vec<(&'static str, Json)>| {
        pairs.push(("@module", s("terraform.ui")));
        if let Some(ts) = timestamp {
            pairs.push(("@timestamp", Json::String(ts())));
        }
        lines.push(obj(pairs));
    };
    push(vec![
        ("@level", s("info")),
        ("@message", Json::String(format!("tfgraph {version}"))),
        ("terraform", s(version)),
        ("type", s("version")),
        ("ui", s("1.2")),
    ]);
    for e in &suite.events {
        if let Some(p) = progress(e) {
            push(p.json_line());
            // `-verbose`: the run's plan or state, before its diagnostics.
            if let (TestEvent::RunComplete { verbose: Some(v), .. }, Some(run)) = (e, p.run) {
                let (message, key, value) = v.json_line();
                push(vec![
                    ("@level", s("info")),
                    ("@message", s(message)),
                    ("@testfile", s(p.file)),
                    ("@testrun", s(run)),
                    (key, value.clone()),
                    ("type", s(key)),
                ]);
            }
            for d in p.diagnostics.into_iter().flat_map(|d| d.iter()) {
                push(diag_line(d, Some(p.file), p.run));
            }
            continue;
        }
        match e {
            TestEvent::Abstract { files } => {
                let runs: usize = files.iter().map(|f| f.1.len()).sum();
                let message = format!(
                    "Found {} file{} and {} run block{}",
                    files.len(),
                    if files.len() == 1 { "" } else { "s" },
                    runs,
                    if runs == 1 { "" } else { "s" }
                );
                let abs = files.iter().map(|(f, r)| (f.clone(), Json::Array(r.iter().map(|x| s(x)).collect())));
                push(vec![
                    ("@level", s("info")),
                    ("@message", Json::String(message)),
                    ("test_abstract", Json::Object(abs.collect())),
                    ("type", s("test_abstract")),
                ]);
            }
            TestEvent::Diagnostics { diagnostics } => {
                for d in diagnostics.iter() {
                    push(diag_line(d, None, None));
                }
            }
            TestEvent::DestroyFailed { file, run, diagnostics, left } => {
                for d in diagnostics.iter() {
                    push(diag_line(d, Some(file), run.as_deref()));
                }
                if !left.is_empty() {
                    let failed = left.iter().map(|a| obj(vec![("instance", s(a))])).collect();
                    let mut v = vec![
                        ("@level", s("error")),
                        ("@message", Json::String(format!("Terraform left some resources in state after executing {file}, they need to be cleaned up manually."))),
                        ("@testfile", s(file)),
                        ("test_cleanup", obj(vec![("failed_resources", Json::Array(failed))])),
                        ("type", s("test_cleanup")),
                    ];
                    if let Some(r) = run {
                        v.push(("@testrun", s(r)));
                    }
                    push(v);
                }
            }
            TestEvent::Conclusion { status } => {
                let (pass, fail, error, skip) = counts(suite);
                let summary = vec![
                    ("status", s(status.word())),
                    ("passed", Json::from(pass)),
                    ("failed", Json::from(fail)),
                    ("errored", Json::from(error)),
                    ("skipped", Json::from(skip)),
                ];
                push(vec![
                    ("@level", s("info")),
                    ("@message", Json::String(conclusion_line(suite))),
                    ("test_summary", obj(summary)),
                    ("type", s("test_summary")),
                ]);
            }
            _ => {}
        }
    }
    lines
}

/// The JUnit XML report, as `-junit-xml` writes it (run times and timestamps left out when
/// `times` gives none).
pub fn junit_xml(suite: &Suite, times: Option<&dyn Fn(&str, &str) -> Option<(f64, String)>>) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?><testsuites>");
    for f in &suite.files {
        let count = |st: Status| f.runs.iter().filter(|r| r.status == st).count();
        s.push_str(&format!(
            "\n  <testsuite name=\"{}\" tests=\"{}\" skipped=\"{}\" failures=\"{}\" errors=\"{}\">",
            attr(&f.path),
            f.runs.len(),
            count(Status::Skip),
            count(Status::Fail),
            count(Status::Error)
        ));
        let file_errors = f.status == Status::Error && f.diagnostics.has_errors();
        for (i, r) in f.runs.iter().enumerate() {
            let mut head = format!("\n    <testcase name=\"{}\" classname=\"{}\"", attr(&r.name), attr(&f.path));
            if r.status != Status::Skip {
                if let Some((secs, ts)) = times.and_then(|t| t(&f.path, &r.name)) {
                    head.push_str(&format!(" time=\"{secs}\" timestamp=\"{ts}\""));
                }
            }
            head.push('>');
            let mut body = String::new();
            match r.status {
                Status::Skip => {
                    let prior = if f.status == Status::Error {
                        f.runs[..=i].iter().rev().find(|p| p.status == Status::Error)
                    } else {
                        None
                    };
                    match (prior, file_errors) {
                        (Some(p), _) => body.push_str(&format!(
                            "\n      <skipped message=\"Testcase skipped due to a previous testcase error\"><![CDATA[Previous testcase \"{}\" ended in error, which caused the remaining tests in the file to be skipped]]></skipped>\n    ",
                            p.name.replace('"', "\\\"")
                        )),
                        (None, true) => body.push_str("\n      <skipped message=\"Testcase skipped due to file-level errors\"></skipped>\n    "),
                        (None, false) => body.push_str("\n      <skipped></skipped>\n    "),
                    }
                }
                Status::Fail => {
                    let failed: Vec<&Diagnostic> =
                        r.diagnostics.iter().filter(|d| d.summary == "Test assertion failed").collect();
                    let asserts = r.asserts;
                    let message = match failed.len() {
                        0 => String::new(),
                        1 => format!("1 of {asserts} assertions failed: {}", failed[0].detail),
                        n => format!("{n} of {asserts} assertions failed, including: {}", failed[0].detail),
                    };
                    let text: String = failed.iter().map(|d| plain(d, 80)).collect();
                    let message_attr =
                        if message.is_empty() { String::new() } else { format!(" message=\"{}\"", attr(&message)) };
                    body.push_str(&format!("\n      <failure{message_attr}><![CDATA[{}]]></failure>", cdata(&text)));
                }
                Status::Error => {
                    let text: String =
                        r.diagnostics.iter().filter(|d| d.severity == Severity::Error).map(|d| plain(d, 80)).collect();
                    body.push_str(&format!(
                        "\n      <error message=\"Encountered an error\"><![CDATA[{}]]></error>",
                        cdata(&text)
                    ));
                }
                Status::Pass | Status::Pending => {}
            }
            let stderr: Vec<&Diagnostic> = match r.status {
                Status::Error => r.diagnostics.iter().filter(|d| d.severity == Severity::Warning).collect(),
                Status::Skip => Vec::new(),
                _ => r.diagnostics.iter().filter(|d| d.summary != "Test assertion failed").collect(),
            };
            if !stderr.is_empty() {
                let text: String = stderr.iter().map(|d| plain(d, 80)).collect();
                body.push_str(&format!("\n      <system-err><![CDATA[{}]]></system-err>", cdata(&text)));
            }
            if !body.is_empty() && !body.ends_with("    ") {
                body.push_str("\n    ");
            }
            s.push_str(&head);
            s.push_str(&body);
            s.push_str("</testcase>");
        }
        if file_errors {
            let text: String = f.diagnostics.iter().map(|d| plain(d, 80)).collect();
            s.push_str(&format!("\n    <system-err><![CDATA[{}]]></system-err>", cdata(&text)));
        }
        s.push_str("\n  </testsuite>");
    }
    s.push_str("\n</testsuites>");
    s
}

/// Go's `xml.EscapeText`, which Terraform's JUnit writer uses for attributes.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
        .replace('\t', "&#x9;")
        .replace('\n', "&#xA;")
        .replace('\r', "&#xD;")
}

fn cdata(s: &str) -> String {
    s.replace("]]>", "]]]]><![CDATA[>")
}

/// `format.DiagnosticPlain` at `width` columns (the detail wrapped to `width - 1`).
pub fn plain(d: &Diagnostic, width: usize) -> String {
    let text = crate::engine::shared::snippets::plain(d);
    if width == 78 || d.detail.is_empty() {
        return text;
    }
    // The detail is the text's tail: wrap it again at the wider width.
    let narrow = crate::plans::render_human::word_wrap(&d.detail, 78);
    let wide = crate::plans::render_human::word_wrap(&d.detail, width);
    match text.strip_suffix(&format!("{narrow}\n")) {
        Some(head) => format!("{head}{wide}\n"),
        None => text,
    }
}
