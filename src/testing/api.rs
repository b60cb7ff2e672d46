//! The package's `test(files, options)` in JSON: the options read, the suite written (each
//! file's and run's status, diagnostics, outputs and state, the text, the `-json` lines, the
//! JUnit XML, the exit code), and each event as `onEvent` receives it.

use super::report;
use super::runner::{self, Event, Options, Suite};
use serde_json::{json, Value as Json};
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
pub fn event(e: &Event) -> Json {
    match e {
        Event::Abstract { files } => {
            json!({"type": "abstract", "files": files.iter().map(|(f, r)| json!({"path": f, "runs": r})).collect::<Vec<_>>()})
        }
        Event::FileStart { file } => json!({"type": "file", "file": file, "progress": "starting"}),
        Event::RunStart { file, run } => json!({"type": "run", "file": file, "run": run, "progress": "starting"}),
        Event::RunComplete { file, run, status, diagnostics, .. } => {
            json!({"type": "run", "file": file, "run": run, "progress": "complete", "status": status.word(), "diagnostics": diagnostics})
        }
        Event::FileTeardown { file } => json!({"type": "file", "file": file, "progress": "teardown"}),
        Event::RunTeardown { file, run } => json!({"type": "run", "file": file, "run": run, "progress": "teardown"}),
        Event::DestroyFailed { file, run, diagnostics, left } => {
            json!({"type": "cleanup", "file": file, "run": run, "diagnostics": diagnostics, "left": left})
        }
        Event::FileComplete { file, status, diagnostics } => {
            json!({"type": "file", "file": file, "progress": "complete", "status": status.word(), "diagnostics": diagnostics})
        }
        Event::Conclusion { status } => json!({"type": "summary", "status": status.word()}),
        Event::Diagnostics { diagnostics } => json!({"type": "diagnostics", "diagnostics": diagnostics}),
    }
}

/// The suite as the package returns it.
pub fn suite(s: &Suite, version: &str) -> Json {
    let (stdout, stderr) = report::text(s);
    let files: Vec<Json> = s
        .files
        .iter()
        .map(|f| {
            json!({
                "path": f.path,
                "status": f.status.word(),
                "diagnostics": f.diagnostics,
                "runs": f.runs.iter().map(|r| json!({
                    "name": r.name,
                    "status": r.status.word(),
                    "diagnostics": r.diagnostics,
                    "outputs": r.outputs,
                    "stateKey": r.state_key,
                    "state": r.state,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "status": s.status.word(),
        "exitCode": s.exit_code(),
        "files": files,
        "diagnostics": s.diagnostics,
        "stdout": stdout,
        "stderr": stderr,
        "json": report::json_lines(s, version, None),
        "junit": report::junit_xml(s, None),
    })
}

/// Runs the tests of `files` with the package's options, telling `on_event` each event.
pub fn run(files: &BTreeMap<String, String>, options_json: &Json, on_event: &mut dyn FnMut(Json)) -> Json {
    let o = options(options_json);
    let s = runner::run(files, &o, &mut |e| on_event(event(e)));
    suite(&s, env!("CARGO_PKG_VERSION"))
}
