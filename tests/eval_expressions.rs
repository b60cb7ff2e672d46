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

/// Values and errors of issue 25's list, recorded the same way from `recording/values.txt`
/// (`tests/fixtures/eval/expressions_values.json`): typed empty sets in set functions, a null
/// branch's type, `format` of null, the errors Terraform reports (ambiguous keys, splat of a
/// typed null, operands, null conditions and attributes), nested splats, `jsonencode` of
/// infinity, `%` by zero, `element`'s extreme indices (1.15's cty, marked in the fixture).
#[test]
fn values_as_terraform_evaluates_them() {
    let n = harness::run("../expressions_values.json", console);
    assert!(n >= 45, "only {n} cases");
}

/// Unknown values as `terraform console` shows them (a `terraform_data` output has no state),
/// recorded the same way from `recording/unknown.txt` (`tests/fixtures/eval/expressions_unknown.json`):
/// the type each operator, function, `for`, splat and template keeps around an unknown.
#[test]
fn unknown_values_as_terraform_evaluates_them() {
    let n = harness::run("../expressions_unknown.json", console);
    assert!(n >= 49, "only {n} cases");
}

/// Strings as `terraform console` prints them (Go's `strconv.Quote`: what Go's Unicode 15.0.0
/// `IsPrint` rejects is escaped: unassigned, new in 15.1, spaces, format characters, private
/// use), and `format`'s errors naming a non-printable verb as Go's `%q` of a rune, recorded the
/// same way from `recording/quoting.txt` (`tests/fixtures/eval/expressions_quoting.json`).
#[test]
fn strings_quoted_as_terraform_prints_them() {
    let n = harness::run("../expressions_quoting.json", console);
    assert!(n >= 25, "only {n} cases");
}
