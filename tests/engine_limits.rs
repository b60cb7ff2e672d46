//! The plan's limits (issue #26, src/eval/limits.rs) natively: expansions past them are one
//! error at the `count` / `for_each` argument, answered at once; within them (raised or not)
//! the plan is the plan.

#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::collections::BTreeMap;
use std::time::Instant;
use support::session::plan_by;
use tfgraph::engine::{Plan, PlanOptions};
use tfgraph::eval::limits::{self, Limits};
use tfgraph::providers::mock::{MockOptions, MockProvider};

fn planned(files: &[(&str, &str)], limits: Limits) -> Plan {
    let files: BTreeMap<String, String> = files.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let loaded = tfgraph::config::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let provider = MockProvider::new(MockOptions::default());
    limits::with(limits, || plan_by(&files, &loaded.config, None, &provider, &PlanOptions::default()).plan)
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
    // Level by level, as the walk reaches the calls' expand nodes: the second level passes it.
    assert_eq!(errors(&p), [("Too many module instances".to_string(), "l1/main.tf".to_string(), 3, 12)]);
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

/// Evaluates `expr` in a configuration of `main`, under `limits`: its value rendered, or the
/// first error's summary, detail and range start, and how long it took.
fn console(
    main: &str,
    expr: &str,
    limits: Limits,
) -> (Result<String, (String, String, u32, u32)>, std::time::Duration) {
    let files: BTreeMap<String, String> = [("main.tf".to_string(), main.to_string())].into();
    let loaded = tfgraph::config::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let t0 = Instant::now();
    let out = limits::with(limits, || tfgraph::eval::evaluate(&files, &loaded.config, expr, &Default::default()));
    let elapsed = t0.elapsed();
    let r = match (out.diagnostics.errors().next(), out.value) {
        (None, Some(v)) => Ok(tfgraph::eval::render::console(&v)),
        (d, _) => {
            let d = d.expect("an error");
            let (line, column) = d.range.as_ref().map_or((0, 0), |r| (r.start.line, r.start.column));
            Err((d.summary.clone(), d.detail.clone(), line, column))
        }
    };
    (r, elapsed)
}

/// What one expression makes is bounded by limits.elements / limits.bytes: each case an error
/// at the part that passed the budget, within seconds; Terraform's own sizes stay values.
#[test]
fn sizes_made_by_expressions_are_bounded() {
    let d = Limits::DEFAULT;
    // The budgets lowered 32 and 16 times, so that this debug build stops each in a second or
    // two (the default ones: tests/js/limits.test.mjs, in the release module).
    let small = Limits { elements: 1 << 20, bytes: 16 << 20, ..d };
    let too_large = |main: &str, expr: &str, summary: &str, needle: &str, column: u32| {
        let (r, took) = console(main, expr, small);
        let (s, detail, _, col) = r.expect_err(expr);
        assert_eq!(s, summary, "{expr}: {detail}");
        assert!(detail.contains(needle), "{expr}: {detail}");
        if column > 0 {
            assert_eq!(col, column, "{expr}: {detail}");
        }
        assert!(took.as_secs() < 20, "{expr} took {took:?}");
    };
    // A billion elements from nested for expressions: stopped at the innermost value.
    let nested = "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : k]]])";
    too_large(
        "",
        nested,
        "Expression result too large",
        "more than 1,048,576 collection elements (limits.elements)",
        0,
    );
    // A billion iterations that keep nothing: work too.
    let filtered = "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : k if false]]])";
    too_large("", filtered, "Expression result too large", "(limits.elements)", 0);
    // A gigabyte of strings, each within format's own width.
    too_large(
        "",
        r#"length(join("", [for i in range(1024) : format("%01000000d", i)]))"#,
        "Error in function call",
        "more than 16 MiB of strings (limits.bytes)",
        0,
    );
    // Copies of a big local, each within the budget on its own.
    let big = "locals {\n  big = [for i in range(512) : [for j in range(512) : j]]\n}\n";
    too_large(
        big,
        "length([for i in range(1024) : local.big])",
        "Expression result too large",
        "(limits.elements)",
        32,
    );
    too_large(big, "length([local.big, local.big, local.big, local.big])", "Expression result too large", "", 0);
    // The 10-million-element set of the issue.
    too_large(
        "",
        r#"length(toset([for p in setproduct(range(1000), range(1000), range(10)) : join("-", p)]))"#,
        "Error in function call",
        "(limits.elements)",
        0,
    );
    // Large but within the default budget: values (Terraform's 4,194,304-tuple setproduct and a
    // million for_each keys from a product: tests/js/limits.test.mjs, in the release module).
    let (r, took) = console("", "length(flatten([for i in range(1024) : [for j in range(1024) : j]]))", d);
    assert_eq!(r.map_err(|e| e.1), Ok("1048576".to_string()));
    assert!(took.as_secs() < 60, "took {took:?}");
    // range: 1001 elements; each [i] 1 as a tuple item, then 2 as the for item; length 1: 4002
    // fit, 4001 do not; each evaluation has its own budget.
    let (r, _) = console("", "length([for i in range(1000) : [i]])", Limits { elements: 4001, ..d });
    assert!(r.unwrap_err().1.contains("more than 4,001 collection elements"));
    for _ in 0..2 {
        let (r, _) = console("", "length([for i in range(1000) : [i]])", Limits { elements: 4002, ..d });
        assert_eq!(r.map_err(|e| e.1), Ok("1000".to_string()));
    }
}

/// A chain of 10,000 locals, each reading the one before: evaluated on demand, each inside the
/// next, so past eval::limits::MAX_NESTED a diagnostic at the local that passed it, never a
/// stack overflow. Within it, the chain's value.
#[test]
fn a_ten_thousand_deep_chain_of_locals() {
    let chain = |n: usize| {
        let mut main = String::from("locals {\n  l0 = 1\n");
        for i in 1..n {
            main.push_str(&format!("  l{i} = local.l{} + 1\n", i - 1));
        }
        main + "}\n"
    };
    let (r, took) = console(&chain(10_000), "local.l9999", Limits::DEFAULT);
    let (summary, detail, line, _) = r.unwrap_err();
    assert_eq!(summary, "Expression too deep", "{detail}");
    assert!(detail.contains("inside more than 128 others"), "{detail}");
    assert!(line > 9000, "at the local that passed the limit: line {line}");
    assert!(took.as_secs() < 20, "{took:?}");
    let (r, _) = console(&chain(120), "local.l119", Limits::DEFAULT);
    assert_eq!(r.map_err(|e| e.1), Ok("120".to_string()));
}

/// Local values each wrapping the one before in brackets: values nest past what the stack
/// renders, compares and drops (eval::limits::MAX_VALUE_DEPTH, 60), and evaluations nest inside
/// each other past what it holds (eval::limits::MAX_FRAMES, 256 levels, nested ones counted):
/// each an error at the part that passed it; within them, the value.
#[test]
fn values_and_evaluations_nested_past_their_bounds() {
    let wrapped = |locals: usize, per: usize| {
        let mut main = String::from("locals {\n  d0 = 1\n");
        for i in 1..locals {
            main.push_str(&format!("  d{i} = {}local.d{}{}\n", "[".repeat(per), i - 1, "]".repeat(per)));
        }
        main + "}\n"
    };
    // 120 locals 200 levels deep each: the second evaluation inside another passes 256 levels.
    let (r, took) = console(&wrapped(120, 200), "local.d119", Limits::DEFAULT);
    let (summary, detail, line, _) = r.unwrap_err();
    assert_eq!(summary, "Expression too deep", "{detail}");
    assert!(detail.contains("more than 256 levels of evaluation, counting those"), "{detail}");
    assert_eq!(line, 120, "in d118, the second local read: {detail}");
    assert!(took.as_secs() < 20, "{took:?}");
    // d1 is 41 levels deep, d2 passes 60 at its 21st bracket.
    let (r, _) = console(&wrapped(3, 40), "local.d2", Limits::DEFAULT);
    let (summary, detail, line, _) = r.unwrap_err();
    assert_eq!((summary.as_str(), line), ("Expression result too large", 4), "{detail}");
    assert!(detail.contains("a value nested more than 60 levels deep"), "{detail}");
    let (r, _) = console(&wrapped(3, 25), "length(flatten(local.d2))", Limits::DEFAULT);
    assert_eq!(r.map_err(|e| e.1), Ok("1".to_string()));
    // jsondecode's own bound is the parser's (256): its result is bounded too.
    let deep = format!("jsondecode(\"{}1{}\")", "[".repeat(200), "]".repeat(200));
    let (r, _) = console("", &deep, Limits::DEFAULT);
    assert!(r.unwrap_err().1.contains("nested more than 60 levels deep"));
}
