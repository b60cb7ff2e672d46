//! Terraform's own walk cases (`internal/dag/walk_test.go`, `dag_test.go`, PR #37292), run in
//! virtual time so the expected timings are exact.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use std::cell::RefCell;
use std::rc::Rc;
use support::walk_cases::{check, Case, Graph};
use support::walk_native::run_case;
use support::walk_sim as sim;
use tfgraph::walk::{dag_from_names, walk, Failure, NoHooks, Subgraph, Visited, WalkOptions};

/// A graph from names, `(from, to)` name pairs, the names whose visits fail, and latency 10.
fn graph(names: &[&str], edges: &[(&str, &str)], failing: &[&str]) -> Graph {
    let index = |n: &str| names.iter().position(|&m| m == n).unwrap() as u32;
    Graph {
        names: names.iter().map(|s| s.to_string()).collect(),
        edges: edges.iter().map(|&(f, t)| (index(f), index(t))).collect(),
        latency: vec![10; names.len()],
        fails: names.iter().map(|n| failing.contains(n)).collect(),
        expand: vec![None; names.len()],
    }
}

fn case(parallelism: usize, graph: Graph) -> Case {
    Case { seed: 0, parallelism, graph }
}

fn started(events: &[(String, String, f64)]) -> Vec<&str> {
    events.iter().filter(|e| e.0 == "start").map(|e| e.1.as_str()).collect()
}

#[test]
fn chain_whose_second_visit_fails_visits_only_one_and_two() {
    // TestWalker_error: 4 -> 3 -> 2 -> 1, the callback fails on 2.
    let c = case(10, graph(&["1", "2", "3", "4"], &[("2", "1"), ("3", "2"), ("4", "3")], &["2"]));
    let run = run_case(&c, None, 0);
    assert_eq!(started(&run.observed.events), ["1", "2"]);
    assert_eq!(run.report.completed, ["1"]);
    assert_eq!(run.report.failed, [("2".to_string(), Failure::Visit("2 failed".to_string()))]);
    assert_eq!(run.report.skipped, ["3", "4"]);
    assert!(run.report.cancelled.is_empty());
    check(&c, &run.observed).unwrap();
}

#[test]
fn dependency_runs_first() {
    // TestWalker_basic: 1 depends on 2, so 2 is visited first, every time.
    let c = case(10, graph(&["1", "2"], &[("1", "2")], &[]));
    let run = run_case(&c, None, 0);
    assert_eq!(started(&run.observed.events), ["2", "1"]);
    assert_eq!(run.report.timings[1].start, 10.0);
}

#[test]
fn diamond_runs_its_middle_in_parallel() {
    let c = case(
        10,
        graph(
            &["top", "left", "right", "bottom"],
            &[("top", "left"), ("top", "right"), ("left", "bottom"), ("right", "bottom")],
            &[],
        ),
    );
    let run = run_case(&c, None, 0);
    let times: Vec<(&str, f64, f64)> = run.report.timings.iter().map(|t| (t.node.as_str(), t.start, t.end)).collect();
    assert_eq!(times, [("bottom", 0.0, 10.0), ("left", 10.0, 20.0), ("right", 10.0, 20.0), ("top", 20.0, 30.0)]);
    assert_eq!(run.report.max_concurrency, 2);
    check(&c, &run.observed).unwrap();
}

#[test]
fn diamond_with_a_failed_side_skips_only_the_top() {
    let c = case(
        10,
        graph(
            &["top", "left", "right", "bottom"],
            &[("top", "left"), ("top", "right"), ("left", "bottom"), ("right", "bottom")],
            &["left"],
        ),
    );
    let run = run_case(&c, None, 0);
    assert_eq!(run.report.completed, ["bottom", "right"]);
    assert_eq!(run.report.skipped, ["top"]);
    check(&c, &run.observed).unwrap();
}

#[test]
fn independent_branches_continue_after_a_failure() {
    // a1 fails at t=10; b1..b3 keep going to the end; a2, a3 are skipped.
    let c = case(
        10,
        graph(
            &["a1", "a2", "a3", "b1", "b2", "b3"],
            &[("a2", "a1"), ("a3", "a2"), ("b2", "b1"), ("b3", "b2")],
            &["a1"],
        ),
    );
    let run = run_case(&c, None, 0);
    assert_eq!(run.report.completed, ["b1", "b2", "b3"]);
    assert_eq!(run.report.skipped, ["a2", "a3"]);
    assert_eq!(run.report.timings.last().unwrap().end, 30.0);
    check(&c, &run.observed).unwrap();
}

#[test]
fn skipped_nodes_are_announced_when_the_failure_happens() {
    let c = case(10, graph(&["a", "b", "c", "slow"], &[("b", "a"), ("c", "b")], &["a"]));
    let mut g = c.graph.clone();
    g.latency[3] = 100;
    let run = run_case(&case(10, g), None, 0);
    let skips: Vec<(&str, f64)> =
        run.observed.events.iter().filter(|e| e.0 == "skip").map(|e| (e.1.as_str(), e.2)).collect();
    assert_eq!(skips, [("b", 10.0), ("c", 10.0)]);
}

#[test]
fn expansion_at_parallelism_one_does_not_deadlock() {
    // PR #37292: at -parallelism=1 a node that expands must not hold the only permit while
    // its instances wait for it. Here `web` expands into three instances, and `lb` needs `web`.
    let mut g = graph(&["web", "lb"], &[("lb", "web")], &[]);
    g.expand[0] = Some(graph(&["web[0]", "web[1]", "web[2]"], &[], &[]));
    let c = case(1, g);
    let run = run_case(&c, None, 0);
    assert_eq!(started(&run.observed.events), ["web", "web[0]", "web[1]", "web[2]", "lb"]);
    assert_eq!(run.report.completed, ["web[0]", "web[1]", "web[2]", "web", "lb"]);
    let web = run.report.timings.iter().find(|t| t.node == "web").unwrap();
    assert_eq!((web.start, web.end), (0.0, 40.0));
    assert_eq!(run.report.max_concurrency, 1);
    check(&c, &run.observed).unwrap();
}

#[test]
fn nested_expansions_share_the_permit_pool() {
    // module.m expands into two instances, each expanding into resources: 2 + 4 visits
    // under parallelism 2, plus module.m itself.
    let mut inner0 = graph(&["m[0].a", "m[0].b"], &[("m[0].b", "m[0].a")], &[]);
    inner0.latency = vec![5, 5];
    let inner1 = graph(&["m[1].a", "m[1].b"], &[], &[]);
    let mut mid = graph(&["m[0]", "m[1]"], &[], &[]);
    mid.expand = vec![Some(inner0), Some(inner1)];
    let mut g = graph(&["module.m"], &[], &[]);
    g.expand[0] = Some(mid);
    let c = case(2, g);
    let run = run_case(&c, None, 0);
    assert_eq!(run.report.completed.len(), 7);
    assert_eq!(run.report.max_concurrency, 2);
    assert_eq!(run.report.completed.last().unwrap(), "module.m");
    check(&c, &run.observed).unwrap();
}

#[test]
fn a_failure_inside_an_expansion_fails_the_parent_and_skips_its_dependents() {
    let mut g = graph(&["web", "lb", "dns"], &[("lb", "web")], &[]);
    g.expand[0] = Some(graph(&["web[0]", "web[1]"], &[], &["web[1]"]));
    let c = case(10, g);
    let run = run_case(&c, None, 0);
    assert_eq!(run.report.completed, ["dns", "web[0]"]);
    let failed: Vec<&(String, Failure<String>)> = run.report.failed.iter().collect();
    assert_eq!(failed[0], &("web[1]".to_string(), Failure::Visit("web[1] failed".into())));
    assert_eq!(failed[1], &("web".to_string(), Failure::Expansion { failed: 1 }));
    assert_eq!(run.report.skipped, ["lb"]);
    check(&c, &run.observed).unwrap();
}

#[test]
fn cancellation_mid_walk_lets_visits_in_flight_settle() {
    // A chain a -> b and three roots at parallelism 2; cancel at t=15 while b and r1 run.
    let mut g = graph(&["a", "b", "r1", "r2", "r3"], &[("a", "b")], &[]);
    g.latency = vec![10, 10, 20, 10, 10];
    let c = case(2, g);
    let run = run_case(&c, Some(15), 0);
    // t=0: b, r1 start. t=10: b done, a ready; r2 starts (FIFO: r2 was ready first).
    // t=15: cancel -> a, r3 cancelled at once. t=20: r1, r2 settle normally.
    assert_eq!(started(&run.observed.events), ["b", "r1", "r2"]);
    assert_eq!(run.report.completed, ["b", "r1", "r2"]);
    assert_eq!(run.report.cancelled, ["a", "r3"]);
    let cancels: Vec<f64> = run.observed.events.iter().filter(|e| e.0 == "cancel").map(|e| e.2).collect();
    assert_eq!(cancels, [15.0, 15.0]);
    assert_eq!(run.report.timings.last().unwrap().end, 20.0);
    support::walk_cases::check_invariants(&c, &run.observed).unwrap();
}

#[test]
fn cancelling_during_an_expansion_cancels_its_rest_and_the_parent() {
    let mut g = graph(&["web", "lb"], &[("lb", "web")], &[]);
    g.expand[0] = Some(graph(&["web[0]", "web[1]", "web[2]"], &[], &[]));
    let c = case(1, g);
    let run = run_case(&c, Some(15), 0);
    // web runs 0..10, web[0] 10..20 (cancel at 15), web[1], web[2] never start.
    assert_eq!(run.report.completed, ["web[0]"]);
    assert_eq!(run.report.cancelled, ["lb", "web[1]", "web[2]", "web"]);
    support::walk_cases::check_invariants(&c, &run.observed).unwrap();
}

#[test]
fn a_cancelled_walk_starts_nothing() {
    let c = case(3, graph(&["a", "b"], &[], &[]));
    let run = run_case(&c, Some(0), 0);
    assert!(started(&run.observed.events).is_empty());
    assert_eq!(run.report.cancelled, ["a", "b"]);
}

#[test]
fn yielding_to_the_host_changes_nothing_but_the_polls() {
    let mut g = graph(&["a", "b", "c", "d"], &[("b", "a"), ("c", "a"), ("d", "c")], &["b"]);
    g.expand[2] = Some(graph(&["c[0]", "c[1]"], &[("c[1]", "c[0]")], &[]));
    let c = case(2, g);
    let plain = run_case(&c, None, 0);
    let yielding = run_case(&c, None, 1);
    assert_eq!(plain.observed.events, yielding.observed.events);
    check(&c, &yielding.observed).unwrap();
}

#[test]
fn visits_that_are_ready_at_once_run_without_timers() {
    // Synchronous visits (ready futures) at parallelism 1: no timer anywhere, still finishes.
    let dag = dag_from_names(&["a", "b", "c"], &[("c", "b"), ("b", "a")]).unwrap();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    let visit = move |n: &&'static str| {
        s.borrow_mut().push(*n);
        std::future::ready(Ok::<_, ()>(Visited::Done))
    };
    let options = WalkOptions { parallelism: 1, ..WalkOptions::default() };
    let report = sim::block_on(walk(Subgraph::new(vec!["a", "b", "c"], dag), visit, NoHooks, options));
    assert_eq!(*seen.borrow(), ["a", "b", "c"]);
    assert!(report.is_success());
}

#[test]
fn a_cancel_from_inside_a_visit_stops_the_very_next_start() {
    // The first visit cancels synchronously; the other ready roots must not start.
    let token = tfgraph::walk::CancelToken::new();
    let t = token.clone();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    let visit = move |n: &&'static str| {
        s.borrow_mut().push(*n);
        t.cancel();
        std::future::ready(Ok::<_, ()>(Visited::Done))
    };
    let dag = dag_from_names(&["a", "b", "c"], &[]).unwrap();
    let options = WalkOptions { cancel: Some(token), ..WalkOptions::default() };
    let report = sim::block_on(walk(Subgraph::new(vec!["a", "b", "c"], dag), visit, NoHooks, options));
    assert_eq!(*seen.borrow(), ["a"]);
    assert_eq!(report.completed, ["a"]);
    assert_eq!(report.cancelled, ["b", "c"]);
}
