//! `plan -destroy`, as Terraform's `Context.destroyPlan` (`internal/terraform/context_plan.go`)
//! makes it: unless `-refresh=false` or the state is empty, a normal plan first refreshes the
//! state (`PreDestroyRefresh`: data sources read, managed objects refreshed, nothing imported,
//! conditions only warnings); its errors are the destroy plan's and nothing more is planned,
//! otherwise its diagnostics and changes are dropped. Then `walkPlanDestroy` walks the
//! plan-destroy graph over the refreshed state (its `PriorState`, as the plan's prior state):
//! a `(destroy)` node per object plans its `Delete`, each root output in the state is deleted.
//! The refreshed state is what the plan shows and the apply starts from.

use super::nodes::{walk_plan, Phase};
use super::walk::PlanHost;
use crate::config::Config;
use crate::engine::shared::checks::{CheckResult, Kind2, Status};
use crate::engine::shared::plan::{Plan, PlanOptions};
use crate::providers::Provider;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// Plans the destruction of everything in `prior` (state v4 JSON), as [`super::plan_walked`].
pub async fn plan(
    files: &BTreeMap<String, String>,
    config: &Config,
    prior: Option<&Json>,
    provider: &dyn Provider,
    options: &PlanOptions,
    host: &dyn PlanHost,
    parallelism: usize,
) -> Plan {
    // `-replace` is refused in a destroy plan before anything runs.
    let refused = crate::engine::shared::targets::check_options(options);
    if refused.has_errors() {
        return Plan { destroy: true, prior_state: prior.cloned(), diagnostics: refused, ..Plan::default() };
    }
    if options.no_refresh || prior.is_none_or(is_empty) {
        return walk_plan(files, config, prior, provider, options, host, parallelism, Phase::Destroy(None)).await;
    }
    let refreshing = PlanOptions { destroy: false, ..options.clone() };
    let refreshed =
        walk_plan(files, config, prior, provider, &refreshing, host, parallelism, Phase::PreDestroyRefresh).await;
    if refreshed.diagnostics.has_errors() {
        // No plan: Terraform returns the refresh's diagnostics alone.
        return Plan {
            destroy: true,
            prior_state: prior.cloned(),
            diagnostics: refreshed.diagnostics,
            ops: refreshed.ops,
            refused: true,
            targets: options.targets.clone(),
            ..Plan::default()
        };
    }
    let state = refreshed.prior_state.clone();
    let phase = Phase::Destroy(Some(Box::new(refreshed)));
    walk_plan(files, config, state.as_ref(), provider, options, host, parallelism, phase).await
}

/// Terraform's `State.Empty`: no root outputs and no resources.
fn is_empty(state: &Json) -> bool {
    let none = |key: &str| match state.get(key) {
        Some(Json::Object(m)) => m.is_empty(),
        Some(Json::Array(a)) => a.is_empty(),
        _ => true,
    };
    none("outputs") && none("resources")
}

/// A destroy plan's checks: the plan-destroy graph evaluates no condition, so every checkable
/// object of the configuration is unknown; only a root output's node (`nodeExpandOutput`,
/// planning) reports its instance, and none is kept under `-target`.
pub(super) fn unknown_checks(config: &Config, targeted: bool) -> Vec<CheckResult> {
    let unknown =
        |kind, config_addr: String, objects| CheckResult { kind, config_addr, status: Status::Unknown, objects };
    let mut out = Vec::new();
    for r in &config.root.resources {
        if !r.lifecycle.preconditions.is_empty() || !r.lifecycle.postconditions.is_empty() {
            let kind = Kind2::Resource { mode: r.mode, type_name: r.type_name.clone(), name: r.name.clone() };
            out.push(unknown(kind, r.addr().to_string(), None));
        }
    }
    for o in config.root.outputs.iter().filter(|o| !o.preconditions.is_empty()) {
        let addr = format!("output.{}", o.name);
        let instance = (!targeted).then(|| vec![(addr.clone(), Status::Unknown, Vec::new())]);
        out.push(unknown(Kind2::Output { name: o.name.clone() }, addr, instance));
    }
    for c in &config.root.checks {
        out.push(unknown(Kind2::Check { name: c.name.clone() }, format!("check.{}", c.name), None));
    }
    out
}
