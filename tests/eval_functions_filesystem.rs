#![cfg(not(target_arch = "wasm32"))]
//! The filesystem functions and `templatefile` against Terraform: every case of
//! `tests/fixtures/eval/functions/filesystem.json`, recorded from Terraform 1.11.4 with the
//! fixture's `files` beside main.tf (tfgraph reads them from the loaded files, never a disk).

mod support;
use support::console as harness;

#[test]
fn filesystem_functions_as_terraform_evaluates_them() {
    let n = harness::run("filesystem.json", harness::console);
    assert!(n >= 50, "only {n} cases");
}
