//! Topological orders (Kahn's algorithm), deterministic by vertex name.
//!
//! Terraform's `TopologicalOrder`/`ReverseTopologicalOrder` (`dag.go`, v1.3+) are recursive DFS
//! sorts that follow Go map order, so "any valid order may be returned", and they panic on a
//! cycle. These are iterative, return the *smallest-name-first* valid order (ties by id), and
//! report a cycle as an error instead of panicking.

use super::{Cyclic, Graph, NodeId};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

impl<N, E> Graph<N, E> {
    /// Each vertex's position in byte-wise name order (ties by id), indexed by
    /// [`NodeId::index`]; removed slots hold `u32::MAX`.
    ///
    /// # Complexity
    /// O(V log V) string comparisons. Algorithms that need "by name" tie-breaking compute this
    /// once and then compare integers.
    pub fn name_ranks(&self) -> Vec<u32> {
        let mut ids: Vec<NodeId> = self.node_ids().collect();
        crate::util::sort::sort_by(&mut ids, |&a, &b| self.name(a).cmp(self.name(b)).then(a.cmp(&b)));
        let mut rank = vec![u32::MAX; self.node_bound()];
        for (r, id) in ids.into_iter().enumerate() {
            rank[id.index()] = r as u32;
        }
        rank
    }

    /// A topological order with every vertex before the vertices it depends on (sources before
    /// the targets of their edges), as Terraform's `TopologicalOrder`.
    ///
    /// # Returns
    /// `Ok(order)`; among the vertices ready at each step the one with the smallest name (then
    /// id) comes first, so the order does not depend on insertion order.
    /// `Err(Cyclic)` if the graph has a cycle or a self-loop.
    ///
    /// # Complexity
    /// O(V log V + E).
    pub fn topological_order(&self) -> Result<Vec<NodeId>, Cyclic> {
        self.kahn_by_name(false)
    }

    /// A topological order with every vertex after everything it depends on: the order a walk
    /// may visit vertices in (Terraform's `ReverseTopologicalOrder`). Same tie-breaking, errors
    /// and complexity as [`Graph::topological_order`].
    pub fn reverse_topological_order(&self) -> Result<Vec<NodeId>, Cyclic> {
        self.kahn_by_name(true)
    }

    fn kahn_by_name(&self, dependencies_first: bool) -> Result<Vec<NodeId>, Cyclic> {
        let rank = self.name_ranks();
        let mut by_rank = vec![NodeId::from_index(0); self.node_count()];
        for id in self.node_ids() {
            by_rank[rank[id.index()] as usize] = id;
        }
        let blockers = |id| {
            if dependencies_first {
                self.out_degree(id)
            } else {
                self.in_degree(id)
            }
        };
        let mut waiting: Vec<usize> = vec![0; self.node_bound()];
        let mut ready = BinaryHeap::new();
        for id in self.node_ids() {
            waiting[id.index()] = blockers(id);
            if waiting[id.index()] == 0 {
                ready.push(Reverse(rank[id.index()]));
            }
        }
        let mut order = Vec::with_capacity(self.node_count());
        while let Some(Reverse(r)) = ready.pop() {
            let id = by_rank[r as usize];
            order.push(id);
            let mut release = |next: NodeId| {
                waiting[next.index()] -= 1;
                if waiting[next.index()] == 0 {
                    ready.push(Reverse(rank[next.index()]));
                }
            };
            if dependencies_first {
                self.edges_to(id).for_each(&mut release);
            } else {
                self.edges_from(id).for_each(&mut release);
            }
        }
        if order.len() == self.node_count() {
            Ok(order)
        } else {
            Err(self.cyclic())
        }
    }

    /// Sources-first topological order in id order (FIFO Kahn), or `None` on a cycle. The fast
    /// internal variant for algorithms that do not expose the order.
    pub(crate) fn topo_order_fast(&self) -> Option<Vec<NodeId>> {
        let mut waiting: Vec<u32> = vec![0; self.node_bound()];
        let mut order = Vec::with_capacity(self.node_count());
        for id in self.node_ids() {
            waiting[id.index()] = self.in_degree(id) as u32;
            if waiting[id.index()] == 0 {
                order.push(id);
            }
        }
        let mut head = 0;
        while head < order.len() {
            let id = order[head];
            head += 1;
            for t in self.edges_from(id) {
                waiting[t.index()] -= 1;
                if waiting[t.index()] == 0 {
                    order.push(t);
                }
            }
        }
        (order.len() == self.node_count()).then_some(order)
    }
}

#[cfg(test)]
mod tests {
    use crate::dag::Graph;

    fn names(g: &Graph<(), ()>, ids: &[crate::dag::NodeId]) -> Vec<String> {
        ids.iter().map(|&i| g.name(i).to_string()).collect()
    }

    #[test]
    fn orders_are_smallest_name_first() {
        let mut g: Graph<(), ()> = Graph::new();
        let [c, a, b, d] = ["c", "a", "b", "d"].map(|n| g.add(n, ()));
        g.connect(c, d, ());
        g.connect(a, d, ());
        g.connect(b, c, ());
        assert_eq!(names(&g, &g.topological_order().unwrap()), ["a", "b", "c", "d"]);
        assert_eq!(names(&g, &g.reverse_topological_order().unwrap()), ["d", "a", "c", "b"]);
        let fast = g.topo_order_fast().unwrap();
        assert_eq!(names(&g, &fast), ["a", "b", "c", "d"]);
    }

    #[test]
    fn cycle_is_an_error() {
        let mut g: Graph<(), ()> = Graph::new();
        let [a, b, c] = ["a", "b", "c"].map(|n| g.add(n, ()));
        g.connect(a, b, ());
        g.connect(b, a, ());
        g.connect(c, c, ());
        let err = g.reverse_topological_order().unwrap_err();
        assert_eq!(err.cycles.len(), 1);
        assert_eq!(err.self_loops, vec![c]);
        assert!(g.topo_order_fast().is_none());
    }

    #[test]
    fn name_ranks_break_ties_by_id() {
        let mut g: Graph<(), ()> = Graph::new();
        let [x1, a, x2] = ["x", "a", "x"].map(|n| g.add(n, ()));
        let r = g.name_ranks();
        assert_eq!((r[a.index()], r[x1.index()], r[x2.index()]), (0, 1, 2));
    }
}
