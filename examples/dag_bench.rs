//! Transitive-reduction benchmark on Terraform-shaped random graphs.
//!
//! `cargo run --release --example dag_bench -- <resources> [seed] [window] [budget_mib]`
//!
//! Shape, after a real plan graph: `resources` resource nodes, each depending on 1–3 of the 50
//! resources declared just before it (`window`, default 50; `0` means any earlier resource,
//! a harder case where few redundant edges close triangles) and on its provider (one provider per 1,000 resources,
//! providers chained to a variable); each provider's `(close)` node depends on the provider and
//! every resource using it; `root` depends on every node. Prints the build and reduction times
//! and the process's peak resident memory (`VmHWM`), one process per size.

use std::time::Instant;
use tfgraph::dag::Graph;

/// xorshift64*: enough randomness for a benchmark, no dependency.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map(|a| a.parse().expect("resource count")).unwrap_or(10_000);
    let seed: u64 = args.next().map(|a| a.parse().expect("seed")).unwrap_or(1);
    let window: usize = args.next().map(|a| a.parse().expect("window")).unwrap_or(50);
    let window = if window == 0 { usize::MAX } else { window };
    let budget = args
        .next()
        .map_or(tfgraph::dag::DEFAULT_REDUCTION_BUDGET, |a| a.parse::<usize>().expect("budget in MiB") << 20);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);

    let t0 = Instant::now();
    let mut g: Graph<(), &'static str> = Graph::with_capacity(n + n / 500 + 4);
    let var = g.add("var.region", ());
    let providers: Vec<_> = (0..n.div_ceil(1000))
        .map(|p| {
            let id = g.add(format!("provider[\"registry.terraform.io/hashicorp/p{p}\"]"), ());
            g.connect(id, var, "provider config references var.region");
            id
        })
        .collect();
    let closes: Vec<_> = providers
        .iter()
        .map(|&p| {
            let id = g.add(format!("{} (close)", g.name(p)), ());
            g.connect(id, p, "close after configure");
            id
        })
        .collect();
    let mut resources = Vec::with_capacity(n);
    for i in 0..n {
        let r = g.add(format!("aws_instance.r{i} (expand)"), ());
        let p = i * providers.len() / n;
        g.connect(r, providers[p], "resource uses provider");
        g.connect(closes[p], r, "close after every consumer");
        if i > 0 {
            for _ in 0..1 + rng.below(3) {
                let back = 1 + rng.below(i.min(window));
                g.connect(r, resources[i - back], "reference");
            }
        }
        resources.push(r);
    }
    let root = g.add("root", ());
    let all: Vec<_> = g.node_ids().filter(|&v| v != root).collect();
    for v in all {
        g.connect(root, v, "root waits for everything");
    }
    let built = t0.elapsed();
    let (nodes, edges) = (g.node_count(), g.edge_count());
    let rss_built = peak_rss_kib();

    let t1 = Instant::now();
    let removed = g.transitive_reduction_with_budget(budget).expect("generated graph is acyclic");
    let reduced = t1.elapsed();
    let rss_reduced = peak_rss_kib();

    let t2 = Instant::now();
    let text = g.to_string();
    let rendered = t2.elapsed();

    println!(
        "resources={n} window={window} nodes={nodes} edges={edges} build={:.3}s rss_after_build={}KiB reduce={:.3}s peak_rss_after_reduce={}KiB removed={} \
         edges_after={} string={:.3}s ({} bytes) peak_rss={}KiB",
        built.as_secs_f64(),
        rss_built.unwrap_or(0),
        reduced.as_secs_f64(),
        rss_reduced.unwrap_or(0),
        removed.len(),
        g.edge_count(),
        rendered.as_secs_f64(),
        text.len(),
        peak_rss_kib().unwrap_or(0),
    );
}
