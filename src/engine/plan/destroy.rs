//! `plan -destroy`, as Terraform's `Context.destroyPlan` (`internal/terraform/context_plan.go`)
//! makes it ([`super::plan_walked`] runs the two walks): unless `-refresh=false` or the state is
//! empty, a normal plan first refreshes the state (`PreDestroyRefresh`: data sources read,
//! managed objects refreshed, nothing imported, conditions only warnings); its errors are the
//! destroy plan's and nothing more is planned, otherwise its diagnostics and changes are
//! dropped. Then `walkPlanDestroy` walks the plan-destroy graph over the refreshed state (its
//! `PriorState`, the plan's prior state): a `(destroy)` node per object plans its `Delete`,
//! each root output in the state is deleted. The refreshed state is what the plan
//! shows and the apply starts from. Here: what decides between the two and what the destroy
//! walk reports without evaluating.

use crate::config::Config;
use crate::engine::shared::checks::{CheckResult, Kind2, Status};
use serde_json::Value as Json;

/// Terraform's `State.Empty`: no root outputs and no resources.
pub(super) fn is_empty(state: &Json) -> bool {
    let none = |key: &str| match state.get(key) {
        Some(Json::Object(m)) => m.is_empty(),
        Some(Json::Array(a)) => a.is_empty(),
        _ => true,
    };
    none("outputs") && none("resources")
}

/// A destroy plan's checks: the plan-destroy graph evaluates no condition, so every checkable
/// object of the root module is unknown; only a root output's node (`nodeExpandOutput`,
/// planning) reports its instance, and none is kept under `-target`.
pub(super) fn unknown_checks(config: &Config, targeted: bool) -> Vec<CheckResult> {
    let mut out = Vec::new();
    let mut unknown = |kind, config_addr: String, instance: bool| {
        let objects = instance.then(|| vec![(config_addr.clone(), Status::Unknown, Vec::new())]);
        out.push(CheckResult { kind, config_addr, status: Status::Unknown, objects });
    };
    for r in &config.root.resources {
        if !r.lifecycle.preconditions.is_empty() || !r.lifecycle.postconditions.is_empty() {
            let kind = Kind2::Resource { mode: r.mode, type_name: r.type_name.clone(), name: r.name.clone() };
            unknown(kind, r.addr().to_string(), false);
        }
    }
    for o in config.root.outputs.iter().filter(|o| !o.preconditions.is_empty()) {
        unknown(Kind2::Output { name: o.name.clone() }, format!("output.{}", o.name), !targeted);
    }
    for c in &config.root.checks {
        unknown(Kind2::Check { name: c.name.clone() }, format!("check.{}", c.name), false);
    }
    out
}
