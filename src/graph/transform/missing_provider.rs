//! `MissingProviderTransformer` (`internal/terraform/transform_provider.go`): a default root
//! configuration `provider["<source address>"]` for every provider that any resource uses,
//! whatever its alias or module (unconfigured providers run with an empty configuration;
//! unused ones are pruned two steps later).

use super::provider_config::provider_map;
use super::{BuildContext, Transform};
use crate::addrs::ModulePath;
use crate::diag::Diagnostics;
use crate::graph::node::{provider_address, Node, NodeKind};
use crate::graph::TfGraph;

pub struct MissingProviderTransformer;

impl Transform for MissingProviderTransformer {
    fn name(&self) -> &'static str {
        "MissingProviderTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let mut providers = provider_map(g);
        let consumers: Vec<_> = g.ids().collect();
        for id in consumers {
            let Some(req) = g.node(id).provider_request(cx) else { continue };
            let addr = provider_address(&ModulePath::root(), &req.fqn, None);
            if providers.contains_key(&addr) {
                continue;
            }
            let kind = NodeKind::Provider { fqn: req.fqn.clone(), alias: None };
            let pid = g.add(Node::new(kind, ModulePath::root(), addr.clone(), None));
            providers.insert(addr, pid);
        }
        Diagnostics::new()
    }
}
