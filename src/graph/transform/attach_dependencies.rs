//! `AttachDependenciesTransformer` (`internal/terraform/transform_reference.go`): records on
//! every node that keeps dependencies (plan: resource expand nodes; apply: the instances being
//! created or updated) every *resource* it transitively depends on — config addresses, sorted,
//! itself excluded. Terraform stores this list as the new state `dependencies`, and destroy
//! ordering uses it for objects not yet in the state. The graph is unchanged.
//!
//! The lists are kept implicit: see [`crate::graph::dependencies`].

use super::{BuildContext, Transform};
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::dependencies::DependencyIndex;
use crate::graph::node::NodeKind;
use crate::graph::node_facts::facts_mut;
use crate::graph::TfGraph;
use std::sync::Arc;

pub struct AttachDependenciesTransformer {
    /// Whether resource expand nodes keep dependencies (plan; in apply only instances do).
    pub expand_nodes: bool,
}

/// Whether the node keeps dependencies (Terraform `GraphNodeAttachDependencies`).
fn attaches(kind: &NodeKind, expand_nodes: bool) -> bool {
    match kind {
        NodeKind::ResourceExpand { .. } => expand_nodes,
        NodeKind::ResourceInstance { .. } => true,
        _ => false,
    }
}

impl Transform for AttachDependenciesTransformer {
    fn name(&self) -> &'static str {
        "AttachDependenciesTransformer"
    }

    fn transform(&self, g: &mut TfGraph, _cx: &BuildContext) -> Diagnostics {
        let targets: Vec<NodeId> = g.ids().filter(|&id| attaches(&g.node(id).kind, self.expand_nodes)).collect();
        if targets.is_empty() {
            return Diagnostics::new();
        }
        let index = Arc::new(DependencyIndex::new(g));
        for id in targets {
            facts_mut(g, id).dependencies = Some(index.handle(id));
        }
        Diagnostics::new()
    }
}
