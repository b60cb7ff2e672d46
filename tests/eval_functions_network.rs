#![cfg(not(target_arch = "wasm32"))]
//! The IP network functions against Terraform: every case of
//! `tests/fixtures/eval/functions/network*.json` (recorded from Terraform 1.11.4, IPv4 and IPv6,
//! go-cidr's quirks with negative and huge numbers included; `network_unknown.json` is written
//! by hand from cty's parameter flags).

mod support;
use support::console as harness;

#[test]
fn network_functions_as_terraform_evaluates_them() {
    let n = harness::run("network.json", harness::console);
    assert!(n >= 100, "only {n} network cases ran");
}

#[test]
fn network_functions_with_unknown_and_sensitive_arguments() {
    let n = harness::run("network_unknown.json", harness::console);
    assert!(n >= 8, "only {n} cases ran");
}
