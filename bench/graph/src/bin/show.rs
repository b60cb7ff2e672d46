//! Print a graph of a configuration folder, for debugging and for making fixtures:
//!
//!   cargo run --manifest-path bench/graph/Cargo.toml --target-dir target/bench-graph --bin show -- DIR [WHAT]
//!
//! WHAT: `plan` (default), `validate`, `destroy`, `unreduced`, `types` (StringWithNodeTypes),
//! `dot`, `dot-cycles`, `resources` (resource-only DOT), `mermaid`, `instances` (the
//! static-instances view), `edges` (every edge with its reasons explained), `steps` (the graph
//! after each transformer). Diagnostics go to stderr.

use std::collections::BTreeMap;
use std::path::Path;
use tfgraph::graph::{build, instances, BuildOptions, DotKind, Operation};

fn read_tree(base: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            if !name.starts_with('.') {
                read_tree(base, &p, out);
            }
        } else if name.ends_with(".tf") || name.ends_with(".tf.json") {
            let rel = p.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
            out.insert(rel, std::fs::read_to_string(&p).unwrap());
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = Path::new(args.first().expect("usage: show DIR [WHAT]"));
    let what = args.get(1).map(String::as_str).unwrap_or("plan");
    let mut files = BTreeMap::new();
    read_tree(dir, dir, &mut files);
    let loaded = tfgraph::config::load(&files, &Default::default());
    for d in loaded.diagnostics.iter() {
        eprintln!("load: {d}");
    }
    let operation = match what {
        "validate" => Operation::Validate,
        "destroy" => Operation::Destroy,
        _ => Operation::Plan,
    };
    let options =
        BuildOptions { operation, reduce: what != "unreduced", trace_steps: what == "steps", ..Default::default() };
    let built = build(&loaded.config, &options);
    for d in built.diagnostics.iter() {
        eprintln!("{d}\n");
    }
    let g = &built.graph;
    match what {
        "types" => print!("{}", g.string_with_types()),
        "dot" => print!("{}", g.to_dot(DotKind::Full, false)),
        "dot-cycles" => print!("{}", g.to_dot(DotKind::Full, true)),
        "resources" => print!("{}", g.to_dot(DotKind::Resources, false)),
        "mermaid" => print!("{}", g.to_mermaid(false)),
        "instances" => print!("{}", instances::expand_static_instances(g, &loaded.config)),
        "edges" => {
            for e in g.edges() {
                println!("{} -> {}", e.from, e.to);
                for x in g.explain(&e.from, &e.to) {
                    println!("    {x}");
                }
            }
        }
        "steps" => {
            for s in &built.steps {
                println!(
                    "== {} ({} nodes, {} edges{})",
                    s.name,
                    s.nodes,
                    s.edges,
                    if s.changed { "" } else { ", unchanged" }
                );
                print!("{}", s.text.as_deref().unwrap_or(""));
            }
        }
        _ => print!("{g}"),
    }
}
