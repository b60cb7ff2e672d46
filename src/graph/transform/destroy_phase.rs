//! The apply graph's `filterSelfRefs` (`nodeExpandApplyableResource.References` in
//! `internal/terraform/node_resource_apply.go`): an expand node never refers to its own
//! resource, which would otherwise connect it to its own instances (a `self`-less provisioner
//! reference such as `test.A.id` inside `test.A`) and make a cycle.
//!
//! What this file does *not* do, on purpose: Terraform's `#destroy` phase references
//! (`NodeApplyableResourceInstance.References` asking for `aws_instance.a#destroy`,
//! `NodeDestroyResourceInstance.ReferenceableAddrs`) still exist in 1.15, but since commit
//! b8e362d24c (2022, v1.3) `ReferenceTransformer` connects no reference to a destroyer, so they
//! make no edge. A create or update waits for the destroys of its former dependencies through
//! `DestroyEdgeTransformer` (state dependencies) instead — which is where
//! `testApplyGraphBuilderDestroyCountStr`'s `test_object.B -> test_object.A[1] (destroy)`
//! comes from.

use super::{BuildContext, Transform};
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::node::NodeKind;
use crate::graph::TfGraph;

pub struct SelfReferenceFilter;

impl Transform for SelfReferenceFilter {
    fn name(&self) -> &'static str {
        "ReferenceTransformer (filterSelfRefs)"
    }

    fn transform(&self, g: &mut TfGraph, _cx: &BuildContext) -> Diagnostics {
        let expands: Vec<NodeId> =
            g.ids().filter(|&id| matches!(g.node(id).kind, NodeKind::ResourceExpand { .. })).collect();
        for e in expands {
            let own: Vec<NodeId> = g
                .dag()
                .edges_from(e)
                .filter(|&t| {
                    let (a, b) = (g.node(e), g.node(t));
                    matches!(b.kind, NodeKind::ResourceInstance { .. }) && a.module == b.module && a.addr == b.addr
                })
                .collect();
            for t in own {
                g.remove_edge(e, t);
            }
        }
        Diagnostics::new()
    }
}
