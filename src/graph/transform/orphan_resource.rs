//! `OrphanResourceInstanceTransformer` (`internal/terraform/transform_orphan_resource.go`):
//! an `addr (orphan)` node for every current object in the prior state whose `resource` block
//! is gone (or whose whole module is gone), planned as a delete. Plan only (Terraform skips it
//! for plan-destroy, where every object gets a destroy node anyway).
//!
//! Orphans *inside* an expansion — keys a count/for_each no longer has, instances of module
//! instances that no longer exist — are Terraform's `OrphanResourceInstanceCountTransformer` and
//! `nodeExpandPlannableResource.DynamicExpand`, inside the walk, so Terraform's plan graph
//! never shows them. Here, where the expansion is a literal (`count = 2`,
//! `for_each = toset(["a"])`, on the resource and on every module call above it), they are
//! recorded on the resource's expand node ([`ResourceFacts::expansion_orphans`]) instead.

use super::{BuildContext, Transform};
use crate::addrs::InstanceAddr;
use crate::addrs::{InstanceKey, ModulePath};
use crate::config::ModuleCall;
use crate::diag::Diagnostics;
use crate::graph::facts::ResourceFacts;
use crate::graph::instances::{static_count, static_for_each, static_keys};
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::node_facts::facts_mut;
use crate::graph::TfGraph;
use std::collections::HashMap;

pub struct OrphanResourceInstanceTransformer {
    /// Every walk but plan (validate has no state; plan-destroy destroys everything anyway).
    pub skip: bool,
}

/// The instance keys of a module call, if its count/for_each is a literal.
fn call_keys(call: &ModuleCall) -> Option<Vec<Option<InstanceKey>>> {
    match (&call.count, &call.for_each) {
        (None, None) => Some(vec![None]),
        (Some(c), None) => static_count(c).map(|n| (0..n).map(|i| Some(InstanceKey::Int(i))).collect()),
        (None, Some(f)) => static_for_each(f).map(|ks| ks.into_iter().map(|k| Some(InstanceKey::Str(k))).collect()),
        _ => None,
    }
}

/// Whether the instance is outside a literal expansion: `Some(true)` gone, `Some(false)` still
/// there, `None` unknown without evaluating.
fn vanished(cx: &BuildContext, addr: &InstanceAddr, config: ConfigRef) -> Option<bool> {
    let mut path = ModulePath::root();
    for (name, key) in &addr.module {
        let parent = *cx.module_index.get(&path)?;
        let call = cx.module(parent).module_calls.iter().find(|c| &c.name == name)?;
        let keys = call_keys(call)?;
        if !keys.contains(key) {
            return Some(true);
        }
        path = path.child(name);
    }
    let keys = static_keys(cx.resource_of(&config)?)?;
    Some(!keys.contains(&addr.key))
}

impl Transform for OrphanResourceInstanceTransformer {
    fn name(&self) -> &'static str {
        "OrphanResourceInstanceTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        if self.skip || cx.options.state.is_none() {
            return Diagnostics::new();
        }
        let state = cx.state_index();
        let config = cx.config_resources();
        let expands: HashMap<(u32, u32), _> = g
            .ids()
            .filter(|&id| matches!(g.node(id).kind, NodeKind::ResourceExpand { .. }))
            .filter_map(|id| match g.node(id).config {
                Some(ConfigRef::Resource { module, index }) => Some(((module, index), id)),
                _ => None,
            })
            .collect();
        for (text, inst) in &state.instances {
            let Some(current) = inst.current else { continue };
            let (path, local) = (inst.module.path.clone(), inst.local.clone());
            if let Some(c) = config.get(inst.module.index, &local) {
                let ConfigRef::Resource { module, index } = c else { continue };
                let Ok(addr) = InstanceAddr::parse(text) else { continue };
                if vanished(cx, &addr, c) == Some(true) {
                    if let Some(&e) = expands.get(&(module, index)) {
                        facts_mut(g, e).expansion_orphans.push(text.clone());
                    }
                }
                continue;
            }
            let kind = NodeKind::ResourceInstanceOrphan { mode: inst.mode, key: inst.key.clone() };
            let mut node = Node::new(kind, path, local, None);
            node.module_instance = Some(inst.module.text.clone());
            node.state_provider = Some(current.provider.clone());
            node.facts = Some(Box::new(ResourceFacts { instance: Some(text.clone()), ..Default::default() }));
            g.add(node);
        }
        Diagnostics::new()
    }
}
