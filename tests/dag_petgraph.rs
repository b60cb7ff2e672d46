#![cfg(not(target_arch = "wasm32"))]
//! Differential tests of `tfgraph::dag` against petgraph, a widely used, independent
//! implementation of the same textbook results: strongly connected components (Tarjan),
//! cycle detection, reachability, topological order and transitive reduction (Habib, Morvan
//! and Rampon's reduction-closure). `tests/dag_props.rs` checks the same algorithms against
//! naive definitions on small graphs; petgraph's are fast enough for graphs ten times larger.
//!
//! Why petgraph is not what the engine itself uses: `src/dag/graph.rs`.

use petgraph::algo::tred::{dag_to_toposorted_adjacency_list, dag_transitive_reduction_closure};
use petgraph::graph::{DiGraph, IndexType, NodeIndex};
use petgraph::visit::{Dfs, IntoNeighbors, Walker};
use proptest::prelude::*;
use std::collections::BTreeSet;
use tfgraph::dag::{Graph, NodeId, DEFAULT_REDUCTION_BUDGET};

/// A random digraph, self-loops and repeated pairs included; with `acyclic`, every edge goes
/// from a lower to a higher position of a random permutation, so it is a DAG whose
/// topological order has nothing to do with insertion order.
fn digraph(acyclic: bool) -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (1usize..300).prop_flat_map(move |n| {
        let perm = Just((0..n).collect::<Vec<_>>()).prop_shuffle();
        let pairs = proptest::collection::vec((0..n, 0..n), 0..(n * 3));
        (Just(n), perm, pairs).prop_map(move |(n, perm, pairs)| {
            let edges = pairs
                .into_iter()
                .filter(|(a, b)| !acyclic || a != b)
                .map(|(a, b)| if !acyclic || a < b { (perm[a], perm[b]) } else { (perm[b], perm[a]) })
                .collect();
            (n, edges)
        })
    })
}

/// The same graph twice: ours (`v<i>` named vertices) and petgraph's, with equal indices.
fn both(n: usize, edges: &[(usize, usize)]) -> (Graph<(), ()>, Vec<NodeId>, DiGraph<(), ()>) {
    let mut ours = Graph::new();
    let ids: Vec<NodeId> = (0..n).map(|i| ours.add(format!("v{i}"), ())).collect();
    let mut theirs = DiGraph::<(), ()>::new();
    for _ in 0..n {
        theirs.add_node(());
    }
    let mut seen = BTreeSet::new();
    for &(a, b) in edges {
        ours.connect(ids[a], ids[b], ());
        // Our graph keeps one edge per ordered pair; so must petgraph's for reduction.
        if seen.insert((a, b)) {
            theirs.add_edge(NodeIndex::new(a), NodeIndex::new(b), ());
        }
    }
    (ours, ids, theirs)
}

fn index_sets(sets: impl IntoIterator<Item = Vec<usize>>) -> BTreeSet<BTreeSet<usize>> {
    sets.into_iter().map(|s| s.into_iter().collect()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn components_and_cycles_match_tarjan((n, edges) in digraph(false)) {
        let (ours, _, theirs) = both(n, &edges);
        let sccs = petgraph::algo::tarjan_scc(&theirs);
        prop_assert_eq!(
            index_sets(ours.strongly_connected().into_iter().map(|c| c.iter().map(|v| v.index()).collect())),
            index_sets(sccs.iter().map(|c| c.iter().map(|v| v.index()).collect()))
        );
        prop_assert_eq!(ours.is_cyclic(), petgraph::algo::is_cyclic_directed(&theirs));
        // `cycles()` is Terraform's: the components of two or more vertices (self-loops are
        // reported apart, by `self_loops()`).
        let multi = sccs.iter().filter(|c| c.len() > 1).map(|c| c.iter().map(|v| v.index()).collect());
        prop_assert_eq!(
            index_sets(ours.cycles().into_iter().map(|c| c.iter().map(|v| v.index()).collect())),
            index_sets(multi)
        );
        let loops: BTreeSet<usize> = theirs.node_indices().filter(|&v| theirs.contains_edge(v, v)).map(|v| v.index()).collect();
        prop_assert_eq!(ours.self_loops().iter().map(|v| v.index()).collect::<BTreeSet<_>>(), loops);
    }

    #[test]
    fn ancestors_match_dfs((n, edges) in digraph(false), start in 0usize..300) {
        let (ours, ids, theirs) = both(n, &edges);
        let start = start % n;
        // Ancestors follow edges from the start (what it depends on), as Terraform's do.
        // petgraph's Dfs yields the start itself; ours lists what is reached in one or more steps.
        let mut want: BTreeSet<usize> = Dfs::new(&theirs, NodeIndex::new(start)).iter(&theirs).map(|v| v.index()).skip(1).collect();
        if theirs.neighbors(NodeIndex::new(start)).any(|w| petgraph::algo::has_path_connecting(&theirs, w, NodeIndex::new(start), None)) {
            want.insert(start);
        }
        let got: BTreeSet<usize> = ours.ancestors(&[ids[start]]).iter().map(|v| v.index()).collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn reduction_matches_reduction_closure((n, edges) in digraph(true)) {
        let (mut ours, _, theirs) = both(n, &edges);
        let order = petgraph::algo::toposort(&theirs, None).expect("a DAG");
        let (list, _) = dag_to_toposorted_adjacency_list::<_, u32>(&theirs, &order);
        let (reduced, _closure) = dag_transitive_reduction_closure(&list);
        let mut kept = BTreeSet::new();
        for i in reduced.node_indices() {
            for j in reduced.neighbors(i) {
                kept.insert((order[i.index()].index(), order[j.index()].index()));
            }
        }
        let all: BTreeSet<(usize, usize)> = theirs.edge_indices().map(|e| {
            let (a, b) = theirs.edge_endpoints(e).unwrap();
            (a.index(), b.index())
        }).collect();
        let want_removed: BTreeSet<(usize, usize)> = all.difference(&kept).copied().collect();
        let removed: BTreeSet<(usize, usize)> = ours
            .redundant_edges(DEFAULT_REDUCTION_BUDGET)
            .unwrap()
            .into_iter()
            .map(|(a, b)| (a.index(), b.index()))
            .collect();
        prop_assert_eq!(&removed, &want_removed);
        ours.transitive_reduction_with_budget(64).unwrap();
        let left: BTreeSet<(usize, usize)> = ours.edges().map(|(a, b, _)| (a.index(), b.index())).collect();
        prop_assert_eq!(left, kept);
        // Our topological order is a valid one by petgraph's account too.
        let ours_order = ours.topological_order().unwrap();
        let mut pos = vec![0; n];
        for (i, v) in ours_order.iter().enumerate() {
            pos[v.index()] = i;
        }
        for &(a, b) in &all {
            // Terraform's order: an edge's source (the dependent) before its target.
            prop_assert!(pos[a] < pos[b]);
        }
    }
}
