//! Shared by the state-driven transformers: what attach-state records for an object, and the
//! configuration's create_before_destroy. The indexes they read are in
//! [`crate::graph::state_index`].

use super::BuildContext;
use crate::graph::facts::AttachedState;
use crate::state::StateObject;

/// What attach-state records for a current object.
pub fn attached(o: &StateObject) -> AttachedState {
    AttachedState {
        dependencies: o.dependencies.clone(),
        create_before_destroy: o.create_before_destroy,
        provider: o.provider.clone(),
    }
}

/// Whether the configuration's `lifecycle` sets create_before_destroy on the node's block.
pub fn config_cbd(cx: &BuildContext, n: &crate::graph::Node) -> bool {
    n.config.as_ref().and_then(|c| cx.resource_of(c)).and_then(|r| r.lifecycle.create_before_destroy).unwrap_or(false)
}
