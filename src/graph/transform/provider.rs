//! `ProviderTransformer` (`internal/terraform/transform_provider.go`): connects every resource
//! to the provider configuration it uses.
//!
//! The configuration asked for is `module.path.provider["<fqn>"].<alias>` in the resource's own
//! module. If there is none there, an *unaliased* request walks up to the parent modules
//! (`AbsProviderConfig.Inherited`); aliased configurations are never inherited, they must be
//! passed in. A proxy found on the way is followed to the configuration it stands for (and
//! removed from the graph, as Terraform does). Nothing found: "Provider configuration not
//! present". The chosen address is recorded on the node (`SetProvider`) for the close step.
//! Nodes that need no configured provider
//! ([`Node::needs_provider`](crate::graph::Node::needs_provider): a data source's state object
//! dropped by a destroy, forget or orphan node) are skipped: no edge, no close edge, no "not
//! present" error even when the configuration is gone.
//!
//! Every resource node asks, but the answer depends only on the request (provider, alias,
//! module, exactness), and a module's resources mostly ask the same: each distinct request is
//! resolved once and its answer (address, target, the explanation) shared by its consumers.

use super::provider_config::provider_map;
use super::{BuildContext, Transform};
use crate::addrs::provider_config_text as provider_address;
use crate::addrs::ModulePath;
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::diagnostics::provider_not_present;
use crate::graph::node::{NodeKind, ProviderRequest};
use crate::graph::shared::{FastMap, SharedStr, SharedVec};
use crate::graph::{TfGraph, Why};
use std::collections::HashMap;
use std::sync::Arc;

pub struct ProviderTransformer;

/// What a request resolves to.
#[derive(Clone)]
enum Answer {
    /// The configuration's address and node, and how it was found.
    Found { addr: SharedStr, target: NodeId, via: SharedVec<SharedStr> },
    /// The address asked for, which nothing provides.
    Missing { wanted: String },
    /// Resolved to an address with no node (cannot happen on a consistent graph; skipped).
    Dangling,
}

/// The parts of a request that decide its answer: source address, alias, module (by its
/// shared copy: paths are interned per build, and equal paths compare equal anyway), exactness.
#[derive(PartialEq, Eq, Hash)]
struct Key {
    fqn: SharedStr,
    alias: Option<SharedStr>,
    module: Arc<ModulePath>,
    exact: bool,
}

fn resolve(
    g: &mut TfGraph,
    req: &ProviderRequest,
    providers: &HashMap<String, NodeId>,
    proxies: &HashMap<String, (String, ModulePath)>,
    cx: &BuildContext,
) -> Answer {
    let wanted = req.address();
    let mut via: Vec<SharedStr> = Vec::new();
    let mut found = providers.contains_key(&wanted).then(|| wanted.clone());
    if found.is_none() && !req.exact && req.alias.is_none() {
        let mut module = (*req.module).clone();
        while !module.is_root() {
            module.0.pop();
            let up = provider_address(&module, &req.fqn, None);
            if providers.contains_key(&up) {
                via.push(format!("{wanted} is not configured, so it inherits {up}").into());
                found = Some(up);
                break;
            }
        }
    }
    let Some(mut addr) = found else { return Answer::Missing { wanted } };
    while let Some((target, module)) = proxies.get(&addr) {
        if let Some(&pid) = providers.get(&addr) {
            g.remove(pid);
        }
        via.push(format!("{addr} is passed in by the providers map of {module} as {target}").into());
        addr = target.clone();
    }
    match providers.get(&addr) {
        Some(&target) => Answer::Found { addr: cx.str(&addr), target, via: via.into() },
        None => Answer::Dangling,
    }
}

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
                NodeKind::ProviderProxy { target, .. } => {
                    Some((addr.clone(), (target.clone(), (*g.node(id).module).clone())))
                }
                _ => None,
            })
            .collect();
        let mut answers: FastMap<Key, Answer> = FastMap::default();
        let consumers: Vec<_> = g.ids().collect();
        for v in consumers {
            if !g.contains(v) {
                continue; // a proxy removed on the way
            }
            if !g.node(v).needs_provider(cx) {
                continue; // a data source's state object, dropped without its provider
            }
            let Some(req) = g.node(v).provider_request(cx) else { continue };
            let key = Key {
                fqn: req.fqn.clone(),
                alias: req.alias.clone(),
                module: Arc::clone(&req.module),
                exact: req.exact,
            };
            let answer = match answers.get(&key) {
                Some(a) => a.clone(),
                None => {
                    let a = resolve(g, &req, &providers, &proxies, cx);
                    answers.insert(key, a.clone());
                    a
                }
            };
            match answer {
                Answer::Found { addr, target, via } => {
                    g.node_mut(v).resolved_provider = Some(addr);
                    g.connect(v, target, Why::Provider { range: req.range, via });
                }
                Answer::Missing { wanted } => {
                    let range = req.range.as_ref().map(|r| r.to_source_range());
                    diags.push(provider_not_present(g.name(v), &wanted, range).with_address(g.node(v).address()));
                }
                Answer::Dangling => {}
            }
        }
        diags
    }
}
