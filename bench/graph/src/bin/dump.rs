//! Differential dump of every graph the corpus gives: for each root of the shared corpus
//! (INDEX.tsv), the plan, plan-destroy and apply graphs (state synthesized as in
//! tests/support/state.rs), each as `String()`, every edge with its reasons, and every
//! node's facts. Build it at two commits and diff the outputs to check an optimisation
//! changed nothing:
//!
//!   cargo run --release --manifest-path bench/graph/Cargo.toml --target-dir target/bench-graph --bin dump -- CORPUS > out.txt

use serde_json::{json, Value};
use std::fmt::Write;
use std::path::PathBuf;
use tfgraph::graph::{build, BuildOptions, Operation};
use tfgraph::plans::changes_from_value;
use tfgraph::state::state_from_value;

// The corpus reader and state synthesizer the tests use (tests/support/).
#[path = "../../../../tests/support/corpus.rs"]
mod corpus;
#[path = "../../../../tests/support/files.rs"]
mod files;
#[path = "../../../../tests/support/state.rs"]
mod state;

fn dump(out: &mut String, built: &tfgraph::graph::Built) {
    let g = &built.graph;
    let _ = writeln!(out, "{g}");
    for e in g.edges() {
        let _ = writeln!(out, "{} -> {} {:?}", e.from, e.to, e.why);
    }
    for e in g.implied_edges() {
        let _ = writeln!(out, "implied {} -> {} {:?}", e.from, e.to, e.why);
    }
    let mut facts: Vec<String> =
        g.ids().filter_map(|id| Some(format!("{} {:?}", g.name(id), g.node(id).facts.as_ref()?))).collect();
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
    let mut trees = corpus::RepoFiles::new(&corpus, files::tf_file);
    for dir in corpus::index_roots(&corpus) {
        let dir = dir.as_str();
        let (files, root) = trees.read_root_files(dir);
        let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root });
        let mut out = String::new();
        let _ = writeln!(out, "=== {dir} plan");
        dump(&mut out, &build(&loaded.config, &BuildOptions::default()));
        let (state_json, changes_json) = state::synthesize_state(&loaded.config);
        let (state, _) = state_from_value(&state_json);
        let (changes, _) = changes_from_value(&changes_json);
        for operation in [Operation::Destroy, Operation::Apply] {
            let _ = writeln!(out, "=== {dir} {operation:?}");
            let options = BuildOptions {
                operation,
                state: Some(state.clone()),
                changes: Some(changes.clone()),
                ..Default::default()
            };
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
                let local = if r["mode"] == "data" {
                    format!("data.{}.{}", r["type"].as_str().unwrap(), r["name"].as_str().unwrap())
                } else {
                    format!("{}.{}", r["type"].as_str().unwrap(), r["name"].as_str().unwrap())
                };
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
        let options = BuildOptions {
            operation: Operation::Apply,
            state: Some(state),
            changes: Some(changes),
            ..Default::default()
        };
        dump(&mut out, &build(&loaded.config, &options));
        print!("{out}");
    }
}
