#![cfg(not(target_arch = "wasm32"))]
//! The conversion functions against Terraform: every case of `tests/fixtures/eval/functions/conversion*.json`
//! (recorded from Terraform 1.11.4; 1.15 differences written from its source and marked so).
//! A case that calls a function of a family not registered yet is counted and printed, not run.

#[path = "eval_functions_harness/mod.rs"]
mod harness;

use tfgraph::eval::functions::Registry;

/// The functions an expression calls that are not registered (besides the special forms and
/// the type constructors of `convert`'s type argument).
fn missing(funcs: &Registry, expr: &str) -> Vec<String> {
    let bytes = expr.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'"' {
            // Skip string literals (a function name inside one is text).
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if bytes[i].is_ascii_alphabetic() {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let name = &expr[start..i];
            if i < bytes.len() && bytes[i] == b'(' && !matches!(name, "try" | "can" | "object" | "tuple" | "optional") && funcs.get(name).is_none() {
                out.push(name.to_string());
            }
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn conversion_functions_as_terraform_evaluates_them() {
    let funcs = Registry::console();
    let (mut total, mut pending) = (0, Vec::new());
    let mut failures = Vec::new();
    for file in ["conversion.json", "conversion_unknown.json"] {
        let (_, cases) = harness::load(file);
        for c in &cases {
            let m = missing(&funcs, &c.expr);
            if !m.is_empty() {
                pending.push(format!("{} (needs {})", c.expr, m.join(", ")));
            }
        }
        match harness::check_filtered(file, |e| missing(&funcs, e).is_empty(), harness::console) {
            Ok(n) => total += n,
            Err(e) => failures.push(e),
        }
    }
    eprintln!("{total} conversion cases match Terraform; {} wait for other families:", pending.len());
    for p in &pending {
        eprintln!("  {p}");
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
    assert_eq!((d.summary.as_str(), d.detail.as_str()), ("Call to unknown function", "There is no function named \"type\"."));
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
