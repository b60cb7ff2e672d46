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

impl Action {
    /// Every action with its words in plan JSON's `actions` list (`jsonplan.MarshalActions`).
    const WORDS: [(Action, &'static [&'static str]); 9] = [
        (Action::NoOp, &["no-op"]),
        (Action::Create, &["create"]),
        (Action::Read, &["read"]),
        (Action::Update, &["update"]),
        (Action::DeleteThenCreate, &["delete", "create"]),
        (Action::CreateThenDelete, &["create", "delete"]),
        (Action::Delete, &["delete"]),
        (Action::Forget, &["forget"]),
        (Action::CreateThenForget, &["create", "forget"]),
    ];

    /// The action's `actions` list in plan JSON.
    pub fn words(self) -> &'static [&'static str] {
        Self::WORDS.iter().find(|(a, _)| *a == self).map(|(_, w)| *w).unwrap_or(&[])
    }

    /// `jsonplan.UnmarshalActions`: the action of an `actions` list.
    pub fn from_words(words: &[&str]) -> Option<Action> {
        Self::WORDS.iter().find(|(_, w)| *w == words).map(|(a, _)| *a)
    }

    /// [`from_words`](Self::from_words) of a JSON list (other items ignored, as the renderer reads it).
    pub fn from_json(actions: &[serde_json::Value]) -> Option<Action> {
        let words: Vec<&str> = actions.iter().filter_map(serde_json::Value::as_str).collect();
        Self::from_words(&words)
    }
}
