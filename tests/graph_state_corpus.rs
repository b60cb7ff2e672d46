#![cfg(not(target_arch = "wasm32"))]
//! The state-driven graphs at scale and on real configurations:
//!
//! * every root of the shared corpus builds a plan-destroy graph, and an apply graph that
//!   deletes everything, from a state synthesized out of its configuration ([`synthesize`]:
//!   one instance per resource, `dependencies` from the references, as Terraform's
//!   `AttachDependenciesTransformer` would have stored them) without error diagnostics;
//! * generated 10,000 / 100,000-resource states (`perf_*`, `--ignored`, run with `--release`)
//!   print how long reading the state and building the apply and plan-destroy graphs take.

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tfgraph::config::Config;
use tfgraph::graph::changes::changes_from_value;
use tfgraph::graph::state_json::state_from_value;
use tfgraph::graph::{build, BuildOptions, NodeKind, Operation};

fn read_tree(base: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            read_tree(base, &p, out);
        } else if name.ends_with(".tf") || name.ends_with(".tf.json") {
            if let Ok(text) = std::fs::read_to_string(&p) {
                out.insert(p.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/"), text);
            }
        }
    }
}

/// A state v4 document for `config`: one instance of every resource and data source (key `0`
/// under count, `"k"` under for_each, likewise for module calls), its provider the one the
/// plan graph resolved, its `dependencies` the ones the plan graph's
/// `AttachDependenciesTransformer` computed. Also returns a changes map deleting every object.
pub fn synthesize(config: &Config) -> (Value, Value) {
    let plan = build(config, &BuildOptions::default());
    let g = &plan.graph;
    // Module path → the keys of the calls on it.
    let mut module_keys: BTreeMap<String, String> = BTreeMap::new();
    for m in config.modules() {
        for c in &m.module_calls {
            let key = if c.count.is_some() {
                "[0]"
            } else if c.for_each.is_some() {
                "[\"k\"]"
            } else {
                ""
            };
            let path = if m.path.is_root() { format!("module.{}", c.name) } else { format!("{}.module.{}", m.path, c.name) };
            module_keys.insert(path, key.to_string());
        }
    }
    let mut resources = Vec::new();
    let mut changes = serde_json::Map::new();
    for id in g.ids() {
        let n = g.node(id);
        let NodeKind::ResourceExpand { mode } = n.kind else { continue };
        let mode = match mode {
            tfgraph::addrs::ResourceMode::Managed => "managed",
            tfgraph::addrs::ResourceMode::Data => "data",
            tfgraph::addrs::ResourceMode::Ephemeral => continue,
        };
        let Some(res) = n.config.and_then(|c| match c {
            tfgraph::graph::ConfigRef::Resource { module, index } => config.modules().get(module as usize).map(|m| &m.resources[index as usize]),
            _ => None,
        }) else {
            continue;
        };
        // module.a[0].module.b
        let mut module = String::new();
        let mut prefix = String::new();
        for name in &n.module.0 {
            prefix = if prefix.is_empty() { format!("module.{name}") } else { format!("{prefix}.module.{name}") };
            if !module.is_empty() {
                module.push('.');
            }
            module.push_str(&format!("module.{name}{}", module_keys.get(&prefix).cloned().unwrap_or_default()));
        }
        let provider = n.resolved_provider.clone().unwrap_or_else(|| {
            let local = res.type_name.split('_').next().unwrap_or("x");
            format!("provider[\"registry.terraform.io/hashicorp/{local}\"]")
        });
        let deps = n.facts.as_ref().and_then(|f| f.dependencies.clone()).unwrap_or_default();
        let mut inst = json!({"schema_version": 0, "attributes": {"id": n.address()}, "dependencies": deps});
        let mut r = json!({"mode": mode, "type": res.type_name, "name": res.name, "provider": provider});
        let mut key = String::new();
        if res.count.is_some() {
            inst["index_key"] = json!(0);
            r["each"] = json!("list");
            key = "[0]".into();
        } else if res.for_each.is_some() {
            inst["index_key"] = json!("k");
            r["each"] = json!("map");
            key = "[\"k\"]".into();
        }
        r["instances"] = json!([inst]);
        if !module.is_empty() {
            r["module"] = json!(module);
        }
        let local = n.addr.clone();
        let addr = if module.is_empty() { format!("{local}{key}") } else { format!("{module}.{local}{key}") };
        if mode == "managed" {
            changes.insert(addr, json!(["delete"]));
        }
        resources.push(r);
    }
    let state = json!({"version": 4, "terraform_version": "1.15.0", "serial": 1, "lineage": "synthesized", "outputs": {}, "resources": resources});
    (state, Value::Object(changes))
}

/// Terragrunt generates these `aws` aliases for cds-snc/notification-terraform (see
/// tests/graph_corpus.rs): Terraform reports them too.
fn terragrunt_alias(dir: &str, d: &tfgraph::Diagnostic) -> bool {
    dir.starts_with("cds-snc__notification-terraform/aws/") && d.summary == "Provider configuration not present"
}

#[test]
fn corpus_roots_build_destroy_and_apply_graphs_from_synthesized_states() {
    let corpus = std::env::var_os("TFGRAPH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let Ok(index) = std::fs::read_to_string(corpus.join("INDEX.tsv")) else {
        eprintln!("skipped: no corpus at {} (set TFGRAPH_CORPUS)", corpus.display());
        return;
    };
    let mut trees: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let (mut roots, mut objects, mut destroy_nodes, mut failures) = (0, 0, 0, Vec::new());
    for line in index.lines().skip(1) {
        let dir = line.split('\t').next().unwrap();
        let (repo, root) = dir.split_once('/').unwrap_or((dir, ""));
        let files = trees.entry(repo.to_string()).or_insert_with(|| {
            let mut t = BTreeMap::new();
            read_tree(&corpus.join(repo), &corpus.join(repo), &mut t);
            t
        });
        let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root: root.to_string() });
        let (state_json, changes_json) = synthesize(&loaded.config);
        let (state, d) = state_from_value(&state_json);
        assert!(d.is_empty(), "{dir}: synthesized state: {d:?}");
        let (changes, d) = changes_from_value(&changes_json);
        assert!(d.is_empty(), "{dir}: synthesized changes: {d:?}");
        objects += state.resources.len();
        for operation in [Operation::Destroy, Operation::Apply] {
            let options = BuildOptions { operation, state: Some(state.clone()), changes: Some(changes.clone()), ..Default::default() };
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
            child.push_str(&format!("resource \"test_object\" \"r{r}\" {{\n  test_string = test_object.r{}.id\n}}\n", r - 1));
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
    (files, json!({"version": 4, "serial": 1, "lineage": "perf", "outputs": {}, "resources": resources}), Value::Object(changes))
}

fn measure(modules: usize, per_module: usize) {
    let (files, state_json, changes_json) = generated(modules, per_module);
    let t = Instant::now();
    let loaded = tfgraph::config::load(&files, &Default::default());
    let load = t.elapsed();
    let text = state_json.to_string();
    let t = Instant::now();
    let (state, d) = tfgraph::graph::state_json::parse_state(&text);
    assert!(d.is_empty());
    let (changes, d) = changes_from_value(&changes_json);
    assert!(d.is_empty());
    let read = t.elapsed();
    for operation in [Operation::Apply, Operation::Destroy] {
        let reduce = std::env::var_os("TFGRAPH_NO_REDUCE").is_none();
        let options = BuildOptions { operation, state: Some(state.clone()), changes: Some(changes.clone()), reduce, ..Default::default() };
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
