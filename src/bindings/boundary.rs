//! What every export shares (reading options and files, handing values to JavaScript, type
//! errors) and the package-level exports: `version` and `loadConfig`.

use crate::config::{self, LoadOptions};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::files::JsFiles;

/// Plain JSON objects for every value we hand to JavaScript: JSON text parsed by the engine.
/// (serde_wasm_bindgen built them property by property across the boundary; its code was
/// 6.8 KB of the gzipped package.)
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| JsValue::from(JsError::new(&e.to_string())))?;
    js_sys::JSON::parse(&text)
}

pub(super) fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// The package version.
#[wasm_bindgen]
pub fn version() -> String {
    crate::VERSION.to_string()
}

/// Reads `files` (an object of path → contents): the object is checked and its keys listed now;
/// each value is read, and checked to be a string, when the loader needs that file.
pub(super) fn read_files(files: &JsValue, api: &'static str) -> Result<JsFiles, JsValue> {
    JsFiles::new(files, api)
}

/// `options.state` (JSON text: `pkg/api.js` stringifies an object) as the engine reads it, or
/// the diagnostics of `statefile.Read` refusing it (not JSON, nested past what serde_json reads,
/// not version 4, bad instance metadata): a state is input, so never a `TypeError`. Empty text
/// is no state, as Terraform reads an empty state file (the text `null` it refuses).
pub(super) fn read_state(
    options: &JsValue,
    api: &str,
) -> Result<(Option<serde_json::Value>, crate::diag::Diagnostics), JsValue> {
    let none = Ok((None, crate::diag::Diagnostics::new()));
    let Some(v) = get(options, "state")? else { return none };
    let text = v
        .as_string()
        .ok_or_else(|| type_error(&format!("{api}: `options.state` must be a state v4 object or its JSON text")))?;
    if text.trim().is_empty() {
        return none;
    }
    // A module that runs out of memory reading a large state says so.
    if text.len() >= 64 << 20 {
        let nowhere =
            crate::diag::SourceRange { filename: String::new(), start: Default::default(), end: Default::default() };
        crate::eval::limits::site(&nowhere, "options.state (64 MiB of JSON text or more)");
    }
    // One parse: the text can be hundreds of MB.
    Ok(crate::state::read_text(&text))
}

/// `options[key]`, with `undefined` and `null` (and absent `options`) read as "not given".
pub(super) fn get(options: &JsValue, key: &str) -> Result<Option<JsValue>, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(None);
    }
    let v = js_sys::Reflect::get(options, &JsValue::from_str(key))?;
    Ok(if v.is_undefined() || v.is_null() { None } else { Some(v) })
}

/// The loading options shared by `loadConfig` and `buildGraph` (`api` names the caller in errors).
pub(super) fn read_load_options(options: &JsValue, api: &str) -> Result<LoadOptions, JsValue> {
    if !(options.is_undefined() || options.is_null() || options.is_object()) {
        return Err(type_error(&format!("{api}: `options` must be an object")));
    }
    let mut out = LoadOptions::default();
    if let Some(root) = get(options, "root")? {
        out.root = root.as_string().ok_or_else(|| type_error(&format!("{api}: `options.root` must be a string")))?;
    }
    Ok(out)
}

/// `options.cwd`: the working directory's absolute, slash-separated path (`path.cwd`,
/// `abspath`), set on the loaded configuration by every export that evaluates (`evaluate`,
/// `buildGraph`, `plan`).
pub(super) fn read_cwd(options: &JsValue, api: &str) -> Result<Option<String>, JsValue> {
    match get(options, "cwd")? {
        None => Ok(None),
        Some(v) => match v.as_string() {
            Some(s) if !s.is_empty() => Ok(Some(s)),
            _ => Err(type_error(&format!("{api}: `options.cwd` must be a non-empty string"))),
        },
    }
}

/// What `loadConfig` returns, before `pkg/index.js` spreads it into one object.
#[derive(Serialize)]
struct LoadResult<'a> {
    config: &'a config::Config,
    diagnostics: &'a crate::diag::Diagnostics,
}

/// Raw `loadConfig`: `{ config, diagnostics }` as one JSON text. `loadConfig` takes the tape of
/// [`load_config_tape`]; this text is that tape written as JSON (`tape::to_json`, checked
/// against serde_json's text natively), the reference `tests/js/tape.test.mjs` checks
/// `pkg/index.js`'s decoder against, and the export the wasm tests call.
#[wasm_bindgen(js_name = loadConfigRaw)]
pub fn load_config_raw(files: JsValue, options: JsValue) -> Result<String, JsValue> {
    let files = read_files(&files, "loadConfig")?;
    let options = read_load_options(&options, "loadConfig")?;
    let loaded = config::load_model_from(&files, &options)?;
    let tape = super::tape::encode(&LoadResult { config: &loaded.config, diagnostics: &loaded.diagnostics })
        .map_err(|e| JsValue::from(JsError::new(&e.to_string())))?;
    Ok(super::tape::to_json(&tape))
}

/// `loadConfig`'s transfer: `{ config, diagnostics }` as a tape, `[words, text, shapes]` (see
/// `tape.rs`), which `pkg/index.js` decodes into the objects `JSON.parse` of
/// `loadConfigRaw`'s text gives, several times faster than `JSON.parse`.
#[wasm_bindgen(js_name = loadConfigTape)]
pub fn load_config_tape(files: JsValue, options: JsValue) -> Result<js_sys::Array, JsValue> {
    let files = read_files(&files, "loadConfig")?;
    let options = read_load_options(&options, "loadConfig")?;
    let loaded = config::load_model_from(&files, &options)?;
    let tape = super::tape::encode(&LoadResult { config: &loaded.config, diagnostics: &loaded.diagnostics })
        .map_err(|e| JsValue::from(JsError::new(&e.to_string())))?;
    drop(loaded);
    let words = js_sys::Uint32Array::from(&tape.words[..]);
    Ok(js_sys::Array::of3(&words, &JsValue::from_str(&tape.text), &JsValue::from_str(&tape.shapes)))
}
