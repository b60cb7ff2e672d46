//! The apply graph checked at plan time (Terraform's `checkApplyGraph`, context_plan.go): once
//! a plan without errors changes something, the graph that would apply it is built, and its
//! errors refuse the plan. Cycles through destroy nodes (a replacement ordered against a
//! dependency's destroy) exist only in the apply graph, so without this they would surface
//! halfway through an apply instead of before it.

use super::Plan;
use crate::config::Config;
use crate::diag::Diagnostics;
use crate::graph::{build, BuildOptions, Operation, PlanMode};
use crate::plans::{Action, Changes, ResourceChange};

/// The errors of the apply graph of `plan` (none when it changes nothing, as Terraform skips
/// the check then), cycles in the one-line form `terraform plan` prints.
pub fn check(config: &Config, plan: &Plan) -> Diagnostics {
    // `plans.Changes.Empty()`: no resource action, no move, no root output change.
    let empty = plan.changes.iter().all(|c| c.action == Action::NoOp && c.previous_address.is_none()) && plan.outputs.iter().all(|o| o.action == Action::NoOp);
    if empty {
        return Diagnostics::new();
    }
    let changes = Changes {
        resources: plan
            .changes
            .iter()
            .map(|c| ResourceChange { module: c.module.clone(), resource: c.resource(), key: c.key.as_ref().map(ToString::to_string), deposed: c.deposed.clone(), action: c.action })
            .collect(),
    };
    let state = plan.prior_state.as_ref().map(|s| crate::state::state_from_value(s).0);
    let options = BuildOptions {
        operation: Operation::Apply,
        mode: if plan.destroy { PlanMode::Destroy } else { PlanMode::Normal },
        state,
        changes: Some(changes),
        reduce: false,
        trace_steps: false,
    };
    let built = build(config, &options);
    Diagnostics(built.diagnostics.errors().map(one_line_cycle).collect())
}

/// A cycle's names on one line, comma-separated, as `terraform plan` prints `Cycle: ...`;
/// other errors unchanged.
pub fn one_line_cycle(d: &crate::diag::Diagnostic) -> crate::diag::Diagnostic {
    let mut d = d.clone();
    if let Some(rest) = d.summary.strip_prefix("Cycle:") {
        let names: Vec<&str> = rest.split(['\n', ',']).map(str::trim).filter(|s| !s.is_empty()).collect();
        d.summary = format!("Cycle: {}", names.join(", "));
    }
    d
}
