#![cfg(not(target_arch = "wasm32"))]
//! The conversion functions against Terraform: every case of `tests/fixtures/eval/functions/conversion*.json`
//! (recorded from Terraform 1.11.4; 1.15 differences written from its source and marked so).

mod support;
use support::console as harness;

#[test]
fn conversion_functions_as_terraform_evaluates_them() {
    let mut failures = Vec::new();
    let mut total = 0;
    for file in ["conversion.json", "conversion_unknown.json"] {
        match harness::check(file, harness::console) {
            Ok(n) => total += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(total >= 121, "only {total} conversion cases ran");
}

/// `type()` is the console's alone (checked against `terraform console` 1.11.4): a local that
/// calls it is an unknown function, and its result cannot be part of a bigger value.
#[test]
fn type_is_console_only() {
    use std::collections::BTreeMap;
    use tfgraph::eval::{evaluate, EvalOptions};
    let files = BTreeMap::from([("main.tf".to_string(), "locals {\n  t = type(1)\n}\n".to_string())]);
    let loaded = tfgraph::load(&files, &Default::default());
    let out = evaluate(&files, &loaded.config, "local.t", &EvalOptions::default());
    let d = out.diagnostics.errors().next().expect("an error for type() in a local");
    assert_eq!(
        (d.summary.as_str(), d.detail.as_str()),
        ("Call to unknown function", "There is no function named \"type\".")
    );
    let r = d.range.as_ref().expect("a range");
    assert_eq!((r.filename.as_str(), r.start.line, r.start.column, r.end.column), ("main.tf", 2, 7, 11));

    let files = BTreeMap::from([("main.tf".to_string(), String::new())]);
    let loaded = tfgraph::load(&files, &Default::default());
    let out = evaluate(&files, &loaded.config, "[type(1)]", &EvalOptions::default());
    assert!(out.value.is_none());
    let d = out.diagnostics.errors().next().unwrap();
    assert_eq!(
        (d.summary.as_str(), d.detail.as_str()),
        ("Invalid use of type function", "The console-only \"type\" function cannot be used as part of an expression.")
    );
}
