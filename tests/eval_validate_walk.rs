#![cfg(not(target_arch = "wasm32"))]
//! `terraform plan` runs the validate walk first: a `count = 0` / `for_each = {}` resource whose
//! arguments read a missing file stops the plan with the function's error, while a file read
//! through a variable (unknown in that walk) does not. Against
//! `tests/fixtures/eval/validate-walk/`, recorded with Terraform 1.11.4 (`terraform plan -json`).
//! The walk covers local child modules (once per call) and skips blocks downstream of a failed
//! one: `tests/fixtures/eval/validate-walk-modules/`, recorded the same way.

#[path = "support/session.rs"]
mod session;

use serde_json::{json, Value};
use std::collections::BTreeMap;

#[test]
fn plan_stops_at_the_validate_walks_function_errors() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/validate-walk");
    let files: BTreeMap<String, String> =
        [("main.tf".to_string(), std::fs::read_to_string(format!("{dir}/main.tf")).unwrap())].into();
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/diagnostics.json")).unwrap()).unwrap();
    let loaded = tfgraph::load(&files, &Default::default());
    let out = session::run(&files, &loaded.config, loaded.diagnostics, &json!({"apply": false}));
    let key = |d: &Value| {
        format!("{} | {} | {} | {}", d["severity"], d["summary"], d["detail"], d["range"]["start"])
            .replace("\\\"", "\"")
    };
    let mut got: Vec<String> = out["diagnostics"].as_array().unwrap().iter().map(key).collect();
    let mut expected: Vec<String> = want["diagnostics"].as_array().unwrap().iter().map(key).collect();
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
    assert!(out["changes"].as_array().is_none_or(Vec::is_empty), "the plan went on: {}", out["planText"]);
}

/// Every `.tf` file under `dir`, keyed by its path relative to `dir`.
fn tf_files(dir: &std::path::Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            tf_files(&path, &format!("{prefix}{name}/"), out);
        } else if name.ends_with(".tf") {
            out.insert(format!("{prefix}{name}"), std::fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn the_validate_walk_covers_child_modules_and_skips_what_follows_an_error() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/validate-walk-modules");
    let mut files = BTreeMap::new();
    tf_files(std::path::Path::new(dir), "", &mut files);
    let want: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/diagnostics.json")).unwrap()).unwrap();
    let loaded = tfgraph::load(&files, &Default::default());
    let out = session::run(&files, &loaded.config, loaded.diagnostics, &json!({"apply": false}));
    let key = |d: &Value| {
        let r = &d["range"];
        format!(
            "{} | {} | {} | {}:{}:{}-{}",
            d["severity"],
            d["summary"],
            d["detail"],
            r["filename"],
            r["start"]["line"],
            r["start"]["column"],
            r["end"]["column"]
        )
    };
    let mut got: Vec<String> = out["diagnostics"].as_array().unwrap().iter().map(key).collect();
    let mut expected: Vec<String> = want["diagnostics"].as_array().unwrap().iter().map(key).collect();
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
    assert!(out["changes"].as_array().is_none_or(Vec::is_empty), "the plan went on: {}", out["planText"]);
}

/// A `for_each` known at validate and unsuitable (a set of numbers, a set holding null, a module
/// call's set of numbers) is the validate walk's error, as `terraform validate` printed it in the
/// engine scenario `for-each-set-unsuitable` (its `=== validate` sections); a null from a
/// variable is not (unknown there: the plan refuses it).
#[test]
fn the_validate_walk_refuses_a_known_unsuitable_for_each() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/engine/for-each-set-unsuitable");
    for step in ["step1", "step2", "step3", "step4"] {
        let mut files = BTreeMap::new();
        tf_files(&std::path::Path::new(root).join(step).join("config"), "", &mut files);
        let recorded = std::fs::read_to_string(format!("{root}/{step}/errors.txt")).unwrap();
        let want: Vec<String> = match recorded.split("=== validate (exit 1)\n").nth(1) {
            Some(rest) => {
                let json: Value = serde_json::from_str(rest.split("\n=== ").next().unwrap()).unwrap();
                let key = |d: &Value| format!("{} | {} | {}", d["summary"], d["detail"], d["range"]["start"]["line"]);
                json["diagnostics"].as_array().unwrap().iter().map(key).collect()
            }
            None => Vec::new(),
        };
        let loaded = tfgraph::load(&files, &Default::default());
        let got: Vec<String> = tfgraph::eval::validate::walk(&files, &loaded.config)
            .into_iter()
            .map(|d| format!("{:?} | {:?} | {}", d.summary, d.detail, d.range.map_or(0, |r| r.start.line)))
            .collect();
        assert_eq!(want.is_empty(), step == "step3", "{step}: the recording's validate section");
        assert_eq!(got, want, "{step}");
    }
}
