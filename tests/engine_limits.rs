//! The plan's limits (issue #26, src/eval/limits.rs) natively: expansions past them are one
//! error at the `count` / `for_each` argument, answered at once; within them (raised or not)
//! the plan is the plan.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::time::Instant;
use tfgraph::engine::{plan::plan, Plan, PlanOptions};
use tfgraph::eval::limits::{self, Limits};
use tfgraph::providers::mock::{MockOptions, MockProvider};

fn planned(files: &[(&str, &str)], limits: Limits) -> Plan {
    let files: BTreeMap<String, String> = files.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let loaded = tfgraph::config::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let provider = MockProvider::new(MockOptions::default());
    limits::with(limits, || plan(&files, &loaded.config, None, &provider, &PlanOptions::default()))
}

fn errors(p: &Plan) -> Vec<(String, String, u32, u32)> {
    p.diagnostics
        .errors()
        .map(|d| {
            let r = d.range.as_ref().expect("a range");
            (d.summary.clone(), r.filename.clone(), r.start.line, r.start.column)
        })
        .collect()
}

#[test]
fn a_hundred_million_instances_is_an_error_at_count() {
    let t0 = Instant::now();
    let p = planned(&[("main.tf", "resource \"mock_resource\" \"a\" {\n  count = 100000000\n}\n")], Limits::DEFAULT);
    assert_eq!(errors(&p), [("Too many instances".to_string(), "main.tf".to_string(), 2, 11)]);
    assert!(p.changes.is_empty());
    assert!(t0.elapsed().as_secs() < 10, "{:?}", t0.elapsed());
}

#[test]
fn for_each_counts_after_what_was_planned() {
    let files = [(
        "main.tf",
        "resource \"mock_resource\" \"a\" {\n  count = 5\n}\nresource \"mock_resource\" \"b\" {\n  for_each = toset([\"x\", \"y\"])\n  name = mock_resource.a[0].id\n}\n",
    )];
    let tight = Limits { instances: 6, ..Limits::DEFAULT };
    assert_eq!(errors(&planned(&files, tight)), [("Too many instances".to_string(), "main.tf".to_string(), 5, 14)]);
    let enough = Limits { instances: 7, ..Limits::DEFAULT };
    let p = planned(&files, enough);
    assert!(errors(&p).is_empty());
    assert_eq!(p.changes.len(), 7);
}

#[test]
fn nested_module_counts_stop_at_the_call_that_passes_the_limit() {
    let level = |child: &str| format!("module \"m\" {{\n  source = \"./{child}\"\n  count  = 1000\n}}\n");
    let (root, l1, l2) = (level("l1"), level("l2"), level("l3"));
    let files = [
        ("main.tf", root.as_str()),
        ("l1/main.tf", l1.as_str()),
        ("l1/l2/main.tf", l2.as_str()),
        ("l1/l2/l3/main.tf", "resource \"mock_resource\" \"leaf\" {}\n"),
    ];
    let t0 = Instant::now();
    let p = planned(&files, Limits { module_instances: 5000, ..Limits::DEFAULT });
    assert_eq!(errors(&p), [("Too many module instances".to_string(), "l1/l2/main.tf".to_string(), 3, 12)]);
    assert!(p.changes.is_empty(), "nothing is planned past the limit");
    assert!(t0.elapsed().as_secs() < 20, "{:?}", t0.elapsed());
    // Within the limit the tree plans.
    let files = [
        ("main.tf", "module \"m\" {\n  source = \"./l1\"\n  count  = 3\n}\n"),
        ("l1/main.tf", "module \"m\" {\n  source = \"./l2\"\n  count  = 4\n}\n"),
        ("l1/l2/main.tf", "resource \"mock_resource\" \"leaf\" {}\n"),
    ];
    let p = planned(&files, Limits { module_instances: 15, ..Limits::DEFAULT });
    assert!(errors(&p).is_empty());
    assert_eq!(p.changes.len(), 12);
    assert_eq!(errors(&planned(&files, Limits { module_instances: 14, ..Limits::DEFAULT })).len(), 1);
}

#[test]
fn join_stops_at_the_longest_string_a_function_builds() {
    let files: BTreeMap<String, String> = [("main.tf".to_string(), String::new())].into();
    let loaded = tfgraph::config::load(&files, &Default::default());
    let eval = |e: &str| tfgraph::eval::evaluate(&files, &loaded.config, e, &Default::default());
    // 80 strings of 1 MB: each within format's width limit, together past 64 MiB.
    let big = eval(r#"length(join("", [for i in range(80) : format("%01000000d", i)]))"#);
    let d = big.diagnostics.errors().next().expect("an error");
    assert!(d.detail.contains("longer than the 64 MiB strings"), "{}", d.detail);
    let fits = eval(r#"length(join("", [for i in range(40) : format("%01000000d", i)]))"#);
    assert!(!fits.diagnostics.has_errors(), "{:?}", fits.diagnostics);
}
