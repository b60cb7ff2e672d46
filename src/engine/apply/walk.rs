//! The apply: the plan's apply graph (`apply_graph`) walked by walk/'s scheduler, one driver
//! for every host. A node that applies a change runs its provider operation when the walk
//! reaches it: [`ApplyNodes::start`] (its configuration evaluated over the working state), the
//! provider's answer through the [`ApplyHost`], [`ApplyNodes::finish`] (the working state
//! written). Every other node (providers, variables, locals, outputs, module expansion and
//! closing, the root) has no work of its own here: outputs and the state are made from the
//! working state when asked, and a JS provider is configured by its first operation. The host
//! hears every node start and end as the walk runs it ([`ApplyHost::node_event`]): the page
//! colours the apply graph's nodes, providers and their `(close)` included, from those.
//!
//! The scheduler is Terraform's: at most `-parallelism` nodes at once (default 10), a failed
//! node's dependents skipped and everything else run to the end, cancellation (Terraform's
//! stop: nothing new starts, what is in flight finishes). The walk's order is the graph's order,
//! nothing else; the host only answers: natively a [`VirtualClock`](shared::clock::VirtualClock)
//! and the built-in mocks (`apply.rs`), in the package real timers and JS promises
//! (`bindings/engine/drive.rs`).

use super::events::{ApplyResult, OpEvent, OpEventKind};
use super::nodes::{ApplyNodes, Request, Response};
use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::shared;
use crate::providers::{Op, Provider};
use crate::walk::{self, CancelToken, Subgraph, Visited, WalkHooks, WalkOptions};
use futures_util::future::{select, Either, LocalBoxFuture};
use serde_json::Value as Json;
use shared::apply_graph::{build_graph, ApplyGraph};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::{pin, Pin};

/// What the apply walk needs from where it runs: a clock, the provider's answers, and where
/// events and states go.
pub trait ApplyHost {
    /// Milliseconds on this host's clock (any origin).
    fn now(&self) -> f64;

    /// Waits `ms` milliseconds on this host's clock (a built-in provider's operation takes its
    /// delay).
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()>;

    /// The response of a provider of the host's own serving `provider_config` to `request`
    /// for `instance`, once it has it; `None` when the built-in providers serve it (answered at
    /// once, then taking their delay on the host's clock).
    fn respond<'s>(
        &'s self,
        request: &'s Request,
        provider_config: &'s str,
        instance: &'s str,
    ) -> Option<LocalBoxFuture<'s, Response>> {
        let _ = (request, provider_config, instance);
        None
    }

    /// Whether `provider_config` must be configured before its next operation.
    fn needs_configure(&self, provider_config: &str) -> bool {
        let _ = provider_config;
        false
    }

    /// Configures `provider_config` with its block evaluated over `state`, the working state as
    /// the operation that needs it starts.
    fn configure<'s>(
        &'s self,
        provider_config: &'s str,
        state: &'s Json,
    ) -> LocalBoxFuture<'s, Result<(), Diagnostics>> {
        let _ = (provider_config, state);
        Box::pin(async { Ok(()) })
    }

    /// An event as it happens, with the operation's duration and its diagnostics when it ended.
    fn event(&self, event: &OpEvent, elapsed_ms: Option<u64>, diagnostics: Option<&Diagnostics>) {
        let _ = (event, elapsed_ms, diagnostics);
    }

    /// A node of the apply graph started or ended, as the walk reports it (every node: provider
    /// configurations and their `(close)`, variables, locals, outputs, module expansion and
    /// closing, the root, the resources): `name` is Terraform's vertex name, `time` the host's
    /// [`now`](ApplyHost::now). A resource node's start comes before its operation's start
    /// event, its end after its operation's end event (or, skipped or cancelled, before the
    /// operation's).
    fn node_event(&self, name: &str, kind: walk::EventKind, time: f64) {
        let _ = (name, kind, time);
    }

    /// An operation's result was written into the working state.
    fn wrote(&self, nodes: &ApplyNodes<'_>) {
        let _ = nodes;
    }

    /// A turn of the host's event loop, taken now and then during a long walk.
    fn yield_now(&self) -> Option<Pin<Box<dyn Future<Output = ()>>>> {
        None
    }

    /// Work of the host's own beside the walk (the package's paced states), polled with it and
    /// dropped when the walk ends.
    fn beside<'s>(&'s self, nodes: &'s RefCell<ApplyNodes<'_>>) -> LocalBoxFuture<'s, ()> {
        let _ = nodes;
        Box::pin(std::future::pending())
    }

    /// What a host callback threw, which halted the walk.
    fn callback_error(&self) -> Option<String> {
        None
    }

    /// The walk ended with `state`, as Terraform persists it last.
    fn finished(&self, state: &Json) {
        let _ = state;
    }

    /// Memory for `bytes` more, grown at once (wasm: each `memory.grow` is a full GC in Node).
    fn reserve_heap(&self, bytes: usize) {
        let _ = bytes;
    }
}

/// What the nodes of one walk share.
struct Walking<'w, 'a, H: ?Sized> {
    nodes: &'w RefCell<ApplyNodes<'a>>,
    host: &'w H,
    provider: &'w dyn Provider,
    /// Per walk node: the operation it runs.
    node_op: Vec<Option<usize>>,
    /// Per walk node: Terraform's vertex name.
    names: &'w [String],
    events: RefCell<Vec<OpEvent>>,
    /// Per operation: when it started.
    begun: RefCell<Vec<f64>>,
    /// (start, `op ADDR` with ` FAILED` when it failed) per operation that ran.
    starts: RefCell<Vec<(u64, String)>>,
    running: Cell<usize>,
    max_running: Cell<usize>,
}

impl<H: ApplyHost + ?Sized> Walking<'_, '_, H> {
    /// `request`'s answer: from the host's own provider serving `provider_config`, or from a
    /// built-in one at once, its `delay` then slept on the host's clock.
    async fn ask(&self, request: &Request, provider_config: &str, delay: u64, instance: &str) -> Response {
        match self.host.respond(request, provider_config, instance) {
            Some(answer) => answer.await,
            None => {
                let response = request.ask(crate::providers::route(self.provider, provider_config), instance);
                self.host.sleep(delay).await;
                response
            }
        }
    }

    /// Runs operation `b`: true when it succeeded.
    async fn operation(&self, b: usize) -> bool {
        let (mut started, delay, configure, instance) = {
            let s = &mut *self.nodes.borrow_mut();
            let Some(started) = s.start(b, self.provider) else { return true };
            let delay = self.provider.delay_ms(s.ops[b].op, started.name.as_deref());
            // A JS configuration's first operation configures it, over the state as it is now:
            // what its block reaches has been applied (`engine::provider_block`).
            let configure =
                (started.request.is_ok() && self.host.needs_configure(&started.provider_config)).then(|| s.state());
            (started, delay, configure, s.ops[b].instance.clone())
        };
        if let Some(state) = configure {
            if let Err(d) = self.host.configure(&started.provider_config, &state).await {
                started.request = Err(d);
            }
        }
        // The apply-time plan, before Terraform's PreApply hook: an update it finds unchanged
        // ends here, unseen.
        if let Ok(plan @ Request::Plan { .. }) = &started.request {
            let response = self.ask(plan, &started.provider_config, 0, &instance).await;
            if self.nodes.borrow_mut().planned(&mut started, response) {
                return true;
            }
        }
        {
            let s = &*self.nodes.borrow();
            let now = self.host.now();
            self.begun.borrow_mut()[b] = now;
            let (id, deposed) = (started.prior_id.clone(), started.deposed.clone());
            let e = op_event(s, b, id, deposed, OpEventKind::Start, now as u64);
            self.host.event(&e, None, None);
            self.events.borrow_mut().push(e);
        }
        self.running.set(self.running.get() + 1);
        self.max_running.set(self.max_running.get().max(self.running.get()));
        // An operation that failed before reaching its provider takes no time.
        let response = match &started.request {
            Err(_) => None,
            Ok(r) => Some(self.ask(r, &started.provider_config, delay, &instance).await),
        };
        self.running.set(self.running.get() - 1);
        let s = &mut *self.nodes.borrow_mut();
        let (prior_id, deposed) = (started.prior_id.clone(), started.deposed.clone());
        let outcome = s.finish(started, response);
        let ok = outcome.is_ok();
        let end = self.host.now();
        let begun = self.begun.borrow()[b];
        let kind = match &outcome {
            Ok(id) => OpEventKind::Complete { id: id.clone() },
            Err(_) => OpEventKind::Fail,
        };
        let e = op_event(s, b, prior_id, deposed, kind, end as u64);
        self.host.event(&e, Some((end as u64).saturating_sub(begun as u64)), outcome.as_ref().err());
        self.events.borrow_mut().push(e);
        let o = &s.ops[b];
        let label = format!("{} {}{}", o.op.as_str(), o.instance, if ok { "" } else { " FAILED" });
        self.starts.borrow_mut().push((begun as u64, label));
        self.host.wrote(s);
        ok
    }
}

/// The walk's events go to the host as they happen, node by node; those of nodes that never run
/// (skipped behind a failure, cancelled) become the apply's events of their operations too.
struct Hooks<'r, 'w, 'a, H: ?Sized>(&'r Walking<'w, 'a, H>);

impl<H: ApplyHost + ?Sized> WalkHooks<u32> for Hooks<'_, '_, '_, H> {
    fn now(&self) -> f64 {
        self.0.host.now()
    }

    fn event(&self, event: walk::Event<'_, u32>) {
        if let Some(name) = self.0.names.get(*event.node as usize) {
            self.0.host.node_event(name, event.kind, event.time);
        }
        let kind = match event.kind {
            walk::EventKind::Skip => OpEventKind::Skip,
            walk::EventKind::Cancel => OpEventKind::Cancel,
            _ => return,
        };
        let Some(b) = self.0.node_op[*event.node as usize] else { return };
        let e = op_event(&self.0.nodes.borrow(), b, None, None, kind, event.time as u64);
        self.0.host.event(&e, None, None);
        self.0.events.borrow_mut().push(e);
    }

    fn yield_now(&self) -> Option<Pin<Box<dyn Future<Output = ()>>>> {
        self.0.host.yield_now()
    }
}

/// Scheduling steps (starts and settles) between two turns of the host's event loop.
const YIELD_EVERY: usize = 512;

/// Applies the plan `nodes` was made for by walking its apply graph (the plan's, or built now
/// when the plan has none) on `host`, at most `parallelism` nodes at once, until it ends or
/// `cancel` stops it.
///
/// `host` is a trait object, not a type parameter: the package has two hosts (the JS one of
/// `apply()`, the virtual clock of `engine::apply` that `test()` runs on), and one copy of the
/// walk for both is a few KB less gzipped wasm; a host is called once per operation or event.
pub async fn run(
    nodes: ApplyNodes<'_>,
    config: &Config,
    provider: &dyn Provider,
    host: &dyn ApplyHost,
    parallelism: usize,
    cancel: CancelToken,
) -> ApplyResult {
    let plan = nodes.plan;
    let built;
    let mut unwalkable = None;
    let graph: &ApplyGraph = match &plan.apply_graph {
        Some(g) => g,
        None if nodes.ops.is_empty() => {
            built = ApplyGraph::default();
            &built
        }
        None => {
            // A plan applied without its check (made elsewhere, or with errors).
            let (g, errors) = build_graph(config, plan);
            built = match (errors.has_errors(), ApplyGraph::new(&g, plan)) {
                (false, Some(walkable)) => walkable,
                (has_errors, _) => {
                    unwalkable = Some(if has_errors {
                        Diagnostics(errors.iter().map(shared::apply_check::one_line_cycle).collect())
                    } else {
                        let mut d = Diagnostics::new();
                        d.push(Diagnostic::error("Cycle in the apply graph", ""));
                        d
                    });
                    ApplyGraph::default()
                }
            };
            &built
        }
    };
    let mut by_change: HashMap<(usize, bool), usize> =
        nodes.ops.iter().enumerate().map(|(b, o)| ((o.change, o.destroy), b)).collect();
    let node_op: Vec<Option<usize>> =
        graph.nodes.iter().map(|n| n.and_then(|n| by_change.remove(&(n.change, n.destroy)))).collect();
    let n_ops = nodes.ops.len();
    let nodes = RefCell::new(nodes);
    let walking = Walking {
        nodes: &nodes,
        host,
        provider,
        node_op,
        names: &graph.names,
        events: RefCell::new(nodes.borrow().import_events()),
        begun: RefCell::new(vec![0.0; n_ops]),
        starts: RefCell::new(Vec::new()),
        running: Cell::new(0),
        max_running: Cell::new(0),
    };
    for e in walking.events.borrow().iter() {
        host.event(e, None, None);
    }
    let vertices: Vec<u32> = (0..graph.nodes.len() as u32).collect();
    let visit = |&v: &u32| -> LocalBoxFuture<'_, Result<Visited<u32>, ()>> {
        match walking.node_op[v as usize] {
            Some(b) => {
                let walking = &walking;
                Box::pin(async move {
                    if walking.operation(b).await {
                        Ok(Visited::Done)
                    } else {
                        Err(())
                    }
                })
            }
            None => Box::pin(std::future::ready(Ok(Visited::Done))),
        }
    };
    let options = WalkOptions {
        parallelism: parallelism.max(1),
        cancel: Some(cancel.clone()),
        yield_every: if host.yield_now().is_some() { YIELD_EVERY } else { 0 },
    };
    {
        let walked = pin!(walk::walk(Subgraph::new(vertices, graph.dag.clone()), visit, Hooks(&walking), options));
        if let Either::Right((_, walked)) = select(walked, host.beside(&nodes)).await {
            walked.await;
        }
    }
    let Walking { events, starts, max_running, .. } = walking;
    let mut s = nodes.into_inner();
    if let Some(d) = unwalkable {
        s.diagnostics.extend(d);
    }
    // Operations the graph has no node for never ran.
    for b in by_change.into_values() {
        let o = &s.ops[b];
        let d = Diagnostic::error(
            "Operation not in the apply graph",
            format!("{} {} has no node in the apply graph.", o.op.as_str(), o.instance),
        );
        s.diagnostics.push(d);
    }
    let callback_error = host.callback_error();
    if cancel.is_cancelled() && callback_error.is_none() {
        // Terraform's stop hook: `errors.New("execution halted")`.
        s.diagnostics.push(Diagnostic::error("execution halted", ""));
    }
    if let Some(msg) = callback_error {
        s.diagnostics.push(Diagnostic::error("Apply callback failed", msg));
    }
    let mut starts = starts.into_inner();
    crate::util::sort::sort_by_key(&mut starts, |(t, _)| *t);
    let waves = shared::clock::group(&starts, provider.delay_ms(Op::Create, None));
    let state = s.final_state();
    ApplyResult {
        state,
        diagnostics: s.diagnostics.clone(),
        waves,
        max_concurrency: max_running.get(),
        events: events.into_inner(),
        added: s.added,
        changed: s.changed,
        destroyed: s.destroyed,
        imported: s.imported,
    }
}

/// An event of operation `b`: `prior_id` and `deposed` as its start had them (the object is
/// gone from the working state once its delete ends), none for one that never started.
fn op_event(
    s: &ApplyNodes<'_>,
    b: usize,
    prior_id: Option<String>,
    deposed: Option<String>,
    kind: OpEventKind,
    at_ms: u64,
) -> OpEvent {
    let o = &s.ops[b];
    OpEvent { at_ms, address: o.instance.clone(), deposed, op: o.op, prior_id, kind }
}
