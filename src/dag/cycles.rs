//! Cycles: which vertices form them (Terraform `Cycles()` plus self-loops), in a deterministic
//! order, and one concrete loop through a vertex for explaining a cycle edge by edge.
//!
//! Terraform lists a cycle as a whole strongly connected component in Tarjan pop order, which
//! depends on Go map iteration; since 1.16 (commit 4c4adca78b) it reverses that list and rotates
//! it to start at the shortest name. Reversed pop order is DFS discovery order within the
//! component, so [`Graph::cycles`] computes exactly that, deterministically: a DFS restricted to
//! the component, entered at its shortest name (byte-wise smallest among equals, then lowest
//! id), following dependencies in byte-wise name order. The result is always one of the lists
//! Terraform itself can print, and the same on every run.

use super::{Graph, NodeId};
use std::collections::{HashMap, VecDeque};

/// Why a vertex order or a reduction was refused: the graph is not acyclic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cyclic {
    /// Every strongly connected component of two or more vertices, as [`Graph::cycles`].
    pub cycles: Vec<Vec<NodeId>>,
    /// Every vertex with an edge to itself, as [`Graph::self_loops`].
    pub self_loops: Vec<NodeId>,
}

impl<N, E> Graph<N, E> {
    /// The strongly connected components of two or more vertices (Terraform `Cycles()`, which
    /// leaves self-loops to [`Graph::self_loops`]).
    ///
    /// # Returns
    /// One list per component, in reference order: each vertex depends (directly or through the
    /// rest of the component) on the next, and the list starts at the shortest name. This is
    /// Terraform 1.16's cycle text order; see the module docs for how it is made deterministic.
    /// The components are sorted by their name lists.
    ///
    /// # Complexity
    /// O(V + E) for Tarjan, plus O(k log k) name sorting for the k edges inside components.
    pub fn cycles(&self) -> Vec<Vec<NodeId>> {
        let mut comp = vec![u32::MAX; self.node_bound()];
        let mut sccs: Vec<Vec<NodeId>> = Vec::new();
        self.tarjan(|scc| {
            if scc.len() > 1 {
                for v in scc {
                    comp[v.index()] = sccs.len() as u32;
                }
                sccs.push(scc.to_vec());
            }
        });
        let mut cycles: Vec<Vec<NodeId>> =
            sccs.iter().enumerate().map(|(i, scc)| self.reference_order(scc, &comp, i as u32)).collect();
        crate::util::sort::sort_by(&mut cycles, |a, b| {
            let names = |c: &Vec<NodeId>| c.iter().map(|&v| self.name(v)).collect::<Vec<_>>();
            names(a).cmp(&names(b)).then_with(|| a.cmp(b))
        });
        cycles
    }

    /// Vertices with an edge to themselves, sorted by name (then id). Terraform reports each as
    /// `Self reference: <name>`. O(V).
    pub fn self_loops(&self) -> Vec<NodeId> {
        let mut loops: Vec<NodeId> = self.node_ids().filter(|&v| self.has_edge(v, v)).collect();
        crate::util::sort::sort_by(&mut loops, |&a, &b| self.name(a).cmp(self.name(b)).then(a.cmp(&b)));
        loops
    }

    /// Whether the graph has any cycle, self-loops included. O(V + E).
    pub fn is_cyclic(&self) -> bool {
        self.topo_order_fast().is_none()
    }

    /// The [`Cyclic`] report for this graph (empty lists if it is acyclic).
    pub fn cyclic(&self) -> Cyclic {
        Cyclic { cycles: self.cycles(), self_loops: self.self_loops() }
    }

    /// One shortest simple loop through `start`, for explaining a cycle step by step with each
    /// edge's payload.
    ///
    /// # Returns
    /// `Some([start, v1, …, vk])` where `start -> v1 -> … -> vk -> start` are edges and no
    /// shorter loop through `start` exists; `Some([start])` for a self-loop; `None` if `start`
    /// is on no cycle. Among equally short loops the one found by a breadth-first search that
    /// follows dependencies in byte-wise name order (then id) wins, so the answer is stable.
    ///
    /// # Complexity
    /// O(V + E log d) in the worst case (d = largest out-degree), stopping as soon as the
    /// search comes back to `start`.
    pub fn shortest_cycle_through(&self, start: NodeId) -> Option<Vec<NodeId>> {
        if self.has_edge(start, start) {
            return Some(vec![start]);
        }
        let mut parent: HashMap<NodeId, NodeId> = HashMap::new();
        let mut queue = VecDeque::from([start]);
        while let Some(v) = queue.pop_front() {
            for w in self.deps_by_name(v) {
                if w == start {
                    // Walk the BFS tree back from `v`; only `start` has no parent.
                    let mut path = vec![v];
                    while let Some(&p) = parent.get(path.last().expect("non-empty")) {
                        path.push(p);
                    }
                    path.reverse();
                    return Some(path);
                }
                if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(w) {
                    e.insert(v);
                    queue.push_back(w);
                }
            }
        }
        None
    }

    /// `v`'s dependencies sorted by byte-wise name, then id.
    pub(crate) fn deps_by_name(&self, v: NodeId) -> Vec<NodeId> {
        let mut deps: Vec<NodeId> = self.edges_from(v).collect();
        crate::util::sort::sort_by(&mut deps, |&a, &b| self.name(a).cmp(self.name(b)).then(a.cmp(&b)));
        deps
    }

    /// DFS discovery order of one component, entered at its shortest name.
    fn reference_order(&self, scc: &[NodeId], comp: &[u32], c: u32) -> Vec<NodeId> {
        let key = |v: NodeId| (self.name(v).len(), self.name(v), v);
        let start = *scc.iter().min_by_key(|&&v| key(v)).expect("component is non-empty");
        let mut seen: std::collections::HashSet<NodeId> = std::collections::HashSet::from([start]);
        let mut order = vec![start];
        let in_comp = |v: NodeId| comp[v.index()] == c;
        let mut calls: Vec<(Vec<NodeId>, usize)> = vec![(self.deps_by_name(start), 0)];
        while let Some((deps, pos)) = calls.last_mut() {
            let Some(&w) = deps.get(*pos) else {
                calls.pop();
                continue;
            };
            *pos += 1;
            if in_comp(w) && seen.insert(w) {
                order.push(w);
                calls.push((self.deps_by_name(w), 0));
            }
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use crate::dag::{Graph, NodeId};

    fn names(g: &Graph<(), ()>, ids: &[NodeId]) -> Vec<String> {
        ids.iter().map(|&i| g.name(i).to_string()).collect()
    }

    #[test]
    fn cycles_start_at_the_shortest_name_in_reference_order() {
        let mut g: Graph<(), ()> = Graph::new();
        let [long, b, cc] = ["aaaa", "b", "cc"].map(|n| g.add(n, ()));
        g.connect(long, cc, ());
        g.connect(cc, b, ());
        g.connect(b, long, ());
        let other = g.add("x", ());
        g.connect(other, other, ());
        let c = g.cycles();
        assert_eq!(c.len(), 1);
        assert_eq!(names(&g, &c[0]), ["b", "aaaa", "cc"]);
        assert_eq!(g.self_loops(), vec![other]);
        assert!(g.is_cyclic());
    }

    #[test]
    fn complex_component_follows_names() {
        // a -> {c, b}, b -> a, c -> a: DFS from a visits b before c.
        let mut g: Graph<(), ()> = Graph::new();
        let [a, b, c] = ["a", "b", "c"].map(|n| g.add(n, ()));
        g.connect(a, c, ());
        g.connect(a, b, ());
        g.connect(b, a, ());
        g.connect(c, a, ());
        assert_eq!(names(&g, &g.cycles()[0]), ["a", "b", "c"]);
    }

    #[test]
    fn shortest_cycle_prefers_short_then_names() {
        let mut g: Graph<(), ()> = Graph::new();
        let [s, a, b, c] = ["s", "a", "b", "c"].map(|n| g.add(n, ()));
        g.connect(s, b, ());
        g.connect(s, a, ());
        g.connect(a, c, ());
        g.connect(c, s, ());
        g.connect(b, s, ());
        assert_eq!(g.shortest_cycle_through(s), Some(vec![s, b]));
        g.remove_edge(b, s);
        assert_eq!(g.shortest_cycle_through(s), Some(vec![s, a, c]));
        assert_eq!(g.shortest_cycle_through(a), Some(vec![a, c, s]));
        g.remove_edge(c, s);
        assert_eq!(g.shortest_cycle_through(s), None);
        g.connect(s, s, ());
        assert_eq!(g.shortest_cycle_through(s), Some(vec![s]));
    }
}
