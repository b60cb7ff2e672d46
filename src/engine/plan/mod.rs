//! The plan walk.
//!
//! | module | what |
//! | --- | --- |
//! | `walk` | graph/'s plan graph, walked by walk/'s scheduler: its order, state dependencies, forced create_before_destroy; failure skips dependents; cancellation |
//! | `destroy` | `plan -destroy`: the refresh plan, then the plan-destroy graph's walk |
//! | `nodes` | the plan: what a resource node does (expansion, refresh, actions, orphans), then orphans of removed resources, outputs, checks |
//! | `import` | `import` blocks expanded and checked; imported objects in the prior state |
//! | `moved` | `moved` blocks: prior objects renamed before the plan |
//! | `data_orphans` | data source objects the refreshed state drops |
//! | `refreshed_deps` | the dependencies the refreshed state records |

pub mod data_orphans;
mod destroy;
pub mod import;
pub mod moved;
pub mod nodes;
/// The dependencies the refreshed state records: stored and configured merged until the apply.
mod refreshed_deps;
pub mod walk;

pub use nodes::{plan_walked, validate};
