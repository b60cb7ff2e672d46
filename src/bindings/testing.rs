//! `test`: Terraform's test files run against the in-memory engine (`testing`). Synchronous:
//! each event reaches `onEvent` as the runner reaches it.

use super::{read_files, type_error};
use crate::config::FileSource;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Raw `test`: `options` is JSON text (`{ variables, varFiles, filter, testDirectory,
/// verbose }`); the result is JSON text (`testing::api::suite`).
#[wasm_bindgen(js_name = runTestsRaw)]
pub fn run_tests_raw(files: JsValue, options: String, on_event: JsValue) -> Result<String, JsValue> {
    let js_files = read_files(&files, "test")?;
    let mut all = BTreeMap::new();
    let paths: Vec<String> = js_files.paths().into_iter().map(str::to_string).collect();
    for (i, p) in paths.into_iter().enumerate() {
        all.insert(p, js_files.read(i)?.into_owned());
    }
    let options: serde_json::Value =
        serde_json::from_str(&options).map_err(|e| type_error(&format!("test: options are not JSON: {e}")))?;
    let callback = on_event.dyn_into::<js_sys::Function>().ok();
    let result = crate::testing::api::run(&all, &options, &mut |e| {
        if let Some(f) = &callback {
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(&e.to_string()));
        }
    });
    Ok(result.to_string())
}
