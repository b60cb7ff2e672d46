#![cfg(not(target_arch = "wasm32"))]
//! The evaluator end to end: expressions evaluated in a loaded root module and rendered as
//! `terraform console` prints them. Expected texts in `tests/fixtures/eval/console.json` were
//! recorded with `terraform console` (1.11.4) in a folder holding the fixture's `main.tf`.

use std::collections::BTreeMap;
use tfgraph::config::{load, LoadOptions};
use tfgraph::eval::{evaluate, render, EvalOptions};

fn fixture() -> serde_json::Value {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/console.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn files(j: &serde_json::Value) -> BTreeMap<String, String> {
    j["files"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string())).collect()
}

#[test]
fn renders_as_terraform_console() {
    let j = fixture();
    let files = files(&j);
    let loaded = load(&files, &LoadOptions { root: String::new() });
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    let mut failures = Vec::new();
    let cases = j["cases"].as_array().unwrap();
    for c in cases {
        let expr = c["expr"].as_str().unwrap();
        let want = c["rendered"].as_str().unwrap();
        let got = evaluate(&files, &loaded.config, expr, &EvalOptions::default());
        match got.value {
            Some(v) => {
                let text = render::console(&v);
                if text != want {
                    failures.push(format!("{expr}\n  want {want:?}\n  got  {text:?}"));
                }
            }
            None => failures.push(format!("{expr}: {:?}", got.diagnostics)),
        }
    }
    assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
    eprintln!("{} console cases match", cases.len());
}

#[test]
fn unsupported_attribute_is_diagnosed() {
    let j = fixture();
    let files = files(&j);
    let loaded = load(&files, &LoadOptions { root: String::new() });
    let got = evaluate(&files, &loaded.config, "local.m.z", &EvalOptions::default());
    assert!(got.value.is_none());
    let d = format!("{:?}", got.diagnostics);
    assert!(d.contains("Unsupported attribute"), "{d}");
    assert!(d.contains("This object does not have an attribute named \\\"z\\\"."), "{d}");
}

#[test]
fn resource_attributes_are_unknown_without_state() {
    let mut files = BTreeMap::new();
    files.insert("main.tf".to_string(), "resource \"aws_instance\" \"web\" {}\n".to_string());
    let loaded = load(&files, &LoadOptions { root: String::new() });
    let got = evaluate(&files, &loaded.config, "aws_instance.web.id", &EvalOptions::default());
    let v = got.value.unwrap_or_else(|| panic!("{:?}", got.diagnostics));
    assert_eq!(render::console(&v), "(known after apply)");
    // An unknown condition: the result is unknown too (of the unified type).
    let got = evaluate(&files, &loaded.config, "aws_instance.web.id == \"\" ? 1 : 2", &EvalOptions::default());
    assert_eq!(render::console(&got.value.unwrap()), "(known after apply)");
}

/// Terraform 1.x writes no `each` in state; a count resource is still a list of its instances.
/// The expected value is the output Terraform itself computed from the same expression.
#[test]
fn count_resources_from_a_state_without_each_are_lists() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/engine/count-shrink/step1");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/state.tfstate")).unwrap()).unwrap();
    assert!(
        state["resources"].as_array().unwrap().iter().all(|r| r.get("each").is_none()),
        "the fixture must be a state without `each`"
    );
    let mut files = BTreeMap::new();
    files.insert("main.tf".to_string(), std::fs::read_to_string(format!("{dir}/config/main.tf")).unwrap());
    let loaded = load(&files, &LoadOptions { root: String::new() });
    let options = EvalOptions { state: Some(state.clone()), ..EvalOptions::default() };
    let json = |expr: &str| {
        let got = evaluate(&files, &loaded.config, expr, &options);
        let v = got.value.unwrap_or_else(|| panic!("{expr}: {:?}", got.diagnostics));
        let text = tfgraph::eval::render::to_json_text(&v).unwrap_or_else(|| panic!("{expr}: not JSON"));
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    };
    assert_eq!(json("mock_resource.node[*].id"), state["outputs"]["ids"]["value"]);
    assert_eq!(json("mock_resource.node[1].name"), serde_json::json!("node-1"));
    assert_eq!(json("length(mock_resource.node)"), serde_json::json!(4));
    assert_eq!(json("mock_resource.agg.name"), serde_json::json!("agg"));
}

#[test]
fn a_whole_object_named_alone_is_diagnosed() {
    let j = fixture();
    let files = files(&j);
    let loaded = load(&files, &LoadOptions { root: String::new() });
    for root in ["var", "local"] {
        let got = evaluate(&files, &loaded.config, root, &EvalOptions::default());
        assert!(got.value.is_none());
        let d = format!("{:?}", got.diagnostics);
        assert!(d.contains("Invalid reference"), "{d}");
        let detail =
            format!("The \\\"{root}\\\" object cannot be accessed directly. Instead, access one of its attributes.");
        assert!(d.contains(&detail), "{d}");
    }
}
