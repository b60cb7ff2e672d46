//! `MissingProviderTransformer` (`internal/terraform/transform_provider.go`): a default root
//! configuration `provider["<source address>"]` for every provider that any resource uses,
//! whatever its alias or module (unconfigured providers run with an empty configuration;
//! unused ones are pruned two steps later).

use super::provider_config::provider_map;
use super::{BuildContext, Transform};
use crate::addrs::provider_config_text as provider_address;
use crate::addrs::ModulePath;
use crate::diag::Diagnostics;
use crate::graph::node::{Node, NodeKind};
use crate::graph::shared::{FastSet, SharedStr};
use crate::graph::TfGraph;

pub struct MissingProviderTransformer;

impl Transform for MissingProviderTransformer {
    fn name(&self) -> &'static str {
        "MissingProviderTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let mut providers = provider_map(g);
        // Only the source address matters: each is looked at once.
        let mut seen: FastSet<SharedStr> = FastSet::default();
        let consumers: Vec<_> = g.ids().collect();
        for id in consumers {
            let Some(req) = g.node(id).provider_request(cx) else { continue };
            if !seen.insert(req.fqn.clone()) {
                continue;
            }
            let addr = provider_address(&ModulePath::root(), &req.fqn, None);
            if providers.contains_key(&addr) {
                continue;
            }
            let kind = NodeKind::Provider { fqn: req.fqn.to_string(), alias: None };
            let pid = g.add(Node::new(kind, cx.modules[0].path.clone(), addr.as_str(), None));
            providers.insert(addr, pid);
        }
        Diagnostics::new()
    }
}
