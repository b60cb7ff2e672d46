//! The `files` argument of `loadConfig` and `buildGraph`: a JavaScript object of path → contents,
//! read lazily as a [`FileSource`].
//!
//! Users pass whole repositories (thousands of files, hundreds of megabytes) to load one root
//! module. Copying every value into wasm memory cost more than parsing the files loaded, so only
//! the keys cross up front (one joined string); a value is read (`Reflect.get`) when the loader
//! reads that file, that is when it loads the file's folder. A value that is not a string is the
//! same `TypeError` as before, raised when that file is read; a throwing getter throws through
//! `loadConfig` likewise.

use super::type_error;
use crate::config::FileSource;
use std::borrow::Cow;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Separates the keys in the one string that carries them into wasm.
const SEPARATOR: &str = "\0";

/// A JavaScript files object, its own enumerable keys (`Object.keys`) listed once.
pub struct JsFiles {
    object: JsValue,
    /// The keys as JavaScript strings: a value is read with its exact key.
    keys: js_sys::Array,
    /// Every key as UTF-8, one after the other; `spans[i]` is key `i`.
    names: String,
    spans: Vec<(u32, u32)>,
    /// The API function, for error messages (`loadConfig`, `buildGraph`).
    api: &'static str,
}

impl JsFiles {
    /// Checks that `files` is a plain object (not an array, not a primitive) and lists its keys.
    pub fn new(files: &JsValue, api: &'static str) -> Result<Self, JsValue> {
        if !files.is_object() || js_sys::Array::is_array(files) {
            return Err(type_error(&format!("{api}: `files` must be an object mapping file paths to contents")));
        }
        let keys = js_sys::Object::keys(files.unchecked_ref::<js_sys::Object>());
        let count = keys.length() as usize;
        let mut spans = Vec::with_capacity(count);
        let mut names = String::new();
        if count > 0 {
            // One crossing for all keys: joined, then split here.
            names = String::from(keys.join(SEPARATOR));
            let mut start = 0;
            for (i, _) in names.match_indices(SEPARATOR) {
                spans.push((start as u32, i as u32));
                start = i + 1;
            }
            spans.push((start as u32, names.len() as u32));
            if spans.len() != count {
                // A key contains the separator: take the keys one by one.
                names.clear();
                spans.clear();
                for key in keys.iter() {
                    let start = names.len() as u32;
                    names.push_str(&key.as_string().unwrap_or_default());
                    spans.push((start, names.len() as u32));
                }
            }
        }
        Ok(JsFiles { object: files.clone(), keys, names, spans, api })
    }

    fn name(&self, index: usize) -> &str {
        let (start, end) = self.spans[index];
        &self.names[start as usize..end as usize]
    }
}

impl FileSource for JsFiles {
    /// The exception to throw: a `TypeError` for a value that is not a string, or whatever a
    /// getter threw.
    type Error = JsValue;

    fn paths(&self) -> Vec<&str> {
        (0..self.spans.len()).map(|i| self.name(i)).collect()
    }

    fn read(&self, index: usize) -> Result<Cow<'_, str>, JsValue> {
        let value = js_sys::Reflect::get(&self.object, &self.keys.get(index as u32))?;
        match value.as_string() {
            Some(text) => Ok(Cow::Owned(text)),
            None => Err(type_error(&format!("{}: the contents of {:?} must be a string", self.api, self.name(index)))),
        }
    }
}
