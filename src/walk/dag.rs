//! The walker's graph: nodes are indices `0..n`, edges say "`from` depends on `to`".
//!
//! [`Dag`] knows nothing about names or payloads, so any graph can be walked: the JS API's
//! `{ nodes, edges }` object, tfgraph's Terraform graphs, or a subgraph made by an expansion.
//! It is stored as compressed rows (one offset array and one flat list of dependents), which
//! is what a Kahn-style scheduler reads: "how many dependencies does v wait for" and "whom do
//! I release when v finishes". Construction checks the graph is acyclic; everything here is
//! iterative, so a chain of a million nodes needs no deep stack.

use std::collections::HashMap;
use std::hash::Hash;

use super::diagnostics;
use crate::diag::Diagnostics;

/// A validated acyclic graph over node indices `0..len()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dag {
    /// How many dependencies (edges out of v, counting duplicates) each node waits for.
    dependency_counts: Vec<u32>,
    /// `dependents[dependents_start[v]..dependents_start[v + 1]]` are the nodes depending on v.
    dependents_start: Vec<u32>,
    dependents: Vec<u32>,
}

/// Why [`Dag::new`] rejected a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DagError {
    /// Edge number `edge` names `node`, which is not below the node count.
    UnknownNode { edge: usize, node: u32 },
    /// The graph has cycles: each entry is one strongly connected component (or a node
    /// depending on itself), in the order [`Dag::new`] documents.
    Cycles(Vec<Vec<u32>>),
}

impl Dag {
    /// Builds and validates a graph of `node_count` nodes where each edge `(from, to)` means
    /// `from` depends on `to` (so `to` is walked first). Duplicate edges are harmless.
    ///
    /// # Returns
    /// The graph, or [`DagError::UnknownNode`] for the first out-of-range edge, or
    /// [`DagError::Cycles`] listing every cycle. Each cycle lists its component's nodes in
    /// dependency order (for `a -> b -> c -> a`: a, b, c), the reverse of Tarjan's pop order
    /// when nodes are searched in index order; [`dag_from_names`] then rotates each to start
    /// at its shortest name, as Terraform 1.16 does.
    ///
    /// # Complexity
    /// O(V + E) time and memory; no recursion.
    ///
    /// # Example
    /// ```
    /// use tfgraph::walk::Dag;
    /// let dag = Dag::new(3, &[(0, 1), (1, 2)]).unwrap();
    /// assert_eq!(dag.dependents(2), &[1]);
    /// assert_eq!(dag.dependency_count(0), 1);
    /// ```
    pub fn new(node_count: usize, edges: &[(u32, u32)]) -> Result<Dag, DagError> {
        assert!(node_count < u32::MAX as usize, "a walk graph holds fewer than 2^32 - 1 nodes");
        let n = node_count;
        let mut dependency_counts = vec![0u32; n];
        let mut dependents_start = vec![0u32; n + 1];
        for (i, &(from, to)) in edges.iter().enumerate() {
            for node in [from, to] {
                if node as usize >= n {
                    return Err(DagError::UnknownNode { edge: i, node });
                }
            }
            dependency_counts[from as usize] += 1;
            dependents_start[to as usize + 1] += 1;
        }
        for v in 0..n {
            dependents_start[v + 1] += dependents_start[v];
        }
        let mut fill = dependents_start.clone();
        let mut dependents = vec![0u32; edges.len()];
        for &(from, to) in edges {
            dependents[fill[to as usize] as usize] = from;
            fill[to as usize] += 1;
        }
        let dag = Dag { dependency_counts, dependents_start, dependents };

        // Kahn's algorithm: if some node never becomes free, it is on or behind a cycle.
        let mut waiting = dag.dependency_counts.clone();
        let mut free: Vec<u32> = (0..n as u32).filter(|&v| waiting[v as usize] == 0).collect();
        let mut freed = 0;
        while let Some(v) = free.pop() {
            freed += 1;
            for &d in dag.dependents(v) {
                waiting[d as usize] -= 1;
                if waiting[d as usize] == 0 {
                    free.push(d);
                }
            }
        }
        if freed < n {
            let stuck: Vec<bool> = waiting.iter().map(|&w| w > 0).collect();
            return Err(DagError::Cycles(cycles(n, edges, &stuck)));
        }
        Ok(dag)
    }

    /// A graph of `node_count` nodes with no edges.
    pub fn without_edges(node_count: usize) -> Dag {
        Dag::new(node_count, &[]).expect("a graph without edges is acyclic")
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.dependency_counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dependency_counts.is_empty()
    }

    /// How many edges leave `node`, i.e. how many finishes it waits for.
    pub fn dependency_count(&self, node: u32) -> u32 {
        self.dependency_counts[node as usize]
    }

    /// The nodes that depend on `node` (one entry per edge).
    pub fn dependents(&self, node: u32) -> &[u32] {
        let v = node as usize;
        &self.dependents[self.dependents_start[v] as usize..self.dependents_start[v + 1] as usize]
    }
}

/// The cycles among the `stuck` nodes: strongly connected components of size > 1 (the crate's
/// one Tarjan, [`crate::dag`]), plus self-loops, each in reverse pop order.
fn cycles(n: usize, edges: &[(u32, u32)], stuck: &[bool]) -> Vec<Vec<u32>> {
    // Forward adjacency (dependencies) restricted to stuck nodes, in edge order.
    let mut start = vec![0usize; n + 1];
    for &(from, to) in edges {
        if stuck[from as usize] && stuck[to as usize] {
            start[from as usize + 1] += 1;
        }
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut targets = vec![0u32; start[n]];
    let mut self_loop = vec![false; n];
    for &(from, to) in edges {
        if stuck[from as usize] && stuck[to as usize] {
            targets[fill[from as usize]] = to;
            fill[from as usize] += 1;
            self_loop[from as usize] |= from == to;
        }
    }

    let mut out = Vec::new();
    crate::dag::tarjan_with(
        n,
        (0..n as u32).filter(|&v| stuck[v as usize]),
        |v| v as usize,
        |v, pos| {
            let at = start[v as usize] + pos;
            (at < start[v as usize + 1]).then(|| targets[at])
        },
        |scc| {
            // `scc` is in pop order, its root last.
            if scc.len() > 1 || self_loop[scc[scc.len() - 1] as usize] {
                out.push(scc.iter().rev().copied().collect());
            }
        },
    );
    out
}

/// Builds a [`Dag`] from node names and `(from, to)` name pairs, reporting bad input as
/// Terraform-worded diagnostics: duplicate names, edges naming unknown nodes, and cycles.
///
/// Each cycle is rotated to start at its shortest name (lexical tie-break), so the same
/// graph always gives the same message.
pub fn dag_from_names<S: AsRef<str> + Eq + Hash>(nodes: &[S], edges: &[(S, S)]) -> Result<Dag, Diagnostics> {
    let mut index: HashMap<&str, u32> = HashMap::with_capacity(nodes.len());
    let mut diags = Diagnostics::new();
    for (i, name) in nodes.iter().enumerate() {
        if index.insert(name.as_ref(), i as u32).is_some() {
            diags.push(diagnostics::duplicate_node(name.as_ref()));
        }
    }
    let mut pairs = Vec::with_capacity(edges.len());
    for (from, to) in edges {
        match (index.get(from.as_ref()), index.get(to.as_ref())) {
            (Some(&f), Some(&t)) => pairs.push((f, t)),
            (f, _) => {
                let unknown = if f.is_none() { from } else { to };
                diags.push(diagnostics::unknown_node(from.as_ref(), to.as_ref(), unknown.as_ref()));
            }
        }
    }
    if diags.has_errors() {
        return Err(diags);
    }
    Dag::new(nodes.len(), &pairs).map_err(|e| match e {
        DagError::UnknownNode { .. } => unreachable!("edges were resolved against the node list"),
        DagError::Cycles(found) => {
            diagnostics::cycles(found.iter().map(|cycle| cycle.iter().map(|&v| nodes[v as usize].as_ref()).collect()))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_list_dependents_per_edge() {
        let dag = Dag::new(4, &[(1, 0), (2, 0), (3, 1), (3, 2), (3, 2)]).unwrap();
        assert_eq!(dag.dependents(0), &[1, 2]);
        assert_eq!(dag.dependents(2), &[3, 3]);
        assert_eq!(dag.dependency_count(3), 3);
        assert_eq!(dag.dependency_count(0), 0);
    }

    #[test]
    fn unknown_and_cyclic_graphs_are_rejected() {
        assert_eq!(Dag::new(2, &[(0, 5)]), Err(DagError::UnknownNode { edge: 0, node: 5 }));
        // a -> b -> c -> a, plus d -> a outside the cycle, plus e -> e.
        let err = Dag::new(5, &[(0, 1), (1, 2), (2, 0), (3, 0), (4, 4)]).unwrap_err();
        assert_eq!(err, DagError::Cycles(vec![vec![0, 1, 2], vec![4]]));
    }

    #[test]
    fn named_cycles_start_at_the_shortest_name() {
        let nodes = ["local.bb", "local.a", "local.ccc"];
        let edges = [("local.bb", "local.ccc"), ("local.ccc", "local.a"), ("local.a", "local.bb")];
        let diags = dag_from_names(&nodes, &edges).unwrap_err();
        assert_eq!(diags.len(), 1);
        assert_eq!(diags.iter().next().unwrap().summary, "Cycle:\n  local.a\n  local.bb\n  local.ccc");
    }
}
