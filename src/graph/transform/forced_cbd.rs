//! `ForcedCBDTransformer` (`internal/terraform/transform_destroy_cbd.go`): a resource node
//! without create_before_destroy gets it forced on when anything that depends on it, directly
//! or not, has it — otherwise replacing both would need the dependent's new object before the
//! dependency's old one is gone, and the other way round: a cycle. The flag is recorded on the
//! node ([`ResourceFacts::forced_cbd`](crate::graph::facts::ResourceFacts)); the plan turns it
//! into `CreateThenDelete`, and state stores `create_before_destroy: true`. Destroy nodes
//! take theirs from the state and are never forced.
//!
//! Terraform searches the descendants of every node (`MatchDescendant`): O(V·(V+E)). Here one
//! pass over the strongly connected components, dependents first, computes for every node
//! whether some dependent is create_before_destroy: O(V + E).

use super::state_support::config_cbd;
use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::node::NodeKind;
use crate::graph::node_facts::{create_before_destroy, facts_mut, has_cbd};
use crate::graph::TfGraph;

pub struct ForcedCBDTransformer;

impl Transform for ForcedCBDTransformer {
    fn name(&self) -> &'static str {
        "ForcedCBDTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let dag = g.dag();
        let bound = dag.node_bound();
        let mut cbd = vec![false; bound];
        for id in dag.node_ids() {
            let n = g.node(id);
            cbd[id.index()] = has_cbd(n) && create_before_destroy(n, config_cbd(cx, n));
        }
        let comps = dag.components();
        let mut comp_of = vec![usize::MAX; bound];
        for (ci, c) in comps.iter().enumerate() {
            for &v in c {
                comp_of[v.index()] = ci;
            }
        }
        // below[c]: some node depending on component c (outside it, or inside a cycle) is CBD.
        let mut below = vec![false; comps.len()];
        for ci in (0..comps.len()).rev() {
            let comp = comps.get(ci);
            let mut hit = comp.len() > 1 && comp.iter().any(|v| cbd[v.index()]);
            for &v in comp {
                for d in dag.edges_to(v) {
                    let dc = comp_of[d.index()];
                    if dc != ci && (cbd[d.index()] || below[dc]) {
                        hit = true;
                    }
                }
            }
            below[ci] = hit;
        }
        let forced: Vec<_> = dag
            .node_ids()
            .filter(|&id| {
                let n = g.node(id);
                has_cbd(n)
                    && !cbd[id.index()]
                    && below[comp_of[id.index()]]
                    && !matches!(
                        n.kind,
                        NodeKind::ResourceInstanceDestroy { .. } | NodeKind::ResourceInstanceDestroyDeposed { .. }
                    )
            })
            .collect();
        for id in forced {
            facts_mut(g, id).forced_cbd = true;
        }
        Diagnostics::new()
    }
}
