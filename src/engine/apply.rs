//! The apply walk, natively: [`Stepper`]'s operations driven on a virtual clock, at most
//! `parallelism` at once, each taking the provider's delay (`delay_ms`) and answered at once.
//! The result is the state v4 Terraform writes, the provider operations grouped in waves,
//! and the events. The package drives the same stepper with real promises and timers
//! (`bindings/engine`).

use super::stepper::{Started, Stepper};
use super::Plan;
use crate::config::model::Config;
use crate::diag::Diagnostics;
use crate::providers::{Op, Provider};
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// Options of [`apply`].
#[derive(Clone, Debug)]
pub struct ApplyOptions {
    pub variables: BTreeMap<String, Json>,
    /// Terraform's `-parallelism` (10 by default).
    pub parallelism: usize,
    /// The lineage of a new state (a prior state keeps its own).
    pub lineage: String,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions {
            variables: BTreeMap::new(),
            parallelism: 10,
            lineage: "00000000-0000-0000-0000-000000000000".into(),
        }
    }
}

/// What happened to one operation, on the virtual clock (milliseconds).
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    Start,
    Complete {
        id: Option<String>,
    },
    Fail,
    Skip,
    /// Never started: the walk was halted.
    Cancel,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub at_ms: u64,
    pub address: String,
    pub deposed: Option<String>,
    pub op: Op,
    /// The object's id before the operation (updates and deletes show it).
    pub prior_id: Option<String>,
    pub kind: EventKind,
}

/// The result of [`apply`].
#[derive(Clone, Debug)]
pub struct ApplyResult {
    /// State v4 JSON.
    pub state: Json,
    pub diagnostics: Diagnostics,
    /// Provider operations grouped by start (`create ADDR`, ` FAILED` appended on failure).
    pub waves: Vec<Vec<String>>,
    pub max_concurrency: usize,
    pub events: Vec<Event>,
    /// Counts for `Apply complete! Resources: N added, M changed, K destroyed.`
    pub added: usize,
    pub changed: usize,
    pub destroyed: usize,
    /// Objects imported by `import` blocks.
    pub imported: usize,
}

/// Applies `plan` (made from `config` and the prior state `prior`) with `provider`.
pub fn apply(
    files: &BTreeMap<String, String>,
    config: &Config,
    plan: &Plan,
    prior: Option<&Json>,
    provider: &dyn Provider,
    options: &ApplyOptions,
) -> ApplyResult {
    let mut s = Stepper::new(files, config, plan, prior, provider, &options.variables, options.lineage.clone());
    let parallelism = options.parallelism.max(1);
    // (end time, operation, succeeded)
    let mut running: Vec<(u64, usize, bool)> = Vec::new();
    let mut now = 0u64;
    let mut events = s.import_events();
    let mut starts: Vec<(u64, String)> = Vec::new();
    let mut max_concurrency = 0;
    let mut skipped = Vec::new();
    loop {
        while running.len() < parallelism {
            let next = s.next_ready(&mut skipped);
            events.extend(skipped.drain(..).map(|b| pending_event(&s, b, EventKind::Skip, now)));
            let Some(b) = next else { break };
            let started = s.start(b, provider);
            let delay = provider.delay_ms(s.ops[b].op, started.name.as_deref());
            events.push(start_event(&s, &started, now));
            // Answered now; dependents see the result when it ends on the clock.
            let response = started
                .request
                .as_ref()
                .ok()
                .map(|r| r.ask(crate::providers::route(provider, &started.provider_config)));
            let (prior_id, deposed) = (started.prior_id.clone(), started.deposed.clone());
            let outcome = s.finish(started, response);
            let ok = outcome.is_ok();
            events.push(end_event(&s, b, prior_id, deposed, &outcome, now + delay));
            let o = &s.ops[b];
            starts.push((now, format!("{} {}{}", o.op.as_str(), o.instance, if ok { "" } else { " FAILED" })));
            running.push((now + delay, b, ok));
            max_concurrency = max_concurrency.max(running.len());
        }
        let Some(t) = running.iter().map(|r| r.0).min() else { break };
        now = t;
        running.retain(|&(end, b, ok)| {
            if end == t {
                s.settle(b, ok);
                false
            } else {
                true
            }
        });
    }
    s.unordered();
    let waves = super::clock::group(&starts, provider.delay_ms(Op::Create, None));
    let state = s.final_state();
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

/// The event of an operation that never starts: skipped behind a failure, or cancelled.
pub fn pending_event(s: &Stepper<'_>, b: usize, kind: EventKind, at_ms: u64) -> Event {
    let o = &s.ops[b];
    Event { at_ms, address: o.instance.clone(), deposed: None, op: o.op, prior_id: None, kind }
}

/// The start event of an operation.
pub fn start_event(s: &Stepper<'_>, started: &Started, at_ms: u64) -> Event {
    let o = &s.ops[started.index];
    Event {
        at_ms,
        address: o.instance.clone(),
        deposed: started.deposed.clone(),
        op: o.op,
        prior_id: started.prior_id.clone(),
        kind: EventKind::Start,
    }
}

/// The end event of an operation, from its outcome; `deposed` as its start had it (the
/// object is gone from the working state once its delete ends).
pub fn end_event(
    s: &Stepper<'_>,
    b: usize,
    prior_id: Option<String>,
    deposed: Option<String>,
    outcome: &super::stepper::Outcome,
    at_ms: u64,
) -> Event {
    let o = &s.ops[b];
    let kind = match outcome {
        Ok(id) => EventKind::Complete { id: id.clone() },
        Err(_) => EventKind::Fail,
    };
    Event { at_ms, address: o.instance.clone(), deposed, op: o.op, prior_id, kind }
}
