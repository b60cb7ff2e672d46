//! The JavaScript boundary. The only home of `#[wasm_bindgen]`: each export deserializes its
//! arguments, calls one core stage, and serializes the result in Terraform's JSON shapes.
//! `pkg/index.js` wraps these raw exports (initialisation, `TfgraphError`).
//!
//! The exports exist only on wasm32. The wire format they hand `loadConfig`'s result over in
//! ([`tape`]) is plain Rust and compiles everywhere, so `bench/native` can time it natively.

pub mod tape;

#[cfg(target_arch = "wasm32")]
mod boundary;
#[cfg(target_arch = "wasm32")]
pub use boundary::*;

#[cfg(target_arch = "wasm32")]
pub mod engine;
#[cfg(target_arch = "wasm32")]
pub mod eval;
#[cfg(target_arch = "wasm32")]
mod files;
#[cfg(target_arch = "wasm32")]
pub mod graph;
#[cfg(target_arch = "wasm32")]
mod heap;
#[cfg(target_arch = "wasm32")]
pub mod testing;
#[cfg(target_arch = "wasm32")]
pub mod walk;
