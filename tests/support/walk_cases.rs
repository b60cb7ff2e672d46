//! Random walk cases and their oracle, shared by the native tests (`tests/walk_*.rs`) and the
//! wasm tests (`tests/wasm_walk_*.rs`), so both sides check the same graphs against the same
//! expectations. Pure Rust: no executor, no JS.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap};

/// SplitMix64: tiny, seedable, identical on every target.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// One graph of a case: names, `(from, to)` edges (from depends on to), and per node its
/// visit latency (virtual ms, or event-loop ticks in wasm), whether its visit fails, and the
/// subgraph its visit expands into.
#[derive(Clone, Debug)]
pub struct Graph {
    pub names: Vec<String>,
    pub edges: Vec<(u32, u32)>,
    pub latency: Vec<u32>,
    pub fails: Vec<bool>,
    pub expand: Vec<Option<Graph>>,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub seed: u64,
    pub parallelism: usize,
    pub graph: Graph,
}

/// A random DAG of up to `max_nodes` nodes with about 1.5 dependencies per node, shuffled so
/// index order is not a topological order. With `expand`, some nodes expand (two levels deep).
pub fn gen_case(seed: u64, max_nodes: usize, expand: bool) -> Case {
    let mut rng = Rng::new(seed);
    let parallelism = rng.range(1, 6) as usize;
    let graph = gen_graph(&mut rng, "n", max_nodes, if expand { 2 } else { 0 });
    Case { seed, parallelism, graph }
}

fn gen_graph(rng: &mut Rng, prefix: &str, max_nodes: usize, depth: u32) -> Graph {
    let n = rng.range(if depth == 2 || max_nodes == 0 { 1 } else { 0 }, max_nodes.max(1) as u64) as usize;
    // perm[i] is the label of the i-th node in creation (topological) order.
    let mut perm: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        perm.swap(i, rng.range(0, i as u64) as usize);
    }
    let mut edges = Vec::new();
    for i in 1..n {
        for _ in 0..rng.range(0, 3) {
            let j = rng.range(0, i as u64 - 1) as usize;
            edges.push((perm[i], perm[j]));
        }
    }
    let names: Vec<String> = (0..n).map(|i| format!("{prefix}{i}")).collect();
    let latency = (0..n).map(|_| rng.range(1, 20) as u32).collect();
    let fails = (0..n).map(|_| rng.chance(8)).collect();
    let expand = (0..n)
        .map(|i| (depth > 0 && rng.chance(15)).then(|| gen_graph(rng, &format!("{}.", names[i]), 6, depth - 1)))
        .collect();
    Graph { names, edges, latency, fails, expand }
}

/// The chain `n3 -> n2 -> n1 -> n0` style graph: node i depends on node i - 1.
pub fn chain(n: usize) -> Vec<(u32, u32)> {
    (1..n as u32).map(|i| (i, i - 1)).collect()
}

/// Which nodes must complete, fail, or be skipped (no cancellation).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Expected {
    pub completed: BTreeSet<String>,
    pub failed: BTreeSet<String>,
    pub skipped: BTreeSet<String>,
}

/// The oracle, computed offline: a node fails if its visit fails or any node of its
/// expansion fails; every transitive dependent of a failed node is skipped, never visited.
pub fn expected(case: &Case) -> Expected {
    let mut out = Expected::default();
    expected_graph(&case.graph, &mut out);
    out
}

/// Returns whether any node of `g` failed.
fn expected_graph(g: &Graph, out: &mut Expected) -> bool {
    let n = g.names.len();
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(from, to) in &g.edges {
        deps[from as usize].push(to);
    }
    // Topological order via Kahn (the generator made the graph acyclic).
    let mut indeg: Vec<usize> = deps.iter().map(Vec::len).collect();
    let mut dependents: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(from, to) in &g.edges {
        dependents[to as usize].push(from);
    }
    let mut order = Vec::new();
    let mut free: Vec<u32> = (0..n as u32).filter(|&v| indeg[v as usize] == 0).collect();
    while let Some(v) = free.pop() {
        order.push(v);
        for &d in &dependents[v as usize] {
            indeg[d as usize] -= 1;
            if indeg[d as usize] == 0 {
                free.push(d);
            }
        }
    }
    assert_eq!(order.len(), n, "generated graphs are acyclic");
    // 0 = ok, 1 = failed, 2 = skipped
    let mut status = vec![0u8; n];
    let mut any_failed = false;
    for &v in &order {
        let v = v as usize;
        if deps[v].iter().any(|&d| status[d as usize] != 0) {
            status[v] = 2;
            collect_skipped(g, v, out);
            continue;
        }
        let sub_failed = match &g.expand[v] {
            Some(sub) if !g.fails[v] => expected_graph(sub, out),
            _ => false,
        };
        if g.fails[v] || sub_failed {
            status[v] = 1;
            any_failed = true;
            out.failed.insert(g.names[v].clone());
        } else {
            out.completed.insert(g.names[v].clone());
        }
    }
    any_failed
}

fn collect_skipped(g: &Graph, v: usize, out: &mut Expected) {
    // A skipped node is never visited, so it never expands: only its own name is skipped.
    out.skipped.insert(g.names[v].clone());
}

/// What a walk produced, in neutral form, from either side.
#[derive(Debug, Default, Clone)]
pub struct Observed {
    pub completed: Vec<String>,
    pub failed: Vec<String>,
    pub skipped: Vec<String>,
    pub cancelled: Vec<String>,
    /// (kind, node, time) in the order the events fired.
    pub events: Vec<(String, String, f64)>,
    pub max_concurrency: usize,
    /// The most visits the visitor itself saw in flight.
    pub max_active: usize,
}

/// Every graph of the case with its parent's name (None for the top graph).
pub fn all_graphs(case: &Case) -> Vec<(Option<&str>, &Graph)> {
    let mut out = vec![(None, &case.graph)];
    let mut i = 0;
    while i < out.len() {
        let g = out[i].1;
        for (v, sub) in g.expand.iter().enumerate() {
            if let Some(sub) = sub {
                out.push((Some(g.names[v].as_str()), sub));
            }
        }
        i += 1;
    }
    out
}

/// Checks an observed walk of `case` (run to the end, not cancelled) against the oracle and
/// the walker's invariants. Returns a description of the first violation.
pub fn check(case: &Case, obs: &Observed) -> Result<(), String> {
    let exp = expected(case);
    let set = |v: &Vec<String>| v.iter().cloned().collect::<BTreeSet<_>>();
    let got = Expected { completed: set(&obs.completed), failed: set(&obs.failed), skipped: set(&obs.skipped) };
    if got != exp {
        return Err(format!("outcome differs from the oracle\n got: {got:?}\nwant: {exp:?}"));
    }
    if !obs.cancelled.is_empty() {
        return Err(format!("nothing was cancelled, yet {:?} are", obs.cancelled));
    }
    check_invariants(case, obs)
}

/// Invariants that hold with or without cancellation: each node settles once; starts follow
/// the finishes of all dependencies; subgraph nodes run inside their parent; the limit holds.
pub fn check_invariants(case: &Case, obs: &Observed) -> Result<(), String> {
    let p = case.parallelism;
    // The visitor sees a visit end before the walker takes its permit back, never after.
    if obs.max_concurrency > p || obs.max_active > obs.max_concurrency {
        return Err(format!(
            "limit broken: max_concurrency {} max_active {} parallelism {p}",
            obs.max_concurrency, obs.max_active
        ));
    }
    let mut start: HashMap<&str, usize> = HashMap::new();
    let mut end: HashMap<&str, (usize, &str)> = HashMap::new();
    for (i, (kind, node, _)) in obs.events.iter().enumerate() {
        if kind == "start" {
            if start.insert(node, i).is_some() {
                return Err(format!("{node} started twice"));
            }
        } else if let Some((_, k)) = end.insert(node, (i, kind)) {
            return Err(format!("{node} settled twice ({k}, then {kind})"));
        } else if (kind == "finish" || kind == "fail") && !start.contains_key(node.as_str()) {
            return Err(format!("{node} {kind}ed without starting"));
        } else if (kind == "skip") && start.contains_key(node.as_str()) {
            return Err(format!("{node} was visited, then skipped"));
        }
    }
    for (parent, g) in all_graphs(case) {
        for &(from, to) in &g.edges {
            let (a, b) = (g.names[from as usize].as_str(), g.names[to as usize].as_str());
            if let Some(&s) = start.get(a) {
                match end.get(b) {
                    Some(&(e, "finish")) if e < s => {}
                    other => {
                        return Err(format!("{a} started (event {s}) before its dependency {b} finished: {other:?}"))
                    }
                }
            }
        }
        if let Some(parent) = parent {
            for name in &g.names {
                if let Some(&s) = start.get(name.as_str()) {
                    if start.get(parent).is_none_or(|&ps| ps > s) {
                        return Err(format!("{name} started before its parent {parent}"));
                    }
                    if end.get(parent).is_some_and(|&(pe, _)| pe < end[name.as_str()].0) {
                        return Err(format!("{parent} settled before its subgraph node {name}"));
                    }
                }
            }
        }
    }
    let placed = obs.completed.len() + obs.failed.len() + obs.skipped.len() + obs.cancelled.len();
    if placed != end.len() {
        return Err(format!("{placed} nodes in the report, {} terminal events", end.len()));
    }
    Ok(())
}
