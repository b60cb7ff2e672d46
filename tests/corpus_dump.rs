#![cfg(not(target_arch = "wasm32"))]
//! A differential dump of loading: the `Config` JSON and the diagnostics of every corpus root,
//! of every fixture folder holding configuration files, and of one extra folder (e.g. the
//! generated configuration), one pretty-printed JSON file each. Run it on two revisions and
//! `diff -r` the folders to see every change a loader rewrite makes to what users get.
//!
//! ```text
//! TFGRAPH_DUMP=/tmp/dump-after [TFGRAPH_DUMP_EXTRA=/tmp/gen] \
//!   cargo test --release --test corpus_dump -- --ignored --nocapture
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tfgraph::config::{load, LoadOptions};

mod support;

fn write(out: &Path, name: &str, files: &BTreeMap<String, String>, root: &str) {
    let loaded = load(files, &LoadOptions { root: root.to_string() });
    let json = serde_json::json!({ "config": loaded.config, "diagnostics": loaded.diagnostics });
    let file = out.join(format!("{}.json", name.replace('/', "__")));
    std::fs::write(&file, serde_json::to_string_pretty(&json).unwrap()).unwrap();
}

/// Folders under `dir` that directly hold a `.tf` or `.tf.json` file.
fn config_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    if entries.iter().any(|p| p.is_file() && support::tf_file(p)) {
        out.push(dir.to_path_buf());
    }
    for p in entries.iter().filter(|p| p.is_dir()) {
        config_dirs(p, out);
    }
}

#[test]
#[ignore = "writes a dump to $TFGRAPH_DUMP for comparing two revisions"]
fn dump_loaded_configs() {
    let out = PathBuf::from(std::env::var_os("TFGRAPH_DUMP").expect("set TFGRAPH_DUMP to an output folder"));
    std::fs::create_dir_all(&out).unwrap();
    let mut n = 0;
    if let Some(corpus) = support::corpus_dir() {
        let mut repos = support::RepoFiles::new(&corpus, support::any_file);
        for root in support::index_roots(&corpus) {
            let (files, sub) = repos.read_root_files(&root);
            write(&out, &format!("corpus__{root}"), files, &sub);
            n += 1;
        }
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut dirs = Vec::new();
    config_dirs(&fixtures, &mut dirs);
    for d in dirs {
        let files = support::read_tree(&d, support::tf_or_json_file);
        let name = d.strip_prefix(&fixtures).unwrap().to_string_lossy().to_string();
        write(&out, &format!("fixture__{name}"), &files, "");
        n += 1;
    }
    if let Some(extra) = std::env::var_os("TFGRAPH_DUMP_EXTRA") {
        let files = support::read_tree(Path::new(&extra), support::tf_file);
        write(&out, "extra", &files, "");
        n += 1;
    }
    eprintln!("{n} dumps written to {}", out.display());
}
