//! What the state-driven steps record on resource nodes ([`Node::facts`](super::Node)), for
//! the walk (plan and apply) and for the graph page to show.
//!
//! Terraform keeps these in fields of its node structs: the attached state
//! (`AttachResourceState`), the planned action (from `Changes`), the dependencies
//! `AttachDependenciesTransformer` computes (written to state as `dependencies`), and the
//! `create_before_destroy` that `ForcedCBDTransformer` forces on.

use super::node::{Node, NodeKind};
use super::shared::{SharedStr, SharedVec};
use super::state::Action;
use super::TfGraph;
use crate::addrs::ResourceMode;
use crate::dag::NodeId;
use serde::Serialize;
use std::borrow::Cow;

pub use super::transform::Dependencies;

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

/// The node's facts, created empty on first use.
pub fn facts_mut(g: &mut TfGraph, id: NodeId) -> &mut ResourceFacts {
    g.node_mut(id).facts.get_or_insert_with(Default::default)
}

/// The config resource address a resource node belongs to: `module.a.aws_instance.web`.
pub fn config_resource(n: &Node) -> Option<String> {
    n.resource_mode()?;
    Some(if n.module.is_root() { n.addr.to_string() } else { format!("{}.{}", n.module, n.addr) })
}

/// The instance address of an instance node (from its facts, else its name parts).
pub fn instance_address(n: &Node) -> Option<String> {
    instance_address_ref(n).map(Cow::into_owned)
}

/// [`instance_address`], borrowed from the facts when they have it.
pub fn instance_address_ref(n: &Node) -> Option<Cow<'_, str>> {
    if let Some(i) = n.facts.as_ref().and_then(|f| f.instance.as_deref()) {
        return Some(Cow::Borrowed(i));
    }
    n.is_resource_instance().then(|| Cow::Owned(n.address()))
}

/// The module instance part of an instance node's address (`module.a[0]`), for Terraform's
/// "different instances of the same module" rule.
pub fn module_instance_of(n: &Node) -> Option<String> {
    let inst = instance_address(n)?;
    let a = super::instance_addr::InstanceAddr::parse(&inst).ok()?;
    Some(a.module_instance())
}

/// Terraform `graphNodesAreResourceInstancesInDifferentInstancesOfSameModule`.
pub fn different_module_instances(a: &Node, b: &Node) -> bool {
    if !a.is_resource_instance() || !b.is_resource_instance() || a.module != b.module || a.module.is_root() {
        return false;
    }
    match (module_instance_of(a), module_instance_of(b)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

/// Terraform `StateDependencies()`: the stored dependencies of the instance's current object,
/// else the ones `AttachDependenciesTransformer` computed (materialised on demand).
pub fn state_dependencies(n: &Node) -> Cow<'_, [SharedStr]> {
    match stored_dependencies(n) {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(n.facts.as_deref().and_then(|f| f.dependencies.as_ref()).map(Dependencies::to_vec).unwrap_or_default()),
    }
}

/// The stored state `dependencies` of the instance's current object, when it has one.
pub fn stored_dependencies(n: &Node) -> Option<&[SharedStr]> {
    n.facts.as_deref()?.state.as_ref().map(|s| s.dependencies.as_slice())
}

/// Terraform `CreateBeforeDestroy()` of a node that has one (`GraphNodeDestroyerCBD`):
/// deposed objects always; destroyers from the state, else the configuration; everything
/// else from the configuration or forced. `config_cbd` is the block's `lifecycle` setting.
pub fn create_before_destroy(n: &Node, config_cbd: bool) -> bool {
    let f = n.facts.as_deref();
    match n.kind {
        NodeKind::ResourceInstanceDestroyDeposed { .. } => true,
        NodeKind::ResourceInstanceDestroy { .. } => match f.and_then(|f| f.state.as_ref()) {
            Some(s) => s.create_before_destroy,
            None => config_cbd,
        },
        _ => config_cbd || f.is_some_and(|f| f.forced_cbd),
    }
}

/// Whether a node has Terraform's `GraphNodeDestroyerCBD` (every resource node: they all embed
/// `NodeAbstractResource`); only managed resources can have it set in configuration.
pub fn has_cbd(n: &Node) -> bool {
    n.resource_mode().is_some()
}

/// Whether a resource node is a managed resource.
pub fn is_managed(n: &Node) -> bool {
    n.resource_mode() == Some(ResourceMode::Managed)
}
