//! tfgraph: Terraform's resource graph engine, as a Rust crate compiled to WebAssembly.
//!
//! The pipeline, one module per stage; dependencies point one way (left to right):
//!
//! ```text
//!   files ──► config ──► eval ──────► graph ──────► walk ──────► engine ─────► bindings ──► pkg/, www/
//!             (HCL →     (values,      (Terraform's  (async        plan/apply    (wasm: the only
//!              Config)    unknowns,     graphs)       scheduler)   over          JS-facing code)
//!                         functions)                               providers,
//!                                                                  state v4)
//! ```
//!
//! `eval` knows no graph and no providers: it reads names through a `Scope`. The graph stage
//! never evaluates. `providers` see only values and schemas. Only `engine` joins config, graph,
//! eval, providers and state.
//!
//! `diag`, `util` and `addrs` are the shared foundation: Terraform-shaped diagnostics, shared
//! strings and the one fast hasher, typed addresses. `state` (the prior state, v4) and `plans`
//! (planned changes) know only addresses; the graph stage reads them and does not own them.

/// Terraform addresses (resources, modules, references) and their canonical spelling.
pub mod addrs;
/// The JavaScript boundary: thin conversions around the stages above (the exports, wasm32
/// only) and the tape, the compact wire format `loadConfig`'s result leaves wasm in. Public
/// only so that the wasm test suites (`tests/wasm_*.rs`) and `bench/native` can call it; JS
/// users go through `pkg/`.
#[doc(hidden)]
pub mod bindings;
/// Stage 1: loading `.tf` / `.tf.json` files into a [`config::Config`] with references, keeping
/// native files' syntax trees so the evaluator and the engine never parse configuration again.
pub mod config;
/// Generic DAG core (Terraform's `internal/dag`): vertices, edges with payloads, cycles, reduction, renderers.
pub mod dag;
/// Diagnostics in Terraform's JSON shape, and source positions.
pub mod diag;
/// The plan and apply walks: joins config, graph, eval, providers and state.
pub mod engine;
/// Terraform's expression language: values, unknowns, types, functions, a module's scope.
pub mod eval;
/// Stage 2: Terraform's graphs (plan, validate, destroy, apply) built from a [`config::Config`].
pub mod graph;
/// HCL's native syntax: lexer, parser and syntax tree with spans, read by the loader and the evaluator.
pub mod hcl;
/// Planned changes: the model, reading them, and the plan as `terraform plan` prints it
/// (from its JSON form). Knows only addresses.
pub mod plans;
/// Providers: the trait the engine drives, the built-in `mock`, the generic mock for every
/// other source, and the provider set that routes each configuration to its provider.
pub mod providers;
/// Terraform state: the model and state v4 reading (writing next). Knows only addresses.
pub mod state;
/// `terraform test`: test files, runs and their reports.
pub mod testing;
/// Small shared building blocks: shared strings, the one fast hasher.
pub mod util;
/// Stage 3: the parallel graph walker (Terraform's `dag.Walker`), an async scheduler with no JS.
pub mod walk;

pub use config::{load, LoadOptions, Loaded};
pub use diag::{Diagnostic, Diagnostics, Severity, SourceRange};

/// The crate version, which is also the npm package version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
