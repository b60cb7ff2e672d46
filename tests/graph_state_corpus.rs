#![cfg(not(target_arch = "wasm32"))]
//! The state-driven graphs at scale and on real configurations:
//!
//! * every root of the shared corpus builds a plan-destroy graph, and an apply graph that
//!   deletes everything, from a state synthesized out of its configuration ([`support::synthesize_state`]:
//!   one instance per resource, `dependencies` from the references, as Terraform's
//!   `AttachDependenciesTransformer` would have stored them) without error diagnostics;
//! * generated 10,000 / 100,000-resource states (`perf_*`, `--ignored`, run with `--release`)
//!   print how long reading the state and building the apply and plan-destroy graphs take.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Instant;
use tfgraph::graph::{build, BuildOptions, Operation};
use tfgraph::plans::changes_from_value;
use tfgraph::state::state_from_value;

mod support;

/// Terragrunt generates these `aws` aliases for cds-snc/notification-terraform (see
/// tests/graph_corpus.rs): Terraform reports them too.
fn terragrunt_alias(dir: &str, d: &tfgraph::Diagnostic) -> bool {
    dir.starts_with("cds-snc__notification-terraform/aws/") && d.summary == "Provider configuration not present"
}

#[test]
fn corpus_roots_build_destroy_and_apply_graphs_from_synthesized_states() {
    let Some((corpus, dirs)) = support::corpus_roots() else { return };
    let mut trees = support::RepoFiles::new(&corpus, support::tf_file);
    let (mut roots, mut objects, mut destroy_nodes, mut failures) = (0, 0, 0, Vec::new());
    for dir in &dirs {
        let dir = dir.as_str();
        let (files, root) = trees.read_root_files(dir);
        let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root });
        let (state_json, changes_json) = support::synthesize_state(&loaded.config);
        let (state, d) = state_from_value(&state_json);
        assert!(d.is_empty(), "{dir}: synthesized state: {d:?}");
        let (changes, d) = changes_from_value(&changes_json);
        assert!(d.is_empty(), "{dir}: synthesized changes: {d:?}");
        objects += state.resources.len();
        for operation in [Operation::Destroy, Operation::Apply] {
            let options = BuildOptions {
                operation,
                state: Some(state.clone()),
                changes: Some(changes.clone()),
                ..Default::default()
            };
            let built = build(&loaded.config, &options);
            for d in built.diagnostics.errors() {
                if !terragrunt_alias(dir, d) {
                    failures.push(format!("{dir} ({operation:?}): {d}"));
                }
            }
            if operation == Operation::Destroy {
                destroy_nodes += built.graph.ids().filter(|&id| built.graph.node(id).is_destroyer()).count();
                assert!(built.graph.find("root").is_some(), "{dir}: no root");
            }
        }
        roots += 1;
    }
    eprintln!("{roots} corpus roots, {objects} synthesized state objects, {destroy_nodes} destroy nodes in their plan-destroy graphs");
    assert!(failures.is_empty(), "{} error(s):\n{}", failures.len(), failures.join("\n\n"));
}

/// A configuration of `modules` calls to one local module of `per_module` resources in chains
/// of ten (each refers to the previous), its state (dependencies: the chain so far) and changes
/// (a third updated, a third replaced — chain heads create-before-destroy, as a consistent plan
/// would have them — the rest deleted).
fn generated(modules: usize, per_module: usize) -> (BTreeMap<String, String>, Value, Value) {
    let mut root = String::new();
    for m in 0..modules {
        root.push_str(&format!("module \"m{m}\" {{\n  source = \"./m\"\n}}\n"));
    }
    let mut child = String::new();
    for r in 0..per_module {
        if r % 10 == 0 {
            child.push_str(&format!("resource \"test_object\" \"r{r}\" {{}}\n"));
        } else {
            child.push_str(&format!(
                "resource \"test_object\" \"r{r}\" {{\n  test_string = test_object.r{}.id\n}}\n",
                r - 1
            ));
        }
    }
    let files = BTreeMap::from([("main.tf".to_string(), root), ("m/main.tf".to_string(), child)]);
    let mut resources = Vec::with_capacity(modules * per_module);
    let mut changes = serde_json::Map::new();
    for m in 0..modules {
        for r in 0..per_module {
            let deps: Vec<String> = (r - r % 10..r).map(|d| format!("module.m{m}.test_object.r{d}")).collect();
            resources.push(json!({"module": format!("module.m{m}"), "mode": "managed", "type": "test_object", "name": format!("r{r}"),
                "provider": "provider[\"registry.terraform.io/hashicorp/test\"]",
                "instances": [{"schema_version": 0, "attributes": {"id": format!("{m}-{r}")}, "dependencies": deps}]}));
            let action = match (m + r) % 3 {
                0 => json!(["update"]),
                1 if r % 10 == 0 => json!(["create", "delete"]),
                1 => json!(["delete", "create"]),
                _ => json!(["delete"]),
            };
            changes.insert(format!("module.m{m}.test_object.r{r}"), action);
        }
    }
    (
        files,
        json!({"version": 4, "serial": 1, "lineage": "perf", "outputs": {}, "resources": resources}),
        Value::Object(changes),
    )
}

fn measure(modules: usize, per_module: usize) {
    let (files, state_json, changes_json) = generated(modules, per_module);
    let t = Instant::now();
    let loaded = tfgraph::config::load(&files, &Default::default());
    let load = t.elapsed();
    let text = state_json.to_string();
    let t = Instant::now();
    let (state, d) = tfgraph::state::parse_state(&text);
    assert!(d.is_empty());
    let (changes, d) = changes_from_value(&changes_json);
    assert!(d.is_empty());
    let read = t.elapsed();
    for operation in [Operation::Apply, Operation::Destroy] {
        let reduce = std::env::var_os("TFGRAPH_NO_REDUCE").is_none();
        let options = BuildOptions {
            operation,
            state: Some(state.clone()),
            changes: Some(changes.clone()),
            reduce,
            ..Default::default()
        };
        let t = Instant::now();
        let built = build(&loaded.config, &options);
        let took = t.elapsed();
        assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics.iter().take(3).collect::<Vec<_>>());
        let slowest = built.steps.iter().max_by_key(|s| s.nodes).map(|s| s.name.clone()).unwrap_or_default();
        eprintln!(
            "{} resources, {operation:?}: config {:?}, state+changes read {:?} ({} bytes), build {:?}: {} nodes, {} edges (last big step {slowest})",
            modules * per_module,
            load,
            read,
            text.len(),
            took,
            built.graph.node_count(),
            built.graph.edge_count()
        );
    }
}

#[test]
#[ignore]
fn perf_10k() {
    measure(100, 100);
}

#[test]
#[ignore]
fn perf_100k() {
    measure(1000, 100);
}
