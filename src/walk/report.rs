//! What a walk tells its caller: events as they happen, and a report at the end.

/// What happened to a node. Every node gets exactly one terminal event (`Finish`, `Fail`,
/// `Skip` or `Cancel`); only visited nodes get a `Start` before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Its visit was called (it holds a permit).
    Start,
    /// It and, if it expanded, its whole subgraph completed.
    Finish,
    /// Its visit failed, or a node of its subgraph failed.
    Fail,
    /// A dependency failed or was skipped, so it is never visited.
    Skip,
    /// The walk was cancelled before it could start (or while its subgraph was running).
    Cancel,
}

impl EventKind {
    /// The name the JS API uses (`"start"`, `"finish"`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Start => "start",
            EventKind::Finish => "finish",
            EventKind::Fail => "fail",
            EventKind::Skip => "skip",
            EventKind::Cancel => "cancel",
        }
    }
}

/// One event, given to [`WalkHooks::event`](super::WalkHooks::event) as it happens.
#[derive(Debug)]
pub struct Event<'a, K> {
    pub kind: EventKind,
    pub node: &'a K,
    /// [`WalkHooks::now`](super::WalkHooks::now) when it happened.
    pub time: f64,
}

/// Why a node failed.
#[derive(Debug, PartialEq)]
pub enum Failure<E> {
    /// Its visit returned this error.
    Visit(E),
    /// Its visit expanded it into a subgraph and `failed` nodes of that subgraph failed
    /// (they are reported on their own too). Terraform makes a subgraph's errors its parent's.
    Expansion { failed: usize },
}

/// When a visited node ran: from its visit's call to the end of its subgraph, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing<K> {
    pub node: K,
    pub start: f64,
    pub end: f64,
}

/// The outcome of a walk. Every node of the graph and of every subgraph an expansion made is
/// in exactly one of `completed`, `failed`, `skipped` and `cancelled`, each list in the order
/// things happened.
#[derive(Debug)]
pub struct WalkReport<K, E> {
    pub completed: Vec<K>,
    pub failed: Vec<(K, Failure<E>)>,
    /// Never visited because something they depend on failed. Their would-be errors are not
    /// reported, as Terraform drops the diagnostics of `upstreamFailed` vertices.
    pub skipped: Vec<K>,
    /// Never started (or expanded and not finished) because the walk was cancelled.
    pub cancelled: Vec<K>,
    /// One entry per visited node, in the order they settled.
    pub timings: Vec<Timing<K>>,
    /// The most visits ever in flight at once (never above the parallelism).
    pub max_concurrency: usize,
}

impl<K, E> Default for WalkReport<K, E> {
    fn default() -> Self {
        WalkReport {
            completed: Vec::new(),
            failed: Vec::new(),
            skipped: Vec::new(),
            cancelled: Vec::new(),
            timings: Vec::new(),
            max_concurrency: 0,
        }
    }
}

impl<K, E> WalkReport<K, E> {
    /// True when every node completed.
    pub fn is_success(&self) -> bool {
        self.failed.is_empty() && self.skipped.is_empty() && self.cancelled.is_empty()
    }
}
