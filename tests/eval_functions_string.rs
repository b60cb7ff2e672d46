#![cfg(not(target_arch = "wasm32"))]
//! The string functions against Terraform: every case of `tests/fixtures/eval/functions/string*.json`
//! (recorded from Terraform 1.11.4; 1.15 differences written from its source and marked), all run.

mod support;
use support::console as harness;

#[test]
fn string_functions_as_terraform_evaluates_them() {
    let mut failures = Vec::new();
    let mut total = 0;
    for file in [
        "string.json",
        "string_more.json",
        "string_casemap.json",
        "string_grapheme.json",
        "string_regex.json",
        "string_format.json",
        "string_unknown.json",
        "string_templatestring.json",
    ] {
        match harness::check(file, harness::console) {
            Ok(n) => total += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(total >= 1533, "only {total} string cases ran");
}
