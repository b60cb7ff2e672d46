//! The JavaScript API. The only home of `#[wasm_bindgen]`: each export deserializes its
//! arguments, calls one core stage, and serializes the result in Terraform's JSON shapes.
//! `pkg/index.js` wraps these raw exports (initialisation, `TfgraphError`).

use crate::config::{self, LoadOptions};
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod files;
pub mod graph;
pub mod walk;

use files::JsFiles;

/// Plain JSON-compatible objects (not ES `Map`s) for every value we hand to JavaScript.
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()).into())
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// The package version.
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_string()
}

/// Reads `files` (an object of path → contents): the object is checked and its keys listed now;
/// each value is read, and checked to be a string, when the loader needs that file.
fn read_files(files: &JsValue, api: &'static str) -> Result<JsFiles, JsValue> {
    JsFiles::new(files, api)
}

/// `options[key]`, with `undefined` and `null` (and absent `options`) read as "not given".
fn get(options: &JsValue, key: &str) -> Result<Option<JsValue>, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(None);
    }
    let v = js_sys::Reflect::get(options, &JsValue::from_str(key))?;
    Ok(if v.is_undefined() || v.is_null() { None } else { Some(v) })
}

/// The loading options shared by `loadConfig` and `buildGraph` (`api` names the caller in errors).
fn read_load_options(options: &JsValue, api: &str) -> Result<LoadOptions, JsValue> {
    if !(options.is_undefined() || options.is_null() || options.is_object()) {
        return Err(type_error(&format!("{api}: `options` must be an object")));
    }
    let mut out = LoadOptions::default();
    if let Some(root) = get(options, "root")? {
        out.root = root.as_string().ok_or_else(|| type_error(&format!("{api}: `options.root` must be a string")))?;
    }
    Ok(out)
}

/// Raw `loadConfig`: `{ config, diagnostics }` as one JSON text; `pkg/index.js` parses it and
/// throws `TfgraphError` when the diagnostics hold an error. One `JSON.parse` is several times
/// cheaper than building the objects property by property across the wasm boundary (the
/// loading benchmark measured that at about a fifth of `loadConfig`'s time, plus most of the GC).
/// The text is written by `config::loaded_json`: the bytes `serde_json` wrote, in a third of its time.
#[wasm_bindgen(js_name = loadConfigRaw)]
pub fn load_config_raw(files: JsValue, options: JsValue) -> Result<String, JsValue> {
    let files = read_files(&files, "loadConfig")?;
    let options = read_load_options(&options, "loadConfig")?;
    let loaded = config::load_from(&files, &options)?;
    Ok(config::loaded_json(&loaded.config, &loaded.diagnostics))
}
