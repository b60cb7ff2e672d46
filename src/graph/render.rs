//! Drawing a [`TfGraph`]: Terraform's full DOT (`terraform graph -type=plan`), the resource-only
//! DOT that `terraform graph` prints by default since v1.7, and Mermaid.
//!
//! The generic renderers live in [`crate::dag`]; this file supplies the Terraform parts: which
//! nodes get a DOT node line and with what label and shape ([`Node::dot_attrs`]), and how the
//! resource-only graph is derived (`Graph.ResourceGraph` in `internal/terraform/graph.go`).

use super::{DotKind, Node, TfGraph};
use crate::dag::{self, DotOptions, NodeId, ResourceNode};
use std::collections::HashMap;

impl TfGraph {
    /// DOT text.
    ///
    /// * [`DotKind::Full`]: Terraform's `Graph.Dot` layout; node lines only for resources
    ///   (boxes labelled with the resource address), provider configurations (diamonds) and
    ///   root variables (notes), as Terraform's `GraphNodeDotter`s in a plan graph; every edge.
    ///   With `draw_cycles`, cycle edges are red.
    /// * [`DotKind::Resources`]: the v1.7+ default: resources only, clustered by module.
    ///   (`draw_cycles` does not apply.)
    pub fn to_dot(&self, kind: DotKind, draw_cycles: bool) -> String {
        match kind {
            DotKind::Full => self.dag().dot(&DotOptions { draw_cycles }, |_, n: &Node| n.dot_attrs()),
            DotKind::Resources => {
                let (nodes, edges) = self.resource_graph();
                dag::resource_dot(&nodes, &edges)
            }
        }
    }

    /// A Mermaid flowchart of the whole graph (cycle edges red with `draw_cycles`).
    pub fn to_mermaid(&self, draw_cycles: bool) -> String {
        self.dag().mermaid(&DotOptions { draw_cycles }, |_, n: &Node| n.dot_attrs())
    }

    /// A Mermaid flowchart of the resource-only graph (`terraform graph -format=mermaid`, v1.16).
    pub fn to_resource_mermaid(&self) -> String {
        let (nodes, edges) = self.resource_graph();
        dag::resource_mermaid(&nodes, &edges)
    }

    /// Terraform's `ResourceGraph()`: one node per resource (instances fold into their
    /// resource), an edge `a -> b` wherever `a` reaches `b` through non-resource nodes only
    /// (`reducePreservingRelationships`), then transitive reduction (skipped on a cycle).
    ///
    /// # Returns
    /// The resources and the edges as index pairs into them, ready for [`dag::resource_dot`].
    ///
    /// # Complexity
    /// One search per resource that stops at the first resources it meets: O(R · (V + E)) in
    /// the worst case, and about O(V + E) for the usual graphs, where each non-resource node
    /// leads to few resources.
    pub fn resource_graph(&self) -> (Vec<ResourceNode>, Vec<(usize, usize)>) {
        let g = self.dag();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut nodes: Vec<ResourceNode> = Vec::new();
        let mut of_id: HashMap<NodeId, usize> = HashMap::new();
        let mut ids: Vec<NodeId> = g.node_ids().filter(|&id| g.weight(id).is_resource()).collect();
        crate::util::sort::sort_by(&mut ids, |&a, &b| g.name(a).cmp(g.name(b)).then(a.cmp(&b)));
        for &id in &ids {
            let n = g.weight(id);
            let module = n.module.to_string();
            let data = n.resource_mode() == Some(crate::addrs::ResourceMode::Data);
            let rel = if data {
                n.addr.strip_prefix(crate::addrs::ResourceMode::Data.prefix()).unwrap_or(&n.addr)
            } else {
                &n.addr
            };
            let (type_name, name) = rel.split_once('.').unwrap_or((rel, ""));
            let key = if module.is_empty() { n.addr.to_string() } else { format!("{module}.{}", n.addr) };
            let i = *index.entry(key).or_insert_with(|| {
                nodes.push(ResourceNode::new(&module, data, type_name, name));
                nodes.len() - 1
            });
            of_id.insert(id, i);
        }
        let mut small: dag::Graph<(), ()> = dag::Graph::with_capacity(nodes.len());
        let handles: Vec<NodeId> = nodes.iter().map(|n| small.add(n.id.clone(), ())).collect();
        // One search per resource through non-resource nodes, with a stamped visited array
        // shared by all searches (no per-search allocation).
        let mut stamp: Vec<u32> = vec![0; g.node_bound()];
        let mut stack: Vec<NodeId> = Vec::new();
        for (round, &id) in ids.iter().enumerate() {
            let mark = round as u32 + 1;
            let from = of_id[&id];
            stack.clear();
            stack.extend(g.edges_from(id));
            while let Some(w) = stack.pop() {
                if stamp[w.index()] == mark {
                    continue;
                }
                stamp[w.index()] = mark;
                if let Some(&to) = of_id.get(&w) {
                    if to != from {
                        small.connect(handles[from], handles[to], ());
                    }
                    continue;
                }
                stack.extend(g.edges_from(w).filter(|x| stamp[x.index()] != mark));
            }
        }
        let _ = small.transitive_reduction();
        let pos: HashMap<NodeId, usize> = handles.iter().enumerate().map(|(i, &h)| (h, i)).collect();
        let edges = small.edges().map(|(s, t, _)| (pos[&s], pos[&t])).collect();
        (nodes, edges)
    }
}
