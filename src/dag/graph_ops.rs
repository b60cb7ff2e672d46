//! Whole-vertex and whole-graph edits: Terraform's `Replace` and `Subsume`, and `Clone`.

use super::graph::Vertex;
use super::{Graph, NodeId};

impl<N, E> Graph<N, E> {
    /// Moves every edge of `original` onto `replacement`, then removes `original` (Terraform
    /// `Replace`). Payloads move with their edges; where `replacement` already has the same edge,
    /// its own payload wins, as Terraform's idempotent `Connect` keeps the existing edge.
    /// Returns `false` if `original` is not in the graph; `replacement` must be.
    /// O(degree of `original`).
    pub fn replace(&mut self, original: NodeId, replacement: NodeId) -> bool {
        if !self.contains(original) {
            return false;
        }
        self.vertex(replacement);
        if original == replacement {
            return true;
        }
        let outgoing: Vec<NodeId> = self.edges_from(original).collect();
        for t in outgoing {
            if t == original {
                continue; // a self-loop disappears with the vertex, as in Terraform
            }
            let payload = self.remove_edge(original, t).expect("edge listed by edges_from");
            self.connect(replacement, t, payload);
        }
        let incoming: Vec<NodeId> = self.edges_to(original).collect();
        for s in incoming {
            if s == original {
                continue;
            }
            let payload = self.remove_edge(s, original).expect("edge listed by edges_to");
            self.connect(s, replacement, payload);
        }
        self.remove(original);
        true
    }

    /// Moves every vertex and edge of `other` into this graph (Terraform `Subsume`). Identity is
    /// per node, so all of `other`'s vertices are new here. Returns the new id of each of
    /// `other`'s slots (`None` for its tombstones), indexed by the old [`NodeId::index`].
    pub fn subsume(&mut self, other: Graph<N, E>) -> Vec<Option<NodeId>> {
        let base = self.slots.len();
        let mut map = Vec::with_capacity(other.slots.len());
        let mut live = 0;
        for slot in &other.slots {
            map.push(slot.as_ref().map(|_| {
                live += 1;
                NodeId::from_index(base + live - 1)
            }));
        }
        let remap = |id: &NodeId| map[id.index()].expect("edge to a removed vertex");
        for slot in other.slots.into_iter().flatten() {
            let from = slot.from.remapped(|t| remap(&t));
            let to = slot.to.remapped(|t| remap(&t));
            self.slots.push(Some(Vertex { name: slot.name, weight: slot.weight, from, to }));
        }
        self.live += other.live;
        self.edges += other.edges;
        map
    }
}

impl<N: Clone, E: Clone> Clone for Graph<N, E> {
    fn clone(&self) -> Self {
        let slots = self
            .slots
            .iter()
            .map(|s| {
                s.as_ref().map(|v| Vertex {
                    name: v.name.clone(),
                    weight: v.weight.clone(),
                    from: v.from.clone(),
                    to: v.to.clone(),
                })
            })
            .collect();
        Graph { slots, live: self.live, edges: self.edges }
    }
}

#[cfg(test)]
mod tests {
    use crate::dag::{Graph, NodeId};

    fn g3() -> (Graph<(), &'static str>, [NodeId; 3]) {
        let mut g = Graph::new();
        let ids = [g.add("1", ()), g.add("2", ()), g.add("3", ())];
        (g, ids)
    }

    #[test]
    fn replace_moves_edges_and_payloads() {
        let (mut g, [a, b, c]) = g3();
        let d = g.add("42", ());
        g.connect(a, b, "ab");
        g.connect(b, c, "bc");
        g.connect(b, b, "loop");
        assert!(g.replace(b, d));
        assert!(!g.contains(b));
        assert_eq!(g.edge(a, d), Some(&"ab"));
        assert_eq!(g.edge(d, c), Some(&"bc"));
        assert!(!g.has_edge(d, d));
        assert_eq!(g.edge_count(), 2);
        assert!(!g.replace(b, d));
        assert!(g.replace(d, d));
    }

    #[test]
    fn subsume_renumbers_and_keeps_edges() {
        let (mut g, [a, ..]) = g3();
        let (mut h, [x, y, z]) = g3();
        h.connect(x, z, "xz");
        h.remove(y);
        let map = g.subsume(h);
        let (nx, nz) = (map[0].unwrap(), map[2].unwrap());
        assert_eq!(map[1], None);
        assert_eq!((nx.index(), nz.index()), (3, 4));
        assert_eq!(g.edge(nx, nz), Some(&"xz"));
        assert_eq!(g.edges_to(nz).collect::<Vec<_>>(), vec![nx]);
        assert_eq!((g.node_count(), g.edge_count()), (5, 1));
        assert_eq!(g.name(a), "1");
    }
}
