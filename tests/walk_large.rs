//! A million nodes in a chain and in a fan-out: no stack overflow anywhere (validation,
//! scheduling, skipping, cancelling, dropping), and linear time.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::cell::Cell;
use std::future::Future;
use std::rc::Rc;
use std::task::{Context, Waker};
use support::walk_sim as sim;
use tfgraph::walk::{walk, CancelToken, Dag, DagError, NoHooks, Subgraph, Visited, WalkOptions};

const N: usize = 1_000_000;

fn chain() -> Dag {
    let edges: Vec<(u32, u32)> = (1..N as u32).map(|i| (i, i - 1)).collect();
    Dag::new(N, &edges).unwrap()
}

fn fan_out() -> Dag {
    // Every node depends on node 0.
    let edges: Vec<(u32, u32)> = (1..N as u32).map(|i| (i, 0)).collect();
    Dag::new(N, &edges).unwrap()
}

fn counting_visit(
    count: Rc<Cell<usize>>,
    fail: Option<u32>,
) -> impl Fn(&u32) -> std::future::Ready<Result<Visited<u32>, ()>> {
    move |&v| {
        count.set(count.get() + 1);
        std::future::ready(if Some(v) == fail { Err(()) } else { Ok(Visited::Done) })
    }
}

#[test]
fn a_million_node_chain_walks_and_fails_without_recursion() {
    let dag = chain();
    let count = Rc::new(Cell::new(0));
    let graph = Subgraph::new((0..N as u32).collect(), dag.clone());
    let report = sim::block_on(walk(graph, counting_visit(count.clone(), None), NoHooks, WalkOptions::default()));
    assert_eq!((count.get(), report.completed.len()), (N, N));
    assert_eq!(report.max_concurrency, 1);

    // Fail the first node: 999,999 skips through one explicit stack.
    let count = Rc::new(Cell::new(0));
    let graph = Subgraph::new((0..N as u32).collect(), dag);
    let report = sim::block_on(walk(graph, counting_visit(count.clone(), Some(0)), NoHooks, WalkOptions::default()));
    assert_eq!((count.get(), report.skipped.len()), (1, N - 1));
}

#[test]
fn a_million_node_fan_out_walks_at_full_parallelism() {
    let count = Rc::new(Cell::new(0));
    let graph = Subgraph::new((0..N as u32).collect(), fan_out());
    let report = sim::block_on(walk(graph, counting_visit(count.clone(), None), NoHooks, WalkOptions::default()));
    assert_eq!(count.get(), N);
    assert_eq!(report.completed.len(), N);
}

#[test]
fn a_million_node_cycle_is_found_iteratively() {
    let mut edges: Vec<(u32, u32)> = (1..N as u32).map(|i| (i, i - 1)).collect();
    edges.push((0, N as u32 - 1));
    match Dag::new(N, &edges) {
        Err(DagError::Cycles(cycles)) => {
            assert_eq!(cycles.len(), 1);
            assert_eq!(cycles[0].len(), N);
        }
        other => panic!("expected a cycle, got {other:?}"),
    }
}

#[test]
fn dropping_or_cancelling_a_walk_with_a_million_pending_nodes_is_flat() {
    // Visits never finish: a walk stuck with 10 in flight and ~1M waiting, then dropped.
    let pending = |_: &u32| std::future::pending::<Result<Visited<u32>, ()>>();
    let graph = Subgraph::new((0..N as u32).collect(), fan_out());
    let token = CancelToken::new();
    let options = WalkOptions { cancel: Some(token.clone()), ..WalkOptions::default() };
    let mut walking = Box::pin(walk(graph, pending, NoHooks, options));
    let mut cx = Context::from_waker(Waker::noop());
    assert!(walking.as_mut().poll(&mut cx).is_pending());
    token.cancel();
    assert!(walking.as_mut().poll(&mut cx).is_pending()); // node 0 still in flight
    drop(walking);

    // The same with a million nodes in flight at once, each in its own boxed future.
    let graph = Subgraph::new((0..N as u32).collect(), Dag::without_edges(N));
    let options = WalkOptions { parallelism: N, ..WalkOptions::default() };
    let mut walking = Box::pin(walk(graph, pending, NoHooks, options));
    assert!(walking.as_mut().poll(&mut cx).is_pending());
    drop(walking);
}

#[test]
fn a_deep_chain_of_expansions_nests_without_trouble() {
    // Each node expands into a one-node subgraph, 2,000 levels deep: nesting depth is the
    // only thing that grows the stack, and it is the number of nested expansions.
    let report = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let visit = move |&level: &u32| {
                std::future::ready(Ok::<_, ()>(if level < 2_000 {
                    Visited::Expand(Subgraph::new(vec![level + 1], Dag::without_edges(1)))
                } else {
                    Visited::Done
                }))
            };
            let graph = Subgraph::new(vec![0u32], Dag::without_edges(1));
            sim::block_on(walk(graph, visit, NoHooks, WalkOptions { parallelism: 1, ..WalkOptions::default() }))
                .completed
                .len()
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(report, 2_001);
}
