//! The engine: Terraform's plan and apply walks over a configuration, a prior state and a
//! provider. The only stage that joins config, graph, eval, providers and state.
//!
//! Its rooms, each importing only those below it (`render` → `plan`, `apply` → `shared` →
//! `jsonconfig`; `plan` and `apply` know nothing of each other):
//!
//! | folder | what |
//! | --- | --- |
//! | `render` | what the CLI prints and writes: the plan JSON (`terraform show -json`), the apply's progress lines |
//! | `plan` | the plan walk: graph/'s plan graph walked, what each resource node does (expansion, refresh, actions, orphans), imports, `moved` blocks |
//! | `apply` | the apply walk: graph/'s apply graph of a plan walked, the working state it writes (state v4, serial), its events |
//! | `shared` | what both walks use: scopes, resource bodies evaluated, provider routing, resource order, checks, targets, the apply graph, the virtual clock, diagnostics with their snippets |
//! | `jsonconfig` | the configuration as the plan records it (the plan JSON's `configuration` section), the configuration's files parsed once, an expression's references |
//!
//! `session`: the front door. A typed request in, the plan (then the apply's result) out, the
//! host (the package's JS providers and timers, natively the mocks on a virtual clock) answering
//! only; the package's `plan()`, `apply()`, `destroy()`, `terraform test`'s runner and the
//! native tests run through it.
//! `api`: the package's shapes of what it returns (plan JSON, text, changes, apply report).

pub mod api;
pub mod apply;
pub mod jsonconfig;
pub mod plan;
pub mod render;
pub mod session;
pub mod shared;

// The plan as data is the engine's face: what its callers pass and get back.
pub use shared::plan::{InstanceChange, OpCallback, OpHook, OpProgress, OutputChange, Plan, PlanOp, PlanOptions};
