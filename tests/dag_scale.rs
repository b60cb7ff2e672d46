#![cfg(not(target_arch = "wasm32"))]
//! Size: a 1,000,000-vertex chain, cycle and fan-out through every iterative algorithm (a
//! recursive DFS would overflow the 2 MiB test-thread stack long before), and the fast
//! reduction against the textbook one on a Terraform-shaped graph.

use std::collections::BTreeSet;
use tfgraph::dag::{CycleStyle, Graph, NodeId};

const N: usize = 1_000_000;

fn chain(n: usize) -> (Graph<(), ()>, Vec<NodeId>) {
    let mut g = Graph::with_capacity(n);
    let ids: Vec<NodeId> = (0..n).map(|i| g.add(format!("v{i:07}"), ())).collect();
    for w in ids.windows(2) {
        g.connect(w[0], w[1], ());
    }
    (g, ids)
}

#[test]
fn million_chain_then_million_cycle() {
    let (mut g, ids) = chain(N);
    let sccs = g.strongly_connected();
    assert_eq!(sccs.len(), N);
    assert_eq!(sccs[0], vec![ids[N - 1]], "the deepest dependency completes first");
    let order = g.reverse_topological_order().unwrap();
    assert_eq!((order[0], order[N - 1]), (ids[N - 1], ids[0]));
    assert_eq!(g.ancestors(&[ids[0]]).len(), N - 1);
    assert_eq!(g.descendants(&[ids[N - 1]]).len(), N - 1);
    assert!(g.transitive_reduction().unwrap().is_empty());
    assert!(g.cycles().is_empty());

    // Close the loop: one component of a million vertices (computed once, via the refused
    // reduction, to keep this debug-mode test quick).
    g.connect(ids[N - 1], ids[0], ());
    let err = g.transitive_reduction().unwrap_err();
    assert_eq!(err.cycles.len(), 1);
    let cycle = &err.cycles[0];
    assert_eq!(cycle.len(), N);
    assert_eq!((cycle[0], cycle[N - 1]), (ids[0], ids[N - 1]));
    assert!(g.cycle_text(cycle, CycleStyle::Vertical).starts_with("Cycle:\n  v0000000\n  v0000001\n"));
    assert_eq!(g.shortest_cycle_through(ids[N / 2]).unwrap().len(), N);
}

#[test]
fn million_fan_out_and_fan_in() {
    // root -> every leaf -> provider, and root -> provider directly (redundant).
    let mut g: Graph<(), ()> = Graph::with_capacity(N + 2);
    let root = g.add("root", ());
    let provider = g.add("provider", ());
    for i in 0..N {
        let leaf = g.add(format!("leaf{i}"), ());
        g.connect(root, leaf, ());
        g.connect(leaf, provider, ());
    }
    g.connect(root, provider, ());
    assert_eq!(g.strongly_connected().len(), N + 2);
    let order = g.topological_order().unwrap();
    assert_eq!((order[0], order[N + 1]), (root, provider));
    let removed = g.transitive_reduction().unwrap();
    assert_eq!(removed.len(), 1);
    assert_eq!((removed[0].from, removed[0].to), (root, provider));
    assert_eq!(g.edge_count(), 2 * N);
}

/// xorshift, for a reproducible graph without a dependency.
fn rng(seed: &mut u64, below: usize) -> usize {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed % below as u64) as usize
}

/// The Terraform shape of `examples/dag_bench.rs` (providers, close nodes, root, references to
/// recent resources), small enough for the textbook algorithm.
#[test]
fn terraform_shaped_reduction_equals_naive() {
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    let mut g: Graph<(), ()> = Graph::new();
    let providers: Vec<NodeId> = (0..3).map(|p| g.add(format!("provider{p}"), ())).collect();
    let closes: Vec<NodeId> = providers
        .iter()
        .map(|&p| {
            let c = g.add(format!("{} (close)", g.name(p)), ());
            g.connect(c, p, ());
            c
        })
        .collect();
    let mut res = Vec::new();
    for i in 0..400 {
        let r = g.add(format!("r{i}"), ());
        let p = rng(&mut seed, 3);
        g.connect(r, providers[p], ());
        g.connect(closes[p], r, ());
        for _ in 0..rng(&mut seed, 4) {
            if i > 0 {
                let back = 1 + rng(&mut seed, i.min(30));
                g.connect(r, res[i - back], ());
            }
        }
        res.push(r);
    }
    let root = g.add("root", ());
    for v in g.node_ids().filter(|&v| v != root).collect::<Vec<_>>() {
        g.connect(root, v, ());
    }

    let reach = |g: &Graph<(), ()>, v: NodeId| -> BTreeSet<NodeId> {
        let (mut seen, mut stack) = (BTreeSet::new(), g.edges_from(v).collect::<Vec<_>>());
        while let Some(w) = stack.pop() {
            if seen.insert(w) {
                stack.extend(g.edges_from(w));
            }
        }
        seen
    };
    let reaches: Vec<BTreeSet<NodeId>> = (0..g.node_bound()).map(|i| reach(&g, NodeId::from_index(i))).collect();
    let mut naive: Vec<(NodeId, NodeId)> = g
        .edges()
        .filter(|&(u, x, _)| g.edges_from(u).any(|w| w != x && reaches[w.index()].contains(&x)))
        .map(|(u, x, _)| (u, x))
        .collect();
    naive.sort();
    assert!(naive.len() > 500, "the shape has plenty to reduce ({})", naive.len());
    for budget in [0, 1 << 10, 1 << 25] {
        assert_eq!(g.redundant_edges(budget).unwrap(), naive, "budget {budget}");
    }
}
