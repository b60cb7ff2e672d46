//! Transitive reduction with Terraform's result, fast and in bounded memory.
//!
//! Terraform (`AcyclicGraph.TransitiveReduction`, `dag.go`) runs a DFS from every vertex:
//! O(V(V+E)), minutes at 100,000 vertices. The result is the unique transitive reduction of a
//! DAG: the edge `u -> x` goes exactly when `x` is also reachable from another dependency of
//! `u`. That definition is what this module computes, differently:
//!
//! 1. Order the vertices topologically (Kahn) and renumber them by position, in a compact
//!    adjacency. A cycle or self-loop refuses the reduction and reports it ([`Cyclic`]), as
//!    Terraform's `TransitiveReductionTransformer` skips reduction on an invalid graph (silently,
//!    there).
//! 2. Triangles: `u -> x` is redundant if another dependency `w` of `u` has `w -> x`. A sorted
//!    intersection per edge; on Terraform-shaped graphs this finds most redundant edges
//!    (`root -> everything`, `(close) -> consumers`, `resource -> provider`). Removing them keeps
//!    reachability, so step 3 runs on the smaller graph and finds exactly the rest.
//! 3. Chunked reachability rows. Only edges `u -> x` where `u` has two or more dependencies and
//!    `x` two or more dependents can still be redundant; such an `x` is a *column*. Columns are
//!    processed in chunks of `64·W`, contiguous in topological order. For a chunk, the vertices
//!    that reach one of its columns (a reverse search) get a `W`-word row, filled dependencies
//!    first as the OR of their dependencies' rows; before a vertex adds its own dependency bits,
//!    a set bit for a dependency `x` means `x` is reachable through another dependency: the edge
//!    is redundant. A row covering the whole chunk is kept as a flag, so the many vertices far
//!    upstream of a chunk cost O(degree) instead of O(degree·W).
//!
//! Full V×V reachability bitsets would take 1.25 GB at 100,000 vertices; here rows exist for one
//! chunk at a time, only for vertices that reach it, and `W` keeps them under a byte budget
//! (32 MiB by default): memory is O(V + E) plus the budget. Time is O(E^1.5) for triangles plus,
//! worst case, O(chunks·(V + E) + V·E/64) for rows. Measured natively on Terraform-shaped graphs
//! (`examples/dag_bench.rs`, numbers in `bench/dag.md`): about 0.05 s for 10,000 resources and
//! 0.5 s for 100,000 natively, 0.12 s and 0.7 s as wasm in Node.

use super::reduce_bits::{chunked_rows, triangles, Csr};
use super::{Cyclic, Graph, NodeId};

/// Default upper bound on the bytes of reachability rows held at once.
pub const DEFAULT_REDUCTION_BUDGET: usize = 32 << 20;

/// An edge that transitive reduction removed, with its payload (so the graph layer can still say
/// why the dependency existed and that it is implied by others).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemovedEdge<E> {
    pub from: NodeId,
    pub to: NodeId,
    pub payload: E,
}

impl<N, E> Graph<N, E> {
    /// Removes every edge implied by others: the transitive reduction, Terraform's
    /// `TransitiveReduction` result.
    ///
    /// # Returns
    /// `Ok(removed)`, the removed edges with their payloads sorted by `(from, to)` id, or
    /// `Err(Cyclic)` with the graph untouched if it has a cycle or self-loop.
    ///
    /// # Complexity
    /// See the module docs: O(V·E/64) worst case, memory O(V + E) plus
    /// [`DEFAULT_REDUCTION_BUDGET`].
    ///
    /// # Example
    /// ```
    /// use tfgraph::dag::Graph;
    /// let mut g: Graph<(), &str> = Graph::new();
    /// let [a, b, c] = ["1", "2", "3"].map(|n| g.add(n, ()));
    /// g.connect(a, b, "a needs b");
    /// g.connect(a, c, "a needs c");
    /// g.connect(b, c, "b needs c");
    /// let removed = g.transitive_reduction().unwrap();
    /// assert_eq!(removed[0].payload, "a needs c");
    /// assert_eq!(g.to_string(), "1\n  2\n2\n  3\n3\n");
    /// ```
    pub fn transitive_reduction(&mut self) -> Result<Vec<RemovedEdge<E>>, Cyclic> {
        self.transitive_reduction_with_budget(DEFAULT_REDUCTION_BUDGET)
    }

    /// [`Graph::transitive_reduction`] with an explicit row budget in bytes (at least one
    /// 64-column word per row is always used, whatever the budget).
    pub fn transitive_reduction_with_budget(&mut self, budget_bytes: usize) -> Result<Vec<RemovedEdge<E>>, Cyclic> {
        let redundant = self.redundant_edges(budget_bytes)?;
        Ok(redundant
            .into_iter()
            .map(|(from, to)| {
                let payload = self.remove_edge(from, to).expect("redundant edge exists");
                RemovedEdge { from, to, payload }
            })
            .collect())
    }

    /// The edges [`Graph::transitive_reduction`] would remove, sorted by `(from, to)`, without
    /// removing them.
    pub fn redundant_edges(&self, budget_bytes: usize) -> Result<Vec<(NodeId, NodeId)>, Cyclic> {
        let order = self.topo_order_fast().ok_or_else(|| self.cyclic())?;
        let mut pos = vec![0u32; self.node_bound()];
        for (i, v) in order.iter().enumerate() {
            pos[v.index()] = i as u32;
        }
        let f = Csr::from_rows(order.len(), |p, row| row.extend(self.edges_from(order[p]).map(|t| pos[t.index()])));
        let mut dead = vec![false; f.tgt.len()];
        triangles(&f, &mut dead);

        let mut redundant: Vec<(NodeId, NodeId)> = Vec::new();
        let rest = Csr::from_rows(f.len(), |p, row| {
            let base = f.off[p] as usize;
            for (i, &x) in f.row(p).iter().enumerate() {
                if dead[base + i] {
                    redundant.push((order[p], order[x as usize]));
                } else {
                    row.push(x);
                }
            }
        });
        drop(f);
        let preds = rest.reversed();
        for (u, x) in chunked_rows(&rest, &preds, budget_bytes) {
            redundant.push((order[u as usize], order[x as usize]));
        }
        redundant.sort_unstable();
        Ok(redundant)
    }
}

#[cfg(test)]
mod tests {
    use crate::dag::Graph;

    fn numbered(n: usize, edges: &[(usize, usize)]) -> Graph<(), ()> {
        let mut g = Graph::new();
        let ids: Vec<_> = (1..=n).map(|i| g.add(i.to_string(), ())).collect();
        for &(a, b) in edges {
            g.connect(ids[a - 1], ids[b - 1], ());
        }
        g
    }

    /// `dag_test.go`: `TestAyclicGraphTransReduction`, `_more`, `_multipleRoots`.
    #[test]
    fn terraform_reduction_cases() {
        type Case<'a> = (usize, &'a [(usize, usize)], &'a str);
        let cases: &[Case] = &[
            (3, &[(1, 2), (1, 3), (2, 3)], "1\n  2\n2\n  3\n3\n"),
            (4, &[(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)], "1\n  2\n2\n  3\n3\n  4\n4\n"),
            (
                8,
                &[(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4), (5, 6), (5, 7), (5, 8), (6, 7), (6, 8), (7, 8)],
                "1\n  2\n2\n  3\n3\n  4\n4\n5\n  6\n6\n  7\n7\n  8\n8\n",
            ),
        ];
        for &(n, edges, want) in cases {
            for budget in [0, 1 << 20] {
                let mut g = numbered(n, edges);
                g.transitive_reduction_with_budget(budget).unwrap();
                assert_eq!(g.to_string(), want, "edges {edges:?}, budget {budget}");
            }
        }
    }

    /// `TestAyclicGraphTransReduction_fullyConnected`'s shape (every i -> j, i < j; Terraform
    /// also adds j -> i, which makes it cyclic here): 200 vertices reduce to a chain, and with
    /// a zero budget the 198 columns span four chunks.
    #[test]
    fn fully_connected_reduces_to_chain() {
        let n = 200;
        let edges: Vec<(usize, usize)> = (1..=n).flat_map(|i| (i + 1..=n).map(move |j| (i, j))).collect();
        let mut g = numbered(n, &edges);
        let removed = g.transitive_reduction_with_budget(0).unwrap();
        assert_eq!(removed.len(), edges.len() - (n - 1));
        assert_eq!(g.edge_count(), n - 1);
        for i in 1..n {
            let (a, b) = (g.find(&i.to_string()).unwrap(), g.find(&(i + 1).to_string()).unwrap());
            assert!(g.has_edge(a, b));
        }
    }

    #[test]
    fn cycle_refuses_and_leaves_graph_alone() {
        let mut g = numbered(3, &[(1, 2), (2, 1), (1, 3), (2, 3)]);
        let err = g.transitive_reduction().unwrap_err();
        assert_eq!(err.cycles.len(), 1);
        assert_eq!(g.edge_count(), 4);
        let mut g = numbered(2, &[(1, 1), (1, 2)]);
        assert_eq!(g.transitive_reduction().unwrap_err().self_loops.len(), 1);
    }
}
