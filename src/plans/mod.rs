//! Planned changes (Terraform `internal/plans`): the model, and reading changes JSON in the
//! shapes accepted ([`changes_json`]), with diagnostics as named constructors
//! ([`diagnostics`]). What the apply graph is built from
//! ([`BuildOptions::changes`](crate::graph::BuildOptions::changes)). Plans know only addresses.

pub mod changes_json;
pub mod diagnostics;
/// The plan as `terraform plan` prints it (a port of Terraform's jsonformat renderer).
pub mod render_human;

pub use changes_json::{change_address, changes_from_value, parse_actions, parse_changes, preallocated_deposed_key};

use serde::{Deserialize, Serialize};

/// Planned changes: what the apply graph is built from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changes {
    pub resources: Vec<ResourceChange>,
}

/// One planned resource instance change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceChange {
    #[serde(default)]
    pub module: String,
    pub resource: String,
    #[serde(default)]
    pub key: Option<String>,
    #[serde(default)]
    pub deposed: Option<String>,
    pub action: Action,
}

/// Terraform's `plans.Action`, with its JSON spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    NoOp,
    Create,
    Read,
    Update,
    DeleteThenCreate,
    CreateThenDelete,
    Delete,
    /// `plans.Forget` (Terraform 1.7+): remove the object from the state without destroying
    /// it (a `removed` block with `lifecycle { destroy = false }`).
    Forget,
    /// `plans.CreateThenForget`: in the JSON vocabulary (`["create", "forget"]`); Terraform
    /// core's `DiffTransformer` treats it as an update (a creator only).
    CreateThenForget,
}
