#![cfg(not(target_arch = "wasm32"))]
//! The collection functions against Terraform: every case of `tests/fixtures/eval/functions/collection*.json`
//! (recorded from Terraform 1.11.4; 1.15 differences written from its source and marked so).

mod support;
use support::console as harness;

#[test]
fn collection_functions_as_terraform_evaluates_them() {
    let mut failures = Vec::new();
    let mut total = 0;
    // collection_typed.json: empty collections of typed variables (issue #25's typed empties).
    for file in [
        "collection.json",
        "collection_more.json",
        "collection_unknown.json",
        "collection_edges.json",
        "collection_typed.json",
    ] {
        match harness::check(file, harness::console) {
            Ok(n) => total += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(total >= 528, "only {total} collection cases ran");
}

/// Hostile input: every one gives a clear error or a value, quickly, and never a panic.
#[test]
fn hostile_collections_stop_cleanly() {
    let setup = harness::Setup::default();
    let error = |expr: &str| match harness::console(&setup, expr) {
        harness::Outcome::Error { summary, detail, .. } => format!("{summary}: {detail}"),
        harness::Outcome::Value { rendered, .. } => {
            panic!("{expr} gave a value: {}", &rendered[..rendered.len().min(80)])
        }
    };
    let start = std::time::Instant::now();
    // More combinations than one expression's budget holds (eval/limits.rs; Terraform would
    // allocate 1024^7 tuples): refused before they are built.
    let e = error("setproduct(range(1024), range(1024), range(64))");
    assert!(e.contains("makes more than 16,777,216 collection elements (limits.elements)"), "{e}");
    let e =
        error("setproduct(range(1024), range(1024), range(1024), range(1024), range(1024), range(1024), range(1024))");
    assert!(e.contains("(limits.elements)"), "{e}");
    // range's own limit, however the arguments ask for more.
    for expr in ["range(1e300)", "range(-1e300)", "range(0, 1, 1e-300)", "range(0, 1, 0)"] {
        assert!(error(expr).contains("more than 1024 values were generated"), "{expr}");
    }
    // Large but within the limits: values, not errors.
    let sizes = [
        ("length(setproduct(range(256), range(256)))", "65536"),
        // Terraform has no limit on setproduct: 2^21 tuples are a value (terraform console 1.11.4).
        ("length(setproduct(range(1024), range(1024), [1, 2]))", "2097152"),
        ("length(flatten([for i in range(1024) : range(1024)]))", "1048576"),
        ("length(chunklist(flatten([for i in range(1024) : range(64)]), 3))", "21846"),
        // distinct and the set operations stay linear-ish on long inputs.
        ("length(distinct(flatten([for i in range(128) : range(1024)])))", "1024"),
        ("length(distinct(flatten([for i in range(64) : [for j in range(1024) : i * 1024 + j]])))", "65536"),
        ("length(setintersection(flatten([for i in range(64) : [for j in range(1024) : i * 1024 + j]]), [for i in range(1024) : i * 2]))", "1024"),
        ("length(setsubtract(flatten([for i in range(64) : [for j in range(1024) : i * 1024 + j]]), [for i in range(1024) : i * 2]))", "64512"),
    ];
    for (expr, want) in sizes {
        match harness::console(&setup, expr) {
            harness::Outcome::Value { rendered, .. } => assert_eq!(rendered, want, "{expr}"),
            harness::Outcome::Error { detail, .. } => panic!("{expr}: {detail}"),
        }
    }
    // Deep nesting flattens without overflowing the stack.
    let deep = format!("length(flatten({}1{}))", "[".repeat(64), "]".repeat(64));
    match harness::console(&setup, &deep) {
        harness::Outcome::Value { rendered, .. } => assert_eq!(rendered, "1"),
        harness::Outcome::Error { summary, .. } => assert!(!summary.is_empty()),
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(60), "took {:?}", start.elapsed());
}

/// Functions over partially unknown collections (a known element beside an unknown one), as
/// Terraform plans them: `tests/fixtures/eval/collection_partial.json`, recorded with
/// `recording/record-partial.mjs` from Terraform 1.11.4's planned outputs (`after` and
/// `after_unknown`, compared with the value and unknown marks `evaluate` gives).
#[test]
fn partially_unknown_collections_as_terraform_plans_them() {
    use std::collections::BTreeMap;
    use tfgraph::eval::{evaluate, render, EvalOptions};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/collection_partial.json");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut main = String::from("resource \"terraform_data\" \"x\" {\n  input = \"a\"\n}\nlocals {\n");
    for (k, v) in doc["locals"].as_object().unwrap() {
        main.push_str(&format!("  {k} = {}\n", v.as_str().unwrap()));
    }
    main.push_str("}\n");
    let files: BTreeMap<String, String> = [("main.tf".to_string(), main)].into();
    let loaded = tfgraph::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let cases = doc["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    for c in cases {
        let expr = c["expr"].as_str().unwrap();
        let out = evaluate(&files, &loaded.config, expr, &EvalOptions::default());
        match (out.value, c.get("error")) {
            (Some(_), None) if c.get("differs").is_some() => {}
            (Some(v), None) => {
                let (value, unknown, _) = render::to_api(&v);
                let (value, unknown) = (plan_json_shape(&value, &unknown), all_false_is_false(&unknown));
                if value != c["after"] || unknown != all_false_is_false(&c["after_unknown"]) {
                    failures.push(format!(
                        "{expr}\n    want {} / unknown {}\n    got  {value} / unknown {unknown}",
                        c["after"], c["after_unknown"]
                    ));
                }
            }
            (None, Some(e)) => {
                let d = out.diagnostics.errors().next().unwrap();
                if d.summary != e["summary"].as_str().unwrap() || d.detail != e["detail"].as_str().unwrap() {
                    failures.push(format!("{expr}\n    want error {e}\n    got  {} / {}", d.summary, d.detail));
                }
            }
            (Some(v), Some(e)) => {
                failures.push(format!("{expr}\n    want error {e}\n    got  {}", render::console(&v)))
            }
            (None, None) => failures.push(format!("{expr}\n    got error {:?}", out.diagnostics)),
        }
    }
    assert!(failures.is_empty(), "{} of {} cases differ:\n  {}", failures.len(), cases.len(), failures.join("\n  "));
}

/// Plan JSON leaves an object's unknown attributes out of `after` (`evaluate` keeps them as
/// `null` beside their `unknown` mark).
fn plan_json_shape(value: &serde_json::Value, unknown: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value as J;
    match (value, unknown) {
        (J::Object(m), J::Object(u)) => J::Object(
            m.iter()
                .filter(|(k, _)| u.get(*k) != Some(&J::Bool(true)))
                .map(|(k, v)| (k.clone(), plan_json_shape(v, u.get(k).unwrap_or(&J::Bool(false)))))
                .collect(),
        ),
        (J::Array(xs), J::Array(us)) => J::Array(xs.iter().zip(us).map(|(x, u)| plan_json_shape(x, u)).collect()),
        _ => value.clone(),
    }
}

/// Unknown marks with every wholly known part as `false` (plan JSON spells a known element of
/// a partly unknown sequence `[false]`, `evaluate` `false`; both mean the same).
fn all_false_is_false(u: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value as J;
    let folded = match u {
        J::Array(xs) => J::Array(xs.iter().map(all_false_is_false).collect()),
        J::Object(m) => J::Object(
            m.iter().map(|(k, v)| (k.clone(), all_false_is_false(v))).filter(|(_, v)| *v != J::Bool(false)).collect(),
        ),
        other => other.clone(),
    };
    match &folded {
        J::Array(xs) if xs.iter().all(|x| *x == J::Bool(false)) => J::Bool(false),
        J::Object(m) if m.is_empty() => J::Bool(false),
        _ => folded,
    }
}
