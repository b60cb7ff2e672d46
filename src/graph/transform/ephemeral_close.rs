//! `ephemeralResourceCloseTransformer` (`internal/terraform/transform_ephemeral_resource_close.go`):
//! an `ephemeral.x.y (close)` node per ephemeral resource (not in validate), after the resource
//! and after its *last* users: the first nodes, going from the resource towards what depends on
//! it, that refer to something and that no other referring node depends on. It closes through
//! the resource's provider, so the provider's close node waits for it.

use super::{BuildContext, Transform};
use crate::addrs::ResourceMode;
use crate::dag::Direction;
use crate::diag::Diagnostics;
use crate::graph::node::{Node, NodeKind};
use crate::graph::{TfGraph, Why};

pub struct EphemeralCloseTransformer {
    /// Validate opens no ephemeral resources, so it closes none.
    pub skip: bool,
}

impl Transform for EphemeralCloseTransformer {
    fn name(&self) -> &'static str {
        "ephemeralResourceCloseTransformer"
    }

    fn transform(&self, g: &mut TfGraph, _cx: &BuildContext) -> Diagnostics {
        if self.skip {
            return Diagnostics::new();
        }
        let ephemerals: Vec<_> = g
            .ids()
            .filter(|&id| {
                let n = g.node(id);
                matches!(n.kind, NodeKind::ResourceExpand { .. } | NodeKind::ResourceValidate { .. })
                    && n.resource_mode() == Some(ResourceMode::Ephemeral)
            })
            .collect();
        for v in ephemerals {
            let dag = g.dag();
            let last = dag.first_reached_with(v, Direction::Dependents, |w| {
                dag.weight(w).is_referencer() && !dag.edges_to(w).any(|u| dag.weight(u).is_referencer())
            });
            let n = g.node(v);
            let mut close = Node::new(NodeKind::EphemeralClose, n.module.clone(), n.addr.clone(), n.range.clone());
            close.config = n.config;
            close.resolved_provider = n.resolved_provider.clone();
            let c = g.add(close);
            g.connect(c, v, Why::EphemeralClose);
            for w in last.iter() {
                g.connect(c, w, Why::EphemeralClose);
            }
        }
        Diagnostics::new()
    }
}
