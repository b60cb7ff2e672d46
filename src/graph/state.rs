//! The prior state and planned changes a build may be given ([`BuildOptions::state`] and
//! [`BuildOptions::changes`](super::BuildOptions::changes)).
//!
//! Only what graph building reads is modelled: for each resource instance object, its address,
//! provider, dependencies, `create_before_destroy` and deposed key (state v4,
//! `internal/states/statefile/version4.go`), and for each planned change its action. The plan
//! graph without state has no use for them; the plan graph's orphan and deposed nodes and the
//! apply and destroy graphs are built from them. Deserializes from a JSON shape close to
//! Terraform's own.

use super::shared::{SharedStr, SharedVec};
use serde::{Deserialize, Serialize};

/// A prior state: every resource instance object Terraform knows about.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub resources: Vec<StateObject>,
    /// The names of the root module's outputs in the state (`OrphanOutputTransformer`).
    #[serde(default)]
    pub outputs: Vec<String>,
}

/// One resource instance object in the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateObject {
    /// The module instance, as Terraform prints it (`module.a[0]`); empty for the root module.
    /// Shared, like the other addresses: a state repeats them for every object.
    #[serde(default)]
    pub module: SharedStr,
    /// The resource address inside its module: `aws_instance.web`, `data.aws_ami.u`.
    pub resource: SharedStr,
    /// The instance key as printed (`[0]`, `["a"]`), absent for a single instance.
    #[serde(default)]
    pub key: Option<String>,
    /// The provider configuration that manages it:
    /// `provider["registry.terraform.io/hashicorp/aws"].west`. Shared: a state names few.
    pub provider: SharedStr,
    /// State `dependencies`: resource addresses (no instance keys) it was created after.
    /// Shared: the graph's nodes keep them without copying.
    #[serde(default)]
    pub dependencies: SharedVec<SharedStr>,
    #[serde(default)]
    pub create_before_destroy: bool,
    /// Set for a deposed object (8 hex digits).
    #[serde(default)]
    pub deposed: Option<String>,
}

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
