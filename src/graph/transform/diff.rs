//! `DiffTransformer` (`internal/terraform/transform_diff.go`): the apply graph's instance
//! nodes, one set per planned change.
//!
//! | action | nodes |
//! |---|---|
//! | `Create`, `Update`, `Read`, `CreateThenForget` | a creator `aws_instance.web[0]` (`NodeApplyableResourceInstance`) |
//! | `NoOp` | nothing, unless the block has pre- or postconditions to check (then a creator) |
//! | `Delete` | a destroyer `aws_instance.web[0] (destroy)`, or for a deposed object `… (destroy deposed KEY)` |
//! | `DeleteThenCreate` | creator + `(destroy)` |
//! | `CreateThenDelete` | creator + `(destroy deposed KEY)` for the key the creator deposes the old object under |
//! | `Forget` | `aws_instance.web[0] (forget)` (`NodeForgetResourceInstance`), or for a deposed object `… (forget deposed KEY)` (`NodeForgetDeposedResourceInstanceObject`) |
//!
//! Forget nodes are destroyers to every later step (they have Terraform's `DestroyAddr()`): no
//! references in or out, ordered by state dependencies (`DestroyEdgeTransformer`), kept by the
//! destroy pruning; a forgotten data source needs no provider (`ProvidedBy` is `(nil, true)`).
//!
//! Every creator depends on its resource's `(expand)` node. The deposed key of a
//! `CreateThenDelete` is random in Terraform; here it is derived from the address
//! ([`preallocated_deposed_key`]), avoiding the instance's deposed keys already in the state.
//! Errors are Terraform's: a deposed object can only be deleted or forgotten; a create-before-destroy
//! replace needs the object in the state (when a state is given).

use super::{BuildContext, Transform};
use crate::addrs::InstanceAddr;
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::context::ModuleInstance;
use crate::graph::facts::ResourceFacts;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::shared::{FastMap, SharedStr};
use crate::graph::{TfGraph, Why};
use crate::plans::Action;
use crate::plans::{change_address, preallocated_deposed_key};
use std::collections::HashSet;

pub struct DiffTransformer;

/// The expand nodes of a resource: by the module's index in the build and the resource's
/// address in it (shared copies, so lookups neither format nor allocate).
fn expand_nodes(g: &TfGraph) -> FastMap<(u32, SharedStr), Vec<NodeId>> {
    let mut expands: FastMap<(u32, SharedStr), Vec<NodeId>> = FastMap::default();
    for id in g.ids() {
        let n = g.node(id);
        if let (
            NodeKind::ResourceExpand { .. },
            Some(ConfigRef::Resource { module, .. } | ConfigRef::CheckData { module, .. }),
        ) = (&n.kind, n.config)
        {
            expands.entry((module, n.addr.clone())).or_default().push(id);
        }
    }
    expands
}

impl Transform for DiffTransformer {
    fn name(&self) -> &'static str {
        "DiffTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let mut diags = Diagnostics::new();
        let Some(changes) = cx.options.changes.as_ref() else {
            return diags;
        };
        let state = cx.state_index();
        let config = cx.config_resources();
        let expands = expand_nodes(g);
        for rc in &changes.resources {
            let text = change_address(rc);
            let Ok(addr) = InstanceAddr::scan(&text) else { continue };
            let Some(ModuleInstance { text: module_instance, path, index: module_index }) =
                cx.module_instance(addr.module)
            else {
                continue;
            };
            let local = cx.str(addr.resource);
            let cfg = config.get(module_index, &local);
            let resource = cfg.as_ref().and_then(|c| cx.resource_of(c));
            let (mut update, delete, forget) = match rc.action {
                Action::NoOp => (false, false, false),
                Action::Delete => (false, true, false),
                Action::Forget => (false, false, true),
                Action::DeleteThenCreate | Action::CreateThenDelete => (true, true, false),
                Action::Create | Action::Update | Action::Read | Action::CreateThenForget => (true, false, false),
            };
            if rc.action == Action::NoOp {
                update = resource
                    .is_some_and(|r| !r.lifecycle.preconditions.is_empty() || !r.lifecycle.postconditions.is_empty());
            }
            if rc.deposed.is_some() && !matches!(rc.action, Action::Delete | Action::Forget | Action::NoOp) {
                diags.push(crate::plans::diagnostics::deposed_not_removed(
                    &text,
                    rc.deposed.as_deref().unwrap_or_default(),
                ));
                continue;
            }
            let mut dk = rc.deposed.clone();
            if rc.action == Action::CreateThenDelete {
                let used: HashSet<String> = match (cx.options.state.as_ref(), state.get(&text)) {
                    (Some(_), None) => {
                        diags.push(crate::plans::diagnostics::replace_of_missing(&text));
                        continue;
                    }
                    (_, Some(i)) => i.deposed.iter().filter_map(|o| o.deposed.clone()).collect(),
                    (None, None) => HashSet::new(),
                };
                dk = Some(preallocated_deposed_key(&text, &used));
            }
            let facts =
                || ResourceFacts { instance: Some(text.clone()), action: Some(rc.action), ..Default::default() };
            let provider =
                state.get(&text).and_then(|i| i.current.or(i.deposed.first().copied())).map(|o| o.provider.clone());
            let range = resource.map(|r| cx.names.span(&r.range));
            let node = |kind: NodeKind| {
                let mut n = Node::new(kind, path.clone(), local.clone(), range.clone());
                n.config = cfg;
                n.module_instance = Some(module_instance.clone());
                n.state_provider = provider.clone();
                n
            };
            if update {
                let mut n = node(NodeKind::ResourceInstance { mode: addr.mode, key: addr.key.clone() });
                n.facts = Some(Box::new(ResourceFacts { deposed: dk.clone(), ..facts() }));
                let id = g.add(n);
                let own = module_index.and_then(|m| expands.get(&(m, local.clone())));
                for &e in own.map(Vec::as_slice).unwrap_or(&[]) {
                    g.connect(id, e, Why::InstanceOfResource);
                }
            }
            if delete {
                let kind = match &dk {
                    None => NodeKind::ResourceInstanceDestroy { mode: addr.mode, key: addr.key.clone() },
                    Some(k) => NodeKind::ResourceInstanceDestroyDeposed {
                        mode: addr.mode,
                        key: addr.key.clone(),
                        deposed: k.clone(),
                    },
                };
                let mut n = node(kind);
                n.facts = Some(Box::new(ResourceFacts { deposed: dk.clone(), ..facts() }));
                g.add(n);
            }
            if forget {
                let kind = match &dk {
                    None => NodeKind::ResourceInstanceForget { mode: addr.mode, key: addr.key.clone() },
                    Some(k) => NodeKind::ResourceInstanceForgetDeposed {
                        mode: addr.mode,
                        key: addr.key.clone(),
                        deposed: k.clone(),
                    },
                };
                let mut n = node(kind);
                n.facts = Some(Box::new(ResourceFacts { deposed: dk.clone(), ..facts() }));
                g.add(n);
            }
        }
        diags
    }
}
