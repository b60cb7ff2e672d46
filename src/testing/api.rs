//! The package's `test(files, options)` in JSON: the options read, the suite written (each
//! file's and run's status, diagnostics, outputs and state, the text, the `-json` lines, the
//! JUnit XML, the exit code), and each event as `onEvent` receives it.

use super::report;
use super::runner::{self, Options, Suite, TestEvent};
use report::{diags, obj, s};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// `{ variables, varFiles: { path: text }, filter, testDirectory, verbose }`.
pub fn options(j: &Json) -> Options {
    let strings = |key: &str| -> Vec<String> {
        j.get(key).and_then(Json::as_array).into_iter().flatten().filter_map(|v| v.as_str().map(String::from)).collect()
    };
    Options {
        variables: j
            .get("variables")
            .and_then(Json::as_object)
            .map(|m| crate::util::sort::btree_map(m.clone()))
            .unwrap_or_default(),
        var_files: match j.get("varFiles") {
            Some(Json::Object(m)) => {
                m.iter().filter_map(|(k, v)| v.as_str().map(|t| (k.clone(), t.to_string()))).collect()
            }
            Some(Json::Array(list)) => list
                .iter()
                .filter_map(|e| Some((e.get("path")?.as_str()?.to_string(), e.get("text")?.as_str()?.to_string())))
                .collect(),
            _ => Vec::new(),
        },
        filter: strings("filter"),
        test_directory: j.get("testDirectory").and_then(Json::as_str).map(String::from),
        verbose: j.get("verbose").and_then(Json::as_bool).unwrap_or(false),
    }
}

/// An event as `onEvent` receives it.
pub fn event(e: &TestEvent) -> Json {
    if let Some(p) = report::progress(e) {
        let mut v = p.fields("file");
        v.push(("type", s(p.kind)));
        if let Some(d) = p.diagnostics {
            v.push(("diagnostics", diags(d)));
        }
        return obj(v);
    }
    obj(match e {
        TestEvent::Abstract { files } => {
            let files = files
                .iter()
                .map(|(f, r)| obj(vec![("path", s(f)), ("runs", Json::Array(r.iter().map(|x| s(x)).collect()))]))
                .collect();
            vec![("type", s("abstract")), ("files", Json::Array(files))]
        }
        TestEvent::DestroyFailed { file, run, diagnostics, left } => vec![
            ("type", s("cleanup")),
            ("file", s(file)),
            ("run", run.as_deref().map_or(Json::Null, s)),
            ("diagnostics", diags(diagnostics)),
            ("left", Json::Array(left.iter().map(|a| s(a)).collect())),
        ],
        TestEvent::Conclusion { status } => vec![("type", s("summary")), ("status", s(status.word()))],
        TestEvent::Diagnostics { diagnostics } => vec![("type", s("diagnostics")), ("diagnostics", diags(diagnostics))],
        // The file and run events are above.
        _ => Vec::new(),
    })
}

/// The suite as the package returns it.
pub fn suite(s_: &Suite, version: &str) -> Json {
    let (stdout, stderr) = report::text(s_);
    let opt = |j: &Option<Json>| j.clone().unwrap_or(Json::Null);
    let files = s_
        .files
        .iter()
        .map(|f| {
            let runs = f
                .runs
                .iter()
                .map(|r| {
                    obj(vec![
                        ("name", s(&r.name)),
                        ("status", s(r.status.word())),
                        ("diagnostics", diags(&r.diagnostics)),
                        ("outputs", opt(&r.outputs)),
                        ("stateKey", s(&r.state_key)),
                        ("state", r.state.as_deref().cloned().unwrap_or(Json::Null)),
                    ])
                })
                .collect();
            obj(vec![
                ("path", s(&f.path)),
                ("status", s(f.status.word())),
                ("diagnostics", diags(&f.diagnostics)),
                ("runs", Json::Array(runs)),
            ])
        })
        .collect();
    obj(vec![
        ("status", s(s_.status.word())),
        ("exitCode", Json::from(s_.exit_code())),
        ("files", Json::Array(files)),
        ("diagnostics", diags(&s_.diagnostics)),
        ("stdout", Json::String(stdout)),
        ("stderr", Json::String(stderr)),
        ("json", Json::Array(report::json_lines(s_, version, None))),
        ("junit", Json::String(report::junit_xml(s_, None))),
    ])
}

/// Runs the tests of `files` with the package's options, telling `on_event` each event.
pub fn run(files: &BTreeMap<String, String>, options_json: &Json, on_event: &mut dyn FnMut(Json)) -> Json {
    let o = options(options_json);
    let s = runner::run(files, &o, &mut |e| on_event(event(e)));
    suite(&s, env!("CARGO_PKG_VERSION"))
}
