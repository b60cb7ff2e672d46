//! Transitive reduction with Terraform's result, in O(V·E/64) time and bounded memory.
//!
//! Terraform (`AcyclicGraph.TransitiveReduction`, `dag.go`) runs a DFS from every vertex:
//! O(V(V+E)), minutes at 100,000 vertices. The result is the unique transitive reduction of a
//! DAG: the edge `u -> x` goes exactly when `x` is also reachable from another dependency of
//! `u`. That definition is what this module computes, differently:
//!
//! 1. Order the vertices topologically (Kahn). A cycle or self-loop refuses the reduction and
//!    reports it ([`Cyclic`]), as Terraform's `TransitiveReductionTransformer` skips reduction
//!    on an invalid graph (silently, there).
//! 2. Only edges `u -> x` where `u` has two or more dependencies and `x` two or more dependents
//!    can be redundant; `x` is then a *column*. Chains, trees and fan-outs stop here for free.
//! 3. Columns are processed in chunks of `64·W` (chunks contiguous in topological order). For a
//!    chunk, the vertices that can reach one of its columns (a reverse search from the columns)
//!    get a `W`-word row: the columns reachable from them. Rows are filled dependencies first;
//!    a vertex's row is the OR of its dependencies' rows, and before its own dependency bits are
//!    added, a set bit for a dependency `x` means `x` is reachable through another dependency:
//!    the edge is redundant.
//!
//! Full V×V reachability bitsets would take 1.25 GB at 100,000 vertices; rows here exist only
//! for one chunk at a time and only for vertices that reach it, and `W` is chosen so rows stay
//! under a byte budget (32 MiB by default): memory is O(V + E) plus the budget. Time is
//! O(chunks · (V + E) + V·E/64) in the worst case and much less when few vertices reach a chunk.

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
        let bound = self.node_bound();
        let mut pos = vec![0u32; bound];
        for (i, v) in order.iter().enumerate() {
            pos[v.index()] = i as u32;
        }

        // Columns: dependencies of multi-dependency vertices that have several dependents.
        let mut is_col = vec![false; bound];
        let mut columns: Vec<NodeId> = Vec::new();
        for u in self.node_ids().filter(|&u| self.out_degree(u) >= 2) {
            for x in self.edges_from(u) {
                if self.in_degree(x) >= 2 && !is_col[x.index()] {
                    is_col[x.index()] = true;
                    columns.push(x);
                }
            }
        }
        drop(is_col);
        let mut redundant = Vec::new();
        if columns.is_empty() {
            return Ok(redundant);
        }
        columns.sort_unstable_by_key(|x| pos[x.index()]);

        let words = (budget_bytes / 8 / self.node_count().max(1)).clamp(1, columns.len().div_ceil(64));
        const NONE: u32 = u32::MAX;
        let mut col_bit = vec![NONE; bound];
        let mut row_of = vec![NONE; bound];
        let mut members: Vec<NodeId> = Vec::new();
        let mut rows: Vec<u64> = Vec::new();
        let mut nonzero: Vec<bool> = Vec::new();
        let mut acc = vec![0u64; words];

        for chunk in columns.chunks(words * 64) {
            // Everything that reaches a column of this chunk, by a reverse search.
            members.clear();
            for (bit, &x) in chunk.iter().enumerate() {
                col_bit[x.index()] = bit as u32;
                if row_of[x.index()] == NONE {
                    row_of[x.index()] = 0;
                    members.push(x);
                }
            }
            let mut head = 0;
            while head < members.len() {
                let v = members[head];
                head += 1;
                for s in self.edges_to(v) {
                    if row_of[s.index()] == NONE {
                        row_of[s.index()] = 0;
                        members.push(s);
                    }
                }
            }
            // Dependencies first, so each row is complete before its dependents read it.
            members.sort_unstable_by_key(|v| std::cmp::Reverse(pos[v.index()]));
            for (r, v) in members.iter().enumerate() {
                row_of[v.index()] = r as u32;
            }
            rows.clear();
            rows.resize(members.len() * words, 0);
            nonzero.clear();
            nonzero.resize(members.len(), false);

            for (r, &v) in members.iter().enumerate() {
                acc.fill(0);
                let mut any = false;
                for w in self.edges_from(v) {
                    let wr = row_of[w.index()];
                    if wr != NONE && nonzero[wr as usize] {
                        let src = &rows[wr as usize * words..(wr as usize + 1) * words];
                        acc.iter_mut().zip(src).for_each(|(a, s)| *a |= s);
                        any = true;
                    }
                }
                if any && self.out_degree(v) >= 2 {
                    for w in self.edges_from(v) {
                        let b = col_bit[w.index()];
                        if b != NONE && acc[b as usize / 64] & (1 << (b % 64)) != 0 {
                            redundant.push((v, w));
                        }
                    }
                }
                for w in self.edges_from(v) {
                    let b = col_bit[w.index()];
                    if b != NONE {
                        acc[b as usize / 64] |= 1 << (b % 64);
                        any = true;
                    }
                }
                if any {
                    rows[r * words..(r + 1) * words].copy_from_slice(&acc);
                    nonzero[r] = true;
                }
            }

            for v in &members {
                row_of[v.index()] = NONE;
            }
            for x in chunk {
                col_bit[x.index()] = NONE;
            }
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
        let cases: &[(usize, &[(usize, usize)], &str)] = &[
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
