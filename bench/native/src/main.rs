//! Native load loop for profiling `tfgraph::config::load` (perf, valgrind --tool=callgrind),
//! with the tape encoding and the drop that follow it in `loadConfig` timed apart.
//!
//!   cargo run --release --manifest-path bench/native/Cargo.toml --target-dir target/bench-native -- corpus [iterations]
//!   cargo run --release --manifest-path bench/native/Cargo.toml --target-dir target/bench-native -- dir <folder> [iterations]
//!   cargo run --release --manifest-path bench/native/Cargo.toml --target-dir target/bench-native -- test <folder> [iterations]
//!
//! `corpus` loads every root of `$TFGRAPH_CORPUS/INDEX.tsv` (default `../shared/corpus`) with its
//! repository's files, as the JS benchmark does; `dir` loads one folder (e.g. the generated
//! configuration written by `node bench/config/generate.mjs /tmp/gen`) as the root.
//!
//! `test` runs a module's `terraform test` files as the package's `test()` does (the runner, then
//! the result as JSON text), e.g. the suite `node bench/testing/run.mjs --write /tmp/suite` writes.
//!
//! It loads as `loadConfig` does (`load_model_from`: no syntax trees kept); with `KEEP=1` as
//! the engine does (`load`: the trees kept for evaluation, dropped with the configuration).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tfgraph::config::files::MapFiles;
use tfgraph::config::{load, load_model_from, LoadOptions};

fn read_tree(dir: &Path) -> BTreeMap<String, String> {
    fn walk(base: &Path, d: &Path, out: &mut BTreeMap<String, String>) {
        let mut entries: Vec<_> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                walk(base, &p, out);
            } else if name.ends_with(".tf") || name.ends_with(".tf.json") || name.ends_with(".tftest.hcl") {
                let rel = p.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut cases: Vec<(BTreeMap<String, String>, String)> = Vec::new();
    let iterations: usize;
    match args.first().map(String::as_str) {
        Some("test") => return run_tests(Path::new(&args[1]), args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3)),
        Some("dir") => {
            cases.push((read_tree(Path::new(&args[1])), String::new()));
            iterations = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
        }
        _ => {
            let corpus = std::env::var_os("TFGRAPH_CORPUS")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
            let index = std::fs::read_to_string(corpus.join("INDEX.tsv")).unwrap();
            let mut trees: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
            for line in index.lines().skip(1) {
                let dir = line.split('\t').next().unwrap();
                let (repo, root) = dir.split_once('/').unwrap_or((dir, ""));
                let files = trees.entry(repo.to_string()).or_insert_with(|| read_tree(&corpus.join(repo))).clone();
                cases.push((files, root.to_string()));
            }
            iterations = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
        }
    }
    let bytes: usize = cases.iter().map(|(f, _)| f.values().map(String::len).sum::<usize>()).sum();
    let keep = std::env::var_os("KEEP").is_some();
    let started = Instant::now();
    let mut diagnostics = 0;
    // What loadConfig does in wasm after loading: encode the result's tape, then drop the
    // configuration.
    let (mut tape_time, mut drop_time, mut tape_bytes) = (Duration::ZERO, Duration::ZERO, 0);
    for _ in 0..iterations {
        for (files, root) in &cases {
            let options = LoadOptions { root: root.clone() };
            let loaded = if keep {
                load(files, &options)
            } else {
                match load_model_from(&MapFiles::new(files), &options) {
                    Ok(loaded) => loaded,
                    Err(never) => match never {},
                }
            };
            diagnostics += loaded.diagnostics.0.len();
            let t = Instant::now();
            let tape = tfgraph::bindings::tape::encode(&(&loaded.config, &loaded.diagnostics)).expect("tape");
            tape_bytes += tape.words.len() * 4 + tape.text.len();
            tape_time += t.elapsed();
            let t = Instant::now();
            drop(loaded);
            drop_time += t.elapsed();
        }
    }
    let per_pass = |d: Duration| d.as_secs_f64() * 1000.0 / iterations as f64;
    let total = per_pass(started.elapsed());
    let (tape_ms, drop_ms) = (per_pass(tape_time), per_pass(drop_time));
    println!(
        "{} case(s), {:.2} MB passed per pass: {:.1} ms per pass: load {:.1}, tape {:.1} ({:.1} MB), drop {:.1} ({} diagnostics in all)",
        cases.len(),
        bytes as f64 / 1e6,
        total,
        total - tape_ms - drop_ms,
        tape_ms,
        tape_bytes as f64 / 1e6 / iterations as f64,
        drop_ms,
        diagnostics
    );
}

/// `test()`'s work natively: the runner on the folder's files and its result as JSON text.
fn run_tests(dir: &Path, iterations: usize) {
    let files = read_tree(dir);
    let options = serde_json::json!({});
    for _ in 0..iterations {
        let started = Instant::now();
        let result = tfgraph::testing::api::run(&files, &options, &mut |_| {});
        let text = result.to_string();
        let runs: usize =
            result["files"].as_array().map_or(0, |f| f.iter().map(|f| f["runs"].as_array().map_or(0, Vec::len)).sum());
        let elapsed = started.elapsed();
        println!(
            "{} runs ({}), {:.1} ms, {:.2} ms per run, {} KB of JSON",
            runs,
            result["status"],
            elapsed.as_secs_f64() * 1000.0,
            elapsed.as_secs_f64() * 1000.0 / runs.max(1) as f64,
            text.len() / 1000
        );
    }
}
