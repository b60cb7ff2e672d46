//! The JS `walk` export in Node, over real promises: `wasm-pack test --node`.
#![cfg(target_arch = "wasm32")]

#[path = "support/walk_wasm_suite.rs"]
pub mod suite;
mod support;

use wasm_bindgen_test::*;

#[wasm_bindgen_test]
async fn a_200k_node_chain_and_fan_out_walk_in_node() {
    suite::large_walks(200_000).await;
}
