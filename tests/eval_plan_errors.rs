#![cfg(not(target_arch = "wasm32"))]
//! Plans of small configurations against what Terraform did with them, recorded by
//! `tests/fixtures/eval/plan-errors/record.py` from `cases.txt` (Terraform 1.11.4; each case
//! needs only the built-in `terraform_data`): the validate walk's errors, the plan's errors
//! (summary, detail, range and the snippet's values) and the planned instances (address,
//! actions, import id). Issue #25: invalid `count` forms on resources and module calls,
//! sensitive `for_each`, an import block's `for_each` keys, and the values a diagnostic's
//! snippet shows.

#[path = "support/session.rs"]
mod session;

use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Cases recorded from Terraform that tfgraph still plans differently, and why. Each must
/// still differ (the test says when one no longer does, to be taken off this list).
const GAPS: &[(&str, &str)] = &[(
    "snippet-values-sensitive-module-output",
    "Terraform reads a child's sensitive output unmarked in the parent and shows it; tfgraph \
         marks it sensitive and leaves it out",
)];

fn recorded() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/plan-errors/recorded.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A recorded diagnostic as one comparable line.
fn want_line(d: &Value) -> String {
    let r = &d["range"];
    let values: Vec<&str> = d["values"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    format!(
        "{} | {} | {} | {}:{}-{}:{} | {}",
        d["summary"].as_str().unwrap(),
        d["detail"].as_str().unwrap(),
        r["filename"].as_str().unwrap_or(""),
        r["start"][0],
        r["start"][1],
        r["end"][0],
        r["end"][1],
        values.join("; ")
    )
}

/// One of our diagnostics (the engine's JSON) as the same line.
fn got_line(d: &Value) -> String {
    let r = &d["range"];
    let values: Vec<String> = d["snippet"]["values"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| format!("{} {}", v["traversal"].as_str().unwrap(), v["statement"].as_str().unwrap()))
        .collect();
    let pos = |p: &Value| if p.is_null() { "null:null".to_string() } else { format!("{}:{}", p["line"], p["column"]) };
    let (start, end) = (pos(&r["start"]), pos(&r["end"]));
    format!(
        "{} | {} | {} | {start}-{end} | {}",
        d["summary"].as_str().unwrap(),
        d["detail"].as_str().unwrap(),
        r["filename"].as_str().unwrap_or(""),
        values.join("; ")
    )
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Every case planned as Terraform planned it; the cases whose names start with `only` (all
/// when empty). Failures are collected so that one run lists every difference.
fn check(only: &str) -> usize {
    let recorded = recorded();
    let mut failures = Vec::new();
    let mut n = 0;
    for (name, case) in recorded["cases"].as_object().unwrap() {
        if !name.starts_with(only) {
            continue;
        }
        n += 1;
        let before = failures.len();
        compare(name, case, &mut failures);
        let gap = GAPS.iter().any(|(g, _)| g == name);
        match (gap, failures.len() > before) {
            (true, true) => drop(failures.drain(before..)),
            (true, false) => failures.push(format!("{name}: now planned as Terraform plans it: take it off GAPS")),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{} of {n} cases differ:\n{}", failures.len(), failures.join("\n"));
    n
}

/// One case against its recording; each difference pushed to `failures`.
fn compare(name: &str, case: &Value, failures: &mut Vec<String>) {
    let files: BTreeMap<String, String> =
        case["files"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string())).collect();
    let loaded = tfgraph::load(&files, &Default::default());
    // The validate walk: what stops a plan before it starts.
    let mut validate_diags = tfgraph::config::static_refs::check(&loaded.config);
    validate_diags.extend(tfgraph::eval::validate::walk(&files, &loaded.config));
    let validate: Vec<String> = validate_diags
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| got_line(&serde_json::to_value(&d).unwrap()))
        .map(|l| l.rsplit_once(" | ").unwrap().0.to_string())
        .collect();
    let want_validate: Vec<String> = case["validate"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| want_line(d).rsplit_once(" | ").unwrap().0.to_string())
        .collect();
    if sorted(validate.clone()) != sorted(want_validate.clone()) {
        failures.push(format!("{name}: validate\n  got  {validate:#?}\n  want {want_validate:#?}"));
    }
    let out = session::run(&files, &loaded.config, loaded.diagnostics, &json!({"apply": false}));
    let got: Vec<String> =
        out["diagnostics"].as_array().unwrap().iter().filter(|d| d["severity"] == "error").map(got_line).collect();
    let want: Vec<String> = case["plan"].as_array().unwrap().iter().map(want_line).collect();
    if sorted(got.clone()) != sorted(want.clone()) {
        failures.push(format!("{name}: plan\n  got  {got:#?}\n  want {want:#?}"));
    }
    if let Some(instances) = case.get("instances") {
        let got: Vec<Value> = out["plan"]["resource_changes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|rc| {
                let mut inst = json!({"address": rc["address"], "actions": rc["change"]["actions"]});
                if let Some(id) = rc["change"]["importing"].get("id") {
                    inst["import_id"] = id.clone();
                }
                inst
            })
            .collect();
        if &Value::Array(got.clone()) != instances {
            failures.push(format!("{name}: instances\n  got  {got:?}\n  want {instances}"));
        }
    }
}

/// `count` null, negative, fractional, too large, a string, a bool, a list, unknown or
/// sensitive, on a resource and on a module call (nested too), with Terraform's errors and
/// ranges, at validate when the value is known there; and a sensitive `for_each`.
#[test]
fn invalid_count_and_for_each_as_terraform_refuses_them() {
    assert!(check("count-") >= 14);
    assert!(check("module-") >= 9);
    assert!(check("nested-") >= 1);
    assert!(check("for-each-") >= 1);
}

/// An import block's `for_each`: a list or tuple keyed by index, a set by its elements, a map
/// by its keys (`ImportValues`: cty's element iterator); null imports nothing; a string or an
/// unknown element is refused.
#[test]
fn import_for_each_keys_as_terraform_makes_them() {
    assert!(check("import-") >= 10);
}

/// The values under a diagnostic's snippet: every kind of value from every kind of reference.
#[test]
fn snippet_values_as_terraform_shows_them() {
    assert!(check("snippet-") >= 4);
}
