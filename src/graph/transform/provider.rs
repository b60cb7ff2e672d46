//! `ProviderTransformer` (`internal/terraform/transform_provider.go`): connects every resource
//! to the provider configuration it uses.
//!
//! The configuration asked for is `module.path.provider["<fqn>"].<alias>` in the resource's own
//! module. If there is none there, an *unaliased* request walks up to the parent modules
//! (`AbsProviderConfig.Inherited`); aliased configurations are never inherited, they must be
//! passed in. A proxy found on the way is followed to the configuration it stands for (and
//! removed from the graph, as Terraform does). Nothing found: "Provider configuration not
//! present". The chosen address is recorded on the node (`SetProvider`) for the close step.

use super::provider_config::provider_map;
use super::{BuildContext, Transform};
use crate::addrs::ModulePath;
use crate::diag::Diagnostics;
use crate::graph::diagnostics::provider_not_present;
use crate::graph::node::{provider_address, NodeKind};
use crate::graph::{TfGraph, Why};
use std::collections::HashMap;

pub struct ProviderTransformer;

impl Transform for ProviderTransformer {
    fn name(&self) -> &'static str {
        "ProviderTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let mut diags = Diagnostics::new();
        let providers = provider_map(g);
        // Proxies by address, kept after their nodes are removed: address → (target, module).
        let proxies: HashMap<String, (String, ModulePath)> = providers
            .iter()
            .filter_map(|(addr, &id)| match &g.node(id).kind {
                NodeKind::ProviderProxy { target, .. } => Some((addr.clone(), (target.clone(), g.node(id).module.clone()))),
                _ => None,
            })
            .collect();
        let consumers: Vec<_> = g.ids().collect();
        for v in consumers {
            if !g.contains(v) {
                continue; // a proxy removed on the way
            }
            let Some(req) = g.node(v).provider_request(cx) else { continue };
            let wanted = req.address();
            let mut via = Vec::new();
            let mut found = providers.get(&wanted).map(|_| wanted.clone());
            if found.is_none() && !req.exact && req.alias.is_none() {
                let mut module = req.module.clone();
                while !module.is_root() {
                    module.0.pop();
                    let up = provider_address(&module, &req.fqn, None);
                    if providers.contains_key(&up) {
                        via.push(format!("{wanted} is not configured, so it inherits {up}"));
                        found = Some(up);
                        break;
                    }
                }
            }
            let Some(mut addr) = found else {
                diags.push(provider_not_present(g.name(v), &wanted, req.range.clone()).with_address(g.node(v).address()));
                continue;
            };
            while let Some((target, module)) = proxies.get(&addr) {
                if let Some(&pid) = providers.get(&addr) {
                    g.remove(pid);
                }
                via.push(format!("{addr} is passed in by the providers map of {module} as {target}"));
                addr = target.clone();
            }
            let Some(&target) = providers.get(&addr) else { continue };
            g.node_mut(v).resolved_provider = Some(addr);
            g.connect(v, target, Why::Provider { range: req.range.clone(), via });
        }
        diags
    }
}
