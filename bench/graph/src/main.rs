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
//! `ALLOCS=1` also runs the steps one by one with their allocation counts.

use std::time::Instant;
use tfgraph::graph::{build, BuildOptions, Operation};

mod gen;
use gen::{generate, generate_state};

/// The system allocator, counting: how many allocations (reallocations included) and how many
/// bytes each step asks for (`ALLOCS=1`). Allocation counts are what the wasm build pays for
/// most (dlmalloc is several times slower than glibc's malloc), so they are worth watching
/// next to native time.
mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    pub struct Counting;
    pub static CALLS: AtomicU64 = AtomicU64::new(0);
    pub static BYTES: AtomicU64 = AtomicU64::new(0);
    pub static LIVE: AtomicU64 = AtomicU64::new(0);
    pub static PEAK: AtomicU64 = AtomicU64::new(0);

    fn grew(by: u64) {
        let live = LIVE.fetch_add(by, Relaxed) + by;
        PEAK.fetch_max(live, Relaxed);
    }

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            CALLS.fetch_add(1, Relaxed);
            BYTES.fetch_add(l.size() as u64, Relaxed);
            grew(l.size() as u64);
            System.alloc(l)
        }
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            LIVE.fetch_sub(l.size() as u64, Relaxed);
            System.dealloc(p, l)
        }
        unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
            CALLS.fetch_add(1, Relaxed);
            BYTES.fetch_add(n as u64, Relaxed);
            grew(n as u64);
            LIVE.fetch_sub(l.size() as u64, Relaxed);
            System.realloc(p, l, n)
        }
    }

    /// (allocations, bytes asked for, bytes live) so far.
    pub fn now() -> (u64, u64, u64) {
        (CALLS.load(Relaxed), BYTES.load(Relaxed), LIVE.load(Relaxed))
    }

    /// The most bytes live at once since the last call (which resets it to what is live now).
    pub fn take_peak() -> u64 {
        PEAK.swap(LIVE.load(Relaxed), Relaxed)
    }
}

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

/// Runs the build's steps one by one, printing each step's time, allocations and the change in
/// live heap, then dropping the graph (timed too: a graph is freed as often as it is built).
fn steps_with_allocs(config: &tfgraph::config::Config, options: &BuildOptions) {
    use tfgraph::graph::builders::{apply, plan};
    use tfgraph::graph::{transform, TfGraph};
    let steps = match options.operation {
        Operation::Apply => apply::steps(options),
        _ => plan::steps(options),
    };
    let (a0, b0, l0) = counting::now();
    counting::take_peak();
    let t = Instant::now();
    let cx = transform::BuildContext::new(config, options);
    let mut graph = TfGraph::new();
    let line = |name: &str, t: Instant, before: (u64, u64, u64)| {
        let (a, b, l) = counting::now();
        let peak = counting::PEAK.load(std::sync::atomic::Ordering::Relaxed);
        eprintln!(
            "    {name:<40} {:>8.1} ms {:>9} allocs {:>8.1} MB asked {:>+8.1} MB live {:>+8.1} MB peak",
            t.elapsed().as_secs_f64() * 1e3,
            a - before.0,
            (b - before.1) as f64 / 1e6,
            (l as f64 - before.2 as f64) / 1e6,
            (peak as f64 - before.2 as f64) / 1e6
        );
    };
    line("BuildContext", t, (a0, b0, l0));
    let (mut total_a, total_t) = (0, Instant::now());
    let mut build_peak = 0;
    for step in &steps {
        build_peak = build_peak.max(counting::take_peak());
        let before = counting::now();
        let t = Instant::now();
        let _ = transform::run(std::slice::from_ref(step), &mut graph, &cx);
        line(step.transform.name(), t, before);
        total_a += counting::now().0 - before.0;
    }
    eprintln!(
        "    {:<40} {:>8.1} ms {:>9} allocs, peak {:.1} MB above the {:.1} MB live before",
        "(all steps)",
        total_t.elapsed().as_secs_f64() * 1e3,
        total_a,
        (build_peak.max(counting::take_peak()) - l0) as f64 / 1e6,
        l0 as f64 / 1e6
    );
    let before = counting::now();
    let t = Instant::now();
    drop(graph);
    line("(drop the graph)", t, before);
}

fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
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
        let (live, t) = (counting::now().2, Instant::now());
        counting::take_peak();
        let (state_text_len, changes_text_len) = (state.len(), changes.len());
        let (state, d) = tfgraph::state::parse_state(&state);
        assert!(d.is_empty());
        let (changes, d) = tfgraph::plans::parse_changes(&changes);
        assert!(d.is_empty());
        if std::env::var_os("ALLOCS").is_some() {
            eprintln!(
                "    state and changes: {:.1} + {:.1} MB of JSON read in {:.1} ms, peak {:.1} MB, {:.1} MB kept",
                state_text_len as f64 / 1e6,
                changes_text_len as f64 / 1e6,
                t.elapsed().as_secs_f64() * 1e3,
                (counting::take_peak() - live) as f64 / 1e6,
                (counting::now().2 as f64 - live as f64) / 1e6
            );
        }
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
    if std::env::var_os("ALLOCS").is_some() {
        steps_with_allocs(&loaded.config, &options);
    }
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
    let sizes: Vec<usize> = if args.is_empty() {
        vec![1_000, 10_000, 100_000]
    } else {
        args.iter().map(|a| a.parse().expect("size")).collect()
    };
    let exe = std::env::current_exe().expect("own path");
    for n in sizes {
        let status = std::process::Command::new(&exe).args(["--one", &n.to_string()]).status().expect("child");
        assert!(status.success());
    }
}
