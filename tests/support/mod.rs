//! Everything the test files share, in one place. A test file includes it with `mod support;`
//! and uses what it needs; the parts that only make sense on one side are compiled only there.
//!
//! | part | what | where |
//! | --- | --- | --- |
//! | `files`, `corpus`, `state` | fixture folders and the shared corpus as files maps; a synthesized state for a configuration | native (`bench/graph`'s `dump` includes these three by `#[path]`) |
//! | `engine_fixtures` | the plan/apply scenarios recorded with Terraform (`fixtures/engine/`) | native |
//! | `session` | the package's `plan()` / `apply()` natively: an API-shaped request through the engine's session | native |
//! | `console` | runs `fixtures/eval/` cases through the evaluator as `terraform console` would | native |
//! | `walk_cases` | seeded random walk cases and their oracle, shared by both sides | native and wasm |
//! | `walk_sim`, `walk_native` | a virtual-time executor and the native walk runner | native |
//! | `walk_wasm` | the same cases through the exported JS `walk`, over real promises | wasm |
//! | `wasm_api` | the exported API as JavaScript sees it, wrapped by `wasm_node.rs` / `wasm_browser.rs` | wasm |
//!
//! `walk_wasm_suite.rs` holds `#[wasm_bindgen_test]`s, so it is not a part of this module:
//! the two walk binaries that run it include it by `#[path]`.
#![allow(dead_code, unused_imports)]

#[cfg(not(target_arch = "wasm32"))]
pub mod console;
#[cfg(not(target_arch = "wasm32"))]
pub mod corpus;
#[cfg(not(target_arch = "wasm32"))]
pub mod engine_fixtures;
#[cfg(not(target_arch = "wasm32"))]
pub mod files;
#[cfg(not(target_arch = "wasm32"))]
pub mod session;
#[cfg(not(target_arch = "wasm32"))]
pub mod state;
pub mod walk_cases;
#[cfg(not(target_arch = "wasm32"))]
pub mod walk_native;
#[cfg(not(target_arch = "wasm32"))]
pub mod walk_sim;
#[cfg(target_arch = "wasm32")]
pub mod walk_wasm;
#[cfg(target_arch = "wasm32")]
pub mod wasm_api;

#[cfg(not(target_arch = "wasm32"))]
pub use corpus::{corpus_dir, corpus_roots, index_roots, tf_files, RepoFiles};
#[cfg(not(target_arch = "wasm32"))]
pub use files::{any_file, read_fixture, read_tf_fixture, read_tree, tf_file, tf_or_json_file};
#[cfg(not(target_arch = "wasm32"))]
pub use state::synthesize_state;
