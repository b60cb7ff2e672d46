//! `ProviderConfigTransformer` (`internal/terraform/transform_provider.go`): the provider
//! configurations the configuration declares.
//!
//! * one node per `provider` block of every module (`module.m.provider["…"].alias`);
//! * in the root module, one unaliased node per `required_providers` entry that has no
//!   unaliased `provider` block (pruned later if nothing uses it);
//! * for every entry of a module call's `providers = { aws.bar = aws.foo }` map, a *proxy*
//!   node `module.m.provider["…"].bar (proxy)` standing for the parent's `aws.foo`. If the
//!   child has its own block under that name, the proxy replaces it only when the block is
//!   empty (`provider "aws" { alias = "bar" }`, [`ProviderConfig::empty`](crate::config::ProviderConfig::empty): Terraform's
//!   `proxiable`); a block that configures anything stays, and the entry makes no proxy
//!   (Terraform's configuration validation rejects it: "Cannot override provider
//!   configuration", reported by the loader). Proxies are resolved and removed by the next
//!   steps; a proxy may point at another proxy (a configuration passed down several levels).
//!
//! A `providers` entry naming a configuration the calling module does not have is Terraform's
//! `missing provider …` error (seen with Terraform 1.0.3). Calls to modules that are not loaded
//! get no proxies: nothing inside them is known to use one.

use super::{BuildContext, Transform};
use crate::addrs::provider_config_text as provider_address;
use crate::addrs::ModulePath;
use crate::diag::Diagnostics;
use crate::graph::diagnostics::missing_passed_provider;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::TfGraph;
use std::collections::HashMap;

pub struct ProviderConfigTransformer;

/// Address → node of every provider configuration and proxy in the graph (Terraform
/// `providerVertexMap`).
pub(super) fn provider_map(g: &TfGraph) -> HashMap<String, crate::dag::NodeId> {
    g.ids().filter_map(|id| g.node(id).provider_addr().map(|a| (a, id))).collect()
}

/// `aws.bar` → (`aws`, `Some("bar")`).
fn split_local(s: &str) -> (&str, Option<&str>) {
    match s.split_once('.') {
        Some((l, a)) => (l, Some(a)),
        None => (s, None),
    }
}

fn rel(path: &ModulePath, fqn: &str, alias: Option<&str>) -> String {
    let full = provider_address(path, fqn, alias);
    if path.is_root() {
        full
    } else {
        full[path.to_string().len() + 1..].to_string()
    }
}

impl Transform for ProviderConfigTransformer {
    fn name(&self) -> &'static str {
        "ProviderConfigTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let mut diags = Diagnostics::new();
        let mut providers = provider_map(g);
        for (mi, entry) in cx.modules.iter().enumerate() {
            let m = entry.module;
            let path = &m.path;
            if path.is_root() {
                for rp in &m.required_providers {
                    if m.providers.iter().any(|p| p.name == rp.name && p.alias.is_none()) {
                        continue;
                    }
                    let addr = provider_address(path, &rp.fqn, None);
                    if providers.contains_key(&addr) {
                        continue;
                    }
                    let kind = NodeKind::Provider { fqn: rp.fqn.clone(), alias: None };
                    let id = g.add(Node::new(
                        kind,
                        entry.path.clone(),
                        rel(path, &rp.fqn, None),
                        Some(cx.names.span(&rp.range)),
                    ));
                    providers.insert(addr, id);
                }
            }
            for (pi, p) in m.providers.iter().enumerate() {
                let fqn = if p.fqn.is_empty() { cx.provider_fqn(m, &p.name) } else { p.fqn.clone() };
                let addr = provider_address(path, &fqn, p.alias.as_deref());
                if providers.contains_key(&addr) {
                    continue;
                }
                let kind = NodeKind::Provider { fqn: fqn.clone(), alias: p.alias.clone() };
                let node = Node::new(
                    kind,
                    entry.path.clone(),
                    rel(path, &fqn, p.alias.as_deref()),
                    Some(cx.names.span(&p.range)),
                )
                .with_config(ConfigRef::Provider { module: mi as u32, index: pi as u32 });
                let id = g.add(node);
                providers.insert(addr, id);
            }
            // Proxies for what the calling module passes in.
            let Some(call) = cx.call_of(mi as u32) else { continue };
            let parent_path = ModulePath(path.0[..path.0.len() - 1].to_vec());
            for pair in &call.providers {
                let (child_local, child_alias) = split_local(&pair.in_child);
                let (_, parent_alias) = split_local(&pair.in_parent);
                let fqn = cx.provider_fqn(m, child_local);
                let full = provider_address(path, &fqn, child_alias);
                let parent_addr = provider_address(&parent_path, &fqn, parent_alias);
                if !providers.contains_key(&parent_addr) {
                    diags.push(missing_passed_provider(&parent_addr, pair.range.clone()));
                    continue;
                }
                let concrete = providers.get(&full).copied();
                if let Some(c) = concrete {
                    // Terraform replaces the child's own block only when it is empty
                    // ("proxiable"); a configured one stays and the entry is ignored here
                    // (loading reports "Cannot override provider configuration").
                    let empty = match g.node(c).config {
                        Some(ConfigRef::Provider { module, index }) => cx.provider(module, index).empty,
                        _ => false,
                    };
                    if !empty {
                        continue;
                    }
                }
                let kind = NodeKind::ProviderProxy {
                    fqn: fqn.clone(),
                    alias: child_alias.map(str::to_string),
                    target: parent_addr,
                };
                let proxy =
                    Node::new(kind, entry.path.clone(), rel(path, &fqn, child_alias), Some(cx.names.span(&pair.range)));
                let pid = g.add(proxy);
                if let Some(c) = concrete {
                    g.replace(c, pid);
                }
                providers.insert(full, pid);
            }
        }
        diags
    }
}
