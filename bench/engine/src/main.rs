//! The engine benchmark, native side: plans and applies the generated configuration of N mock
//! resources through the engine's session (`engine::session`, the package's front door) with
//! the built-in mock provider at zero latency on the virtual clock, and prints one JSON line of
//! timings (wall and CPU) and the process's peak RSS (run one size per process: the peak is the process's).
//!
//!   tfgraph-bench-engine run <N>           time load, plan and apply of N resources
//!   tfgraph-bench-engine write <N> <DIR>   write the configuration (for Terraform)
//!
//! `node bench/engine/run.mjs` builds this and runs it for every size.

mod generate;

use std::time::Instant;
use tfgraph::engine::session::{self, Applied, ApplyRequest, PlanRequest};

/// A `/proc/self/status` field in KiB (`VmHWM`: the peak resident set), 0 where /proc is missing.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn peak_rss_kib() -> u64 {
    status_kib("VmHWM:")
}

/// The process's CPU time so far (user + system, `/proc/self/stat`), in milliseconds; 0 where
/// /proc is missing. On a shared machine it says what the work cost when wall time says how
/// busy the machine was.
fn cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest.split_whitespace().skip(11).take(2).filter_map(|x| x.parse().ok()).collect();
    // Clock ticks are 100 per second on Linux.
    f.iter().sum::<u64>() as f64 * 10.0
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn run(n: usize) -> Result<String, String> {
    let files = generate::files(n);
    let t = Instant::now();
    let loaded = tfgraph::load(&files, &Default::default());
    let load_ms = ms(t);
    if loaded.diagnostics.has_errors() {
        return Err(format!("load: {:?}", loaded.diagnostics.errors().map(|d| &d.summary).collect::<Vec<_>>()));
    }
    let c = cpu_ms();
    let t = Instant::now();
    let planned = session::plan_now(PlanRequest::new(files, loaded.config, loaded.diagnostics));
    let plan_ms = ms(t);
    let plan_cpu_ms = cpu_ms() - c;
    let p = &planned.plan;
    if p.errored() {
        return Err(format!("plan: {:?}", p.diagnostics.errors().map(|d| &d.summary).collect::<Vec<_>>()));
    }
    let changes = p.changes.len();
    eprintln!(
        "[bench] {n}: load {load_ms:.0} ms, plan {plan_ms:.0} ms, RSS after the plan {} MB",
        status_kib("VmRSS:") / 1024
    );
    let c = cpu_ms();
    let t = Instant::now();
    let r = match session::apply_now(&planned, ApplyRequest::default()) {
        Applied::Walked { result, .. } => result,
        Applied::Refused { diagnostics, .. } => return Err(format!("apply refused: {diagnostics:?}")),
    };
    let apply_ms = ms(t);
    let apply_cpu_ms = cpu_ms() - c;
    if r.diagnostics.has_errors() {
        return Err(format!("apply: {:?}", r.diagnostics.errors().map(|d| &d.summary).collect::<Vec<_>>()));
    }
    let in_state: usize = r.state["resources"]
        .as_array()
        .map(|rs| rs.iter().map(|x| x["instances"].as_array().map_or(0, Vec::len)).sum())
        .unwrap_or(0);
    if changes != n || in_state != n {
        return Err(format!("expected {n} instances, planned {changes}, applied {in_state}"));
    }
    Ok(format!(
        "{{\"resources\":{n},\"load_ms\":{load_ms:.1},\"plan_ms\":{plan_ms:.1},\"apply_ms\":{apply_ms:.1},\"plan_cpu_ms\":{plan_cpu_ms:.0},\"apply_cpu_ms\":{apply_cpu_ms:.0},\"peak_rss_kib\":{}}}",
        peak_rss_kib()
    ))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size = |i: usize| args.get(i).and_then(|s| s.parse::<usize>().ok()).filter(|n| n % 100 == 0 && *n > 0);
    match (args.get(1).map(String::as_str), size(2)) {
        (Some("run"), Some(n)) => match run(n) {
            Ok(line) => println!("{line}"),
            Err(e) => {
                eprintln!("tfgraph-bench-engine: {e}");
                std::process::exit(1);
            }
        },
        (Some("write"), Some(n)) if args.len() == 4 => {
            let dir = std::path::Path::new(&args[3]);
            for (path, text) in generate::files(n) {
                let p = dir.join(path);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(p, text).unwrap();
            }
        }
        _ => {
            eprintln!("usage: tfgraph-bench-engine run <N> | write <N> <DIR>   (N: a positive multiple of 100)");
            std::process::exit(2);
        }
    }
}
