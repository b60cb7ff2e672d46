//! The package's `plan()` / `apply()` natively: a request in the API's JSON shape read into the
//! engine's session (`engine::session`), planned with the built-in mocks and, when asked,
//! applied on the virtual clock, its results in the shapes the package returns. Only reading
//! and converting happen here, as in `bindings/engine`; what runs is the session's.
//!
//! [`plan_by`] and [`apply_by`]: the same session with a test's own provider (a mock with
//! delays, failures or a clock of its own), under the limits in force, for the engine's tests
//! that read the plan and the apply's result directly.

#![allow(dead_code)] // each test file uses part of it

use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::rc::Rc;
use tfgraph::config::Config;
use tfgraph::diag::Diagnostics;
use tfgraph::engine::api::{apply_report, changes_json};
use tfgraph::engine::apply::ApplyResult;
use tfgraph::engine::plan::walk::Synchronous;
use tfgraph::engine::session::{self, Applied, ApplyRequest, PlanRequest, Planned};
use tfgraph::engine::PlanOptions;
use tfgraph::eval::limits;
use tfgraph::providers::Provider;

/// Plans `request` (`{ state, variables, mock, destroy, refresh, targets, replace, parallelism }`).
pub fn plan(
    files: &BTreeMap<String, String>,
    config: &Config,
    load_diagnostics: Diagnostics,
    request: &Json,
) -> Planned {
    let strings = |key: &str| -> Vec<String> {
        request[key].as_array().into_iter().flatten().filter_map(|v| v.as_str().map(String::from)).collect()
    };
    session::plan_now(PlanRequest {
        state: request.get("state").filter(|s| !s.is_null()).cloned(),
        mock: request.get("mock").filter(|m| !m.is_null()).cloned(),
        options: PlanOptions {
            variables: request["variables"].as_object().map(|m| m.clone().into_iter().collect()).unwrap_or_default(),
            destroy: request["destroy"].as_bool().unwrap_or(false),
            no_refresh: request["refresh"].as_bool() == Some(false),
            targets: strings("targets"),
            replace: strings("replace"),
            ..PlanOptions::default()
        },
        parallelism: request["parallelism"].as_u64().map_or(10, |n| n as usize),
        ..PlanRequest::new(files.clone(), config.clone(), load_diagnostics)
    })
}

/// Applies `planned` (`request`: `{ state, parallelism }`; `state` given: the state now).
pub fn apply(planned: &Planned, request: &Json) -> Json {
    let applied = session::apply_now(
        planned,
        ApplyRequest {
            state: request.get("state").map(|s| Some(s.clone()).filter(|s| !s.is_null())),
            parallelism: request["parallelism"].as_u64().map_or(10, |n| n as usize),
            ..ApplyRequest::default()
        },
    );
    match applied {
        Applied::Refused { diagnostics, state } => json!({"state": state, "diagnostics": diagnostics, "report": null}),
        Applied::Walked { result, diagnostics, .. } => {
            json!({"state": result.state, "diagnostics": diagnostics, "report": apply_report(&result, false, 0.0)})
        }
    }
}

/// Plans `request` and, when it asks (`apply: true`) and the plan has no errors, applies it:
/// `{ plan, planText, changes, diagnostics, apply }`.
pub fn run(files: &BTreeMap<String, String>, config: &Config, load_diagnostics: Diagnostics, request: &Json) -> Json {
    let planned = plan(files, config, load_diagnostics, request);
    let mut out = json!({
        "plan": planned.json(),
        "planText": planned.text(),
        "changes": serde_json::to_value(changes_json(&planned.plan)).unwrap(),
        "diagnostics": planned.diagnostics(),
        "apply": null,
    });
    if request["apply"].as_bool() == Some(true) && !planned.diagnostics().has_errors() {
        out["apply"] = apply(&planned, &json!({"parallelism": request["parallelism"]}));
    }
    out
}

/// Plans `config` from `state` with `options` through the session, at once, with `provider`.
pub fn plan_by(
    files: &BTreeMap<String, String>,
    config: &Config,
    state: Option<&Json>,
    provider: &dyn Provider,
    options: &PlanOptions,
) -> Planned {
    let request = PlanRequest {
        state: state.cloned(),
        options: options.clone(),
        limits: limits::current(),
        ..PlanRequest::new(files.clone(), config.clone(), Diagnostics::new())
    };
    let p = session::plan_with(&request, provider, &Synchronous);
    // The set gives the plan's JSON and text their schemas; the apply takes `provider` again.
    let set = Rc::new(session::providers(files, config, None));
    Planned::new(request, set, p)
}

/// Applies `planned` with `provider` through the session on the virtual clock, at most
/// `parallelism` operations at once, to the state it was planned from. A refused apply panics
/// with its diagnostics: the engine's tests apply plans without errors.
#[track_caller]
pub fn apply_by(planned: &Planned, provider: &dyn Provider, parallelism: usize) -> ApplyResult {
    let request = ApplyRequest { parallelism, limits: limits::current(), ..ApplyRequest::default() };
    match session::apply_with(planned, request, provider) {
        Applied::Walked { result, .. } => result,
        Applied::Refused { diagnostics, .. } => panic!("the apply was refused: {diagnostics:?}"),
    }
}
