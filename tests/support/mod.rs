//! Native test scaffolding shared by the corpus, fixture and state-driven graph tests: reading
//! the shared corpus, reading fixture folders into a files map, and synthesizing a state.
//! Included with `mod support;` by native-only test files (never compiled for wasm32);
//! `bench/graph/src/bin/dump.rs` includes `files.rs`, `corpus.rs` and `state.rs` by `#[path]`.
#![allow(dead_code, unused_imports)]

pub mod corpus;
pub mod files;
pub mod state;

pub use corpus::{corpus_dir, corpus_roots, index_roots, tf_files, RepoFiles};
pub use files::{any_file, read_fixture, read_tf_fixture, read_tree, tf_file, tf_or_json_file};
pub use state::synthesize_state;
