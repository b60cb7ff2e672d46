#![cfg(not(target_arch = "wasm32"))]
//! The evaluator end to end: expressions evaluated in a loaded root module and rendered as
//! `terraform console` prints them. Expected texts in `tests/fixtures/eval/console.json` were
//! recorded with `terraform console` (1.11.4) in a folder holding the fixture's `main.tf`.

use std::collections::BTreeMap;
use tfgraph::config::{load, LoadOptions};
use tfgraph::eval::{evaluate, render, EvalOptions};

fn fixture() -> serde_json::Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/console.json")).unwrap();
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
