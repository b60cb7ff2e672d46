//! `evaluate`: one expression in a loaded module's scope, as `terraform console` evaluates it.

use super::files::JsFiles;
use super::{get, read_files, read_load_options, type_error};
use crate::config::{self, FileSource};
use crate::eval::{self, render, EvalOptions};
use serde::Serialize;
use std::collections::BTreeMap;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct Evaluated<'a> {
    value: serde_json::Value,
    unknown: serde_json::Value,
    sensitive: serde_json::Value,
    json: Option<String>,
    #[serde(rename = "type")]
    ty: Option<String>,
    rendered: Option<String>,
    diagnostics: &'a crate::diag::Diagnostics,
}

/// Every file as text (evaluation reads tfvars and, through functions, any file).
fn all_files(files: &JsFiles) -> Result<BTreeMap<String, String>, JsValue> {
    let paths: Vec<String> = files.paths().into_iter().map(str::to_string).collect();
    let mut out = BTreeMap::new();
    for (i, p) in paths.into_iter().enumerate() {
        out.insert(p, files.read(i)?.into_owned());
    }
    Ok(out)
}

/// NFC as the JS engine computes it (ICU's tables, already in every engine).
fn js_nfc(s: &str) -> String {
    js_sys::JsString::from(s).normalize("NFC").into()
}

/// The code point ranges of a Unicode property class as the JS engine knows it (`\p{gc=Lu}`),
/// for Go's `\p{..}` in regex patterns (`eval::functions::string_regex_unicode`): the matches
/// of `/\p{..}+/gu` in one string of every code point Unicode 15.0 assigned, mapped back.
/// The string (~0.6 MB) is made once, and each class scanned once.
fn js_unicode_class(property: &str) -> Vec<(u32, u32)> {
    use eval::functions::string_regex_unicode::{scanned, scanned_string, spans_to_ranges};
    use wasm_bindgen::JsCast;
    thread_local! {
        static SCANNED: (Vec<(u32, u32)>, js_sys::JsString) = (scanned(), js_sys::JsString::from(scanned_string()));
        static DONE: std::cell::RefCell<std::collections::HashMap<String, Vec<(u32, u32)>>> = Default::default();
    }
    if let Some(hit) = DONE.with(|d| d.borrow().get(property).cloned()) {
        return hit;
    }
    let ranges = SCANNED.with(|(segments, text)| {
        let re = js_sys::RegExp::new(&format!("{property}+"), "gu");
        // `RegExp.prototype.exec` on the JsString itself: js-sys's `exec` takes a `&str` and
        // would copy the string into JS for every match.
        let Some(exec) =
            js_sys::Reflect::get(&re, &"exec".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        else {
            return Vec::new();
        };
        let mut spans = Vec::new();
        while let Some(m) = exec.call1(&re, text).ok().filter(|m| !m.is_null()) {
            let start = js_sys::Reflect::get(&m, &"index".into()).ok().and_then(|v| v.as_f64()).unwrap_or(0.0) as u32;
            let end = re.last_index();
            if end <= start {
                break;
            }
            spans.push((start, end));
        }
        spans_to_ranges(segments, &spans)
    });
    DONE.with(|d| d.borrow_mut().insert(property.to_string(), ranges.clone()));
    ranges
}

/// Go's `(?i)` case orbits as the JS engine knows them (`eval::functions::string_regex_fold`):
/// the code points of Unicode 15.0's cased blocks linked to their one-code-point
/// `toLowerCase` and `toUpperCase`; a group of more than two (or two that are not each other's
/// case) is split into orbits by `/^x$/iu` (the engine's simple case folding). Made once, at
/// the first `(?i)` pattern.
fn js_case_orbits() -> Vec<Vec<u32>> {
    use eval::functions::string_regex_fold::{assigned_15_0, CASED_15_0};
    use std::collections::HashMap;
    let text = |c: u32| char::from_u32(c).map(String::from).unwrap_or_default();
    let one = |s: js_sys::JsString| -> Option<u32> {
        let s = String::from(s);
        let mut cs = s.chars();
        let c = cs.next()?;
        cs.next().is_none().then_some(c as u32)
    };
    // Union-find over the code points, each linked group under its root; each code point's
    // lower and upper case kept for the pairs below.
    let mut parent: HashMap<u32, u32> = HashMap::new();
    let mut cases: HashMap<u32, [Option<u32>; 2]> = HashMap::new();
    fn root(parent: &HashMap<u32, u32>, mut c: u32) -> u32 {
        while let Some(&p) = parent.get(&c).filter(|&&p| p != c) {
            c = p;
        }
        c
    }
    for &(lo, hi) in CASED_15_0 {
        for c in (lo..=hi).filter(|&c| assigned_15_0(c)) {
            let s = js_sys::JsString::from(text(c));
            let both =
                [one(s.to_lower_case()), one(s.to_upper_case())].map(|m| m.filter(|&m| m != c && assigned_15_0(m)));
            for m in both.into_iter().flatten() {
                parent.entry(c).or_insert(c);
                parent.entry(m).or_insert(m);
                let (a, b) = (root(&parent, c), root(&parent, m));
                parent.insert(b, a);
            }
            cases.insert(c, both);
        }
    }
    let mut groups: HashMap<u32, Vec<u32>> = HashMap::new();
    for &c in parent.keys() {
        groups.entry(root(&parent, c)).or_default().push(c);
    }
    let mut orbits = Vec::new();
    for (_, mut rest) in groups {
        rest.sort_unstable();
        // A letter and its case partner, each the other's case: one orbit without asking.
        if let [a, b] = rest[..] {
            if cases.get(&a).is_some_and(|m| m.contains(&Some(b)))
                && cases.get(&b).is_some_and(|m| m.contains(&Some(a)))
            {
                orbits.push(rest);
                continue;
            }
        }
        while let Some(&first) = rest.first() {
            let re = js_sys::RegExp::new(&format!("^\\u{{{first:X}}}$"), "iu");
            let (same, other): (Vec<u32>, Vec<u32>) = rest.iter().partition(|&&c| c == first || re.test(&text(c)));
            if same.len() > 1 {
                orbits.push(same);
            }
            rest = other;
        }
    }
    orbits
}

/// The JS engine's services the evaluator asks for in the package: NFC, the `\p{..}` classes
/// and `(?i)`'s case orbits of Go's regexps, the clock and random bytes. Installed when a module
/// instance starts: `plan()`, `apply()` and `test()` evaluate expressions too, and a fresh
/// instance (the first, or one replacing a trapped one) must not run them without these.
#[wasm_bindgen(start)]
pub fn install_hosts() {
    crate::eval::value::set_normalizer(js_nfc);
    eval::functions::string_regex_unicode::set_host_classes(js_unicode_class);
    eval::functions::string_regex_fold::set_host_orbits(js_case_orbits);
    eval::functions::platform::install(eval::functions::platform::Platform {
        now_unix_nanos: js_now,
        fill_random: js_random,
    });
}

thread_local! {
    /// `pkg/api.js`'s reader of the encoding data file (`setEncodingLoader`).
    static ENCODING_LOADER: std::cell::RefCell<Option<js_sys::Function>> = const { std::cell::RefCell::new(None) };
}

/// Sets how this instance reads `tfgraph_encodings.bin` (x/text's tables for 49 text
/// encodings, kept out of the module): called when a configuration first uses one of them.
#[wasm_bindgen(js_name = setEncodingLoader)]
pub fn set_encoding_loader(loader: js_sys::Function) {
    ENCODING_LOADER.with(|l| *l.borrow_mut() = Some(loader));
    eval::functions::encoding_text_tables::set_loader(js_load_encodings);
}

fn js_load_encodings() -> Result<Vec<u8>, String> {
    // The loader returns the bytes, or a string saying why it could not read them.
    let loader = ENCODING_LOADER.with(|l| l.borrow().clone()).ok_or("no loader was set")?;
    match loader.call0(&JsValue::NULL) {
        Ok(v) => v.as_string().map_or_else(|| Ok(js_sys::Uint8Array::new(&v).to_vec()), Err),
        Err(_) => Err("the loader failed".into()),
    }
}

/// JSON text given by `pkg/index.js` (`JSON.stringify` of a user's object), parsed here.
fn json_option(options: &JsValue, key: &str) -> Result<Option<serde_json::Value>, JsValue> {
    match get(options, key)? {
        None => Ok(None),
        Some(v) => {
            let text =
                v.as_string().ok_or_else(|| type_error(&format!("evaluate: `options.{key}` must be an object")))?;
            serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| type_error(&format!("evaluate: `options.{key}` is not JSON: {e}")))
        }
    }
}

/// Raw `evaluate`: `{ value, unknown, sensitive, json, type, rendered, diagnostics }` as JSON
/// text; `pkg/index.js` parses it and throws `TfgraphError` on an error.
#[wasm_bindgen(js_name = evaluateRaw)]
pub fn evaluate_raw(files: JsValue, expression: String, options: JsValue) -> Result<String, JsValue> {
    // Installed at start already; again here for hosts that never run the start function
    // (wasm-bindgen-test calls the exports directly).
    install_hosts();
    let js_files = read_files(&files, "evaluate")?;
    let load_options = read_load_options(&options, "evaluate")?;
    let mut opts = EvalOptions::default();
    if let Some(serde_json::Value::Object(vars)) = json_option(&options, "variables")? {
        opts.variables = crate::util::sort::btree_map(vars);
    }
    let (state, state_diagnostics) = super::boundary::read_state(&options, "evaluate")?;
    opts.state = state;
    if let Some(m) = get(&options, "module")? {
        opts.module = m.as_string().ok_or_else(|| type_error("evaluate: `options.module` must be a string"))?;
    }
    let cwd = super::boundary::read_cwd(&options, "evaluate")?;
    let mut loaded = config::load_from(&js_files, &load_options)?;
    loaded.config.cwd = cwd;
    let files = all_files(&js_files)?;
    let mut diagnostics = loaded.diagnostics.clone();
    diagnostics.extend(state_diagnostics);
    let out =
        if diagnostics.has_errors() { None } else { Some(eval::evaluate(&files, &loaded.config, &expression, &opts)) };
    let value = out.as_ref().and_then(|o| o.value.clone());
    if let Some(o) = out {
        diagnostics.extend(o.diagnostics);
    }
    let (v, unknown, sensitive) = match &value {
        Some(v) => render::to_api(v),
        None => (serde_json::Value::Null, serde_json::Value::Bool(false), serde_json::Value::Bool(false)),
    };
    let result = Evaluated {
        value: v,
        unknown,
        sensitive,
        json: value.as_ref().and_then(render::to_json_text),
        ty: value.as_ref().map(|v| v.ty().type_expr()),
        rendered: value.as_ref().map(render::console),
        diagnostics: &diagnostics,
    };
    serde_json::to_string(&result).map_err(|e| JsError::new(&e.to_string()).into())
}

/// `Date.now()` in nanoseconds, for `timestamp()`.
fn js_now() -> Option<i128> {
    Some(js_sys::Date::now() as i128 * 1_000_000)
}

/// `crypto.getRandomValues` (browsers and Node 20+), for `uuid()` and bcrypt's salt.
fn js_random(buf: &mut [u8]) -> bool {
    use wasm_bindgen::JsCast;
    let Ok(crypto) = js_sys::Reflect::get(&js_sys::global(), &"crypto".into()) else { return false };
    let Ok(f) = js_sys::Reflect::get(&crypto, &"getRandomValues".into()) else { return false };
    let Ok(f) = f.dyn_into::<js_sys::Function>() else { return false };
    let arr = js_sys::Uint8Array::new_with_length(buf.len() as u32);
    if f.call1(&crypto, &arr).is_err() {
        return false;
    }
    arr.copy_to(buf);
    true
}

/// `expressionContinues`: whether console lines leave a bracket, heredoc or template sequence
/// open, so a console reads another line before it evaluates (`terraform console`'s heuristic).
#[wasm_bindgen(js_name = expressionContinues)]
pub fn expression_continues(lines: Vec<String>) -> bool {
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    crate::hcl::expression_could_continue(&lines)
}
