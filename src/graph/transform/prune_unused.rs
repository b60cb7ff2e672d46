//! `pruneUnusedNodesTransformer` (`internal/terraform/transform_destroy_edge.go`), Terraform
//! 1.4+ semantics: in a full destroy, keep only the destroy nodes, everything they depend on
//! (providers, and what provider configurations need), and root outputs, configured or only
//! in the state (whose "destroy" removes them from the state); remove every other variable, local, output, expander. They
//! would be evaluated against a configuration whose resources are all going away. Runs for
//! plan-destroy (`walkPlanDestroy`) and for applying a destroy plan (`walkDestroy`,
//! [`PlanMode::Destroy`](crate::graph::PlanMode)); skipped for every other walk. Destroyers
//! include the forget nodes (they have `DestroyAddr()`).
//!
//! One reachability pass from all destroyers at once: O(V + E).

use super::{BuildContext, Transform};
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::node::NodeKind;
use crate::graph::TfGraph;

pub struct PruneUnusedNodesTransformer {
    /// Every walk but the destroy ones.
    pub skip: bool,
}

impl Transform for PruneUnusedNodesTransformer {
    fn name(&self) -> &'static str {
        "pruneUnusedNodesTransformer"
    }

    fn transform(&self, g: &mut TfGraph, _cx: &BuildContext) -> Diagnostics {
        if self.skip {
            return Diagnostics::new();
        }
        let destroyers: Vec<NodeId> = g.ids().filter(|&id| g.node(id).is_destroyer()).collect();
        let mut keep = g.dag().ancestors(&destroyers);
        for id in g.ids() {
            let n = g.node(id);
            // Root outputs, declared or only in the state (`NodeDestroyableOutput`): their
            // `temporaryValue()` is false.
            if n.is_destroyer() || (matches!(n.kind, NodeKind::Output | NodeKind::OutputDestroy) && n.module.is_root())
            {
                keep.insert(id);
            }
        }
        let gone: Vec<NodeId> = g.ids().filter(|&id| !keep.contains(id)).collect();
        for id in gone {
            g.remove(id);
        }
        Diagnostics::new()
    }
}
