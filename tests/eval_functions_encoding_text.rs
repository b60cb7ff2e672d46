#![cfg(not(target_arch = "wasm32"))]
//! `textencodebase64` / `textdecodebase64` in every encoding Terraform accepts, against Go's
//! x/text itself: `encoding_text_xtext.json` holds random texts and byte strings through each
//! encoding's encoder and decoder and every name ianaindex knows without an encoding, with x/text's
//! answers (scripts/gen-encodings writes it with the data file). `encoding_text.json` holds
//! Terraform 1.11.4's own answers for each encoding, its names, and its error texts.

mod support;
use support::console as harness;

use serde_json::Value as Json;

/// An HCL string literal of `s`.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out.replace("${", "$${").replace("%{", "%%{")
}

#[test]
fn every_encoding_as_x_text_encodes_and_decodes() {
    let path = format!("{}/tests/fixtures/eval/encoding_text_xtext.json", env!("CARGO_MANIFEST_DIR"));
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let setup = harness::Setup::default();
    let (mut n, mut bad) = (0, Vec::new());
    for case in doc["cases"].as_array().unwrap() {
        let [f, input, enc, want] = case.as_array().unwrap().as_slice() else { panic!("{case}") };
        let expr = format!(
            "text{}base64({}, {})",
            f.as_str().unwrap(),
            quote(input.as_str().unwrap()),
            quote(enc.as_str().unwrap())
        );
        let got = match harness::console(&setup, &expr) {
            harness::Outcome::Value { json, .. } => json.and_then(|j| serde_json::from_str::<Json>(&j).ok()),
            harness::Outcome::Error { .. } => None,
        };
        let want = want.as_str().map(|s| Json::String(s.into()));
        if got != want {
            bad.push(format!("{expr}\n  x/text: {want:?}\n  ours:   {got:?}"));
        }
        n += 1;
    }
    assert!(bad.is_empty(), "{} of {n} differ:\n{}", bad.len(), bad[..bad.len().min(30)].join("\n"));
    assert!(n >= 2900, "only {n} cases");
    eprintln!("{n} cases agree with x/text");
}

#[test]
fn every_encoding_as_terraform_answers() {
    // Round trips, characters an encoding lacks, invalid bytes, every name and alias (as
    // listed, upper case, padded), and names ianaindex knows without an encoding.
    let n = harness::run("encoding_text.json", harness::console);
    assert!(n >= 290, "only {n} cases ran");
}
