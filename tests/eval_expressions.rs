#![cfg(not(target_arch = "wasm32"))]
//! The evaluator core against Terraform: every expression form, operator, conversion,
//! traversal, `for`, template, `try`/`can` and error of `tests/fixtures/eval/expressions.json`
//! (recorded from `terraform console` and `terraform plan -json` by
//! `tests/fixtures/eval/functions/recording/record.mjs` from `recording/expressions.txt`).

mod support;
use support::console as harness;

use harness::console;

#[test]
fn expressions_as_terraform_evaluates_them() {
    let n = harness::run("../expressions.json", console);
    assert!(n > 100);
}
