//! The apply walk in the package: the engine's [`Stepper`] driven by real time. At most
//! `parallelism` provider operations are in flight (a `FuturesUnordered` of them); the
//! built-in mock's answers arrive after its delay as a real timer (`setTimeout`), a JS
//! provider's when its promises settle. Events go to `onEvent` as they happen, the state to
//! `onState` after each object ([`StatePacing`]: coalesced once a state costs enough to slow the
//! walk). An abort (Terraform's stop) starts nothing new and lets what is in flight finish; the
//! state then holds everything done.

use super::timers::{elapsed_ms, sleep, turn};
use super::Route;
use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::api::event_json;
use crate::engine::apply::{end_event, pending_event, start_event, ApplyResult, Event, EventKind};
use crate::engine::stepper::{Response, Started, Stepper};
use crate::providers::Op;
use crate::walk::CancelToken;
use futures_util::future::LocalBoxFuture;
use futures_util::stream::{FuturesUnordered, StreamExt};
use js_sys::Function;
use serde_json::Value as Json;
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
    pub fn event(&mut self, e: &Event, elapsed: Option<u64>, diagnostics: Option<&Diagnostics>) {
        let Some(f) = &self.on_event else { return };
        let mut j = event_json(e, "apply");
        if let Some(ms) = elapsed {
            j["elapsedMs"] = ms.into();
        }
        if let Some(d) = diagnostics {
            j["diagnostics"] = serde_json::to_value(d).unwrap_or_default();
        }
        let arg = crate::bindings::to_js(&j).unwrap_or(JsValue::UNDEFINED);
        if let Err(err) = f.call1(&JsValue::UNDEFINED, &arg) {
            self.fail("onEvent", &err);
        }
    }

    /// An object was written: `onState` gets the state now, or with a later object (see
    /// [`StatePacing`]).
    fn wrote(&mut self, s: &Stepper<'_>) {
        if self.on_state.is_none() {
            return;
        }
        self.pacing.behind = true;
        if self.pacing.due() {
            self.state(s);
        }
    }

    /// Passes the state now to `onState`.
    fn state(&mut self, s: &Stepper<'_>) {
        if self.on_state.is_some() {
            self.pass(&s.state());
        }
    }

    /// Passes `state` to `onState`.
    fn pass(&mut self, state: &Json) {
        let Some(f) = &self.on_state else { return };
        let t0 = elapsed_ms(0.0);
        // As JSON text parsed by the JS engine: cheaper than converting it value by value.
        let text = serde_json::to_string(&crate::engine::TerraformOrder(state)).unwrap_or_else(|_| "null".into());
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

/// Runs the walk to its end (or its halt) and returns what [`crate::engine::apply::apply`]
/// returns natively, with real times.
pub async fn apply_walk(s: &mut Stepper<'_>, route: &Route<'_>, parallelism: usize, hooks: &mut Hooks) -> ApplyResult {
    let provider = route.provider();
    let t0 = elapsed_ms(0.0);
    let now = || elapsed_ms(t0) as u64;
    let mut inflight: FuturesUnordered<LocalBoxFuture<'_, (Started, Option<Response>)>> = FuturesUnordered::new();
    let mut events: Vec<Event> = s.import_events();
    for e in &events {
        hooks.event(e, None, None);
    }
    let mut begun: Vec<u64> = vec![0; s.ops.len()];
    let mut starts: Vec<(u64, String)> = Vec::new();
    let mut skipped = Vec::new();
    let (mut max_concurrency, mut halted, mut settled) = (0, false, 0usize);
    let mut halt_diagnostic = false;
    loop {
        if !halted && hooks.cancel.is_cancelled() {
            halted = true;
            halt_diagnostic = hooks.callback_error.is_none();
            for b in s.halt() {
                let e = pending_event(s, b, EventKind::Cancel, now());
                hooks.event(&e, None, None);
                events.push(e);
            }
        }
        while !halted && inflight.len() < parallelism.max(1) {
            let next = s.next_ready(&mut skipped);
            for b in skipped.drain(..) {
                let e = pending_event(s, b, EventKind::Skip, now());
                hooks.event(&e, None, None);
                events.push(e);
            }
            let Some(b) = next else { break };
            let started = s.start(b, provider);
            begun[b] = now();
            let e = start_event(s, &started, begun[b]);
            hooks.event(&e, None, None);
            events.push(e);
            let delay = provider.delay_ms(s.ops[b].op, started.name.as_deref());
            // A JS configuration's first operation configures it, over the state as it is now:
            // what its block reaches has been applied (`engine::provider_block`).
            let configure =
                (started.request.is_ok() && route.needs_configure(&started.provider_config)).then(|| s.state());
            let instance = s.ops[b].instance.clone();
            inflight.push(Box::pin(async move {
                let mut started = started;
                if let Some(state) = &configure {
                    if let Err(d) = route.configure(&started.provider_config, state).await {
                        started.request = Err(d);
                    }
                }
                let response = match &started.request {
                    Ok(r) => Some(route.respond(r, &started.provider_config, delay, &instance).await),
                    Err(_) => None,
                };
                (started, response)
            }));
            max_concurrency = max_concurrency.max(inflight.len());
        }
        let next = if hooks.pacing.behind {
            // A state held back by pacing is passed once due, even if no operation ends first.
            match futures_util::future::select(inflight.next(), Box::pin(sleep(hooks.pacing.wait_ms()))).await {
                futures_util::future::Either::Left((next, _)) => next,
                futures_util::future::Either::Right(_) => {
                    hooks.state(s);
                    continue;
                }
            }
        } else {
            inflight.next().await
        };
        let Some((started, response)) = next else { break };
        let b = started.index;
        let (prior_id, deposed) = (started.prior_id.clone(), started.deposed.clone());
        let outcome = s.finish(started, response);
        let ok = outcome.is_ok();
        s.settle(b, ok);
        let end = now();
        let e = end_event(s, b, prior_id, deposed, &outcome, end);
        hooks.event(&e, Some(end - begun[b]), outcome.as_ref().err());
        events.push(e);
        let o = &s.ops[b];
        starts.push((begun[b], format!("{} {}{}", o.op.as_str(), o.instance, if ok { "" } else { " FAILED" })));
        hooks.wrote(s);
        settled += 1;
        // A long run of instant operations yields now and then, so a page keeps drawing.
        if settled % 256 == 0 {
            turn().await;
        }
    }
    s.unordered();
    if halt_diagnostic {
        // Terraform's stop hook: `errors.New("execution halted")`.
        s.diagnostics.push(Diagnostic::error("execution halted", ""));
    }
    if let Some(msg) = &hooks.callback_error {
        s.diagnostics.push(Diagnostic::error("Apply callback failed", msg.clone()));
    }
    crate::util::sort::sort_by_key(&mut starts, |(t, _)| *t);
    let waves = crate::engine::clock::group(&starts, provider.delay_ms(Op::Create, None));
    let state = s.final_state();
    // The walk's result, as Terraform persists it last: passed unless the last state passed
    // was it already (nothing written since, and the final write did not advance the serial).
    if hooks.pacing.behind
        || (hooks.pacing.serial.is_some() && hooks.pacing.serial != state.get("serial").and_then(Json::as_u64))
    {
        hooks.pass(&state);
    }
    ApplyResult {
        state,
        diagnostics: s.diagnostics.clone(),
        waves,
        max_concurrency,
        events,
        added: s.added,
        changed: s.changed,
        destroyed: s.destroyed,
        imported: s.imported,
    }
}

/// Waits `delay` milliseconds (the mock's duration), or a microtask when it is 0.
pub async fn after(delay: u64) {
    if delay > 0 {
        sleep(delay).await;
    }
}
