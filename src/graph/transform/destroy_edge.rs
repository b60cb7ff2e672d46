//! `DestroyEdgeTransformer` (`internal/terraform/transform_destroy_edge.go`): the order of
//! destroys, which is the reverse of the order of creates, read from the *state*:
//!
//! ```text
//!   B (destroy) -> A (destroy) -> A -> B        (B depended on A)
//! ```
//!
//! 1. a creator waits for the destroyer of its own instance (replace: destroy, then create;
//!    `CBDEdgeTransformer` reverses it for create_before_destroy);
//! 2. a creator waits for the destroyers of every resource in its state dependencies (an update
//!    that stopped using A runs after A is gone);
//! 3. for a destroyer D whose object depended on resource R: every destroyer of R waits for D
//!    (the dependent is destroyed first), and so does every creator of R — unless the two are in
//!    different instances of the same module. Creators whose change is a no-op take no part
//!    (v1.4+). Outside a full destroy, an edge of step 3 between two different provider
//!    configurations is backed out if it closes a cycle (`tryInterProviderDestroyEdge`).
//!
//! State dependencies are the stored `dependencies` of the instance's current object, else the
//! ones `AttachDependenciesTransformer` computed. Everything is indexed once by resource:
//! O(V + edges added), plus one reachability search per cross-provider edge.

use super::{BuildContext, Dependencies, Transform};
use crate::dag::{Direction, NodeId};
use crate::diag::Diagnostics;
use crate::graph::facts::{config_resource, instance_address, module_instance_of, state_dependencies, stored_dependencies};
use crate::graph::node::NodeKind;
use crate::graph::state::Action;
use crate::graph::{Operation, TfGraph, Why};
use std::collections::HashMap;
use std::sync::Arc;

pub struct DestroyEdgeTransformer;

fn is_creator(g: &TfGraph, id: NodeId) -> bool {
    let n = g.node(id);
    matches!(n.kind, NodeKind::ResourceInstance { .. })
        && n.facts.as_ref().and_then(|f| f.action).is_none_or(|a| a != Action::NoOp)
}

/// Terraform `graphNodesAreResourceInstancesInDifferentInstancesOfSameModule`, answered from
/// module instances interned once per node: parsing both instance addresses for every
/// candidate pair was most of this step's time on large graphs.
struct ModuleInstances {
    of: HashMap<NodeId, u32>,
}

impl ModuleInstances {
    fn new(g: &TfGraph, ids: impl Iterator<Item = NodeId>) -> Self {
        let mut names: HashMap<String, u32> = HashMap::new();
        let mut of = HashMap::new();
        for id in ids {
            let n = g.node(id);
            if !n.is_resource_instance() || n.module.is_root() {
                continue;
            }
            if let Some(mi) = module_instance_of(n) {
                let next = names.len() as u32;
                of.insert(id, *names.entry(mi).or_insert(next));
            }
        }
        ModuleInstances { of }
    }

    fn different(&self, g: &TfGraph, a: NodeId, b: NodeId) -> bool {
        match (self.of.get(&a), self.of.get(&b)) {
            (Some(x), Some(y)) => x != y && g.node(a).module == g.node(b).module,
            _ => false,
        }
    }
}

impl Transform for DestroyEdgeTransformer {
    fn name(&self) -> &'static str {
        "DestroyEdgeTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let full_destroy = cx.options.operation == Operation::Destroy;
        let mut destroyers: HashMap<String, Vec<NodeId>> = HashMap::new();
        let mut destroyers_by_resource: HashMap<String, Vec<NodeId>> = HashMap::new();
        let mut creators_by_resource: HashMap<String, Vec<NodeId>> = HashMap::new();
        let mut creators: Vec<NodeId> = Vec::new();
        let mut all_destroyers: Vec<NodeId> = Vec::new();
        for id in g.ids() {
            let n = g.node(id);
            if n.is_destroyer() {
                let (Some(addr), Some(res)) = (instance_address(n), config_resource(n)) else { continue };
                destroyers.entry(addr).or_default().push(id);
                destroyers_by_resource.entry(res).or_default().push(id);
                all_destroyers.push(id);
            } else if matches!(n.kind, NodeKind::ResourceInstance { .. }) {
                creators.push(id);
                if is_creator(g, id) {
                    creators_by_resource.entry(config_resource(n).unwrap_or_default()).or_default().push(id);
                }
            }
        }
        if destroyers.is_empty() {
            return Diagnostics::new();
        }
        let modules = ModuleInstances::new(g, creators.iter().chain(&all_destroyers).copied());
        // 1. Creator -> its own destroyers.
        for &c in &creators {
            let Some(addr) = instance_address(g.node(c)) else { continue };
            for &d in destroyers.get(&addr).map(Vec::as_slice).unwrap_or(&[]) {
                g.connect(c, d, Why::ReplaceDestroyFirst);
            }
        }
        // 2. Creators -> destroyers of their state dependencies. A creator without a state
        // object uses the dependencies AttachDependencies found, which are implicit: only the
        // resources that have destroyers matter here, so they are listed for every creator at
        // once over that subset (output-sized, instead of every creator's full list).
        let mut edges: Vec<(NodeId, NodeId, Why)> = Vec::new();
        let mut creators_sorted: Vec<NodeId> = creators_by_resource.values().flatten().copied().collect();
        creators_sorted.sort();
        let computed = |c: NodeId| -> Option<&Dependencies> {
            let n = g.node(c);
            match stored_dependencies(n) {
                Some(_) => None,
                None => n.facts.as_deref()?.dependencies.as_ref(),
            }
        };
        let shared = creators_sorted.iter().find_map(|&c| computed(c)?.index().cloned());
        let restricted = shared.as_ref().map(|ix| ix.restricted_lists(|col| destroyers_by_resource.contains_key(ix.name(col))));
        for &c in &creators_sorted {
            let label = g.label(c);
            let mut push = |dep: &str| {
                for &d in destroyers_by_resource.get(dep).map(Vec::as_slice).unwrap_or(&[]) {
                    if !modules.different(g, c, d) {
                        edges.push((c, d, Why::StateOrder { dependency: dep.to_string(), dependent: label.clone() }));
                    }
                }
            };
            match (computed(c), &shared, &restricted) {
                (Some(h), Some(ix), Some(lists)) if h.index().is_some_and(|i| Arc::ptr_eq(i, ix)) => {
                    for col in lists.of(h) {
                        push(ix.name(col));
                    }
                }
                _ => {
                    for dep in state_dependencies(g.node(c)).iter() {
                        push(dep);
                    }
                }
            }
        }
        for (from, to, why) in edges {
            g.connect(from, to, why);
        }
        // 3. Destroy order from each destroyer's state dependencies.
        let mut tries: Vec<(NodeId, NodeId, Why)> = Vec::new();
        for &des in &all_destroyers {
            let deps = state_dependencies(g.node(des));
            let mut label = None;
            for dep in deps.iter() {
                for &other in destroyers_by_resource.get(dep).map(Vec::as_slice).unwrap_or(&[]) {
                    if other != des && !modules.different(g, other, des) {
                        tries.push((other, des, Why::DestroyOrder { dependency: dep.clone() }));
                    }
                }
                for &c in creators_by_resource.get(dep).map(Vec::as_slice).unwrap_or(&[]) {
                    if !modules.different(g, c, des) {
                        let dependent = label.get_or_insert_with(|| g.label(des)).clone();
                        tries.push((c, des, Why::StateOrder { dependency: dep.clone(), dependent }));
                    }
                }
            }
        }
        for (from, to, why) in tries {
            let existed = g.dag().has_edge(from, to);
            g.connect(from, to, why);
            if full_destroy || existed {
                continue;
            }
            if g.node(from).resolved_provider != g.node(to).resolved_provider
                && g.dag().any_reached(to, Direction::Dependencies, |w| w == from)
            {
                g.remove_edge(from, to);
            }
        }
        Diagnostics::new()
    }
}
