#![cfg(not(target_arch = "wasm32"))]
//! The loader's rules for condition blocks (src/config/validate_checks.rs) against
//! `terraform validate -json` 1.11.4 on the same files (tests/fixtures/config/check-rules and
//! check-rules-json): every diagnostic's severity, summary, detail and range, in Terraform's
//! order.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;
use tfgraph::config::{load, LoadOptions};

/// The fields both sides have (Terraform adds a snippet; the loader leaves that to its callers).
fn comparable(d: &Value) -> Value {
    json!({ "severity": d["severity"], "summary": d["summary"], "detail": d["detail"], "range": d["range"] })
}

#[track_caller]
fn check(case: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/config").join(case);
    let mut files = BTreeMap::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".tf") || name.ends_with(".tf.json") {
            files.insert(name.clone(), std::fs::read_to_string(dir.join(&name)).unwrap());
        }
    }
    let loaded = load(&files, &LoadOptions::default());
    let got: Vec<Value> = loaded.diagnostics.iter().map(|d| comparable(&serde_json::to_value(d).unwrap())).collect();
    let want: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("validate.json")).unwrap()).unwrap();
    let want: Vec<Value> = want["diagnostics"].as_array().unwrap().iter().map(comparable).collect();
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "{case}: diagnostic {i}");
    }
    assert_eq!(got.len(), want.len(), "{case}: got {got:#?}");
}

/// Conditions that refer to nothing, validations without their variable, checks left without
/// asserts, resources' conditions naming their own resource, an output's postcondition.
#[test]
fn condition_blocks() {
    check("check-rules");
}

/// The same in a JSON file: a literal condition, a string that is a template without
/// interpolation.
#[test]
fn condition_blocks_json() {
    check("check-rules-json");
}

/// An override file's validation, precondition, postcondition and check blocks: Terraform
/// refuses each rather than replace the primary file's.
#[test]
fn override_file_conditions() {
    check("override-conditions");
}

/// Snippets as the plan and the CLI attach them, whole: in a JSON file the context is the path
/// of keys and indexes (`variable.v.validation[0]`), HCL's JSON ContextString.
#[test]
fn condition_blocks_json_snippets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/config/check-rules-json");
    let name = "main.tf.json";
    let files = BTreeMap::from([(name.to_string(), std::fs::read_to_string(dir.join(name)).unwrap())]);
    let loaded = load(&files, &LoadOptions::default());
    let diags =
        tfgraph::engine::shared::snippets::with_sources(loaded.diagnostics, &tfgraph::eval::MapFilesystem(&files));
    let got: Vec<Value> = diags.iter().map(|d| serde_json::to_value(d).unwrap()).collect();
    let want: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("validate.json")).unwrap()).unwrap();
    assert_eq!(&Value::Array(got), &want["diagnostics"]);
}
