//! The ready-queue scheduler: one [`Level`] future per graph being walked (the top graph,
//! and each subgraph an expansion made, nested inside its parent node's future).
//!
//! A level keeps, per node, how many dependencies it still waits for; nodes whose count
//! reaches zero join a FIFO ready queue, and start as soon as the shared [`Limiter`] gives a
//! permit. The permit lives inside the node's future only until its own visit settles: a
//! node that expanded waits for its subgraph holding nothing, so a subgraph at parallelism 1
//! cannot deadlock on its parent (Terraform PR #37292, issue #2639). The whole walk is one
//! task; in-flight nodes are polled through `FuturesUnordered`, which polls only those whose
//! wakers fired. Nothing recurses per node: skipping uses an explicit stack, and nesting
//! depth is the number of expansions inside one another.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use futures_util::stream::{FuturesUnordered, StreamExt};

use super::limiter::{CancelToken, Limiter};
use super::report::{Event, EventKind, Failure, Timing, WalkReport};
use super::{Subgraph, Visited, Visitor, WalkHooks};

/// Everything the levels of one walk share.
pub(crate) struct Shared<K, V: Visitor<K>, H> {
    pub visitor: V,
    pub hooks: H,
    pub limiter: Limiter,
    pub cancel: Option<CancelToken>,
    pub report: RefCell<WalkReport<K, V::Error>>,
    /// Scheduling steps (starts and settles) between two yields to the host; 0 = never.
    pub yield_every: usize,
    pub steps: Cell<usize>,
}

impl<K, V: Visitor<K>, H: WalkHooks<K>> Shared<K, V, H> {
    fn emit(&self, kind: EventKind, node: &K, time: f64) {
        self.hooks.event(Event { kind, node, time });
    }

    fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(CancelToken::is_cancelled)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Waiting,
    Ready,
    Running,
    Completed,
    Failed,
    Skipped,
    Cancelled,
}

/// How one node's future ended.
enum Settled<E> {
    Completed,
    Failed(Failure<E>),
    Cancelled,
}

/// What a level tells the node that expanded into it.
pub(crate) struct LevelOutcome {
    pub failed: usize,
    pub cancelled: usize,
}

type NodeFuture<'w, E> = Pin<Box<dyn Future<Output = (u32, Settled<E>)> + 'w>>;

pub(crate) struct Level<'w, K, V: Visitor<K>, H> {
    shared: Rc<Shared<K, V, H>>,
    nodes: Vec<K>,
    dag: super::Dag,
    waiting_for: Vec<u32>,
    state: Vec<State>,
    started_at: Vec<f64>,
    ready: VecDeque<u32>,
    running: FuturesUnordered<NodeFuture<'w, V::Error>>,
    settled: usize,
    failed: usize,
    cancelled: usize,
    cancel_seen: bool,
    /// The top level registers with the cancel token so an abort is reported at once.
    is_top: bool,
    /// A yield to the host in progress.
    pause: Option<Pin<Box<dyn Future<Output = ()> + 'w>>>,
}

// No field is ever pinned in place (in-flight futures and pauses are boxed), so moving a
// level is fine whatever `K`, `V` and `H` are.
impl<K, V: Visitor<K>, H> Unpin for Level<'_, K, V, H> {}

impl<'w, K, V, H> Level<'w, K, V, H>
where
    K: Clone + 'w,
    V: Visitor<K> + 'w,
    V::Error: 'w,
    H: WalkHooks<K> + 'w,
{
    pub fn new(shared: Rc<Shared<K, V, H>>, graph: Subgraph<K>, is_top: bool) -> Self {
        let Subgraph { nodes, dag } = graph;
        let n = dag.len();
        let waiting_for: Vec<u32> = (0..n as u32).map(|v| dag.dependency_count(v)).collect();
        let ready: VecDeque<u32> = (0..n as u32).filter(|&v| waiting_for[v as usize] == 0).collect();
        let mut state = vec![State::Waiting; n];
        for &v in &ready {
            state[v as usize] = State::Ready;
        }
        Level {
            shared,
            nodes,
            dag,
            waiting_for,
            state,
            started_at: vec![0.0; n],
            ready,
            running: FuturesUnordered::new(),
            settled: 0,
            failed: 0,
            cancelled: 0,
            cancel_seen: false,
            is_top,
            pause: None,
        }
    }

    /// Counts one scheduling step; true when it is time to yield to the host.
    fn step(&mut self) -> bool {
        let every = self.shared.yield_every;
        if every == 0 {
            return false;
        }
        let steps = self.shared.steps.get() + 1;
        if steps < every {
            self.shared.steps.set(steps);
            return false;
        }
        self.shared.steps.set(0);
        self.pause = self.shared.hooks.yield_now();
        self.pause.is_some()
    }

    fn start(&mut self, v: u32, permit: super::limiter::Permit) {
        let shared = self.shared.clone();
        let now = shared.hooks.now();
        self.state[v as usize] = State::Running;
        self.started_at[v as usize] = now;
        let node = &self.nodes[v as usize];
        shared.emit(EventKind::Start, node, now);
        let visit = shared.visitor.visit(node);
        self.running.push(Box::pin(async move {
            let result = visit.await;
            // The permit covers the node's own work only, never the wait for its subgraph.
            drop(permit);
            let settled = match result {
                Ok(Visited::Done) => Settled::Completed,
                Err(error) => Settled::Failed(Failure::Visit(error)),
                Ok(Visited::Expand(subgraph)) => {
                    let outcome = Level::new(shared, subgraph, false).await;
                    if outcome.failed > 0 {
                        Settled::Failed(Failure::Expansion { failed: outcome.failed })
                    } else if outcome.cancelled > 0 {
                        Settled::Cancelled
                    } else {
                        Settled::Completed
                    }
                }
            };
            (v, settled)
        }));
    }

    fn settle(&mut self, v: u32, settled: Settled<V::Error>) {
        let shared = self.shared.clone();
        let now = shared.hooks.now();
        let node = &self.nodes[v as usize];
        let mut report = shared.report.borrow_mut();
        report.timings.push(Timing { node: node.clone(), start: self.started_at[v as usize], end: now });
        self.settled += 1;
        match settled {
            Settled::Completed => {
                self.state[v as usize] = State::Completed;
                report.completed.push(node.clone());
                drop(report);
                shared.emit(EventKind::Finish, node, now);
                for &d in self.dag.dependents(v) {
                    let d = d as usize;
                    if self.state[d] == State::Waiting {
                        self.waiting_for[d] -= 1;
                        if self.waiting_for[d] == 0 {
                            self.state[d] = State::Ready;
                            self.ready.push_back(d as u32);
                        }
                    }
                }
            }
            Settled::Failed(failure) => {
                self.state[v as usize] = State::Failed;
                self.failed += 1;
                report.failed.push((node.clone(), failure));
                drop(report);
                shared.emit(EventKind::Fail, node, now);
                self.skip_dependents(v, now);
            }
            Settled::Cancelled => {
                // Only an expanded node whose subgraph saw the cancel ends here; the cancel
                // pass of this level takes care of its dependents.
                self.state[v as usize] = State::Cancelled;
                self.cancelled += 1;
                report.cancelled.push(node.clone());
                drop(report);
                shared.emit(EventKind::Cancel, node, now);
            }
        }
    }

    /// Marks every not-yet-settled transitive dependent of `v` skipped (explicit stack).
    fn skip_dependents(&mut self, v: u32, now: f64) {
        let shared = self.shared.clone();
        let mut stack = vec![v];
        while let Some(u) = stack.pop() {
            for &d in self.dag.dependents(u) {
                // A dependent of an unfinished node can only be waiting, or settled already.
                if self.state[d as usize] == State::Waiting {
                    self.state[d as usize] = State::Skipped;
                    self.settled += 1;
                    let node = &self.nodes[d as usize];
                    shared.report.borrow_mut().skipped.push(node.clone());
                    shared.emit(EventKind::Skip, node, now);
                    stack.push(d);
                }
            }
        }
    }

    /// After a cancel: everything not started yet is cancelled, in index order.
    fn cancel_pending(&mut self) {
        self.cancel_seen = true;
        self.ready.clear();
        let shared = self.shared.clone();
        let now = shared.hooks.now();
        for v in 0..self.nodes.len() {
            if matches!(self.state[v], State::Waiting | State::Ready) {
                self.state[v] = State::Cancelled;
                self.settled += 1;
                self.cancelled += 1;
                let node = &self.nodes[v];
                shared.report.borrow_mut().cancelled.push(node.clone());
                shared.emit(EventKind::Cancel, node, now);
            }
        }
    }
}

impl<'w, K, V, H> Future for Level<'w, K, V, H>
where
    K: Clone + 'w,
    V: Visitor<K> + 'w,
    V::Error: 'w,
    H: WalkHooks<K> + 'w,
{
    type Output = LevelOutcome;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<LevelOutcome> {
        let this = self.get_mut();
        if this.is_top {
            if let Some(token) = &this.shared.cancel {
                token.register(cx.waker());
            }
        }
        loop {
            if let Some(pause) = &mut this.pause {
                if pause.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                this.pause = None;
            }
            let mut progressed = false;
            while let Poll::Ready(Some((v, settled))) = this.running.poll_next_unpin(cx) {
                this.settle(v, settled);
                progressed = true;
                if this.step() {
                    break;
                }
            }
            if this.pause.is_some() {
                continue;
            }
            while !this.cancel_seen {
                // Checked before every start: a visit or listener may cancel synchronously.
                if this.shared.cancelled() {
                    this.cancel_pending();
                    break;
                }
                let Some(&v) = this.ready.front() else { break };
                let Some(permit) = this.shared.limiter.try_acquire(cx.waker()) else { break };
                this.ready.pop_front();
                this.start(v, permit);
                progressed = true;
                if this.step() {
                    break;
                }
            }
            if this.settled == this.nodes.len() {
                return Poll::Ready(LevelOutcome { failed: this.failed, cancelled: this.cancelled });
            }
            if !progressed && this.pause.is_none() {
                return Poll::Pending;
            }
        }
    }
}
