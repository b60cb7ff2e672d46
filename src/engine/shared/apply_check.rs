//! The apply graph checked at plan time (Terraform's `checkApplyGraph`, context_plan.go): once
//! a plan without errors changes something, the graph that would apply it is built, and its
//! errors refuse the plan. Cycles through destroy nodes (a replacement ordered against a
//! dependency's destroy) exist only in the apply graph, so without this they would surface
//! halfway through an apply instead of before it. The graph checked is the graph the apply
//! walks ([`ApplyGraph`]), built once and kept with the plan.

use super::apply_graph::{build_graph, ApplyGraph};
use super::plan::Plan;
use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::plans::Action;
use std::sync::Arc;

/// The errors of the apply graph of `plan` (none when it changes nothing, as Terraform skips
/// the check then), cycles in the one-line form `terraform plan` prints; and the graph, ready
/// to walk, when it has none.
pub fn check(config: &Config, plan: &Plan) -> (Diagnostics, Option<Arc<ApplyGraph>>) {
    // `plans.Changes.Empty()`: no resource action, no move, no root output change.
    let empty = plan.changes.iter().all(|c| c.action == Action::NoOp && c.previous_address.is_none())
        && plan.outputs.iter().all(|o| o.action == Action::NoOp);
    if empty {
        return (Diagnostics::new(), None);
    }
    let (graph, errors) = build_graph(config, plan);
    if errors.has_errors() {
        return (Diagnostics(errors.iter().map(one_line_cycle).collect()), None);
    }
    match ApplyGraph::new(&graph, plan) {
        Some(walkable) => (Diagnostics::new(), Some(Arc::new(walkable))),
        // Every cycle is an error of the build: this is a graph the check above let through.
        None => {
            let mut d = Diagnostics::new();
            d.push(Diagnostic::error("Cycle in the apply graph", ""));
            (d, None)
        }
    }
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
