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

use super::{BuildContext, Transform};
use crate::dag::{Direction, NodeId};
use crate::diag::Diagnostics;
use crate::graph::facts::{config_resource, different_module_instances, instance_address, state_dependencies};
use crate::graph::node::NodeKind;
use crate::graph::state::Action;
use crate::graph::{Operation, TfGraph, Why};
use std::collections::HashMap;

pub struct DestroyEdgeTransformer;

fn is_creator(g: &TfGraph, id: NodeId) -> bool {
    let n = g.node(id);
    matches!(n.kind, NodeKind::ResourceInstance { .. })
        && n.facts.as_ref().and_then(|f| f.action).is_none_or(|a| a != Action::NoOp)
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
        // 1. Creator -> its own destroyers.
        for &c in &creators {
            let Some(addr) = instance_address(g.node(c)) else { continue };
            for &d in destroyers.get(&addr).map(Vec::as_slice).unwrap_or(&[]) {
                g.connect(c, d, Why::ReplaceDestroyFirst);
            }
        }
        // 2. Creators -> destroyers of their state dependencies.
        let mut edges: Vec<(NodeId, NodeId, Why)> = Vec::new();
        let mut creators_sorted: Vec<NodeId> = creators_by_resource.values().flatten().copied().collect();
        creators_sorted.sort();
        for &c in &creators_sorted {
            let cn = g.node(c);
            for dep in state_dependencies(cn) {
                for &d in destroyers_by_resource.get(dep).map(Vec::as_slice).unwrap_or(&[]) {
                    if !different_module_instances(cn, g.node(d)) {
                        let why = Why::StateOrder { dependency: dep.clone(), dependent: g.label(c) };
                        edges.push((c, d, why));
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
            let dn = g.node(des);
            for dep in state_dependencies(dn) {
                for &other in destroyers_by_resource.get(dep).map(Vec::as_slice).unwrap_or(&[]) {
                    if other != des && !different_module_instances(g.node(other), dn) {
                        tries.push((other, des, Why::DestroyOrder { dependency: dep.clone() }));
                    }
                }
                for &c in creators_by_resource.get(dep).map(Vec::as_slice).unwrap_or(&[]) {
                    if !different_module_instances(g.node(c), dn) {
                        tries.push((c, des, Why::StateOrder { dependency: dep.clone(), dependent: g.label(des) }));
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
            let (pf, pt) = (g.node(from).resolved_provider.clone(), g.node(to).resolved_provider.clone());
            if pf != pt && g.dag().any_reached(to, Direction::Dependencies, |w| w == from) {
                g.remove_edge(from, to);
            }
        }
        Diagnostics::new()
    }
}
