//! Shared by `tests/eval_functions_<family>.rs`: runs every case of a fixture file
//! (`tests/fixtures/eval/functions/<family>*.json`, recorded from Terraform or written from its
//! source and marked so) through the evaluator and reports every mismatch at once.
//!
//! A case is `{ expr, json?, value?, type, rendered, source }` for a result (`json` is the text
//! `jsonencode` gives, compared exactly: numbers keep all their digits; `value` is that text
//! parsed, for reading; both absent where Terraform cannot encode it, e.g. sensitive values) or
//! `{ expr, error: { summary, detail, start, end }, source }` for an error, `start`/`end`
//! being character offsets of the diagnostic's range inside `expr` (absent when the range is
//! elsewhere). A file may carry `locals` (name → expression) that the cases can reference, and
//! `config` (more Terraform source, e.g. a resource whose attributes are unknown while planning),
//! and `files` (path → text) beside main.tf for the filesystem functions.

#![allow(dead_code)]

use serde_json::Value as Json;
use std::collections::BTreeMap;
use tfgraph::eval::{evaluate, render, EvalOptions};

/// What evaluating one expression gave.
pub enum Outcome {
    Value {
        /// `jsonencode`'s text for the value, if it can encode it.
        json: Option<String>,
        /// `type()`'s rendering.
        ty: String,
        /// `terraform console`'s rendering.
        rendered: String,
    },
    Error {
        summary: String,
        detail: String,
        /// Character offsets of the range inside the expression, when it is there.
        start: Option<usize>,
        end: Option<usize>,
    },
}

/// What a fixture file's cases are evaluated in.
#[derive(Default)]
pub struct Setup {
    pub locals: Vec<(String, String)>,
    pub config: String,
    /// Files beside main.tf (path → text), for the filesystem functions.
    pub files: Vec<(String, String)>,
}

pub struct Case {
    pub expr: String,
    pub expected: Json,
}

pub fn load(file: &str) -> (Setup, Vec<Case>) {
    let path = format!("{}/tests/fixtures/eval/functions/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: Json = serde_json::from_str(&text).unwrap();
    let locals = doc
        .get("locals")
        .and_then(Json::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string())).collect())
        .unwrap_or_default();
    let cases = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case { expr: c["expr"].as_str().unwrap().to_string(), expected: c.clone() })
        .collect();
    let config = doc.get("config").and_then(Json::as_str).unwrap_or_default().to_string();
    let files = doc
        .get("files")
        .and_then(Json::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string())).collect())
        .unwrap_or_default();
    (Setup { locals, config, files }, cases)
}

/// Runs every case of `file` through `eval` (given the file's locals and the expression) and
/// panics with a list of all mismatches. Returns the number of cases checked.
pub fn run(file: &str, eval: impl FnMut(&Setup, &str) -> Outcome) -> usize {
    check(file, eval).unwrap_or_else(|e| panic!("{e}"))
}

/// [`run`], returning the list of mismatches as an error instead of panicking.
pub fn check(file: &str, eval: impl FnMut(&Setup, &str) -> Outcome) -> Result<usize, String> {
    check_filtered(file, |_| true, eval)
}

/// [`check`] on the cases whose expression `keep` accepts.
pub fn check_filtered(
    file: &str,
    keep: impl Fn(&str) -> bool,
    mut eval: impl FnMut(&Setup, &str) -> Outcome,
) -> Result<usize, String> {
    let (setup, mut cases) = load(file);
    cases.retain(|c| keep(&c.expr));
    assert!(!cases.is_empty(), "{file} has no cases");
    let mut failures = Vec::new();
    for case in &cases {
        let got = eval(&setup, &case.expr);
        if let Some(why) = compare(&case.expected, &got) {
            failures.push(format!("{}\n    {why}", case.expr));
        }
    }
    if !failures.is_empty() {
        return Err(format!(
            "{file}: {} of {} cases differ from Terraform:\n  {}",
            failures.len(),
            cases.len(),
            failures.join("\n  ")
        ));
    }
    Ok(cases.len())
}

fn compare(want: &Json, got: &Outcome) -> Option<String> {
    match (want.get("error"), got) {
        (Some(err), Outcome::Error { summary, detail, start, end }) => {
            let ws = err["summary"].as_str().unwrap();
            let wd = err["detail"].as_str().unwrap();
            if ws != summary || wd != detail {
                return Some(format!("error: want {ws:?} / {wd:?}\n    got  {summary:?} / {detail:?}"));
            }
            let wstart = err.get("start").and_then(Json::as_u64).map(|v| v as usize);
            let wend = err.get("end").and_then(Json::as_u64).map(|v| v as usize);
            if wstart.is_some() && (wstart != *start || wend != *end) {
                return Some(format!("range: want {wstart:?}..{wend:?}, got {start:?}..{end:?}"));
            }
            None
        }
        (Some(err), Outcome::Value { rendered, .. }) => {
            Some(format!("want error {:?} / {:?}, got value {rendered}", err["summary"], err["detail"]))
        }
        (None, Outcome::Error { summary, detail, .. }) => {
            Some(format!("want {}, got error {summary:?} / {detail:?}", want["rendered"].as_str().unwrap_or("?")))
        }
        (None, Outcome::Value { json, ty, rendered }) => {
            let wr = want["rendered"].as_str().unwrap();
            let wt = want["type"].as_str().unwrap();
            if wr != rendered {
                return Some(format!("rendered: want {wr:?}\n    got  {rendered:?}"));
            }
            if wt != ty {
                return Some(format!("type: want {wt:?}\n    got  {ty:?}"));
            }
            if let Some(wj) = want.get("json").and_then(Json::as_str) {
                if json.as_deref() != Some(wj) {
                    return Some(format!("jsonencode: want {wj}\n    got  {json:?}"));
                }
            } else if let Some(wv) = want.get("value") {
                let got: Option<Json> = json.as_deref().and_then(|t| serde_json::from_str(t).ok());
                if got.as_ref() != Some(wv) {
                    return Some(format!("value: want {wv}\n    got  {json:?}"));
                }
            }
            None
        }
    }
}

/// Evaluates `expr` as `terraform console` does (while planning) in a module that has only the
/// setup's locals and config.
pub fn console(setup: &Setup, expr: &str) -> Outcome {
    let mut main = setup.config.clone();
    main.push_str("locals {\n");
    for (k, v) in &setup.locals {
        main.push_str(&format!("  {k} = {v}\n"));
    }
    main.push_str("}\n");
    let mut files: BTreeMap<String, String> = setup.files.iter().cloned().collect();
    files.insert("main.tf".to_string(), main);
    let loaded = tfgraph::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let out = evaluate(&files, &loaded.config, expr, &EvalOptions::default());
    match out.value {
        Some(v) => Outcome::Value {
            json: if v.has_sensitive() { None } else { render::to_json_text(&v) },
            ty: v.ty().type_expr(),
            rendered: render::console(&v),
        },
        None => {
            let d = out.diagnostics.errors().next().expect("an error without a diagnostic");
            let (start, end) = match &d.range {
                Some(r) if r.filename == "<console-input>" => {
                    (Some(r.start.column as usize - 1), Some(r.end.column as usize - 1))
                }
                _ => (None, None),
            };
            Outcome::Error { summary: d.summary.clone(), detail: d.detail.clone(), start, end }
        }
    }
}
