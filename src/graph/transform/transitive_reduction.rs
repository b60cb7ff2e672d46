//! `TransitiveReductionTransformer` (`internal/terraform/transform_transitive_reduction.go`):
//! removes every edge that other edges already imply, for a smaller, readable graph with the
//! same ordering. Terraform skips it silently on an invalid graph (a cycle); here too, but the
//! step says so. Removed edges keep their reasons in [`TfGraph::implied`].
//!
//! Terraform's algorithm is O(V(V+E)) and was the slowest step on large configurations
//! (#28170); [`crate::dag::Graph::transitive_reduction`] gives the same result with bitsets.

use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::{ImpliedEdge, TfGraph};

pub struct TransitiveReductionTransformer;

impl Transform for TransitiveReductionTransformer {
    fn name(&self) -> &'static str {
        "TransitiveReductionTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        if !cx.options.reduce {
            return Diagnostics::new();
        }
        if let Ok(removed) = g.dag_mut().transitive_reduction() {
            // Same layout, so this collects in place: the removed edges (most edges of a large
            // graph, each with its reasons) are never held twice.
            let implied: Vec<ImpliedEdge> =
                removed.into_iter().map(|r| ImpliedEdge { from: r.from, to: r.to, edge: r.payload }).collect();
            if g.implied.is_empty() {
                g.implied = implied;
            } else {
                g.implied.extend(implied);
            }
        }
        Diagnostics::new()
    }
}
