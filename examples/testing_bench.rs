//! Native timing of the test runner over a suite on disk (`node bench/testing/run.mjs --write DIR`):
//! `cargo run --profile fuzz-engine --example testing_bench -- DIR [ROUNDS]`. Prints each
//! round's time and the runs' statuses.
use std::collections::BTreeMap;
use std::path::Path;
use tfgraph::testing::runner;

fn read_dir(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            read_dir(root, &p, out);
        } else {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.insert(rel, std::fs::read_to_string(&p).unwrap());
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let root = Path::new(&args[1]);
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(3);
    let mut files = BTreeMap::new();
    read_dir(root, root, &mut files);
    for _ in 0..rounds {
        let t = std::time::Instant::now();
        let suite = runner::run(&files, &runner::Options::default(), &mut |_| {});
        let runs: usize = suite.files.iter().map(|f| f.runs.len()).sum();
        println!("{:?} {} runs, status {:?}", t.elapsed(), runs, suite.status);
    }
}
