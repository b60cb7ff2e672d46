#![cfg(not(target_arch = "wasm32"))]
//! The numeric functions against Terraform: every case of
//! `tests/fixtures/eval/functions/numeric*.json` (recorded from Terraform 1.11.4; the two cases
//! where Terraform panics keep the panic's message, marked in `source`; `numeric_unknown.json`
//! is written by hand from cty's parameter flags).

mod support;
use support::console as harness;

#[test]
fn numeric_functions_as_terraform_evaluates_them() {
    let n = harness::run("numeric.json", harness::console);
    assert!(n >= 110, "only {n} numeric cases ran");
}

#[test]
fn numeric_functions_with_unknown_and_sensitive_arguments() {
    let n = harness::run("numeric_unknown.json", harness::console);
    assert!(n >= 10, "only {n} cases ran");
}
