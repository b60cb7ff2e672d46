#![cfg(not(target_arch = "wasm32"))]
//! The date and time functions against Terraform: every case of
//! `tests/fixtures/eval/functions/datetime*.json` (recorded from Terraform 1.11.4: Go's RFC 3339
//! parsing errors as cty and Terraform reword them, durations, offsets;
//! `datetime_unknown.json` written by hand from cty's parameter flags), and `timestamp()`
//! being unknown while planning.

mod support;
use support::console as harness;

use tfgraph::eval::functions::{call, FuncContext, NoFilesystem, Registry};

#[test]
fn datetime_functions_as_terraform_evaluates_them() {
    let n = harness::run("datetime.json", harness::console);
    assert!(n >= 120, "only {n} date and time cases ran");
}

#[test]
fn datetime_functions_with_unknown_and_sensitive_arguments() {
    let n = harness::run("datetime_unknown.json", harness::console);
    assert!(n >= 10, "only {n} cases ran");
}

#[test]
fn timestamp_is_unknown_while_planning_and_plantimestamp_known() {
    let funcs = Registry::builtin();
    let run = |name: &str, planning: bool| {
        let ctx = FuncContext { planning, files: &NoFilesystem, base_dir: ".", cwd: None };
        call(funcs.get(name).unwrap(), &ctx, vec![]).unwrap()
    };
    assert!(!run("timestamp", true).is_known());
    let now = run("timestamp", false);
    assert_eq!(now.as_str().map(str::len), Some(20), "{now:?}");
    assert!(run("plantimestamp", true).is_known());
}
