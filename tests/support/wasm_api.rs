//! The exported JavaScript API, exercised from inside wasm: shared by `tests/wasm_node.rs`
//! (Node) and `tests/wasm_browser.rs` (headless Chromium), which wrap each function in a
//! `#[wasm_bindgen_test]`. Values are inspected as JavaScript sees them.

use js_sys::{Array, Object, Reflect, TypeError, JSON};
use serde_json::Value;
use tfgraph::bindings::eval::evaluate_raw;
use tfgraph::bindings::{load_config_raw, version};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A JS object from `(key, value)` pairs.
fn object(entries: &[(&str, JsValue)]) -> JsValue {
    let obj = Object::new();
    for (k, v) in entries {
        Reflect::set(&obj, &JsValue::from_str(k), v).unwrap();
    }
    obj.into()
}

fn files(entries: &[(&str, &str)]) -> JsValue {
    let pairs: Vec<(&str, JsValue)> = entries.iter().map(|(k, v)| (*k, JsValue::from_str(v))).collect();
    object(&pairs)
}

/// The value as JSON, through the JS engine's own `JSON.stringify`.
fn json(value: &JsValue) -> Value {
    let text: String = JSON::stringify(value).unwrap().into();
    serde_json::from_str(&text).unwrap()
}

/// The call must throw a `TypeError` whose message mentions `needle`.
#[track_caller]
fn assert_type_error<T: std::fmt::Debug>(result: Result<T, JsValue>, needle: &str) {
    let err = match result {
        Ok(v) => panic!("expected a TypeError, got a value: {v:?}"),
        Err(e) => e,
    };
    assert!(err.is_instance_of::<TypeError>(), "expected a TypeError, got {err:?}");
    let message: String = err.unchecked_ref::<js_sys::Error>().message().into();
    assert!(message.contains(needle), "message {message:?} should mention {needle:?}");
}

pub fn version_is_the_crate_version() {
    let v = version();
    assert_eq!(v, env!("CARGO_PKG_VERSION"));
    assert_eq!(v.split('.').count(), 3, "semver: {v}");
}

pub fn files_must_be_a_plain_object() {
    for bad in [JsValue::from(42), JsValue::from_str("main.tf"), JsValue::NULL, JsValue::UNDEFINED, Array::new().into()]
    {
        assert_type_error(load_config_raw(bad, JsValue::UNDEFINED), "`files` must be an object");
    }
}

pub fn file_contents_must_be_strings() {
    let bad = object(&[("main.tf", JsValue::from(1))]);
    assert_type_error(load_config_raw(bad, JsValue::UNDEFINED), "\"main.tf\" must be a string");
}

pub fn options_are_checked() {
    let f = files(&[("main.tf", "")]);
    assert_type_error(load_config_raw(f.clone(), JsValue::from(5)), "`options` must be an object");
    let bad_root = object(&[("root", JsValue::from(5))]);
    assert_type_error(load_config_raw(f, bad_root), "`options.root` must be a string");
}

const SMALL: &str = r#"
data "aws_ami" "ubuntu" {
  most_recent = true
}

resource "aws_instance" "web" {
  ami = data.aws_ami.ubuntu.id
}
"#;

pub fn load_config_raw_returns_plain_config_and_diagnostics() {
    let text = load_config_raw(files(&[("main.tf", SMALL)]), JsValue::UNDEFINED).expect("no TypeError");
    // One JSON text that JSON.parse turns into plain objects and arrays.
    let out = JSON::parse(&text).expect("valid JSON");
    let config = Reflect::get(&out, &"config".into()).unwrap();
    assert!(config.is_object() && !config.is_instance_of::<js_sys::Map>());
    assert!(Array::is_array(&Reflect::get(&out, &"diagnostics".into()).unwrap()));

    let v = json(&out);
    assert_eq!(v["diagnostics"], serde_json::json!([]), "{}", v["diagnostics"]);
    let resources = v["config"]["root"]["resources"].as_array().unwrap();
    let addresses: Vec<&str> = resources.iter().map(|r| r["address"].as_str().unwrap()).collect();
    assert_eq!(addresses, ["data.aws_ami.ubuntu", "aws_instance.web"]);
    let web = &resources[1];
    assert_eq!(web["mode"], "managed");
    assert_eq!(web["provider"]["fqn"], "registry.terraform.io/hashicorp/aws");
    let reference = &web["references"][0];
    assert_eq!(reference["subject"], "data.aws_ami.ubuntu");
    assert_eq!(reference["kind"], "data");
    assert_eq!(reference["in"], "ami");
    assert_eq!(reference["range"]["start"]["line"], 7);
    assert_eq!(reference["range"]["start"]["column"], 9);
}

pub fn syntax_errors_come_back_as_data() {
    let text = load_config_raw(files(&[("main.tf", "resource \"a\" \"b\" {\n  x = \n}\n")]), JsValue::UNDEFINED)
        .expect("a syntax error is data, not an exception");
    let v: Value = serde_json::from_str(&text).unwrap();
    let diags = v["diagnostics"].as_array().unwrap();
    let error = diags.iter().find(|d| d["severity"] == "error").unwrap_or_else(|| panic!("no error in {v}"));
    assert_eq!(error["range"]["filename"], "main.tf");
    assert!(error["range"]["start"]["line"].as_u64().unwrap() >= 2, "{error}");
}

/// `evaluate` inside wasm: Terraform's 512-bit numbers, console rendering, unknown marks and
/// an error as data.
pub fn evaluate_raw_returns_value_type_rendering_and_marks() {
    let main = "variable \"n\" {\n  default = 3\n}\nresource \"aws_instance\" \"web\" {}\n";
    let out = |expr: &str| {
        json(
            &JSON::parse(&evaluate_raw(files(&[("main.tf", main)]), expr.into(), JsValue::UNDEFINED).unwrap()).unwrap(),
        )
    };
    let v = out("[for i in range(var.n) : i / 3]");
    if v["diagnostics"].as_array().is_some_and(|d| d.is_empty()) {
        assert_eq!(v["type"], "tuple([\n    number,\n    number,\n    number,\n])");
    }
    let v = out("0.1 + 0.2");
    assert_eq!(v["rendered"], "0.3");
    assert_eq!(v["json"], "0.3");
    let v = out("{ id = aws_instance.web.id, n = var.n }");
    assert_eq!(v["value"], serde_json::json!({ "id": null, "n": 3 }));
    assert_eq!(v["unknown"], serde_json::json!({ "id": true }));
    // Strings are NFC (cty normalises them); in wasm the JS engine's normalize does it.
    let v = out("strrev(\"e\\u0301x\")");
    assert_eq!(v["rendered"], "\"x\u{e9}\"");
    let v = out("\"e\\u0301\" == \"\\u00e9\"");
    assert_eq!(v["rendered"], "true");
    let v = out("var.nope");
    assert_eq!(v["diagnostics"][0]["summary"], "Reference to undeclared input variable");
    assert_eq!(v["diagnostics"][0]["range"]["start"]["column"], 1);
}

/// Go's `\p{..}` / `\P{..}` classes in regex patterns: in wasm their ranges come from the JS
/// engine's Unicode data, cut to Unicode 15.0 (Go's), not from tables in the module. Every case
/// of the recorded regex fixtures that uses one (general categories, scripts, `Any`, negation,
/// `^`, inside brackets, under `(?i)`, code points assigned after 15.0) runs through `evaluateRaw`.
pub fn evaluate_raw_regex_unicode_classes_match_terraform() {
    let fixture: Value = serde_json::from_str(include_str!("../fixtures/eval/functions/string_regex.json")).unwrap();
    let mut ran = 0;
    for case in fixture["cases"].as_array().unwrap() {
        let expr = case["expr"].as_str().unwrap();
        if !expr.contains("\\\\p") && !expr.contains("\\\\P") {
            continue;
        }
        let out = json(
            &JSON::parse(&evaluate_raw(files(&[("main.tf", "")]), expr.into(), JsValue::UNDEFINED).unwrap()).unwrap(),
        );
        if let Some(err) = case.get("error") {
            assert_eq!(out["diagnostics"][0]["detail"], err["detail"], "{expr}");
        } else {
            assert_eq!(out["diagnostics"], serde_json::json!([]), "{expr}");
            assert_eq!(out["value"], case["value"], "{expr}");
            assert_eq!(out["type"], case["type"], "{expr}");
            assert_eq!(out["rendered"], case["rendered"], "{expr}");
        }
        ran += 1;
    }
    assert!(ran >= 60, "only {ran} cases with \\p");
}

/// Go's `(?i)` in wasm: the case orbits the package builds from the JS engine are exactly
/// those of tests/fixtures/eval/case_orbits.json (regex-syntax's simple case folding
/// cut to Unicode 15.0, pinned natively by `case_orbits_are_the_fixture`), and every recorded
/// regex fixture with `(?i)` evaluates as Terraform does.
pub fn evaluate_raw_regex_case_folding_matches_terraform() {
    let eval = |expr: &str| {
        json(&JSON::parse(&evaluate_raw(files(&[("main.tf", "")]), expr.into(), JsValue::UNDEFINED).unwrap()).unwrap())
    };
    // The first call installs the JS engine's services (ſ, U+017F, folds with s and S; the
    // Kelvin sign would not do: strings are NFC, where it is K).
    assert_eq!(eval("regex(\"(?i)\\u017f\", \"S\")")["value"], "S");
    let want: Vec<Vec<u32>> = serde_json::from_str(include_str!("../fixtures/eval/case_orbits.json")).unwrap();
    let got = tfgraph::eval::functions::string_regex_fold::orbits();
    let missing: Vec<&Vec<u32>> = want.iter().filter(|o| !got.contains(o)).collect();
    let extra: Vec<&Vec<u32>> = got.iter().filter(|o| !want.contains(o)).collect();
    assert!(missing.is_empty() && extra.is_empty(), "not built: {missing:?}\nbuilt, not regex-syntax's: {extra:?}");
    assert_eq!(got.len(), want.len());
    let fixture: Value = serde_json::from_str(include_str!("../fixtures/eval/functions/string_regex.json")).unwrap();
    let mut ran = 0;
    for case in fixture["cases"].as_array().unwrap() {
        let expr = case["expr"].as_str().unwrap();
        if !expr.contains("(?i") {
            continue;
        }
        let out = eval(expr);
        if let Some(err) = case.get("error") {
            assert_eq!(out["diagnostics"][0]["detail"], err["detail"], "{expr}");
        } else {
            assert_eq!(out["diagnostics"], serde_json::json!([]), "{expr}");
            assert_eq!(out["value"], case["value"], "{expr}");
            assert_eq!(out["rendered"], case["rendered"], "{expr}");
        }
        ran += 1;
    }
    assert!(ran >= 30, "only {ran} cases with (?i)");
}
