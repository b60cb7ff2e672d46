//! What the state-driven steps record on resource nodes ([`Node::facts`](super::Node)), for
//! the walk (plan and apply) and for the graph page to show.
//!
//! Terraform keeps these in fields of its node structs: the attached state
//! (`AttachResourceState`), the planned action (from `Changes`), the dependencies
//! `AttachDependenciesTransformer` computes (written to state as `dependencies`), and the
//! `create_before_destroy` that `ForcedCBDTransformer` forces on.

//!
//! Only the data lives here, below the nodes that hold it; reading a node's facts with their
//! fallbacks is [`super::node_facts`].

use super::shared::{SharedStr, SharedVec};
use crate::plans::Action;
use serde::Serialize;

pub use super::dependencies::Dependencies;

/// Facts about one resource node. Absent fields are unknown or do not apply.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ResourceFacts {
    /// The absolute instance address of an instance node: `module.a[0].aws_instance.web[1]`.
    /// (Plan-destroy nodes are named by their resource only, as in Terraform 1.15; this says
    /// which instance they destroy.)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// The deposed object key, for nodes of deposed objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deposed: Option<String>,
    /// The planned action of the change the node applies (apply graph).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    /// The instance's current object in the prior state (`AttachStateTransformer`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<AttachedState>,
    /// `AttachDependenciesTransformer`: every resource this node transitively depends on
    /// (config addresses, sorted, itself excluded) — what Terraform stores as the new state
    /// `dependencies` and uses as destroy order for objects not yet in the state. Implicit
    /// (read on demand, see [`Dependencies`]): the lists are quadratic in size on long chains.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dependencies: Option<Dependencies>,
    /// Plan graph, data sources: `attachDataResourceDependsOnTransformer`, the resources whose
    /// pending changes defer the read to the apply (config addresses, sorted; no data sources,
    /// which `forcePlanReadData` skips).
    #[serde(skip)]
    pub data_depends_on: std::collections::BTreeSet<String>,
    /// `ForcedCBDTransformer`: create_before_destroy was forced on because a dependent has it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub forced_cbd: bool,
    /// Plan graph, expand nodes: instances in the state that the (statically known) expansion
    /// no longer has; Terraform plans them as `addr (orphan)` inside the walk
    /// (`OrphanResourceInstanceCountTransformer`, vanished module instances).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expansion_orphans: Vec<String>,
}

/// The parts of a state object that graph building reads (shared with the state: attaching
/// copies nothing).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AttachedState {
    /// State `dependencies`.
    pub dependencies: SharedVec<SharedStr>,
    pub create_before_destroy: bool,
    /// The provider configuration recorded for the resource.
    pub provider: SharedStr,
}
