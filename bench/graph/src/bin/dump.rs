//! Differential dump of every graph the corpus gives: for each root of the shared corpus
//! (INDEX.tsv), the plan, plan-destroy and apply graphs (state synthesized as in
//! tests/graph_state_corpus.rs), each as `String()`, every edge with its reasons, and every
//! node's facts. Build it at two commits and diff the outputs to check an optimisation
//! changed nothing:
//!
//!   cargo run --release --manifest-path bench/graph/Cargo.toml --target-dir target/bench-graph --bin dump -- CORPUS > out.txt

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
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
fn synthesize(config: &Config) -> (Value, Value) {
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


fn dump(out: &mut String, built: &tfgraph::graph::Built) {
    let g = &built.graph;
    let _ = writeln!(out, "{g}");
    for e in g.edges() {
        let _ = writeln!(out, "{} -> {} {:?}", e.from, e.to, e.why);
    }
    for e in g.implied_edges() {
        let _ = writeln!(out, "implied {} -> {} {:?}", e.from, e.to, e.why);
    }
    let mut facts: Vec<String> = g.ids().filter_map(|id| Some(format!("{} {:?}", g.name(id), g.node(id).facts.as_ref()?))).collect();
    facts.sort();
    for f in facts {
        let _ = writeln!(out, "{f}");
    }
    for d in built.diagnostics.iter() {
        let _ = writeln!(out, "diag {d}");
    }
}

fn main() {
    let corpus = PathBuf::from(std::env::args().nth(1).expect("usage: dump CORPUS"));
    let index = std::fs::read_to_string(corpus.join("INDEX.tsv")).expect("INDEX.tsv");
    let mut trees: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for line in index.lines().skip(1) {
        let dir = line.split('\t').next().unwrap();
        let (repo, root) = dir.split_once('/').unwrap_or((dir, ""));
        let files = trees.entry(repo.to_string()).or_insert_with(|| {
            let mut t = BTreeMap::new();
            read_tree(&corpus.join(repo), &corpus.join(repo), &mut t);
            t
        });
        let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root: root.to_string() });
        let mut out = String::new();
        let _ = writeln!(out, "=== {dir} plan");
        dump(&mut out, &build(&loaded.config, &BuildOptions::default()));
        let (state_json, changes_json) = synthesize(&loaded.config);
        let (state, _) = state_from_value(&state_json);
        let (changes, _) = changes_from_value(&changes_json);
        for operation in [Operation::Destroy, Operation::Apply] {
            let _ = writeln!(out, "=== {dir} {operation:?}");
            let options = BuildOptions { operation, state: Some(state.clone()), changes: Some(changes.clone()), ..Default::default() };
            dump(&mut out, &build(&loaded.config, &options));
        }
        // A mixed apply: every third object created (not in the state: its dependencies are
        // the computed ones), every third replaced, the rest updated.
        let mut mixed = serde_json::Map::new();
        let mut gone = std::collections::BTreeSet::new();
        for (i, (addr, _)) in changes_json.as_object().unwrap().iter().enumerate() {
            let action = match i % 3 {
                0 => {
                    gone.insert(addr.clone());
                    json!(["create"])
                }
                1 => json!(["delete", "create"]),
                _ => json!(["update"]),
            };
            mixed.insert(addr.clone(), action);
        }
        let mut state_json = state_json;
        if let Some(rs) = state_json["resources"].as_array_mut() {
            rs.retain(|r| {
                let key = match &r["instances"][0]["index_key"] {
                    Value::Number(n) => format!("[{n}]"),
                    Value::String(k) => format!("[\"{k}\"]"),
                    _ => String::new(),
                };
                let local = if r["mode"] == "data" { format!("data.{}.{}", r["type"].as_str().unwrap(), r["name"].as_str().unwrap()) } else { format!("{}.{}", r["type"].as_str().unwrap(), r["name"].as_str().unwrap()) };
                let addr = match r["module"].as_str() {
                    Some(m) => format!("{m}.{local}{key}"),
                    None => format!("{local}{key}"),
                };
                !gone.contains(&addr)
            });
        }
        let (state, _) = state_from_value(&state_json);
        let (changes, _) = changes_from_value(&Value::Object(mixed));
        let _ = writeln!(out, "=== {dir} mixed apply");
        let options = BuildOptions { operation: Operation::Apply, state: Some(state), changes: Some(changes), ..Default::default() };
        dump(&mut out, &build(&loaded.config, &options));
        print!("{out}");
    }
}
