//! The apply graph checked at plan time (Terraform's `checkApplyGraph`, context_plan.go): once
//! a plan without errors changes something, the graph that would apply it is built, and its
//! errors refuse the plan. Cycles through destroy nodes (a replacement ordered against a
//! dependency's destroy) exist only in the apply graph, so without this they would surface
//! halfway through an apply instead of before it.

use super::stepper::{OpNode, Stepper};
use super::Plan;
use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::graph::{build, BuildOptions, Operation, PlanMode};
use crate::plans::{preallocated_deposed_key, Action, Changes, ResourceChange};
use crate::providers::{Op, Provider};
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashSet};

/// What the apply of a plan starts from, to order its operations as the apply will.
pub struct ApplyInputs<'a> {
    pub files: &'a BTreeMap<String, String>,
    /// The state the plan was made from (before `moved` blocks).
    pub prior: Option<&'a Json>,
    pub provider: &'a dyn Provider,
    pub variables: &'a BTreeMap<String, Json>,
}

/// The errors of the apply graph of `plan` (none when it changes nothing, as Terraform skips
/// the check then), cycles in the one-line form `terraform plan` prints. Graph/'s apply graph
/// names a cycle with Terraform's node names; where it finds none, the apply's own order of
/// operations is checked too, so that no plan accepted here gets stuck halfway through its
/// apply (its cycles named as Terraform names those nodes).
pub fn check(config: &Config, plan: &Plan, apply: &ApplyInputs<'_>) -> Diagnostics {
    // `plans.Changes.Empty()`: no resource action, no move, no root output change.
    let empty = plan.changes.iter().all(|c| c.action == Action::NoOp && c.previous_address.is_none())
        && plan.outputs.iter().all(|o| o.action == Action::NoOp);
    if empty {
        return Diagnostics::new();
    }
    let found = graph_errors(config, plan);
    if found.has_errors() {
        return found;
    }
    let stepper = Stepper::new(apply.files, config, plan, apply.prior, apply.provider, apply.variables, String::new());
    let mut out = Diagnostics::new();
    for cycle in stepper.cycles() {
        let names: Vec<String> = cycle.iter().map(|&b| node_name(plan, &stepper.ops[b])).collect();
        out.push(Diagnostic::error(format!("Cycle: {}", names.join(", ")), ""));
    }
    out
}

/// The apply graph node an operation runs in, by Terraform's name: the instance for a create,
/// update or read; `ADDR (destroy)`; `ADDR (destroy deposed KEY)` for a deposed object (the key
/// a create_before_destroy replacement gives the object it deposes).
fn node_name(plan: &Plan, op: &OpNode) -> String {
    let c = &plan.changes[op.change];
    if op.op != Op::Delete {
        return op.instance.clone();
    }
    let deposed = c.deposed.clone().or_else(|| {
        (c.action == Action::CreateThenDelete).then(|| preallocated_deposed_key(&op.instance, &HashSet::new()))
    });
    match deposed {
        Some(k) => format!("{} (destroy deposed {k})", op.instance),
        None => format!("{} (destroy)", op.instance),
    }
}

/// The errors of graph/'s apply graph of `plan`.
fn graph_errors(config: &Config, plan: &Plan) -> Diagnostics {
    let changes = Changes {
        resources: plan
            .changes
            .iter()
            .map(|c| ResourceChange {
                module: c.module.clone(),
                resource: c.resource(),
                key: c.key.as_ref().map(ToString::to_string),
                deposed: c.deposed.clone(),
                action: c.action,
            })
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
