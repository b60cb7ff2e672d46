#![cfg(not(target_arch = "wasm32"))]
//! cty's value JSON (`eval::value_json`): numbers beyond 2^53 (and beyond u64) reach the plan
//! JSON and the state digit for digit, as Terraform writes them (cty marshals a number's exact
//! decimal text), and read back from the state they plan no change.

#[path = "support/session.rs"]
mod session;

use serde_json::{json, Value};
use std::collections::BTreeMap;
use tfgraph::eval::value_json;

const BIG: &str = "123456789012345678901234567890";

#[test]
fn numbers_keep_every_digit() {
    for text in [BIG, "-98765432109876543210.5", "9007199254740993", "0.1", "1e-7"] {
        let n = tfgraph::eval::number::Number::parse(text).unwrap();
        let v = tfgraph::eval::Value::number(n.clone());
        assert_eq!(value_json::value(&v).to_string(), n.to_string(), "{text}");
    }
    let v = tfgraph::eval::Value::number(tfgraph::eval::number::Number::parse(BIG).unwrap());
    assert_eq!(value_json::value(&v).to_string(), BIG);
}

#[test]
fn a_big_number_reaches_the_plan_and_the_state() {
    let files: BTreeMap<String, String> = [(
        "main.tf".to_string(),
        format!("resource \"aws_thing\" \"a\" {{\n  big   = {BIG}\n  small = 9007199254740993\n}}\noutput \"o\" {{\n  value = aws_thing.a.big + 1\n}}\n"),
    )]
    .into();
    let loaded = tfgraph::load(&files, &Default::default());
    let run = |state: Option<&Value>| {
        session::run(&files, &loaded.config, loaded.diagnostics.clone(), &json!({"apply": true, "state": state}))
    };
    let first = run(None);
    assert_eq!(first["diagnostics"].as_array().map(Vec::len), Some(0), "{}", first["diagnostics"]);
    let plan = first["plan"].to_string();
    assert!(plan.contains(&format!("\"big\":{BIG}")), "{plan}");
    assert!(plan.contains("\"small\":9007199254740993"), "{plan}");
    let state = &first["apply"]["state"];
    let text = state.to_string();
    assert!(text.contains(&format!("\"big\":{BIG}")), "{text}");
    assert!(text.contains("123456789012345678901234567891"), "the output, computed exactly: {text}");
    // Read back from the state: the same value, so nothing to change.
    let second = run(Some(state));
    assert!(second["planText"].as_str().unwrap().contains("No changes."), "{}", second["planText"]);
}
