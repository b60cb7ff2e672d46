//! What the CLI prints and writes of a plan or an apply.
//!
//! | module | what |
//! | --- | --- |
//! | `plan_json` | the plan as `terraform show -json` writes it (format 1.2) |
//! | `progress` | what `terraform apply` prints: a progress line per operation event, the summary |

pub mod plan_json;
pub mod progress;
