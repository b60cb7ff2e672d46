//! Terraform state: the model, and reading state v4 JSON ([`v4`]), with its diagnostics as
//! named constructors ([`diagnostics`]).
//!
//! Only what graph building reads is modelled so far: for each resource instance object, its
//! address, provider, dependencies, `create_before_destroy` and deposed key (state v4,
//! `internal/states/statefile/version4.go`). The plan graph without state has no use for it;
//! the plan graph's orphan and deposed nodes and the apply and destroy graphs are built from
//! it ([`BuildOptions::state`](crate::graph::BuildOptions::state)). Deserializes from a JSON
//! shape close to Terraform's own. State knows only addresses: no graph, no evaluation; the
//! engine will write it back (v4) from here.

pub mod diagnostics;
pub mod shape;
pub mod v4;

pub use v4::{parse_state, state_from_value};

/// Reads a state's JSON text as the engine plans from it: parsed once (a state can be hundreds
/// of MB), with the diagnostics Terraform reads it with ([`check`]). `None` with the errors when
/// Terraform would refuse it.
pub fn read_text(text: &str) -> (Option<serde_json::Value>, crate::diag::Diagnostics) {
    match serde_json::from_str(text) {
        Ok(v) => {
            let diags = check(&v);
            if diags.has_errors() {
                (None, diags)
            } else {
                (Some(v), diags)
            }
        }
        Err(e) => (None, diagnostics::not_json(&e).into()),
    }
}

/// Terraform's diagnostics for a state value, in the order it reads one: the version
/// (`sniffJSONStateVersion`), Go's type checks of `stateV4` (the first wrong value refuses it
/// all), then each resource and instance (`prepareStateV4`, and the plan's decoding of their
/// attributes). "Invalid provider config address in state" is left out: Terraform's
/// `readStateV4` drops it and skips the resource.
pub fn check(v: &serde_json::Value) -> crate::diag::Diagnostics {
    let version = v4::check_version(v);
    if version.has_errors() {
        return version;
    }
    if let Some(e) = shape::unmarshal_error(v) {
        return e.into();
    }
    let (_, read) = state_from_value(v);
    let mut diags = crate::diag::Diagnostics::new();
    for d in read {
        if d.summary != diagnostics::INVALID_PROVIDER {
            diags.push(d);
        }
    }
    shape::prepare_errors(v, &mut diags);
    diags
}

/// The Terraform version the states and plans written here claim (`terraform_version`).
pub const TERRAFORM_VERSION: &str = "1.15.0";

use crate::util::{SharedStr, SharedVec};
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
