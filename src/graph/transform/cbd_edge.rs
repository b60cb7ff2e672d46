//! `CBDEdgeTransformer` (`internal/terraform/transform_destroy_cbd.go`): for a destroy that is
//! create_before_destroy (a deposed object being destroyed, or a destroy whose state or
//! configuration says so), every edge from a creator into it is reversed. `A -> A (destroy
//! deposed)` becomes `A (destroy deposed) -> A`: the old object goes after the new one exists;
//! `B -> A (destroy)` becomes `A (destroy) -> B`: dependents are updated to the new object
//! before the old one is destroyed. Each reversed edge keeps what it was
//! ([`Why::CbdFlipped`]). Forget nodes take part too (they are `GraphNodeDestroyerCBD` through
//! `NodeAbstractResource`), create_before_destroy when their block says so or it was forced.

use super::state_support::config_cbd;
use super::{BuildContext, Transform};
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::node::NodeKind;
use crate::graph::node_facts::create_before_destroy;
use crate::graph::{TfGraph, Why};

pub struct CBDEdgeTransformer;

impl Transform for CBDEdgeTransformer {
    fn name(&self) -> &'static str {
        "CBDEdgeTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let destroyers: Vec<NodeId> = g
            .ids()
            .filter(|&id| {
                let n = g.node(id);
                n.is_destroyer()
                    && !matches!(n.kind, NodeKind::ResourceInstanceDeposed { .. })
                    && create_before_destroy(n, config_cbd(cx, n))
            })
            .collect();
        for d in destroyers {
            let sources: Vec<NodeId> =
                g.dag().edges_to(d).filter(|&s| matches!(g.node(s).kind, NodeKind::ResourceInstance { .. })).collect();
            for s in sources {
                let edge = g.remove_edge(s, d).expect("listed edge");
                for w in edge.why {
                    g.connect(d, s, Why::CbdFlipped { original: Box::new(w) });
                }
            }
        }
        Diagnostics::new()
    }
}
