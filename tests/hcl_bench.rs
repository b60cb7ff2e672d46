//! Parse speed of our HCL parser against hcl-edit's `parse_body` on the same files in the same
//! run (every `.tf` file of `../shared/corpus`). Ignored by default; one command, in the release
//! profile that ships:
//!
//!   cargo test --release --test hcl_bench -- --ignored --nocapture
//!
//! With `HCL_BENCH_OURS_ONLY=1`, only our parser runs (100 rounds), for a profiler.
#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;
use std::time::{Duration, Instant};
mod support;
use support::tf_files;
use tfgraph::hcl;

/// The best of `rounds` timings of one pass over all files.
fn best_of(rounds: usize, mut pass: impl FnMut() -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut check = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        check = pass();
        best = best.min(t.elapsed());
    }
    (best, check)
}

#[test]
#[ignore]
fn parse_speed_against_hcl_edit() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !corpus.is_dir() {
        eprintln!("corpus not found at {}: skipping", corpus.display());
        return;
    }
    let texts: Vec<String> = tf_files(&corpus).iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let mb = bytes as f64 / 1e6;

    let ours = || texts.iter().map(|t| hcl::parse_body(t).body.items.len()).sum::<usize>();
    let edit = || texts.iter().map(|t| ::hcl::edit::parser::parse_body(t).map_or(0, |b| b.len())).sum::<usize>();
    let lex_and_parse_errors = texts.iter().filter(|t| !hcl::parse_body(t).errors.is_empty()).count();

    if std::env::var_os("HCL_BENCH_OURS_ONLY").is_some() {
        // For profiling (perf record): our parser only, many rounds.
        let (t, _) = best_of(100, ours);
        eprintln!("ours: {:.1} MB/s", mb / t.as_secs_f64());
        return;
    }
    // Alternate the two, so that load from elsewhere on the machine hits both alike; keep
    // each one's best pass.
    let (mut t_ours, mut t_edit) = (Duration::MAX, Duration::MAX);
    let (mut n_ours, mut n_edit) = (0, 0);
    for _ in 0..10 {
        let (t, n) = best_of(3, ours);
        (t_ours, n_ours) = (t_ours.min(t), n);
        let (t, n) = best_of(1, edit);
        (t_edit, n_edit) = (t_edit.min(t), n);
    }
    let speed = |t: Duration| mb / t.as_secs_f64();
    eprintln!("{} files, {mb:.1} MB ({lex_and_parse_errors} with syntax errors)", texts.len());
    eprintln!(
        "ours:     {:>8.2} ms  {:>7.1} MB/s  ({n_ours} top-level items)",
        t_ours.as_secs_f64() * 1e3,
        speed(t_ours)
    );
    eprintln!(
        "hcl-edit: {:>8.2} ms  {:>7.1} MB/s  ({n_edit} top-level items)",
        t_edit.as_secs_f64() * 1e3,
        speed(t_edit)
    );
    eprintln!("ratio:    {:.1}x", t_edit.as_secs_f64() / t_ours.as_secs_f64());
}
