//! `CloseProviderTransformer` (`internal/terraform/transform_provider.go`): a
//! `provider[…] (close)` node per provider configuration, after the configuration itself and
//! after every node that was connected to it.

use super::{BuildContext, Transform};
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::node::{Node, NodeKind};
use crate::graph::{TfGraph, Why};
use std::collections::HashMap;

pub struct CloseProviderTransformer;

impl Transform for CloseProviderTransformer {
    fn name(&self) -> &'static str {
        "CloseProviderTransformer"
    }

    fn transform(&self, g: &mut TfGraph, _cx: &BuildContext) -> Diagnostics {
        let providers: Vec<_> = g.ids().filter(|&id| matches!(g.node(id).kind, NodeKind::Provider { .. })).collect();
        let mut closers: HashMap<String, NodeId> = HashMap::new();
        for p in providers {
            let n = g.node(p);
            let NodeKind::Provider { fqn, alias } = &n.kind else { continue };
            let addr = n.address();
            if closers.contains_key(&addr) {
                continue;
            }
            let kind = NodeKind::ProviderClose { fqn: fqn.clone(), alias: alias.clone() };
            let close = Node::new(kind, n.module.clone(), n.addr.clone(), n.range.clone());
            let c = g.add(close);
            g.connect(c, p, Why::ProviderClose);
            closers.insert(addr, c);
        }
        let consumers: Vec<(NodeId, NodeId)> =
            g.ids().filter_map(|v| closers.get(g.node(v).resolved_provider.as_deref()?).map(|&c| (c, v))).collect();
        for (c, v) in consumers {
            g.connect(c, v, Why::ProviderClose);
        }
        Diagnostics::new()
    }
}
