//! Reading what a resource node's [`facts`](super::facts) say, with the fallbacks to the
//! node's own parts where the facts are absent, for the state-driven steps.

use super::dependencies::Dependencies;
use super::facts::ResourceFacts;
use super::node::{Node, NodeKind};
use super::shared::SharedStr;
use super::TfGraph;
use crate::addrs::ResourceMode;
use crate::dag::NodeId;
use std::borrow::Cow;

/// The node's facts, created empty on first use.
pub fn facts_mut(g: &mut TfGraph, id: NodeId) -> &mut ResourceFacts {
    g.node_mut(id).facts.get_or_insert_with(Default::default)
}

/// The config resource address a resource node belongs to: `module.a.aws_instance.web`.
pub fn config_resource(n: &Node) -> Option<String> {
    n.config_resource_address()
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
    let a = crate::addrs::InstanceAddr::parse(&inst).ok()?;
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
        None => Cow::Owned(
            n.facts.as_deref().and_then(|f| f.dependencies.as_ref()).map(Dependencies::to_vec).unwrap_or_default(),
        ),
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
        // A replacement planned delete-then-create is destroyed first whatever the state says:
        // Terraform 1.11.4 destroys such an object before creating its replacement though its
        // state keeps create_before_destroy from an earlier replacement
        // (tests/fixtures/engine/replace-after-create-before-destroy, step 3).
        NodeKind::ResourceInstanceDestroy { .. }
            if f.is_some_and(|f| f.action == Some(crate::plans::Action::DeleteThenCreate)) =>
        {
            false
        }
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
