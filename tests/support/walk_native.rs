//! Native test support: the virtual-time executor and a runner that walks a [`super::walk_cases::Case`]
//! with `String` keys and reports an [`super::walk_cases::Observed`].
#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use super::walk_cases::{Case, Graph, Observed};
use super::walk_sim as sim;
use tfgraph::walk::{walk, CancelToken, Dag, Event, Subgraph, Visited, WalkHooks, WalkOptions, WalkReport};

/// Hooks reading the virtual clock and recording every event.
#[derive(Clone, Default)]
pub struct Recorder {
    pub events: Rc<RefCell<Vec<(String, String, f64)>>>,
    pub yield_to_host: bool,
}

impl WalkHooks<String> for Recorder {
    fn now(&self) -> f64 {
        sim::now()
    }
    fn event(&self, e: Event<'_, String>) {
        self.events.borrow_mut().push((e.kind.as_str().to_string(), e.node.clone(), e.time));
    }
    fn yield_now(&self) -> Option<Pin<Box<dyn Future<Output = ()>>>> {
        self.yield_to_host.then(sim::yield_once)
    }
}

pub fn subgraph(g: &Graph) -> Subgraph<String> {
    Subgraph::new(g.names.clone(), Dag::new(g.names.len(), &g.edges).expect("generated graphs are acyclic"))
}

/// Per node: (latency, fails, expansion).
type Specs = HashMap<String, (u32, bool, Option<Graph>)>;

fn specs(case: &Case) -> Specs {
    let mut out = HashMap::new();
    for (_, g) in super::walk_cases::all_graphs(case) {
        for i in 0..g.names.len() {
            out.insert(g.names[i].clone(), (g.latency[i], g.fails[i], g.expand[i].clone()));
        }
    }
    out
}

pub struct Run {
    pub observed: Observed,
    pub report: WalkReport<String, String>,
}

/// Walks `case` in virtual time: each visit sleeps its latency, then fails or expands as the
/// case says. `cancel_at`: cancel the walk at that virtual time (from a timer).
pub fn run_case(case: &Case, cancel_at: Option<u64>, yield_every: usize) -> Run {
    let specs = Rc::new(specs(case));
    let active = Rc::new(Cell::new(0usize));
    let max_active = Rc::new(Cell::new(0usize));
    let (a, m) = (active.clone(), max_active.clone());
    let visit = move |node: &String| {
        let (latency, fails, expand) = specs[node].clone();
        a.set(a.get() + 1);
        m.set(m.get().max(a.get()));
        let a = a.clone();
        let node = node.clone();
        async move {
            sim::sleep(latency as u64).await;
            a.set(a.get() - 1);
            if fails {
                Err(format!("{node} failed"))
            } else if let Some(sub) = expand {
                Ok(Visited::Expand(subgraph(&sub)))
            } else {
                Ok(Visited::Done)
            }
        }
    };
    let recorder = Recorder { yield_to_host: yield_every > 0, ..Recorder::default() };
    let token = CancelToken::new();
    let options = WalkOptions { parallelism: case.parallelism, cancel: Some(token.clone()), yield_every };
    let walking = walk(subgraph(&case.graph), visit, recorder.clone(), options);
    let report = sim::block_on(async move {
        match cancel_at {
            None => walking.await,
            Some(t) => {
                let mut walking = std::pin::pin!(walking);
                let mut timer = std::pin::pin!(sim::sleep(t));
                let mut fired = false;
                std::future::poll_fn(|cx| {
                    if !fired && timer.as_mut().poll(cx).is_ready() {
                        fired = true;
                        token.cancel();
                    }
                    walking.as_mut().poll(cx)
                })
                .await
            }
        }
    });
    let observed = Observed {
        completed: report.completed.clone(),
        failed: report.failed.iter().map(|(n, _)| n.clone()).collect(),
        skipped: report.skipped.clone(),
        cancelled: report.cancelled.clone(),
        events: recorder.events.borrow().clone(),
        max_concurrency: report.max_concurrency,
        max_active: max_active.get(),
    };
    Run { observed, report }
}

/// Terraform's greedy list schedule, simulated: whenever a permit is free, the longest-ready
/// node starts (FIFO). Returns the makespan. Nodes do not fail or expand here.
pub fn ideal_makespan(n: usize, edges: &[(u32, u32)], latency: &[u32], parallelism: usize) -> u64 {
    let dag = Dag::new(n, edges).unwrap();
    let mut waiting: Vec<u32> = (0..n as u32).map(|v| dag.dependency_count(v)).collect();
    let mut ready: std::collections::VecDeque<u32> = (0..n as u32).filter(|&v| waiting[v as usize] == 0).collect();
    let mut running = std::collections::BinaryHeap::new(); // Reverse((end, v))
    let mut now = 0u64;
    loop {
        while running.len() < parallelism {
            let Some(v) = ready.pop_front() else { break };
            running.push(std::cmp::Reverse((now + latency[v as usize] as u64, v)));
        }
        let Some(std::cmp::Reverse((end, _))) = running.peek().copied() else { return now };
        now = end;
        while let Some(&std::cmp::Reverse((e, v))) = running.peek() {
            if e > now {
                break;
            }
            running.pop();
            for &d in dag.dependents(v) {
                waiting[d as usize] -= 1;
                if waiting[d as usize] == 0 {
                    ready.push_back(d);
                }
            }
        }
    }
}
