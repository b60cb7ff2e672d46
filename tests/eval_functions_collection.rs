#![cfg(not(target_arch = "wasm32"))]
//! The collection functions against Terraform: every case of `tests/fixtures/eval/functions/collection*.json`
//! (recorded from Terraform 1.11.4; 1.15 differences written from its source and marked so).

mod support;
use support::console as harness;

#[test]
fn collection_functions_as_terraform_evaluates_them() {
    let mut failures = Vec::new();
    let mut total = 0;
    for file in ["collection.json", "collection_more.json", "collection_unknown.json", "collection_edges.json"] {
        match harness::check(file, harness::console) {
            Ok(n) => total += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(total >= 471, "only {total} collection cases ran");
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
    // More combinations than setproduct builds (Terraform would allocate 2^21 tuples).
    let e = error("setproduct(range(1024), range(1024), [1, 2])");
    assert!(e.contains("the product has 2097152 elements, more than the 65536 this evaluator builds"), "{e}");
    let e =
        error("setproduct(range(1024), range(1024), range(1024), range(1024), range(1024), range(1024), range(1024))");
    assert!(e.contains("the product has too many elements"), "{e}");
    // range's own limit, however the arguments ask for more.
    for expr in ["range(1e300)", "range(-1e300)", "range(0, 1, 1e-300)", "range(0, 1, 0)"] {
        assert!(error(expr).contains("more than 1024 values were generated"), "{expr}");
    }
    // Large but within the limits: values, not errors.
    let sizes = [
        ("length(setproduct(range(256), range(256)))", "65536"),
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
