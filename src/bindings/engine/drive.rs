//! The package's host of the apply walk (`engine::apply_walk`): real time, a JS provider's
//! promises and the built-in mock's delays as real timers (`setTimeout`). It decides nothing
//! about what runs when; it answers the walk and reports to the page. Events go to `onEvent`
//! as they happen, each with its progress line (`engine::progress`), and with them, when the
//! package asks for them (`onWalkEvent`), every apply-graph node's start and end as the walk
//! runs it, in `walk()`'s shape (`{ type, node, time }`). The state goes to `onState` after
//! each object ([`StatePacing`]: coalesced once a state costs enough to slow the walk). An
//! abort (Terraform's stop) or a throwing callback cancels the walk: nothing new starts, what
//! is in flight finishes.

use super::js_set::{Configuring, JsProviders};
use super::timers::{elapsed_ms, sleep, turn};
use crate::diag::Diagnostics;
use crate::engine::api::event_json;
use crate::engine::apply::nodes::{ApplyNodes, Request, Response};
use crate::engine::apply::walk::ApplyHost;
use crate::engine::apply::OpEvent;
use crate::engine::render::progress;
use crate::walk::{CancelToken, EventKind};
use futures_util::future::LocalBoxFuture;
use js_sys::{Function, Object, Reflect};
use serde_json::Value as Json;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Poll, Waker};
use wasm_bindgen::prelude::*;

/// The callbacks of one walk.
pub struct Hooks {
    pub on_event: Option<Function>,
    pub on_state: Option<Function>,
    pub cancel: CancelToken,
    /// What a callback threw (the walk halts, as on abort).
    pub callback_error: Option<String>,
    pub pacing: StatePacing,
}

/// When `onState` is called. Each call makes the whole state (its outputs evaluated, converted
/// for JS), so calling it after every object of a large apply is quadratic: 2,000 instant
/// operations took 40 s of CPU instead of 0.4 s. Terraform writes the state after each object
/// too, but its statemgr throttles what it persists (`PersistInterval`). Here a state that
/// takes under [`StatePacing::CHEAP_MS`] is passed after every object, as before; a dearer one
/// waits until [`StatePacing::SPACING`] times its cost has passed since the last call (objects
/// written meanwhile come with the next one), which keeps the callback's share of the walk
/// under a fifth. A state held back comes when that time is up even if nothing else is written
/// (the CLI's state file then holds every object done while a long operation runs); the walk's
/// last state is always passed.
#[derive(Default)]
pub struct StatePacing {
    /// What the last call took (making the state and the callback), in ms.
    cost_ms: f64,
    /// When the last call ended (`elapsed_ms(0)`).
    ended_at: f64,
    /// Objects were written since the last call.
    pub behind: bool,
    /// The serial of the last state passed.
    serial: Option<u64>,
}

impl StatePacing {
    const CHEAP_MS: f64 = 1.0;
    const SPACING: f64 = 4.0;

    fn due(&self) -> bool {
        self.cost_ms < Self::CHEAP_MS || elapsed_ms(self.ended_at) >= self.cost_ms * Self::SPACING
    }

    /// How long a held-back state has still to wait, in whole ms.
    fn wait_ms(&self) -> u64 {
        (self.cost_ms * Self::SPACING - elapsed_ms(self.ended_at)).max(0.0).ceil() as u64
    }
}

impl Hooks {
    /// Calls `onEvent` with the event; a throw halts the walk.
    pub fn event(&mut self, e: &OpEvent, elapsed: Option<u64>, diagnostics: Option<&Diagnostics>) {
        let Some(f) = &self.on_event else { return };
        let mut j = event_json(e, "apply");
        if let Some(ms) = elapsed {
            j["elapsedMs"] = ms.into();
        }
        if let Some(line) = progress::line_in(e, false, &progress::elapsed_text(e.at_ms, elapsed.unwrap_or(0))) {
            j["line"] = line.into();
        }
        if let Some(d) = diagnostics {
            j["diagnostics"] = serde_json::to_value(d).unwrap_or_default();
        }
        let arg = crate::bindings::to_js(&j).unwrap_or(JsValue::UNDEFINED);
        if let Err(err) = f.call1(&JsValue::UNDEFINED, &arg) {
            self.fail("onEvent", &err);
        }
    }

    /// Calls `onEvent` with a node's walk event, in `walk()`'s shape; a throw halts the walk.
    fn node_event(&mut self, name: &str, kind: EventKind, time: f64) {
        let Some(f) = &self.on_event else { return };
        let object = Object::new();
        let _ = Reflect::set(&object, &"type".into(), &kind.as_str().into());
        let _ = Reflect::set(&object, &"node".into(), &name.into());
        let _ = Reflect::set(&object, &"time".into(), &time.into());
        if let Err(err) = f.call1(&JsValue::UNDEFINED, &object) {
            self.fail("onEvent", &err);
        }
    }

    /// An object was written: `onState` gets the state now, or with a later object (see
    /// [`StatePacing`]).
    fn wrote(&mut self, s: &ApplyNodes<'_>) {
        if self.on_state.is_none() {
            return;
        }
        self.pacing.behind = true;
        if self.pacing.due() {
            self.state(s);
        }
    }

    /// Passes the state now to `onState`.
    fn state(&mut self, s: &ApplyNodes<'_>) {
        if self.on_state.is_some() {
            self.pass(&s.state());
        }
    }

    /// Passes `state` to `onState`.
    fn pass(&mut self, state: &Json) {
        let Some(f) = &self.on_state else { return };
        let t0 = elapsed_ms(0.0);
        // As JSON text parsed by the JS engine: cheaper than converting it value by value.
        let text = serde_json::to_string(&crate::engine::apply::state_write::TerraformOrder(state))
            .unwrap_or_else(|_| "null".into());
        let arg = js_sys::JSON::parse(&text).unwrap_or(JsValue::UNDEFINED);
        // The text too: its numbers exact, for a caller that writes the state out (the CLI).
        let called = f.call2(&JsValue::UNDEFINED, &arg, &JsValue::from_str(&text));
        let serial = state.get("serial").and_then(Json::as_u64);
        self.pacing = StatePacing { cost_ms: elapsed_ms(t0), ended_at: elapsed_ms(0.0), behind: false, serial };
        if let Err(err) = called {
            self.fail("onState", &err);
        }
    }

    fn fail(&mut self, name: &str, err: &JsValue) {
        if self.callback_error.is_none() {
            self.callback_error = Some(format!("{name} threw: {}", super::js_provider::describe(err)));
        }
        self.cancel.cancel();
    }
}

/// The package's [`ApplyHost`].
pub struct JsHost<'r> {
    /// The JS providers, serving their configurations beside the mocks, and what configuring
    /// them needs.
    js: &'r JsProviders,
    how: &'r Configuring<'r>,
    pub hooks: RefCell<Hooks>,
    /// `performance.now()` when the walk began.
    pub t0: f64,
    /// The pacer waiting for a state to be held back ([`ApplyHost::beside`]).
    pacer: RefCell<Option<Waker>>,
    /// `onEvent` takes the walk's node events too (the package sets `walkEvents` on it when
    /// the caller gave `onWalkEvent`).
    node_events: bool,
}

impl<'r> JsHost<'r> {
    pub fn new(js: &'r JsProviders, how: &'r Configuring<'r>, hooks: Hooks) -> Self {
        let node_events =
            hooks.on_event.as_ref().is_some_and(|f| Reflect::get(f, &"walkEvents".into()).is_ok_and(|v| v.is_truthy()));
        JsHost { js, how, hooks: RefCell::new(hooks), t0: elapsed_ms(0.0), pacer: RefCell::new(None), node_events }
    }
}

impl ApplyHost for JsHost<'_> {
    fn now(&self) -> f64 {
        elapsed_ms(self.t0)
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        // No timer for no delay: a long run of instant operations would wait on each.
        Box::pin(async move {
            if ms > 0 {
                sleep(ms).await;
            }
        })
    }

    fn respond<'s>(
        &'s self,
        request: &'s Request,
        provider_config: &'s str,
        instance: &'s str,
    ) -> Option<LocalBoxFuture<'s, Response>> {
        let j = self.js.for_config(provider_config)?;
        Some(Box::pin(j.respond(request, instance)))
    }

    fn needs_configure(&self, provider_config: &str) -> bool {
        self.js.needs_configure(provider_config)
    }

    /// Configures `provider_config` for an apply operation with its block evaluated over
    /// `state`, the working state as the operation starts (see `js_set`).
    fn configure<'s>(
        &'s self,
        provider_config: &'s str,
        state: &'s Json,
    ) -> LocalBoxFuture<'s, Result<(), Diagnostics>> {
        Box::pin(self.js.configure_for_operation(provider_config, self.how, state))
    }

    fn event(&self, event: &OpEvent, elapsed_ms: Option<u64>, diagnostics: Option<&Diagnostics>) {
        self.hooks.borrow_mut().event(event, elapsed_ms, diagnostics);
    }

    fn node_event(&self, name: &str, kind: EventKind, time: f64) {
        if self.node_events {
            self.hooks.borrow_mut().node_event(name, kind, time);
        }
    }

    fn wrote(&self, nodes: &ApplyNodes<'_>) {
        self.hooks.borrow_mut().wrote(nodes);
        if self.hooks.borrow().pacing.behind {
            if let Some(w) = self.pacer.borrow_mut().take() {
                w.wake();
            }
        }
    }

    fn yield_now(&self) -> Option<Pin<Box<dyn Future<Output = ()>>>> {
        // A long run of instant operations yields now and then, so a page keeps drawing.
        Some(Box::pin(turn()))
    }

    fn beside<'s>(&'s self, nodes: &'s RefCell<ApplyNodes<'_>>) -> LocalBoxFuture<'s, ()> {
        // A state held back by pacing is passed once due, even if no operation ends first.
        Box::pin(async move {
            loop {
                std::future::poll_fn(|cx| {
                    if self.hooks.borrow().pacing.behind {
                        Poll::Ready(())
                    } else {
                        *self.pacer.borrow_mut() = Some(cx.waker().clone());
                        Poll::Pending
                    }
                })
                .await;
                let wait = self.hooks.borrow().pacing.wait_ms();
                sleep(wait).await;
                let mut hooks = self.hooks.borrow_mut();
                if hooks.pacing.behind {
                    hooks.state(&nodes.borrow());
                }
            }
        })
    }

    fn callback_error(&self) -> Option<String> {
        self.hooks.borrow().callback_error.clone()
    }

    /// The walk's result, as Terraform persists it last: passed unless the last state passed
    /// was it already (nothing written since, and the final write did not advance the serial).
    fn finished(&self, state: &Json) {
        let mut hooks = self.hooks.borrow_mut();
        if hooks.pacing.behind
            || (hooks.pacing.serial.is_some() && hooks.pacing.serial != state.get("serial").and_then(Json::as_u64))
        {
            hooks.pass(state);
        }
    }

    fn reserve_heap(&self, bytes: usize) {
        super::super::graph::reserve_heap(bytes);
    }
}
