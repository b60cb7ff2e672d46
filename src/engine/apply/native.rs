//! The apply natively: the apply walk (`apply_walk`) on a virtual clock with the built-in mocks.
//! The result is the state v4 Terraform writes, the provider operations grouped in waves, and
//! the events. The package runs the same walk on real timers and JS promises
//! (`bindings/engine`).

use super::stepper::{Request, Response, Started, Stepper};
use super::walk::ApplyHost;
use crate::config::model::Config;
use crate::diag::Diagnostics;
use crate::engine::shared;
use crate::engine::Plan;
use crate::providers::{Op, Provider};
use crate::walk::CancelToken;
use futures_util::future::LocalBoxFuture;
use serde_json::Value as Json;
use shared::clock::VirtualClock;
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

/// Applies `plan` (made from `config` and the prior state `prior`) with `provider`: its apply
/// graph walked on a virtual clock (`apply_walk`), each provider operation answered at once and
/// taking the provider's delay (`delay_ms`) of virtual time.
pub fn apply(
    files: &BTreeMap<String, String>,
    config: &Config,
    plan: &Plan,
    prior: Option<&Json>,
    provider: &dyn Provider,
    options: &ApplyOptions,
) -> ApplyResult {
    let s = Stepper::new(files, config, plan, prior, provider, &options.variables, options.lineage.clone());
    let clock = VirtualClock::default();
    let host = Virtual { clock: &clock, provider };
    clock.run(super::walk::run(s, config, provider, &host, options.parallelism, CancelToken::new()))
}

/// The native host: virtual time, the provider answering at once.
struct Virtual<'c> {
    clock: &'c VirtualClock,
    provider: &'c dyn Provider,
}

impl ApplyHost for Virtual<'_> {
    fn now(&self) -> f64 {
        self.clock.now() as f64
    }

    fn respond<'s>(
        &'s self,
        request: Option<&'s Request>,
        provider_config: &'s str,
        delay: u64,
        _instance: &'s str,
    ) -> LocalBoxFuture<'s, Option<Response>> {
        // Answered now; dependents see the result when it ends on the clock.
        let response = request.map(|r| r.ask(crate::providers::route(self.provider, provider_config)));
        Box::pin(async move {
            self.clock.sleep(delay).await;
            response
        })
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
