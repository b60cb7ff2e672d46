//! The exported wasm API in headless Chromium (`wasm-pack test --headless --chrome`).
//! Bodies: `tests/support/wasm_api.rs`.
#![cfg(target_arch = "wasm32")]

mod support;
use support::wasm_api;

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

// Without this line `--chrome` skips the file and reports 0 tests (see toolchain.md).
wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn version_is_the_crate_version() {
    wasm_api::version_is_the_crate_version();
}

#[wasm_bindgen_test]
fn files_must_be_a_plain_object() {
    wasm_api::files_must_be_a_plain_object();
}

#[wasm_bindgen_test]
fn file_contents_must_be_strings() {
    wasm_api::file_contents_must_be_strings();
}

#[wasm_bindgen_test]
fn options_are_checked() {
    wasm_api::options_are_checked();
}

#[wasm_bindgen_test]
fn load_config_raw_returns_plain_config_and_diagnostics() {
    wasm_api::load_config_raw_returns_plain_config_and_diagnostics();
}

#[wasm_bindgen_test]
fn syntax_errors_come_back_as_data() {
    wasm_api::syntax_errors_come_back_as_data();
}

#[wasm_bindgen_test]
fn evaluate_raw_returns_value_type_rendering_and_marks() {
    wasm_api::evaluate_raw_returns_value_type_rendering_and_marks();
}

#[wasm_bindgen_test]
fn evaluate_raw_regex_unicode_classes_match_terraform() {
    wasm_api::evaluate_raw_regex_unicode_classes_match_terraform();
}

#[wasm_bindgen_test]
fn evaluate_raw_regex_case_folding_matches_terraform() {
    wasm_api::evaluate_raw_regex_case_folding_matches_terraform();
}
