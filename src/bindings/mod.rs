//! The JavaScript API. The only home of `#[wasm_bindgen]`: each export deserializes its
//! arguments, calls one core stage, and serializes the result in Terraform's JSON shapes.
//! `pkg/index.js` wraps these raw exports (initialisation, `TfgraphError`).

use crate::config::{self, LoadOptions};
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

pub mod graph;
pub mod walk;

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

/// Reads `files` (an object of path → contents) strictly: anything else is API misuse.
fn read_files(files: &JsValue, api: &str) -> Result<BTreeMap<String, String>, JsValue> {
    if !files.is_object() || js_sys::Array::is_array(files) {
        return Err(type_error(&format!("{api}: `files` must be an object mapping file paths to contents")));
    }
    let mut out = BTreeMap::new();
    for entry in js_sys::Object::entries(files.unchecked_ref()).iter() {
        let pair: js_sys::Array = entry.unchecked_into();
        let path = pair.get(0).as_string().unwrap_or_default();
        let Some(text) = pair.get(1).as_string() else {
            return Err(type_error(&format!("{api}: the contents of {path:?} must be a string")));
        };
        out.insert(path, text);
    }
    Ok(out)
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
#[wasm_bindgen(js_name = loadConfigRaw)]
pub fn load_config_raw(files: JsValue, options: JsValue) -> Result<String, JsValue> {
    let files = read_files(&files, "loadConfig")?;
    let options = read_load_options(&options, "loadConfig")?;
    let loaded = config::load(&files, &options);
    #[derive(Serialize)]
    struct Out<'a> {
        config: &'a config::Config,
        diagnostics: &'a crate::diag::Diagnostics,
    }
    serde_json::to_string(&Out { config: &loaded.config, diagnostics: &loaded.diagnostics })
        .map_err(|e| JsError::new(&e.to_string()).into())
}
