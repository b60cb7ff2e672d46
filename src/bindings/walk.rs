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
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

mod fast;
mod input;
pub(crate) mod options;
mod output;
mod promises;
pub use fast::use_fallbacks_for_tests;
use options::{read_options, AbortListener};
use promises::{PromiseFuture, PromiseTable};

use crate::diag::{Diagnostic, Diagnostics};
use crate::walk::{self as core, CancelToken, Event, EventKind, Visited, Visitor, WalkHooks, WalkOptions};

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
pub(crate) fn macrotask() -> Promise {
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

/// Walks `dag` calling `visit(node, parent)` for each node once everything it depends on has
/// finished, at most `options.parallelism` at a time. Resolves to a `WalkReport`; rejects
/// with a `TfgraphError` (`.diagnostics`) for bad input before visiting anything, or a
/// `TypeError` for arguments of the wrong type.
///
/// The public types (`WalkDag`, `WalkOptions`, `WalkReport`, …) live in one place,
/// `pkg/index.d.ts`, beside `pkg/index.js`'s `walk`, which wraps this raw export.
#[wasm_bindgen(js_name = walk)]
pub fn walk_js(dag: JsValue, visit: JsValue, options: Option<JsValue>) -> Promise {
    future_to_promise(async move {
        let options = read_options(&options.unwrap_or(JsValue::UNDEFINED))?;
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
        Ok(output::build_report(&ctx, report))
    })
}
