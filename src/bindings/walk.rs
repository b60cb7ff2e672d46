//! `walk(dag, visit, options)`: the JS face of [`crate::walk`].
//!
//! Mechanical glue only: read `{ nodes, edges }` into a [`Dag`] (names resolved through a JS
//! `Map`, so no string crosses into Rust unless an error needs it), make each `visit(node)`
//! call a future (a returned promise through one shared pair of callbacks, see `promises`,
//! anything else at once), forward
//! events to `onEvent`, turn an `AbortSignal` into a [`CancelToken`], and build the report.
//! Node keys are `u32` ids into one table of names for the whole walk, expansions included,
//! so a name is unique across the walk and the report can be keyed by it.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{ready, Context, Poll};

use js_sys::{Array, Function, Map, Object, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

mod fast;
mod promises;
pub use fast::use_fallbacks_for_tests;
use fast::FastJs;
use promises::{PromiseFuture, PromiseTable};

use crate::diag::{Diagnostic, Diagnostics};
use crate::walk::{
    self as core, diagnostics, rotate_to_shortest, CancelToken, Dag, DagError, Event, EventKind, Failure, Subgraph,
    Visited, Visitor, WalkHooks, WalkOptions, WalkReport,
};

#[wasm_bindgen(typescript_custom_section)]
const WALK_TS: &'static str = r#"
/** A graph to walk: `from` depends on `to`, so `to` is visited first. */
export interface WalkDag { nodes: string[]; edges?: [from: string, to: string][]; }
/** Returned (or resolved) by a visit to walk a subgraph inside the node, as count/for_each
 *  instances are. Names must be new to the walk; edges stay inside the subgraph. */
export interface WalkExpansion { expand: WalkDag; }
export type WalkEventType = "start" | "finish" | "fail" | "skip" | "cancel";
export interface WalkEvent {
  type: WalkEventType;
  node: string;
  /** `performance.now()` when it happened. */
  time: number;
  /** The node whose expansion this node belongs to, if any. */
  parent?: string;
}
export interface WalkOptions {
  /** Visits in flight at most, a whole number >= 1 (default 10, as Terraform). */
  parallelism?: number;
  /** After abort no node starts; visits in flight settle; the rest are reported cancelled. */
  signal?: AbortSignal;
  /** Called synchronously as things happen. If it throws, the walk is cancelled and the
   *  promise rejects with that error once visits in flight have settled. */
  onEvent?: (event: WalkEvent) => void;
  /** Give the event loop a macrotask turn every this many scheduling steps (default 1000). */
  yieldEvery?: number;
}
export interface WalkReport {
  /** In the order they finished; expanded nodes after their subgraph. */
  completed: string[];
  /** `error` is what the visit threw or rejected with; a node whose expansion failed gets an
   *  Error naming how many subgraph nodes failed. */
  failed: { node: string; error: unknown }[];
  /** Dependents (transitive) of failed nodes: never visited, no error of their own. */
  skipped: string[];
  cancelled: string[];
  /** The most visits ever in flight at once. */
  maxConcurrency: number;
  /** For every visited node: `performance.now()` at its visit's call and at its end. */
  times: Map<string, { start: number; end: number }>;
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

const DEFAULT_YIELD_EVERY: usize = 1000;

/// Everything the visitor, the hooks and the report share: the walk's name table.
struct Ctx {
    /// Every name of the walk by id: the top graph's `nodes` (copied), then expansions'.
    names: RefCell<Array>,
    /// Per id, the id of the node whose expansion it belongs to (`u32::MAX`: top level).
    parents: RefCell<Vec<u32>>,
    /// Name -> id, across the whole walk.
    ids: Map,
    on_event: Option<Function>,
    listener_error: RefCell<Option<JsValue>>,
    token: CancelToken,
    kinds: [JsValue; 5],
    promises: PromiseTable,
}

const TOP: u32 = u32::MAX;

impl Ctx {
    fn name(&self, id: u32) -> JsValue {
        self.names.borrow().get(id)
    }

    fn parent_name(&self, id: u32) -> JsValue {
        match self.parents.borrow()[id as usize] {
            TOP => JsValue::UNDEFINED,
            p => self.name(p),
        }
    }

    /// Reads `{ nodes, edges }`, adding its names to the table as children of `parent`.
    /// Bad names or edges are diagnostics (the caller's data); wrong types are a TypeError.
    fn read_dag(&self, dag: &JsValue, parent: u32, what: &str) -> Result<Subgraph<u32>, JsValue> {
        if !dag.is_object() {
            return Err(type_error(&format!("{what} must be an object {{ nodes, edges }}")));
        }
        let nodes = Reflect::get(dag, &"nodes".into())?;
        let Some(nodes) = nodes.dyn_ref::<Array>() else {
            return Err(type_error(&format!("{what}.nodes must be an array of strings")));
        };
        let edges = Reflect::get(dag, &"edges".into())?;
        let edges = match edges.dyn_ref::<Array>() {
            Some(a) => a.clone(),
            None if edges.is_undefined() => Array::new(),
            None => return Err(type_error(&format!("{what}.edges must be an array of [from, to] pairs"))),
        };
        let first = self.parents.borrow().len() as u32;
        let ids = self.add_names(nodes, parent, what)?;
        let pairs = match self.resolve_edges(&edges, first) {
            Some(pairs) => pairs,
            None => {
                // Something is off: check edge by edge for a precise message.
                let result = self.check_edges(&edges, first, what);
                self.forget_from(first);
                return Err(result
                    .err()
                    .unwrap_or_else(|| type_error(&format!("{what}.edges must be [from, to] pairs"))));
            }
        };
        match Dag::new(ids.len(), &pairs) {
            Ok(dag) => Ok(Subgraph::new(ids, dag)),
            Err(DagError::Cycles(cycles)) => {
                let diags = cycles
                    .iter()
                    .map(|cycle| {
                        let names: Vec<String> =
                            cycle.iter().map(|&v| self.name(first + v).as_string().unwrap_or_default()).collect();
                        diagnostics::cycle(&rotate_to_shortest(names.iter().map(String::as_str)))
                    })
                    .collect();
                self.forget_from(first);
                Err(tfgraph_error(&Diagnostics(diags)))
            }
            Err(DagError::UnknownNode { .. }) => unreachable!("edges were resolved against this dag's names"),
        }
    }

    /// Gives `nodes` the next ids, as children of `parent`: a few calls in all for the top
    /// graph, one or two per node for an expansion (usually small).
    fn add_names(&self, nodes: &Array, parent: u32, what: &str) -> Result<Vec<u32>, JsValue> {
        let first = self.parents.borrow().len() as u32;
        let count = nodes.length();
        let added = FastJs::with(|fast| {
            fast.and_then(|f| f.add_names.call3(&JsValue::NULL, nodes, &self.ids, &first.into()).ok()?.as_f64())
        });
        if let Some(added) = added {
            if first == 0 {
                *self.names.borrow_mut() = nodes.slice(0, count);
            } else {
                let names = self.names.borrow();
                for name in nodes.iter() {
                    names.push(&name);
                }
            }
            self.parents.borrow_mut().resize((first + count) as usize, parent);
            if added < 0.0 {
                self.forget_from(first);
                return Err(type_error(&format!("{what}.nodes must be an array of strings")));
            }
            if added as u32 != count {
                return Err(self.duplicates(nodes, first));
            }
            return Ok((first..first + count).collect());
        }
        // `String.prototype.toString` throws for anything but a string, so this `every` is
        // true exactly when every name is a non-empty string; otherwise look one by one.
        let every = builtin(&["Array", "prototype", "every"]);
        let strings = every.call2(
            nodes,
            &builtin(&["Function", "prototype", "call"]),
            &builtin(&["String", "prototype", "toString"]),
        );
        if !strings.is_ok_and(|all| all.is_truthy()) && nodes.iter().any(|name| !name.is_string()) {
            return Err(type_error(&format!("{what}.nodes must be an array of strings")));
        }
        let before = self.ids.size();
        if first == 0 {
            // Top graph: ids are array indices, so `forEach(Map.prototype.set)` maps them.
            builtin(&["Array", "prototype", "forEach"]).call2(
                nodes,
                &builtin(&["Map", "prototype", "set"]),
                &self.ids,
            )?;
            *self.names.borrow_mut() = nodes.slice(0, count);
        } else {
            let names = self.names.borrow();
            for (i, name) in nodes.iter().enumerate() {
                if !self.ids.has(&name) {
                    self.ids.set(&name, &JsValue::from(first + i as u32));
                }
                names.push(&name);
            }
        }
        self.parents.borrow_mut().resize((first + count) as usize, parent);
        if self.ids.size() - before != count {
            return Err(self.duplicates(nodes, first));
        }
        Ok((first..first + count).collect())
    }

    /// The error for a `nodes` list with duplicates (of each other or of earlier nodes of
    /// the walk); also forgets the names added from it.
    fn duplicates(&self, nodes: &Array, first: u32) -> JsValue {
        {
            let mut diags = Diagnostics::new();
            let mut seen = std::collections::HashSet::new();
            for name in nodes.iter() {
                let text = name.as_string().unwrap_or_default();
                // Ids below `first` belong to nodes walked before this dag.
                let earlier = self.ids.get(&name).as_f64().is_some_and(|id| (id as u32) < first);
                if earlier || !seen.insert(text.clone()) {
                    diags.push(diagnostics::duplicate_node(&text));
                }
            }
            self.forget_from(first);
            tfgraph_error(&diags)
        }
    }

    /// Resolves every edge in three calls (`flat`, `map(Map.prototype.get)`, one copy into
    /// Rust) instead of several calls per edge. `None` when any edge is not a pair of names
    /// of this dag; [`Ctx::check_edges`] then says which.
    fn resolve_edges(&self, edges: &Array, first: u32) -> Option<Vec<(u32, u32)>> {
        let count = edges.length() as usize;
        if count == 0 {
            return Some(Vec::new());
        }
        let end = self.parents.borrow().len() as f64;
        let compiled = FastJs::with(|fast| {
            let f = fast?;
            let args: Array =
                [JsValue::from(edges), JsValue::from(self.ids.clone()), first.into(), end.into()].into_iter().collect();
            Some(f.resolve_edges.apply(&JsValue::NULL, &args).ok().filter(|r| !r.is_null()).map(|r| {
                let flat = js_sys::Float64Array::from(r).to_vec();
                flat.chunks_exact(2).map(|p| (p[0] as u32, p[1] as u32)).collect::<Vec<_>>()
            }))
        });
        if let Some(result) = compiled {
            return result;
        }
        let all_arrays = builtin(&["Array", "prototype", "every"])
            .call2(edges, &builtin(&["Array", "isArray"]), &JsValue::UNDEFINED)
            .ok()?;
        let flat = edges.flat(1);
        if !all_arrays.is_truthy() || flat.length() as usize != 2 * count {
            return None;
        }
        let ids = builtin(&["Array", "prototype", "map"])
            .call2(&flat, &builtin(&["Map", "prototype", "get"]), &self.ids)
            .ok()?;
        let ids = js_sys::Float64Array::new(&ids).to_vec();
        let mut pairs = Vec::with_capacity(count);
        for pair in ids.chunks_exact(2) {
            // NaN (an unknown name) fails both comparisons.
            if !(pair[0] >= first as f64 && pair[0] < end && pair[1] >= first as f64 && pair[1] < end) {
                return None;
            }
            pairs.push((pair[0] as u32 - first, pair[1] as u32 - first));
        }
        Some(pairs)
    }

    /// The slow path of [`Ctx::resolve_edges`]: the first wrong shape as a TypeError, else
    /// every edge naming a node outside this dag as a diagnostic.
    fn check_edges(&self, edges: &Array, first: u32, what: &str) -> Result<(), JsValue> {
        let mut diags = Diagnostics::new();
        for edge in edges.iter() {
            let pair = edge.dyn_ref::<Array>().filter(|p| p.length() == 2);
            let Some((from, to)) = pair.map(|p| (p.get(0), p.get(1))).filter(|(f, t)| f.is_string() && t.is_string())
            else {
                return Err(type_error(&format!("{what}.edges must be an array of [from, to] string pairs")));
            };
            // An id outside this dag's range (an earlier node of the walk) is unknown here too.
            let local = |name: &JsValue| self.ids.get(name).as_f64().map(|id| id as u32).filter(|&id| id >= first);
            if let (f, None) | (f @ None, _) = (local(&from), local(&to)) {
                let (from, to) = (from.as_string().unwrap_or_default(), to.as_string().unwrap_or_default());
                let unknown = if f.is_none() { &from } else { &to };
                diags.push(diagnostics::unknown_node(&from, &to, unknown));
            }
        }
        if diags.has_errors() {
            return Err(tfgraph_error(&diags));
        }
        Ok(())
    }

    /// Drops names added since `first` (a rejected expansion leaves no trace).
    fn forget_from(&self, first: u32) {
        let names = self.names.borrow();
        for id in first..names.length() {
            let name = names.get(id);
            if self.ids.get(&name).as_f64().is_some_and(|v| v as u32 >= first) {
                self.ids.delete(&name);
            }
        }
        names.set_length(first);
        self.parents.borrow_mut().truncate(first as usize);
    }

    /// The names of `ids`, in one call: `Array.from(ids, Array.prototype.at, names)`.
    fn names_of(&self, ids: &[u32]) -> Array {
        let from = builtin(&["Array", "from"]);
        let array = builtin(&["Array"]);
        let ids = js_sys::Uint32Array::from(ids);
        let at = builtin(&["Array", "prototype", "at"]);
        match from.call3(&array, &ids, &at, &self.names.borrow()) {
            Ok(names) => names.unchecked_into(),
            Err(_) => ids.to_vec().iter().map(|&id| self.name(id)).collect(),
        }
    }

    /// What a settled visit asked for: `{ expand: { nodes, edges } }`, or done.
    fn interpret(&self, node: u32, value: JsValue) -> Result<Visited<u32>, JsValue> {
        if !value.is_object() {
            return Ok(Visited::Done);
        }
        let expand = Reflect::get(&value, &"expand".into())?;
        if expand.is_undefined() {
            return Ok(Visited::Done);
        }
        let name = self.name(node).as_string().unwrap_or_default();
        Ok(Visited::Expand(self.read_dag(&expand, node, &format!("the expansion of {name:?}"))?))
    }
}

struct JsVisitor {
    visit: Function,
    ctx: Rc<Ctx>,
}

/// One visit: its value at once, or its promise.
struct VisitFuture {
    state: VisitState,
    node: u32,
    ctx: Rc<Ctx>,
}

enum VisitState {
    Now(Option<Result<JsValue, JsValue>>),
    Promise(PromiseFuture),
}

impl Future for VisitFuture {
    type Output = Result<Visited<u32>, JsValue>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let settled = match &mut self.state {
            VisitState::Now(value) => value.take().expect("a visit future is not polled after it completed"),
            VisitState::Promise(promise) => ready!(Pin::new(promise).poll(cx)),
        };
        Poll::Ready(settled.and_then(|value| self.ctx.interpret(self.node, value)))
    }
}

impl Visitor<u32> for JsVisitor {
    type Error = JsValue;
    type Future = VisitFuture;
    fn visit(&self, &node: &u32) -> VisitFuture {
        let ctx = &self.ctx;
        let result = self.visit.call2(&JsValue::UNDEFINED, &ctx.name(node), &ctx.parent_name(node));
        let state = match result {
            Ok(value) if value.is_instance_of::<Promise>() => watch(ctx, value.unchecked_ref()),
            Ok(value) if is_thenable(&value) => watch(ctx, &Promise::resolve(&value)),
            other => VisitState::Now(Some(other)),
        };
        VisitFuture { state, node, ctx: ctx.clone() }
    }
}

fn watch(ctx: &Ctx, promise: &Promise) -> VisitState {
    match ctx.promises.watch(promise) {
        Ok(future) => VisitState::Promise(future),
        Err(error) => VisitState::Now(Some(Err(error))),
    }
}

/// A built-in function by path from the global object (`["Array", "prototype", "map"]`).
fn builtin(path: &[&str]) -> Function {
    let mut value: JsValue = js_sys::global().into();
    for key in path {
        value = Reflect::get(&value, &(*key).into()).unwrap_or(JsValue::UNDEFINED);
    }
    value.unchecked_into()
}

fn is_thenable(value: &JsValue) -> bool {
    value.is_object() && Reflect::get(value, &"then".into()).is_ok_and(|then| then.is_function())
}

struct JsHooks {
    ctx: Rc<Ctx>,
}

impl WalkHooks<u32> for JsHooks {
    fn now(&self) -> f64 {
        performance_now()
    }

    fn event(&self, event: Event<'_, u32>) {
        let ctx = &self.ctx;
        let Some(on_event) = &ctx.on_event else { return };
        if ctx.listener_error.borrow().is_some() {
            return;
        }
        let object = Object::new();
        let kind = &ctx.kinds[event.kind as usize];
        let _ = Reflect::set(&object, &"type".into(), kind);
        let _ = Reflect::set(&object, &"node".into(), &ctx.name(*event.node));
        let _ = Reflect::set(&object, &"time".into(), &event.time.into());
        let parent = ctx.parent_name(*event.node);
        if !parent.is_undefined() {
            let _ = Reflect::set(&object, &"parent".into(), &parent);
        }
        if let Err(error) = on_event.call1(&JsValue::UNDEFINED, &object) {
            *ctx.listener_error.borrow_mut() = Some(error);
            ctx.token.cancel();
        }
    }

    fn yield_now(&self) -> Option<Pin<Box<dyn Future<Output = ()>>>> {
        let turn = JsFuture::from(macrotask());
        Some(Box::pin(async move {
            let _ = turn.await;
        }))
    }
}

/// A promise resolved from a fresh macrotask, so rendering and input get their turn:
/// `setImmediate` in Node, a `MessageChannel` message in browsers (not clamped like
/// `setTimeout`), else `setTimeout(0)`.
fn macrotask() -> Promise {
    Promise::new(&mut |resolve, _reject| {
        let global = js_sys::global();
        let get = |name: &str| Reflect::get(&global, &name.into()).ok().filter(JsValue::is_function);
        if let Some(set_immediate) = get("setImmediate") {
            let _ = set_immediate.unchecked_into::<Function>().call1(&JsValue::UNDEFINED, &resolve);
        } else if let Some(channel) = get("MessageChannel") {
            let channel = Reflect::construct(channel.unchecked_ref::<Function>(), &Array::new()).ok();
            let ports = channel
                .and_then(|c| Some((Reflect::get(&c, &"port1".into()).ok()?, Reflect::get(&c, &"port2".into()).ok()?)));
            if let Some((port1, port2)) = ports {
                let _ = Reflect::set(&port1, &"onmessage".into(), &resolve);
                let post: Option<Function> =
                    Reflect::get(&port2, &"postMessage".into()).ok().map(JsCast::unchecked_into);
                if post.is_some_and(|post| post.call1(&port2, &JsValue::NULL).is_ok()) {
                    return;
                }
            }
            let _ = resolve.call0(&JsValue::UNDEFINED);
        } else if let Some(set_timeout) = get("setTimeout") {
            let _ = set_timeout.unchecked_into::<Function>().call2(&JsValue::UNDEFINED, &resolve, &0.into());
        } else {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    })
}

fn type_error(message: &str) -> JsValue {
    super::type_error(&format!("walk: {message}"))
}

/// An `Error` named `TfgraphError` whose `diagnostics` hold Terraform-shaped diagnostics.
fn tfgraph_error(diags: &Diagnostics) -> JsValue {
    let message: Vec<String> = diags
        .iter()
        .map(
            |d: &Diagnostic| {
                if d.detail.is_empty() {
                    d.summary.clone()
                } else {
                    format!("{}: {}", d.summary, d.detail)
                }
            },
        )
        .collect();
    let error = js_sys::Error::new(&message.join("\n"));
    error.set_name("TfgraphError");
    if let Ok(diagnostics) = super::to_js(diags) {
        let _ = Reflect::set(&error, &"diagnostics".into(), &diagnostics);
    }
    error.into()
}

struct Options {
    parallelism: usize,
    signal: Option<JsValue>,
    on_event: Option<Function>,
    yield_every: usize,
}

fn read_options(options: &JsValue) -> Result<Options, JsValue> {
    let mut out = Options {
        parallelism: core::DEFAULT_PARALLELISM,
        signal: None,
        on_event: None,
        yield_every: DEFAULT_YIELD_EVERY,
    };
    if options.is_undefined() || options.is_null() {
        return Ok(out);
    }
    if !options.is_object() {
        return Err(type_error("`options` must be an object"));
    }
    let get = |key: &str| Reflect::get(options, &key.into());
    let parallelism = get("parallelism")?;
    if !parallelism.is_undefined() {
        let Some(value) = parallelism.as_f64() else {
            return Err(type_error("`options.parallelism` must be a number"));
        };
        out.parallelism = diagnostics::check_parallelism(value).map_err(|d| tfgraph_error(&d.into()))?;
    }
    let signal = get("signal")?;
    if !signal.is_undefined() && !signal.is_null() {
        if !Reflect::get(&signal, &"addEventListener".into())?.is_function() {
            return Err(type_error("`options.signal` must be an AbortSignal"));
        }
        out.signal = Some(signal);
    }
    let on_event = get("onEvent")?;
    if !on_event.is_undefined() && !on_event.is_null() {
        out.on_event = Some(on_event.dyn_into().map_err(|_| type_error("`options.onEvent` must be a function"))?);
    }
    let yield_every = get("yieldEvery")?;
    if !yield_every.is_undefined() {
        match yield_every.as_f64() {
            Some(n) if n >= 1.0 && n.fract() == 0.0 => out.yield_every = n as usize,
            _ => return Err(type_error("`options.yieldEvery` must be a whole number >= 1")),
        }
    }
    Ok(out)
}

/// Listens for `abort` on a signal for as long as it lives.
struct AbortListener {
    signal: JsValue,
    closure: Closure<dyn FnMut()>,
}

impl AbortListener {
    fn new(signal: JsValue, token: CancelToken) -> Result<AbortListener, JsValue> {
        if Reflect::get(&signal, &"aborted".into())?.is_truthy() {
            token.cancel();
        }
        let closure = Closure::<dyn FnMut()>::new(move || token.cancel());
        let add: Function = Reflect::get(&signal, &"addEventListener".into())?.unchecked_into();
        add.call2(&signal, &"abort".into(), closure.as_ref())?;
        Ok(AbortListener { signal, closure })
    }
}

impl Drop for AbortListener {
    fn drop(&mut self) {
        if let Ok(remove) = Reflect::get(&self.signal, &"removeEventListener".into()) {
            if let Some(remove) = remove.dyn_ref::<Function>() {
                let _ = remove.call2(&self.signal, &"abort".into(), self.closure.as_ref());
            }
        }
    }
}

fn build_report(ctx: &Ctx, report: WalkReport<u32, JsValue>) -> JsValue {
    let names = |ids: &[u32]| ctx.names_of(ids);
    let failed = Array::new();
    for (id, failure) in report.failed {
        let error = match failure {
            Failure::Visit(error) => error,
            Failure::Expansion { failed } => {
                let name = ctx.name(id).as_string().unwrap_or_default();
                let s = if failed == 1 { "" } else { "s" };
                js_sys::Error::new(&format!("{failed} node{s} of the expansion of {name:?} failed")).into()
            }
        };
        let entry = Object::new();
        let _ = Reflect::set(&entry, &"node".into(), &ctx.name(id));
        let _ = Reflect::set(&entry, &"error".into(), &error);
        failed.push(&entry);
    }
    let times = FastJs::with(|fast| {
        let f = fast?;
        let ids: Vec<u32> = report.timings.iter().map(|t| t.node).collect();
        let start: Vec<f64> = report.timings.iter().map(|t| t.start).collect();
        let end: Vec<f64> = report.timings.iter().map(|t| t.end).collect();
        let args: Array = [
            JsValue::from(ctx.names.borrow().clone()),
            JsValue::from(js_sys::Uint32Array::from(&ids[..])),
            JsValue::from(js_sys::Float64Array::from(&start[..])),
            JsValue::from(js_sys::Float64Array::from(&end[..])),
        ]
        .into_iter()
        .collect();
        f.times_map.apply(&JsValue::NULL, &args).ok()
    })
    .unwrap_or_else(|| {
        let times = Map::new();
        let (start, end) = (JsValue::from("start"), JsValue::from("end"));
        for t in &report.timings {
            let entry = Object::new();
            let _ = Reflect::set(&entry, &start, &t.start.into());
            let _ = Reflect::set(&entry, &end, &t.end.into());
            times.set(&ctx.name(t.node), &entry);
        }
        times.into()
    });
    let out = Object::new();
    let _ = Reflect::set(&out, &"completed".into(), &names(&report.completed));
    let _ = Reflect::set(&out, &"failed".into(), &failed);
    let _ = Reflect::set(&out, &"skipped".into(), &names(&report.skipped));
    let _ = Reflect::set(&out, &"cancelled".into(), &names(&report.cancelled));
    let _ = Reflect::set(&out, &"maxConcurrency".into(), &(report.max_concurrency as f64).into());
    let _ = Reflect::set(&out, &"times".into(), &times);
    out.into()
}

/// Walks `dag` calling `visit(node, parent)` for each node once everything it depends on has
/// finished, at most `options.parallelism` at a time. Resolves to a `WalkReport`; rejects
/// with a `TfgraphError` (`.diagnostics`) for bad input before visiting anything, or a
/// `TypeError` for arguments of the wrong type.
#[wasm_bindgen(js_name = walk, unchecked_return_type = "Promise<WalkReport>")]
pub fn walk_js(
    #[wasm_bindgen(unchecked_param_type = "WalkDag")] dag: JsValue,
    #[wasm_bindgen(unchecked_param_type = "(node: string, parent: string | undefined) => unknown")] visit: JsValue,
    #[wasm_bindgen(unchecked_param_type = "WalkOptions | undefined")] options: JsValue,
) -> Promise {
    future_to_promise(async move {
        let options = read_options(&options)?;
        let visit: Function = visit.dyn_into().map_err(|_| type_error("`visit` must be a function"))?;
        let token = CancelToken::new();
        let ctx = Rc::new(Ctx {
            names: RefCell::new(Array::new()),
            parents: RefCell::new(Vec::new()),
            ids: Map::new(),
            on_event: options.on_event,
            listener_error: RefCell::new(None),
            token: token.clone(),
            kinds: [EventKind::Start, EventKind::Finish, EventKind::Fail, EventKind::Skip, EventKind::Cancel]
                .map(|k| JsValue::from(k.as_str())),
            promises: PromiseTable::new(),
        });
        let graph = ctx.read_dag(&dag, TOP, "`dag`")?;
        let _listener = options.signal.map(|s| AbortListener::new(s, token.clone())).transpose()?;
        let walk_options =
            WalkOptions { parallelism: options.parallelism, cancel: Some(token), yield_every: options.yield_every };
        let report =
            core::walk(graph, JsVisitor { visit, ctx: ctx.clone() }, JsHooks { ctx: ctx.clone() }, walk_options).await;
        if let Some(error) = ctx.listener_error.borrow_mut().take() {
            return Err(error);
        }
        Ok(build_report(&ctx, report))
    })
}
