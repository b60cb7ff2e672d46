//! Plan-graph build benchmark on generated configurations:
//!
//!   cargo run --release --manifest-path bench/graph/Cargo.toml --target-dir target/bench-graph -- [SIZES…]
//!
//! Default sizes: 1000 10000 100000 resources. Each size runs in its own child process so that
//! its peak RSS (`VmHWM`) is its own. A configuration of N resources has N/100 modules of 90
//! resources each (called from the root, each with two inputs and an output) and the rest in the
//! root; every resource refers to 1–3 of the 20 resources declared just before it, every tenth
//! has `count = 2`, every twentieth a `for_each`, every fiftieth a `depends_on`. Printed: load
//! time, build time (all transformers, reduction included), node and edge counts, peak RSS.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Instant;
use tfgraph::graph::{build, BuildOptions, Operation};

/// A small deterministic generator (xorshift), so every run builds the same configuration.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn resources(out: &mut String, rng: &mut Rng, prefix: &str, count: usize, inputs: &[&str]) {
    for i in 0..count {
        let _ = writeln!(out, "resource \"aws_instance\" \"{prefix}{i}\" {{");
        if i % 10 == 3 {
            out.push_str("  count = 2\n");
        } else if i % 20 == 7 {
            out.push_str("  for_each = toset([\"a\", \"b\"])\n");
        }
        out.push_str("  ami = \"ami-123\"\n");
        if i > 0 {
            let refs = 1 + rng.below(3) as usize;
            for r in 0..refs {
                let j = i - 1 - rng.below(i.min(20) as u64) as usize;
                let splat = if j % 10 == 3 { "[*]" } else if j % 20 == 7 { "[\"a\"]" } else { "" };
                let _ = writeln!(out, "  tag_{r} = aws_instance.{prefix}{j}{splat}.id");
            }
        }
        if !inputs.is_empty() && i % 30 == 0 {
            let _ = writeln!(out, "  input = var.{}", inputs[i / 30 % inputs.len()]);
        }
        if i % 50 == 49 {
            let _ = writeln!(out, "  depends_on = [aws_instance.{prefix}{}]", i - 40);
        }
        out.push_str("}\n");
    }
}

fn generate(n: usize) -> BTreeMap<String, String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut files = BTreeMap::new();
    let modules = n / 100;
    let per_module = 90;
    let mut root = String::new();
    let root_count = n - modules * per_module;
    resources(&mut root, &mut rng, "r", root_count, &[]);
    for m in 0..modules {
        let src = format!("modules/m{m}");
        let a = rng.below(root_count.max(1) as u64);
        let _ = writeln!(
            root,
            "module \"m{m}\" {{\n  source = \"./{src}\"\n  in_a = aws_instance.r{a}.id\n  in_b = {}\n}}",
            if m > 0 { format!("module.m{}.out", m - 1) } else { "\"x\"".to_string() }
        );
        let mut body = String::from("variable \"in_a\" {}\nvariable \"in_b\" {}\n");
        resources(&mut body, &mut rng, "x", per_module, &["in_a", "in_b"]);
        let _ = writeln!(body, "output \"out\" {{\n  value = aws_instance.x{}.id\n}}", per_module - 1);
        files.insert(format!("{src}/main.tf"), body);
    }
    let _ = writeln!(root, "output \"last\" {{\n  value = aws_instance.r{}.id\n}}", root_count.saturating_sub(1));
    files.insert("main.tf".to_string(), root);
    files
}

/// Apply and plan-destroy inputs (the shape of `tests/graph_state_corpus.rs` `generated`):
/// N/100 calls to one local module of 100 resources in chains of ten, a state whose
/// `dependencies` are the chain so far, and changes updating a third, replacing a third
/// (chain heads create-before-destroy) and deleting the rest.
fn generate_state(n: usize) -> (BTreeMap<String, String>, String, String) {
    let modules = (n / 100).max(1);
    let mut root = String::new();
    for m in 0..modules {
        let _ = writeln!(root, "module \"m{m}\" {{\n  source = \"./m\"\n}}");
    }
    let mut child = String::new();
    for r in 0..100 {
        if r % 10 == 0 {
            let _ = writeln!(child, "resource \"test_object\" \"r{r}\" {{}}");
        } else {
            let _ = writeln!(child, "resource \"test_object\" \"r{r}\" {{\n  test_string = test_object.r{}.id\n}}", r - 1);
        }
    }
    let files = BTreeMap::from([("main.tf".to_string(), root), ("m/main.tf".to_string(), child)]);
    let mut resources = Vec::new();
    let mut changes = serde_json::Map::new();
    for m in 0..modules {
        for r in 0..100 {
            let deps: Vec<String> = (r - r % 10..r).map(|d| format!("module.m{m}.test_object.r{d}")).collect();
            resources.push(serde_json::json!({"module": format!("module.m{m}"), "mode": "managed", "type": "test_object", "name": format!("r{r}"),
                "provider": "provider[\"registry.terraform.io/hashicorp/test\"]",
                "instances": [{"schema_version": 0, "attributes": {"id": format!("{m}-{r}")}, "dependencies": deps}]}));
            let action = match (m + r) % 3 {
                0 => serde_json::json!(["update"]),
                1 if r % 10 == 0 => serde_json::json!(["create", "delete"]),
                1 => serde_json::json!(["delete", "create"]),
                _ => serde_json::json!(["delete"]),
            };
            changes.insert(format!("module.m{m}.test_object.r{r}"), action);
        }
    }
    let state = serde_json::json!({"version": 4, "serial": 1, "lineage": "perf", "outputs": {}, "resources": resources});
    (files, state.to_string(), serde_json::Value::Object(changes).to_string())
}

fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok()))
        .unwrap_or(0)
}

fn run_one(n: usize) {
    // OP=apply|destroy: the apply / plan-destroy graph of a generated state (`generate_state`).
    let operation = match std::env::var("OP").as_deref() {
        Ok("apply") => Operation::Apply,
        Ok("destroy") => Operation::Destroy,
        _ => Operation::Plan,
    };
    let mut options = BuildOptions { operation, ..Default::default() };
    let files = if operation == Operation::Plan {
        generate(n)
    } else {
        let (files, state, changes) = generate_state(n);
        let (state, d) = tfgraph::graph::state_json::parse_state(&state);
        assert!(d.is_empty());
        let (changes, d) = tfgraph::graph::changes::changes_from_value(&serde_json::from_str(&changes).unwrap());
        assert!(d.is_empty());
        options.state = Some(state);
        options.changes = Some(changes);
        files
    };
    let bytes: usize = files.values().map(String::len).sum();
    let t = Instant::now();
    let loaded = tfgraph::config::load(&files, &Default::default());
    let load = t.elapsed();
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics.iter().next());
    drop(files);
    let rss_loaded = peak_rss_kb();
    // REPEAT=k builds k times and reports the fastest (for profilers and noisy machines).
    let repeat: usize = std::env::var("REPEAT").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
    let mut graph = std::time::Duration::MAX;
    let mut built = None;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let b = build(&loaded.config, &options);
        graph = graph.min(t.elapsed());
        built = Some(b);
    }
    let built = built.expect("built once");
    assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics.iter().next());
    if std::env::var_os("STEPS").is_some() {
        // Each step's own wall time, as the last build recorded it.
        for step in &built.steps {
            eprintln!("    {:<40} {:>8.1} ms", step.name, step.micros.unwrap_or(0) as f64 / 1e3);
        }
    }
    println!(
        "{operation:?} {n:>7} resources ({:.1} MB of HCL): load {:>8.1} ms, build {:>8.1} ms, {} nodes, {} edges, peak RSS {:.0} MB ({:.0} MB after loading)",
        bytes as f64 / 1e6,
        load.as_secs_f64() * 1e3,
        graph.as_secs_f64() * 1e3,
        built.graph.node_count(),
        built.graph.edge_count(),
        peak_rss_kb() as f64 / 1024.0,
        rss_loaded as f64 / 1024.0
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--one") {
        run_one(args[1].parse().expect("size"));
        return;
    }
    let sizes: Vec<usize> = if args.is_empty() { vec![1_000, 10_000, 100_000] } else { args.iter().map(|a| a.parse().expect("size")).collect() };
    let exe = std::env::current_exe().expect("own path");
    for n in sizes {
        let status = std::process::Command::new(&exe).args(["--one", &n.to_string()]).status().expect("child");
        assert!(status.success());
    }
}
