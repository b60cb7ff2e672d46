//! `onEvent` during `plan()`, live: the plan walk tells [`LiveEvents`] of each refresh and data
//! source read as it reaches it, which calls `onEvent` at once (the page's worker posts it, the
//! CLI prints its `line`, `Refreshing state...`). With JS providers a resource node runs on
//! provisional answers until it has the real ones (`engine::plan_walk`'s `PlanHost`): an
//! operation's `start` goes out the first time a run reaches it (before the JS provider is
//! asked), its `finish` or `fail` once a run gets the provider's real answer; an operation a
//! later run no longer reaches ends with `cancel`.

use super::js_provider::JsProvider;
use super::timers::elapsed_ms;
use crate::diag::Diagnostic;
use crate::engine::api::event_json;
use crate::engine::apply::{OpEvent, OpEventKind};
use crate::engine::render::progress;
use crate::engine::{OpHook, OpProgress, PlanOp};
use crate::eval::{Kind, Value};
use crate::providers::{Op, ProviderError};
use js_sys::Function;
use serde_json::Value as Json;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

#[derive(Default)]
struct Seen {
    /// Started and not yet ended: when (ms) and its prior id.
    running: BTreeMap<(Op, String), (u64, Option<String>)>,
    ended: HashSet<(Op, String)>,
    /// Every event sent, for `plan.events`.
    events: Vec<Json>,
    /// Provisional answers counted when the operation running now started.
    mark: usize,
    /// What `onEvent` threw first.
    thrown: Option<JsValue>,
}

pub struct LiveEvents {
    on_event: Option<Function>,
    t0: f64,
    /// The JS providers whose provisional answers make an answer not final.
    js: Vec<Rc<JsProvider>>,
    seen: RefCell<Seen>,
}

fn id_of(v: Option<&Value>) -> Option<String> {
    match &v?.kind {
        Kind::Object(m) => m.get("id").and_then(|x| x.as_str()).map(String::from),
        _ => None,
    }
}

impl LiveEvents {
    pub fn new(on_event: Option<Function>, js: Vec<Rc<JsProvider>>) -> Rc<LiveEvents> {
        Rc::new(LiveEvents { on_event, t0: elapsed_ms(0.0), js, seen: RefCell::default() })
    }

    /// The plan option calling back here.
    pub fn hook(self: &Rc<Self>) -> OpHook {
        let me = Rc::clone(self);
        OpHook(Rc::new(move |op: &PlanOp, p: OpProgress<'_>| me.on_op(op, p)))
    }

    fn provisional(&self) -> usize {
        self.js.iter().map(|j| j.answered.provisional_count()).sum()
    }

    fn emit(&self, seen: &mut Seen, e: OpEvent, elapsed: Option<u64>, error: Option<&ProviderError>) {
        let mut j = event_json(&e, "plan");
        if let Some(ms) = elapsed {
            j["elapsedMs"] = ms.into();
        }
        if let Some(line) = progress::line_in(&e, true, &progress::elapsed_text(e.at_ms, elapsed.unwrap_or(0))) {
            j["line"] = line.into();
        }
        if let Some(err) = error {
            let d = Diagnostic::error(err.summary.clone(), err.detail.clone()).with_address(e.address.clone());
            j["diagnostics"] = serde_json::to_value([d]).unwrap_or_default();
        }
        if let (Some(f), None) = (&self.on_event, &seen.thrown) {
            if let Err(err) = f.call1(&JsValue::UNDEFINED, &crate::bindings::to_js(&j).unwrap_or(JsValue::UNDEFINED)) {
                seen.thrown = Some(err);
            }
        }
        seen.events.push(j);
    }

    fn on_op(&self, op: &PlanOp, p: OpProgress<'_>) {
        let now = elapsed_ms(self.t0) as u64;
        let key = (op.op, op.address.clone());
        let mut seen = self.seen.borrow_mut();
        let seen = &mut *seen;
        let event = |kind, prior_id| OpEvent {
            at_ms: now,
            address: op.address.clone(),
            deposed: None,
            op: op.op,
            prior_id,
            kind,
        };
        match p {
            OpProgress::Start { prior } => {
                seen.mark = self.provisional();
                if seen.ended.contains(&key) || seen.running.contains_key(&key) {
                    return;
                }
                let prior_id = id_of(prior);
                seen.running.insert(key, (now, prior_id.clone()));
                self.emit(seen, event(OpEventKind::Start, prior_id), None, None);
            }
            OpProgress::Finish { .. } | OpProgress::Fail { .. } => {
                if self.provisional() != seen.mark || seen.ended.contains(&key) {
                    return;
                }
                let Some((began, prior_id)) = seen.running.remove(&key) else { return };
                seen.ended.insert(key);
                let (kind, error) = match p {
                    OpProgress::Finish { object } => (OpEventKind::Complete { id: id_of(object) }, None),
                    OpProgress::Fail { error } => (OpEventKind::Fail, Some(error)),
                    OpProgress::Start { .. } => return,
                };
                self.emit(seen, event(kind, prior_id), Some(now - began), error);
            }
        }
    }

    /// Ends what the last pass no longer reached; `Err`: what `onEvent` threw.
    pub fn finish(&self) -> Result<Vec<Json>, JsValue> {
        let mut seen = self.seen.borrow_mut();
        let seen = &mut *seen;
        let now = elapsed_ms(self.t0) as u64;
        for ((op, address), (_, prior_id)) in std::mem::take(&mut seen.running) {
            self.emit(
                seen,
                OpEvent { at_ms: now, address, deposed: None, op, prior_id, kind: OpEventKind::Cancel },
                None,
                None,
            );
        }
        match seen.thrown.take() {
            Some(e) => Err(e),
            None => Ok(std::mem::take(&mut seen.events)),
        }
    }
}
