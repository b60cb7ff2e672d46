//! The graph stage's diagnostics, worded like Terraform's, in one place.
//!
//! * Cycles: one error per strongly connected component, whose summary is Terraform 1.16's
//!   deterministic `Cycle:` text (`dag::Graph::cycle_text`), then one per self-loop
//!   (`Self reference: <name>`). Terraform's detail is empty; ours walks one shortest loop
//!   through the component's first node, giving for each step the edge's reason with its file
//!   and line — the expression that made the edge. (A documented extension.)
//! * Providers: `Provider configuration not present` (`ProviderTransformer`) and
//!   `missing provider …` (`ProviderConfigTransformer`, a `providers` entry naming a parent
//!   configuration that does not exist).

use super::TfGraph;
use crate::dag::CycleStyle;
use crate::diag::{Diagnostic, Diagnostics, SourceRange};

/// One error per cycle and per self-loop, sorted as `dag::Graph::validate` sorts them.
pub fn cycle_errors(g: &TfGraph) -> Diagnostics {
    let dag = g.dag();
    crate::dag::cycle_diagnostics(
        dag.cycles().iter().map(|cycle| (dag.cycle_text(cycle, CycleStyle::Vertical), loop_detail(g, cycle[0]))),
        dag.self_loops().into_iter().map(|v| (dag.name(v), loop_detail(g, v))),
    )
}

/// `a depends on b: <reason>` for each edge of one shortest loop through `start`.
fn loop_detail(g: &TfGraph, start: crate::dag::NodeId) -> String {
    let dag = g.dag();
    let Some(path) = dag.shortest_cycle_through(start) else { return String::new() };
    let mut lines = vec!["One loop in this cycle, edge by edge:".to_string()];
    for (i, &from) in path.iter().enumerate() {
        let to = path[(i + 1) % path.len()];
        let reasons = dag
            .edge(from, to)
            .map(|e| e.why.iter().map(|w| w.explain(&g.label(from), &g.label(to))).collect::<Vec<_>>())
            .unwrap_or_default();
        let because = if reasons.is_empty() { String::new() } else { format!(": {}", reasons.join("; ")) };
        lines.push(format!("  {} -> {}{because}", dag.name(from), dag.name(to)));
    }
    lines.join("\n")
}

/// Terraform's `ProviderTransformer` error for a consumer whose configuration is nowhere.
/// Terraform's is sourceless; the `provider` argument's range is attached when there is one.
pub fn provider_not_present(consumer: &str, wanted: &str, range: Option<SourceRange>) -> Diagnostic {
    let d = Diagnostic::error(
        "Provider configuration not present",
        format!(
            "To work with {consumer} its original provider configuration at {wanted} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy {consumer}, after which you can remove the provider configuration again."
        ),
    );
    match range {
        Some(r) => d.with_range(r),
        None => d,
    }
}

/// Terraform's `ProviderConfigTransformer` error for `providers = { x = y }` where the calling
/// module has no configuration `y` (checked with Terraform 1.0.3: `missing provider
/// provider["registry.terraform.io/hashicorp/mock"]`, empty detail). The map entry's range is
/// attached (Terraform's error has none).
pub fn missing_passed_provider(parent_addr: &str, range: SourceRange) -> Diagnostic {
    Diagnostic::error(format!("missing provider {parent_addr}"), "").with_range(range)
}
