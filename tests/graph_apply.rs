#![cfg(not(target_arch = "wasm32"))]
//! The state-driven graphs (apply, plan-destroy, plan with a prior state) against Terraform's
//! own expectations and the oracle.
//!
//! Every folder of `tests/fixtures/graph/` named `apply-*`, `destroy-*`, `orphan-*` or
//! `state-*` is a case: its `.tf` files (subfolders are local modules), `state.json` (a real
//! state v4 file), `changes.json` (instance address → action list), `SOURCE` (where each
//! expectation comes from) and any of:
//!
//! | file | compared with |
//! |---|---|
//! | `apply.txt` | `String()` of the apply graph |
//! | `apply-instances.txt` | the apply graph's instance nodes only (Terraform's `filterInstances`) |
//! | `cbd.txt` | Terraform's `cbdTestGraph`: apply steps up to `CBDEdgeTransformer`, root, reduction, instances only |
//! | `order.txt` | lines `A before B` (Terraform's `testGraphHappensBefore`) on the apply graph |
//! | `apply-destroy.txt` | `String()` of the apply graph of a destroy plan (`mode: destroy`, Terraform's `walkDestroy`) |
//! | `apply-destroy-order.txt` | `A before B` lines on that graph |
//! | `plan-destroy.txt` | `String()` of the plan-destroy graph |
//! | `plan-destroy-order.txt` | `A before B` lines on the plan-destroy graph |
//! | `plan.txt` | `String()` of the plan graph with the state |
//! | `diagnostics.txt` | the apply build's diagnostics, `summary: detail`, one per line |
//!
//! Deposed keys are written `KEY` (Terraform's tests match them with `\w+`; ours are derived
//! from the address).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tfgraph::plans::parse_changes;
use tfgraph::state::parse_state;
use tfgraph::graph::transform::{self, BuildContext, CloseRootModuleTransformer, TransitiveReductionTransformer};
use tfgraph::graph::builders::apply;
use tfgraph::graph::{build, BuildOptions, Operation, PlanMode, TfGraph, Why};

mod support;


/// `(destroy deposed 1a2b3c4d)` → `(destroy deposed KEY)`, likewise `(deposed …)`.
fn normalize(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("deposed ") {
        let (head, tail) = rest.split_at(i + "deposed ".len());
        out.push_str(head);
        if tail.len() >= 8 && tail.as_bytes()[..8].iter().all(u8::is_ascii_hexdigit) {
            out.push_str("KEY");
            rest = &tail[8..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Terraform's `filterInstances`: removes every node that is not a resource instance,
/// connecting its dependents to its dependencies first.
pub fn filter_instances(g: &TfGraph) -> TfGraph {
    let mut g = g.clone();
    let others: Vec<_> = g.ids().filter(|&id| !g.node(id).is_resource_instance()).collect();
    for v in others {
        let downs: Vec<_> = g.dag().edges_from(v).collect();
        let ups: Vec<_> = g.dag().edges_to(v).collect();
        for &u in &ups {
            for &d in &downs {
                if u != d {
                    g.connect(u, d, Why::RootClose);
                }
            }
        }
        g.remove(v);
    }
    g
}

struct Case {
    name: String,
    config: tfgraph::config::Config,
    options: BuildOptions,
}

fn load(dir: &Path) -> Case {
    let name = dir.file_name().unwrap().to_string_lossy().to_string();
    let files = support::read_tf_fixture(dir);
    let loaded = tfgraph::config::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{name}: {:?}", loaded.diagnostics);
    let mut options = BuildOptions::default();
    if let Ok(text) = std::fs::read_to_string(dir.join("state.json")) {
        let (s, d) = parse_state(&text);
        assert!(d.is_empty(), "{name}: state.json: {d:?}");
        options.state = Some(s);
    }
    if let Ok(text) = std::fs::read_to_string(dir.join("changes.json")) {
        let (c, d) = parse_changes(&text);
        assert!(d.is_empty(), "{name}: changes.json: {d:?}");
        options.changes = Some(c);
    }
    Case { name, config: loaded.config, options }
}

fn with_op(o: &BuildOptions, operation: Operation) -> BuildOptions {
    BuildOptions { operation, ..o.clone() }
}

/// Terraform's `cbdTestGraph`: the apply steps up to `CBDEdgeTransformer`, then the root and
/// reduction, instances only.
fn cbd_graph(c: &Case) -> TfGraph {
    let o = with_op(&c.options, Operation::Apply);
    let mut steps = apply::steps(&o);
    let at = steps.iter().position(|s| s.transform.name() == "CBDEdgeTransformer").expect("CBD step");
    steps.truncate(at + 1);
    steps.push(transform::Step::new(CloseRootModuleTransformer, "test"));
    steps.push(transform::Step::new(TransitiveReductionTransformer, "test"));
    let cx = BuildContext::new(&c.config, &o);
    let mut g = TfGraph::new();
    transform::run(&steps, &mut g, &cx);
    filter_instances(&g)
}

fn check_order(g: &TfGraph, text: &str, failures: &mut Vec<String>, what: &str) {
    let names: BTreeMap<String, String> = g.nodes().into_iter().map(|n| (normalize(&n.name), n.name)).collect();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (a, b) = line.split_once(" before ").expect("`A before B`");
        let (Some(a), Some(b)) = (names.get(a.trim()), names.get(b.trim())) else {
            failures.push(format!("{what}: {line}: node missing"));
            continue;
        };
        if !g.ancestors(b).contains(a) {
            failures.push(format!("{what}: expected {a} to happen before {b}\n{}", normalize(&g.to_string())));
        }
    }
}

#[test]
fn state_driven_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            p.is_dir() && ["apply-", "destroy-", "orphan-", "state-"].iter().any(|pre| n.starts_with(pre))
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 12, "{} cases", cases.len());
    let mut failures = Vec::new();
    let mut checked = 0;
    for dir in &cases {
        let c = load(dir);
        assert!(dir.join("SOURCE").exists(), "{}: needs a SOURCE file", c.name);
        let applied = build(&c.config, &with_op(&c.options, Operation::Apply));
        let planned_destroy = || build(&c.config, &with_op(&c.options, Operation::Destroy));
        let applied_destroy =
            || build(&c.config, &BuildOptions { mode: PlanMode::Destroy, ..with_op(&c.options, Operation::Apply) });
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
        let mut compare = |file: &str, got: String| {
            if let Some(want) = read(file) {
                checked += 1;
                if want.trim() != normalize(got.trim()) {
                    failures.push(format!("{}/{file}:\n--- want\n{}\n--- got\n{}", c.name, want.trim(), normalize(got.trim())));
                }
            }
        };
        compare("apply.txt", applied.graph.to_string());
        compare("apply-instances.txt", filter_instances(&applied.graph).to_string());
        if read("cbd.txt").is_some() {
            compare("cbd.txt", cbd_graph(&c).to_string());
        }
        if read("apply-destroy.txt").is_some() {
            compare("apply-destroy.txt", applied_destroy().graph.to_string());
        }
        if read("plan-destroy.txt").is_some() {
            compare("plan-destroy.txt", planned_destroy().graph.to_string());
        }
        if read("plan.txt").is_some() {
            compare("plan.txt", build(&c.config, &with_op(&c.options, Operation::Plan)).graph.to_string());
        }
        let diags: Vec<String> = applied.diagnostics.iter().map(|d| format!("{}: {}", d.summary, d.detail)).collect();
        match read("diagnostics.txt") {
            Some(want) => {
                checked += 1;
                if want.trim() != diags.join("\n") {
                    failures.push(format!("{}/diagnostics.txt:\n--- want\n{}\n--- got\n{}", c.name, want.trim(), diags.join("\n")));
                }
            }
            None if !diags.is_empty() && c.options.changes.is_some() => {
                failures.push(format!("{}: unexpected apply diagnostics: {diags:#?}", c.name))
            }
            None => {}
        }
        if let Some(text) = read("order.txt") {
            checked += 1;
            check_order(&applied.graph, &text, &mut failures, &format!("{}/order.txt", c.name));
        }
        if let Some(text) = read("apply-destroy-order.txt") {
            checked += 1;
            let built = applied_destroy();
            if !built.diagnostics.is_empty() {
                failures.push(format!("{}: unexpected destroy-apply diagnostics: {:#?}", c.name, built.diagnostics));
            }
            check_order(&built.graph, &text, &mut failures, &format!("{}/apply-destroy-order.txt", c.name));
        }
        if let Some(text) = read("plan-destroy-order.txt") {
            checked += 1;
            check_order(&planned_destroy().graph, &text, &mut failures, &format!("{}/plan-destroy-order.txt", c.name));
        }
    }
    eprintln!("{} state-driven fixtures, {checked} expectations", cases.len());
    assert!(failures.is_empty(), "{} mismatch(es):\n\n{}", failures.len(), failures.join("\n\n"));
}
