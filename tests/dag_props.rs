#![cfg(not(target_arch = "wasm32"))]
//! Property tests: the fast algorithms against simple reference implementations on random
//! graphs, and invariants that must hold whatever the insertion order.

use proptest::prelude::*;
use std::collections::BTreeSet;
use tfgraph::dag::{Graph, NodeId, DEFAULT_REDUCTION_BUDGET};

/// A random DAG: `n` vertices named `v<i>`, edges `(a, b)` oriented by a random permutation so
/// the topological order is unrelated to insertion order.
fn dag() -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (1usize..40).prop_flat_map(|n| {
        let perm = Just((0..n).collect::<Vec<_>>()).prop_shuffle();
        let pairs = proptest::collection::vec((0..n, 0..n), 0..(n * 4));
        (Just(n), perm, pairs).prop_map(|(n, perm, pairs)| {
            let edges = pairs
                .into_iter()
                .filter(|(a, b)| a != b)
                .map(|(a, b)| if a < b { (perm[a], perm[b]) } else { (perm[b], perm[a]) })
                .collect();
            (n, edges)
        })
    })
}

/// Any random digraph, self-loops included.
fn digraph() -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (1usize..25).prop_flat_map(|n| (Just(n), proptest::collection::vec((0..n, 0..n), 0..(n * 3))))
}

fn build(n: usize, edges: &[(usize, usize)]) -> (Graph<(), ()>, Vec<NodeId>) {
    let mut g = Graph::new();
    let ids: Vec<NodeId> = (0..n).map(|i| g.add(format!("v{i}"), ())).collect();
    for &(a, b) in edges {
        g.connect(ids[a], ids[b], ());
    }
    (g, ids)
}

/// Vertices reachable from `v` in one or more steps, by plain DFS.
fn reachable(g: &Graph<(), ()>, v: NodeId) -> BTreeSet<NodeId> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<NodeId> = g.edges_from(v).collect();
    while let Some(w) = stack.pop() {
        if seen.insert(w) {
            stack.extend(g.edges_from(w));
        }
    }
    seen
}

/// The textbook transitive reduction: `u -> x` is redundant when `x` is reachable from another
/// dependency of `u`.
fn naive_redundant(g: &Graph<(), ()>) -> Vec<(NodeId, NodeId)> {
    let mut out: Vec<(NodeId, NodeId)> = g
        .edges()
        .filter(|&(u, x, _)| g.edges_from(u).any(|w| w != x && reachable(g, w).contains(&x)))
        .map(|(u, x, _)| (u, x))
        .collect();
    out.sort();
    out
}

fn names(g: &Graph<(), ()>, ids: &[NodeId]) -> Vec<String> {
    ids.iter().map(|&v| g.name(v).to_string()).collect()
}

/// The same graph with vertices and edges inserted in reverse order.
fn reversed_build(n: usize, edges: &[(usize, usize)]) -> Graph<(), ()> {
    let mut g = Graph::new();
    let mut ids = vec![NodeId::from_index(0); n];
    for i in (0..n).rev() {
        ids[i] = g.add(format!("v{i}"), ());
    }
    for &(a, b) in edges.iter().rev() {
        g.connect(ids[a], ids[b], ());
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn reduction_equals_naive((n, edges) in dag()) {
        let (g, _) = build(n, &edges);
        let want = naive_redundant(&g);
        for budget in [0, 64, DEFAULT_REDUCTION_BUDGET] {
            prop_assert_eq!(&g.redundant_edges(budget).unwrap(), &want, "budget {}", budget);
        }
    }

    #[test]
    fn reduction_keeps_reachability_and_is_minimal((n, edges) in dag()) {
        let (mut g, ids) = build(n, &edges);
        let before: Vec<_> = ids.iter().map(|&v| reachable(&g, v)).collect();
        let edge_count = g.edge_count();
        let removed = g.transitive_reduction_with_budget(8).unwrap();
        prop_assert_eq!(g.edge_count() + removed.len(), edge_count);
        for (i, &v) in ids.iter().enumerate() {
            prop_assert_eq!(&reachable(&g, v), &before[i]);
            prop_assert_eq!(g.ancestors(&[v]).iter().collect::<BTreeSet<_>>(), before[i].clone());
        }
        prop_assert!(naive_redundant(&g).is_empty());
    }

    #[test]
    fn orders_respect_edges((n, edges) in dag()) {
        let (g, _) = build(n, &edges);
        for (order, deps_first) in [(g.topological_order().unwrap(), false), (g.reverse_topological_order().unwrap(), true)] {
            prop_assert_eq!(order.len(), n);
            let mut pos = vec![0; n];
            for (i, v) in order.iter().enumerate() {
                pos[v.index()] = i;
            }
            for (a, b, _) in g.edges() {
                prop_assert_eq!(pos[b.index()] < pos[a.index()], deps_first);
            }
        }
        let r = reversed_build(n, &edges);
        prop_assert_eq!(names(&g, &g.topological_order().unwrap()), names(&r, &r.topological_order().unwrap()));
        prop_assert_eq!(g.to_string(), r.to_string());
    }

    #[test]
    fn scc_matches_mutual_reachability((n, edges) in digraph()) {
        let (mut g, ids) = build(n, &edges);
        let reach: Vec<_> = ids.iter().map(|&v| reachable(&g, v)).collect();
        let sccs = g.strongly_connected();
        prop_assert_eq!(sccs.iter().map(Vec::len).sum::<usize>(), n);
        for scc in &sccs {
            for &a in scc {
                for &b in &ids {
                    let same = scc.contains(&b);
                    let mutual = a == b || (reach[a.index()].contains(&b) && reach[b.index()].contains(&a));
                    prop_assert_eq!(same, mutual);
                }
            }
        }
        let has_cycle = ids.iter().any(|&v| reach[v.index()].contains(&v));
        prop_assert_eq!(g.is_cyclic(), has_cycle);
        prop_assert_eq!(g.transitive_reduction_with_budget(0).is_err(), has_cycle);
        prop_assert_eq!(g.reverse_topological_order().is_err(), has_cycle);
    }

    #[test]
    fn cycles_are_deterministic_and_in_reference_order((n, edges) in digraph()) {
        let (g, _) = build(n, &edges);
        let r = reversed_build(n, &edges);
        let cycles = g.cycles();
        let texts: Vec<Vec<String>> = cycles.iter().map(|c| names(&g, c)).collect();
        let r_texts: Vec<Vec<String>> = r.cycles().iter().map(|c| names(&r, c)).collect();
        prop_assert_eq!(&texts, &r_texts);
        let shown = |g: &Graph<(), ()>| g.validate().iter().map(|d| d.summary.clone()).collect::<Vec<_>>();
        prop_assert_eq!(shown(&g), shown(&r));
        for c in &cycles {
            // Starts at the shortest, then smallest name; every later member is a dependency of
            // an earlier one (DFS discovery order).
            let first = g.name(c[0]);
            prop_assert!(c.iter().all(|&v| (first.len(), first) <= (g.name(v).len(), g.name(v))));
            for i in 1..c.len() {
                prop_assert!((0..i).any(|j| g.has_edge(c[j], c[i])));
            }
        }
    }

    #[test]
    fn shortest_cycle_is_a_shortest_loop((n, edges) in digraph()) {
        let (g, ids) = build(n, &edges);
        for &v in &ids {
            // BFS distance from v back to v.
            let mut dist = vec![usize::MAX; n];
            let mut queue = std::collections::VecDeque::new();
            for w in g.edges_from(v) {
                if dist[w.index()] == usize::MAX {
                    dist[w.index()] = 1;
                    queue.push_back(w);
                }
            }
            while let Some(w) = queue.pop_front() {
                for x in g.edges_from(w) {
                    if dist[x.index()] == usize::MAX {
                        dist[x.index()] = dist[w.index()] + 1;
                        queue.push_back(x);
                    }
                }
            }
            match g.shortest_cycle_through(v) {
                None => prop_assert_eq!(dist[v.index()], usize::MAX),
                Some(path) => {
                    prop_assert_eq!(path[0], v);
                    prop_assert_eq!(path.len(), dist[v.index()]);
                    for i in 0..path.len() {
                        prop_assert!(g.has_edge(path[i], path[(i + 1) % path.len()]));
                    }
                    let distinct: BTreeSet<_> = path.iter().collect();
                    prop_assert_eq!(distinct.len(), path.len());
                }
            }
        }
    }

    #[test]
    fn remove_and_replace_keep_adjacency_consistent((n, edges) in digraph(), victims in proptest::collection::vec(0usize..25, 0..5)) {
        let (mut g, ids) = build(n, &edges);
        for (k, v) in victims.into_iter().enumerate() {
            let v = ids[v % n];
            if k % 2 == 0 {
                g.remove(v);
            } else if g.contains(v) {
                let r = g.add(format!("r{k}"), ());
                g.replace(v, r);
            }
        }
        let mut count = 0;
        for v in g.node_ids() {
            for t in g.edges_from(v) {
                prop_assert!(g.contains(t) && g.edges_to(t).any(|s| s == v));
                count += 1;
            }
            for s in g.edges_to(v) {
                prop_assert!(g.has_edge(s, v));
            }
        }
        prop_assert_eq!(count, g.edge_count());
    }
}
