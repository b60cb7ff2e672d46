#![cfg(not(target_arch = "wasm32"))]
//! The evaluator core against Terraform: every expression form, operator, conversion,
//! traversal, `for`, template, `try`/`can` and error of `tests/fixtures/eval/expressions.json`
//! (recorded from `terraform console` and `terraform plan -json` by
//! `tests/fixtures/eval/functions/recording/record.mjs` from `recording/expressions.txt`).

#[path = "eval_functions_harness/mod.rs"]
mod harness;

use harness::Outcome;
use std::collections::BTreeMap;
use tfgraph::eval::{evaluate, render, EvalOptions};

/// Evaluates `expr` as `terraform console` does in a module that has only `locals`.
pub fn console(locals: &[(String, String)], expr: &str) -> Outcome {
    let mut main = String::from("locals {\n");
    for (k, v) in locals {
        main.push_str(&format!("  {k} = {v}\n"));
    }
    main.push_str("}\n");
    let files = BTreeMap::from([("main.tf".to_string(), main)]);
    let loaded = tfgraph::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let out = evaluate(&files, &loaded.config, expr, &EvalOptions::default());
    match out.value {
        Some(v) => Outcome::Value {
            json: if v.has_sensitive() { None } else { render::to_json_text(&v) },
            ty: v.ty().type_expr(),
            rendered: render::console(&v),
        },
        None => {
            let d = out.diagnostics.errors().next().expect("an error without a diagnostic");
            let (start, end) = match &d.range {
                Some(r) if r.filename == "<console-input>" => (Some(r.start.column as usize - 1), Some(r.end.column as usize - 1)),
                _ => (None, None),
            };
            Outcome::Error { summary: d.summary.clone(), detail: d.detail.clone(), start, end }
        }
    }
}

#[test]
fn expressions_as_terraform_evaluates_them() {
    let n = harness::run("../expressions.json", console);
    assert!(n > 100);
}
