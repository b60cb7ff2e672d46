//! Stage 3: walking a graph in parallel, as Terraform does (`internal/dag/walk.go`,
//! `internal/terraform/graph.go`): a node runs once everything it depends on has finished,
//! with at most `parallelism` visits in flight (default 10).
//!
//! The walker is an async scheduler over any [`Future`]; nothing here knows about JS. The
//! wasm bindings (`bindings/walk.rs`) turn a JS `visit` into futures over promises, and tests
//! drive it with a virtual-time executor. Semantics, each from Terraform:
//!
//! - **Order and limit.** A node starts when all its dependencies have finished; a permit from
//!   one pool of `parallelism` is held only while the node's own visit runs.
//! - **Failure.** A visit that fails fails its node; every transitive dependent is skipped
//!   (never visited) and independent branches run to the end. Skipped nodes carry no error.
//! - **Expansion** (count/for_each, `DynamicExpand`). A visit may return
//!   [`Visited::Expand`] with a subgraph, which is walked inside the node with the same
//!   permit pool; the node's permit is released first. The node finishes after its subgraph,
//!   and fails if any subgraph node fails.
//! - **Cancellation.** After [`CancelToken::cancel`] no node starts; visits in flight settle;
//!   the rest are reported cancelled.
//!
//! A walk is one future; it spawns nothing, and its cost per node is O(1 + dependents).

mod dag;
pub mod diagnostics;
mod limiter;
mod report;
mod scheduler;

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

pub use dag::{dag_from_names, Dag, DagError};
pub use limiter::{CancelToken, Limiter, Permit};
pub use report::{Event, EventKind, Failure, Timing, WalkReport};

/// Terraform's default `-parallelism`.
pub const DEFAULT_PARALLELISM: usize = 10;

/// A graph to walk: a [`Dag`] over indices plus one key per node, handed to the visitor and
/// echoed in events and the report. The top-level graph and expansion subgraphs alike.
#[derive(Clone, Debug)]
pub struct Subgraph<K> {
    pub nodes: Vec<K>,
    pub dag: Dag,
}

impl<K> Subgraph<K> {
    /// Pairs keys with a graph; `nodes[i]` is node `i` of `dag`.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn new(nodes: Vec<K>, dag: Dag) -> Self {
        assert_eq!(nodes.len(), dag.len(), "one key per node of the graph");
        Subgraph { nodes, dag }
    }
}

/// What a successful visit asks for next.
#[derive(Debug)]
pub enum Visited<K> {
    /// The node is done.
    Done,
    /// Walk this subgraph inside the node (its count/for_each instances) before it is done.
    Expand(Subgraph<K>),
}

/// Visits one node. Implemented for every `Fn(&K) -> impl Future<Output = Result<Visited<K>, E>>`.
///
/// `visit` is called when the node starts (and holds a permit); the future it returns is the
/// node's work. Visits of one walk, including those of subgraphs, go through the same visitor.
pub trait Visitor<K> {
    type Error;
    type Future: Future<Output = Result<Visited<K>, Self::Error>>;
    fn visit(&self, node: &K) -> Self::Future;
}

impl<K, E, F, Fut> Visitor<K> for F
where
    F: Fn(&K) -> Fut,
    Fut: Future<Output = Result<Visited<K>, E>>,
{
    type Error = E;
    type Future = Fut;
    fn visit(&self, node: &K) -> Fut {
        self(node)
    }
}

/// The host's services: a clock, an event sink, and a way to let the event loop run.
pub trait WalkHooks<K> {
    /// The current time in milliseconds (any origin), for events and timings.
    fn now(&self) -> f64;

    /// Called as things happen, synchronously, in order.
    fn event(&self, event: Event<'_, K>) {
        let _ = event;
    }

    /// A future that gives the host's event loop a turn (in a browser, a macrotask), awaited
    /// every [`WalkOptions::yield_every`] scheduling steps. `None`: never yield.
    fn yield_now(&self) -> Option<Pin<Box<dyn Future<Output = ()>>>> {
        None
    }
}

/// Hooks for callers that need no events: the clock always reads 0.
pub struct NoHooks;

impl<K> WalkHooks<K> for NoHooks {
    fn now(&self) -> f64 {
        0.0
    }
}

/// How to walk.
#[derive(Clone)]
pub struct WalkOptions {
    /// Visits in flight at most (Terraform's `-parallelism`); check user input with
    /// [`diagnostics::check_parallelism`].
    pub parallelism: usize,
    /// Cancels the walk when set.
    pub cancel: Option<CancelToken>,
    /// Yield to the host every this many scheduling steps (starts plus settles); 0 = never.
    pub yield_every: usize,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions { parallelism: DEFAULT_PARALLELISM, cancel: None, yield_every: 0 }
    }
}

/// Walks `graph`, visiting each node once its dependencies have finished.
///
/// # Arguments
/// * `graph` — the nodes (keys) and their dependencies.
/// * `visitor` — called once per node when it starts; see [`Visitor`].
/// * `hooks` — clock, events and yielding; [`NoHooks`] for none.
/// * `options` — parallelism (≥ 1), cancellation, yielding.
///
/// # Returns
/// A [`WalkReport`] placing every node, including nodes of expansion subgraphs.
///
/// # Complexity
/// O(V + E) scheduling work, O(V) memory beyond the graph; no recursion per node.
///
/// # Panics
/// If `options.parallelism` is 0.
///
/// # Example
/// ```
/// use tfgraph::walk::{walk, dag_from_names, NoHooks, Subgraph, Visited, WalkOptions};
/// let dag = dag_from_names(&["a", "b"], &[("b", "a")]).unwrap();
/// let graph = Subgraph::new(vec!["a", "b"], dag);
/// let visit = |node: &&str| {
///     let fail = *node == "a";
///     async move { if fail { Err("boom") } else { Ok(Visited::Done) } }
/// };
/// let report = futures_executor_free_block_on(walk(graph, visit, NoHooks, WalkOptions::default()));
/// assert_eq!(report.failed.len(), 1);
/// assert_eq!(report.skipped, vec!["b"]);
/// # fn futures_executor_free_block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) { return v; } }
/// # }
/// ```
pub async fn walk<'w, K, V, H>(
    graph: Subgraph<K>,
    visitor: V,
    hooks: H,
    options: WalkOptions,
) -> WalkReport<K, V::Error>
where
    K: Clone + 'w,
    V: Visitor<K> + 'w,
    V::Error: 'w,
    H: WalkHooks<K> + 'w,
{
    let shared = Rc::new(scheduler::Shared {
        visitor,
        hooks,
        limiter: Limiter::new(options.parallelism),
        cancel: options.cancel,
        report: RefCell::new(WalkReport::default()),
        yield_every: options.yield_every,
        steps: Cell::new(0),
    });
    scheduler::Level::new(shared.clone(), graph, true).await;
    let mut report = shared.report.take();
    report.max_concurrency = shared.limiter.max_in_use();
    report
}
