//! `ReferenceTransformer` (`internal/terraform/transform_reference.go`): an edge from every node
//! to each node its expressions refer to.
//!
//! Every referenceable node is filed under `(module, address)` keys ([`ReferenceMap`], built
//! once: O(V)); every reference is looked up under the referring node's reference path
//! ([`Node::reference_path`](crate::graph::Node::reference_path)) with Terraform's fallbacks
//! (`referenceMapKey`): an instance (`aws_instance.a[0]`) falls back to its resource, a module
//! instance output (`module.m[0].out`) to the output and then to the whole call, a module
//! instance to the call. References that match nothing make no edge (undeclared names are
//! reported when evaluating, not here).
//!
//! Not connected: a node to itself; destroy nodes, as referrers or as targets (they use only
//! their state); resource instances in *different instances* of the same module.
//!
//! A reference to a whole module call (`module.m`, in `depends_on` or an expression) reaches
//! `module.m (expand)`, `module.m (close)` and every output of `m`: "after everything in m".

use super::{BuildContext, Transform};
use crate::addrs::{ModulePath, Subject};
use crate::config::Reference;
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::{TfGraph, Why};
use std::collections::HashMap;

pub struct ReferenceTransformer;

/// Referenceable nodes by module, then by address (Terraform `ReferenceMap`, keyed
/// `"<module>|<address>"` there).
#[derive(Default)]
pub struct ReferenceMap {
    map: HashMap<ModulePath, HashMap<String, Vec<NodeId>>>,
}

impl ReferenceMap {
    /// Files every node of `g` under its [`Node::referenceable_keys`]. O(V).
    pub fn new(g: &TfGraph) -> Self {
        let mut map: HashMap<ModulePath, HashMap<String, Vec<NodeId>>> = HashMap::new();
        for id in g.ids() {
            for (module, key) in g.node(id).referenceable_keys() {
                map.entry(module).or_default().entry(key).or_default().push(id);
            }
        }
        ReferenceMap { map }
    }

    fn get(&self, module: &ModulePath, key: &str) -> Option<&Vec<NodeId>> {
        self.map.get(module)?.get(key)
    }

    /// The nodes a subject refers to from `module`, with Terraform's fallbacks.
    pub fn lookup(&self, module: &ModulePath, subject: &Subject) -> &[NodeId] {
        if let Some(v) = self.get(module, &subject.to_string()) {
            return v;
        }
        let fallbacks: Vec<Subject> = match subject {
            Subject::ResourceInstance(..) | Subject::ModuleCallInstance(..) => vec![subject.without_key()],
            Subject::ModuleCallOutput { call, key, .. } => {
                let mut f = Vec::new();
                if key.is_some() {
                    f.push(subject.without_key());
                }
                f.push(Subject::ModuleCall(call.clone()));
                f
            }
            _ => Vec::new(),
        };
        for s in fallbacks {
            if let Some(v) = self.get(module, &s.to_string()) {
                return v;
            }
        }
        &[]
    }

    /// The nodes a plain address string refers to from `module`, without fallbacks.
    pub fn lookup_key(&self, module: &ModulePath, key: &str) -> &[NodeId] {
        self.get(module, key).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The edge reason for one reference made by `n`.
pub fn why_for(n: &Node, r: &Reference) -> Why {
    if r.context == "depends_on" {
        return Why::DependsOn { traversal: r.traversal.clone(), range: r.range.clone() };
    }
    match n.kind {
        NodeKind::ModuleVariable => Why::Reference {
            traversal: r.traversal.clone(),
            context: format!("the module argument {}", r.context),
            range: r.range.clone(),
        },
        NodeKind::Provider { .. } => Why::ProviderConfigReference {
            traversal: r.traversal.clone(),
            context: r.context.clone(),
            range: r.range.clone(),
        },
        _ => Why::Reference { traversal: r.traversal.clone(), context: r.context.clone(), range: r.range.clone() },
    }
}

/// Terraform `graphNodesAreResourceInstancesInDifferentInstancesOfSameModule`.
fn different_instances_of_same_module(a: &Node, b: &Node) -> bool {
    if !a.is_resource_instance() || !b.is_resource_instance() || a.module != b.module {
        return false;
    }
    match (&a.module_instance, &b.module_instance) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    }
}

impl Transform for ReferenceTransformer {
    fn name(&self) -> &'static str {
        "ReferenceTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let map = ReferenceMap::new(g);
        let referrers: Vec<NodeId> = g.ids().collect();
        let mut edges: Vec<(NodeId, NodeId, Why)> = Vec::new();
        for v in referrers {
            let n = g.node(v);
            if n.is_destroyer() || !n.is_referencer() {
                continue;
            }
            let path = n.reference_path();
            for r in n.references(cx) {
                for &t in map.lookup(&path, &r.subject) {
                    if t == v || g.node(t).is_destroyer() || different_instances_of_same_module(n, g.node(t)) {
                        continue;
                    }
                    edges.push((v, t, why_for(n, r)));
                }
            }
            // A check refers to its own scoped data source, always.
            if let (NodeKind::CheckExpand, Some(ConfigRef::Check { module, index })) = (&n.kind, n.config) {
                if let Some(d) = &cx.check(module, index).data {
                    let key = format!("data.{}.{}", d.type_name, d.name);
                    for &t in map.lookup_key(&path, &key) {
                        let why = Why::Reference { traversal: key.clone(), context: "its scoped data block".into(), range: d.range.clone() };
                        edges.push((v, t, why));
                    }
                }
            }
        }
        for (from, to, why) in edges {
            g.connect(from, to, why);
        }
        Diagnostics::new()
    }
}
