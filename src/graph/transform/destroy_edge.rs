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
//! ones `AttachDependenciesTransformer` computed. Everything is indexed once: resources and
//! module instances get numbers, so the per-edge work is array lookups, and every reason shares
//! its strings (the dependency's address, the dependent's name) with the other edges.
//! O(V + edges added), plus one reachability search per cross-provider edge.

use super::{BuildContext, Dependencies, Transform};
use crate::addrs::module_instance_of_address;
use crate::dag::{Direction, NodeId};
use crate::diag::Diagnostics;
use crate::graph::node::NodeKind;
use crate::graph::node_facts::{config_resource, instance_address_ref, state_dependencies, stored_dependencies};
use crate::graph::shared::{FastMap, SharedStr};
use crate::graph::{TfGraph, Why};
use crate::plans::Action;
use std::borrow::Cow;
use std::sync::Arc;

pub struct DestroyEdgeTransformer {
    /// A destroy walk (plan-destroy, or applying a destroy plan): every object is going away.
    pub full_destroy: bool,
}

fn is_creator(g: &TfGraph, id: NodeId) -> bool {
    let n = g.node(id);
    matches!(n.kind, NodeKind::ResourceInstance { .. })
        && n.facts.as_ref().and_then(|f| f.action).is_none_or(|a| a != Action::NoOp)
}

const NONE: u32 = u32::MAX;

/// Resources by number: the config resource address of every resource node, each text once.
#[derive(Default)]
struct Resources {
    /// (module path copy, address copy) → resource number: the nodes of one resource share
    /// both, so most nodes are numbered without making their address text.
    by_copies: FastMap<(usize, usize), u32>,
    by_text: FastMap<SharedStr, u32>,
    texts: Vec<SharedStr>,
}

impl Resources {
    /// The number of the resource node `id` belongs to.
    fn of(&mut self, g: &TfGraph, id: NodeId) -> Option<u32> {
        let n = g.node(id);
        n.resource_mode()?;
        let copies = (Arc::as_ptr(&n.module) as usize, n.addr.as_ptr() as usize);
        if let Some(&r) = self.by_copies.get(&copies) {
            return Some(r);
        }
        let text = config_resource(n)?;
        let r = self.number(&text);
        self.by_copies.insert(copies, r);
        Some(r)
    }

    fn number(&mut self, text: &str) -> u32 {
        if let Some(&r) = self.by_text.get(text) {
            return r;
        }
        let r = self.texts.len() as u32;
        let shared = SharedStr::from(text);
        self.texts.push(shared.clone());
        self.by_text.insert(shared, r);
        r
    }

    /// The number of a resource address, if any node belongs to it.
    fn find(&self, text: &str) -> Option<u32> {
        self.by_text.get(text).copied()
    }
}

/// Terraform `graphNodesAreResourceInstancesInDifferentInstancesOfSameModule`, answered from
/// module instances numbered once per node: parsing both instance addresses for every
/// candidate pair was most of this step's time on large graphs.
struct ModuleInstances {
    of: Vec<u32>,
}

impl ModuleInstances {
    fn new(g: &TfGraph, ids: impl Iterator<Item = NodeId>) -> Self {
        let mut names: FastMap<SharedStr, u32> = FastMap::default();
        let mut of = vec![NONE; g.dag().node_bound()];
        for id in ids {
            let n = g.node(id);
            if !n.is_resource_instance() || n.module.is_root() {
                continue;
            }
            let Some(inst) = instance_address_ref(n) else { continue };
            if let Some(mi) = module_instance_of_address(&inst) {
                let next = names.len() as u32;
                of[id.index()] = match names.get(&*mi) {
                    Some(&x) => x,
                    None => *names.entry(SharedStr::from(&*mi)).or_insert(next),
                };
            }
        }
        ModuleInstances { of }
    }

    fn different(&self, g: &TfGraph, a: NodeId, b: NodeId) -> bool {
        let (x, y) = (self.of[a.index()], self.of[b.index()]);
        x != NONE && y != NONE && x != y && g.node(a).module == g.node(b).module
    }
}

impl Transform for DestroyEdgeTransformer {
    fn name(&self) -> &'static str {
        "DestroyEdgeTransformer"
    }

    fn transform(&self, g: &mut TfGraph, _cx: &BuildContext) -> Diagnostics {
        let full_destroy = self.full_destroy;
        let mut resources = Resources::default();
        let mut destroyers_by_instance: FastMap<Cow<str>, Vec<NodeId>> = FastMap::default();
        let mut destroyers_by_resource: Vec<Vec<NodeId>> = Vec::new();
        let mut creators_by_resource: Vec<Vec<NodeId>> = Vec::new();
        let mut creators: Vec<NodeId> = Vec::new();
        let mut all_destroyers: Vec<NodeId> = Vec::new();
        for id in g.ids() {
            let n = g.node(id);
            if n.is_destroyer() {
                let (Some(addr), Some(res)) = (instance_address_ref(n), resources.of(g, id)) else { continue };
                destroyers_by_instance.entry(addr).or_default().push(id);
                if destroyers_by_resource.len() <= res as usize {
                    destroyers_by_resource.resize(res as usize + 1, Vec::new());
                }
                destroyers_by_resource[res as usize].push(id);
                all_destroyers.push(id);
            } else if matches!(n.kind, NodeKind::ResourceInstance { .. }) {
                creators.push(id);
                if is_creator(g, id) {
                    let res = resources.of(g, id).expect("an instance is a resource");
                    if creators_by_resource.len() <= res as usize {
                        creators_by_resource.resize(res as usize + 1, Vec::new());
                    }
                    creators_by_resource[res as usize].push(id);
                }
            }
        }
        if destroyers_by_instance.is_empty() {
            return Diagnostics::new();
        }
        let destroyers_of = |r: Option<u32>| -> &[NodeId] {
            r.and_then(|r| destroyers_by_resource.get(r as usize)).map(Vec::as_slice).unwrap_or(&[])
        };
        let creators_of = |r: Option<u32>| -> &[NodeId] {
            r.and_then(|r| creators_by_resource.get(r as usize)).map(Vec::as_slice).unwrap_or(&[])
        };
        let modules = ModuleInstances::new(g, creators.iter().chain(&all_destroyers).copied());
        // A dependent's name for its reasons, made once per node.
        let mut labels: Vec<Option<SharedStr>> = vec![None; g.dag().node_bound()];
        let mut label = |g: &TfGraph, id: NodeId| labels[id.index()].get_or_insert_with(|| g.label(id).into()).clone();

        // 1. Creator -> its own destroyers.
        let mut own: Vec<(NodeId, NodeId)> = Vec::new();
        for &c in &creators {
            let Some(addr) = instance_address_ref(g.node(c)) else { continue };
            for &d in destroyers_by_instance.get(&addr).map(Vec::as_slice).unwrap_or(&[]) {
                own.push((c, d));
            }
        }

        // 2. Creators -> destroyers of their state dependencies. A creator without a state
        // object uses the dependencies AttachDependencies found, which are implicit: only the
        // resources that have destroyers matter here, so they are listed for every creator at
        // once over that subset (output-sized, instead of every creator's full list).
        let mut edges: Vec<(NodeId, NodeId, Why)> = Vec::new();
        let mut creators_sorted: Vec<NodeId> = creators_by_resource.iter().flatten().copied().collect();
        crate::util::sort::sort(&mut creators_sorted);
        let computed = |c: NodeId| -> Option<&Dependencies> {
            let n = g.node(c);
            match stored_dependencies(n) {
                Some(_) => None,
                None => n.facts.as_deref()?.dependencies.as_ref(),
            }
        };
        let shared = creators_sorted.iter().find_map(|&c| computed(c)?.index().cloned());
        // The index's columns as resource numbers, and which have destroyers.
        let column_resource: Vec<Option<u32>> = shared
            .as_ref()
            .map(|ix| (0..ix.len() as u32).map(|col| resources.find(ix.name(col))).collect())
            .unwrap_or_default();
        let restricted = shared
            .as_ref()
            .map(|ix| ix.restricted_lists(|col| !destroyers_of(column_resource[col as usize]).is_empty()));
        for &c in &creators_sorted {
            let mut push = |dep: &SharedStr, r: Option<u32>, dependent: &mut Option<SharedStr>| {
                for &d in destroyers_of(r) {
                    if !modules.different(g, c, d) {
                        let dependent = dependent.get_or_insert_with(|| label(g, c)).clone();
                        edges.push((c, d, Why::StateOrder { dependency: dep.clone(), dependent }));
                    }
                }
            };
            let mut dependent = None;
            match (computed(c), &shared, &restricted) {
                (Some(h), Some(ix), Some(lists)) if h.index().is_some_and(|i| Arc::ptr_eq(i, ix)) => {
                    for col in lists.of(h) {
                        push(ix.shared_name(col), column_resource[col as usize], &mut dependent);
                    }
                }
                _ => {
                    for dep in state_dependencies(g.node(c)).iter() {
                        push(dep, resources.find(dep), &mut dependent);
                    }
                }
            }
        }

        // 3. Destroy order from each destroyer's state dependencies.
        let mut tries: Vec<(NodeId, NodeId, Why)> = Vec::new();
        for &des in &all_destroyers {
            let deps = state_dependencies(g.node(des));
            let mut dependent = None;
            for dep in deps.iter() {
                let r = resources.find(dep);
                for &other in destroyers_of(r) {
                    if other != des && !modules.different(g, other, des) {
                        tries.push((other, des, Why::DestroyOrder { dependency: dep.clone() }));
                    }
                }
                for &c in creators_of(r) {
                    if !modules.different(g, c, des) {
                        let dependent = dependent.get_or_insert_with(|| label(g, des)).clone();
                        tries.push((c, des, Why::StateOrder { dependency: dep.clone(), dependent }));
                    }
                }
            }
        }

        drop(destroyers_by_instance);
        for (c, d) in own {
            g.connect(c, d, Why::ReplaceDestroyFirst);
        }
        for (from, to, why) in edges {
            g.connect(from, to, why);
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
