//! `test`: Terraform's test files run against the in-memory engine (`testing`). Synchronous:
//! each event reaches `onEvent` as the runner reaches it.

use super::{read_files, type_error};
use crate::config::FileSource;
use crate::testing::{api, runner};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Raw `test`: `options` is JSON text (`{ variables, varFiles, filter, testDirectory,
/// verbose }`); the result is JSON text (`testing::api::suite`), each run with its `plan` text
/// when `verbose` (null otherwise).
#[wasm_bindgen(js_name = runTestsRaw)]
pub fn run_tests_raw(files: JsValue, options: String, on_event: JsValue) -> Result<String, JsValue> {
    // Test files' expressions run the evaluator's functions (NFC, regex classes and `(?i)`).
    super::eval::install_hosts();
    let js_files = read_files(&files, "test")?;
    let mut all = BTreeMap::new();
    let paths: Vec<String> = js_files.paths().into_iter().map(str::to_string).collect();
    for (i, p) in paths.into_iter().enumerate() {
        all.insert(p, js_files.read(i)?.into_owned());
    }
    let options: Json =
        serde_json::from_str(&options).map_err(|e| type_error(&format!("test: options are not JSON: {e}")))?;
    let callback = on_event.dyn_into::<js_sys::Function>().ok();
    let suite = crate::eval::limits::with(test_limits(&options), || {
        runner::run(&all, &api::options(&options), &mut |e| {
            if let Some(f) = &callback {
                let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&api::event(e).to_string()));
            }
        })
    });
    let mut result = api::suite(&suite, env!("CARGO_PKG_VERSION"));
    // Each run's plan text: `api::suite` does not carry it yet, so it is added here.
    if let Some(files) = result["files"].as_array_mut() {
        for (file, f) in files.iter_mut().zip(&suite.files) {
            if let Some(runs) = file["runs"].as_array_mut() {
                for (run, r) in runs.iter_mut().zip(&f.runs) {
                    run["plan"] = r.plan.as_deref().map_or(Json::Null, Json::from);
                }
            }
        }
    }
    Ok(result.to_string())
}

/// `options.limits` (`pkg/api.js` has checked each is a whole number >= 1), as `plan`'s.
fn test_limits(options: &Json) -> crate::eval::limits::Limits {
    let mut out = crate::eval::limits::Limits::DEFAULT;
    let given = |key: &str| options.get("limits").and_then(|l| l.get(key)).and_then(Json::as_u64);
    for (key, slot) in [
        ("instances", &mut out.instances),
        ("moduleInstances", &mut out.module_instances),
        ("elements", &mut out.elements),
        ("bytes", &mut out.bytes),
    ] {
        if let Some(n) = given(key) {
            *slot = usize::try_from(n).unwrap_or(usize::MAX);
        }
    }
    out
}
