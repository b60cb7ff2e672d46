//! The shared corpus of real public modules (`../shared/corpus` beside the crate):
//! `INDEX.tsv` lists its roots as `<owner>__<repo>[/<subpath>]`, and each root is loaded with
//! every file of its repository folder so local `../` module calls resolve.
#![allow(dead_code)]

use super::files::read_tree;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The corpus beside the crate, or `None` after printing `corpus not found at …: skipping`.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if dir.join("INDEX.tsv").is_file() {
        Some(dir)
    } else {
        eprintln!("corpus not found at {}: skipping", dir.display());
        None
    }
}

/// The corpus (`TFGRAPH_CORPUS` or beside the crate) and its roots, or `None` after printing `skipped: no corpus at …`.
pub fn corpus_roots() -> Option<(PathBuf, Vec<String>)> {
    let corpus = std::env::var_os("TFGRAPH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if !corpus.join("INDEX.tsv").is_file() {
        eprintln!("skipped: no corpus at {} (set TFGRAPH_CORPUS)", corpus.display());
        return None;
    }
    let roots = index_roots(&corpus);
    Some((corpus, roots))
}

/// The `dir` column of `<corpus>/INDEX.tsv`, blank lines left out; panics when it is missing.
pub fn index_roots(corpus: &Path) -> Vec<String> {
    let index = std::fs::read_to_string(corpus.join("INDEX.tsv")).expect("INDEX.tsv");
    let mut lines = index.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = header.iter().position(|h| *h == "dir").expect("dir column");
    lines.filter(|l| !l.trim().is_empty()).map(|l| l.split('\t').nth(col).unwrap().to_string()).collect()
}

/// Repository folders of the corpus read once each (files kept by `keep`), keyed by folder name.
pub struct RepoFiles {
    pub corpus: PathBuf,
    pub keep: fn(&Path) -> bool,
    pub repos: BTreeMap<String, BTreeMap<String, String>>,
}

impl RepoFiles {
    /// A cache over `corpus` keeping the files `keep` accepts.
    pub fn new(corpus: &Path, keep: fn(&Path) -> bool) -> Self {
        RepoFiles { corpus: corpus.to_path_buf(), keep, repos: BTreeMap::new() }
    }

    /// The files of repository folder `repo` (read on first use).
    pub fn repo(&mut self, repo: &str) -> &BTreeMap<String, String> {
        let (corpus, keep) = (&self.corpus, self.keep);
        self.repos.entry(repo.to_string()).or_insert_with(|| read_tree(&corpus.join(repo), keep))
    }

    /// A root `<repo>[/<sub>]`: its repository's files and the `root` to load them with (`sub`).
    pub fn read_root_files(&mut self, root: &str) -> (&BTreeMap<String, String>, String) {
        let (repo, sub) = root.split_once('/').unwrap_or((root, ""));
        (self.repo(repo), sub.to_string())
    }
}

/// Every `.tf` file under `dir`, sorted (the parser tests and the parse benchmark).
pub fn tf_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "tf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
