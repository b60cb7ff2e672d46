//! `DiffTransformer` (`internal/terraform/transform_diff.go`): the apply graph's instance
//! nodes, one set per planned change.
//!
//! | action | nodes |
//! |---|---|
//! | `Create`, `Update`, `Read` | a creator `aws_instance.web[0]` (`NodeApplyableResourceInstance`) |
//! | `NoOp` | nothing, unless the block has pre- or postconditions to check (then a creator) |
//! | `Delete` | a destroyer `aws_instance.web[0] (destroy)`, or for a deposed object `… (destroy deposed KEY)` |
//! | `DeleteThenCreate` | creator + `(destroy)` |
//! | `CreateThenDelete` | creator + `(destroy deposed KEY)` for the key the creator deposes the old object under |
//!
//! Every creator depends on its resource's `(expand)` node. The deposed key of a
//! `CreateThenDelete` is random in Terraform; here it is derived from the address
//! ([`preallocated_deposed_key`]), avoiding the instance's deposed keys already in the state.
//! Errors are Terraform's: a deposed object can only be deleted; a create-before-destroy
//! replace needs the object in the state (when a state is given).

use super::{BuildContext, Transform};
use crate::addrs::ModulePath;
use crate::dag::NodeId;
use crate::diag::{Diagnostic, Diagnostics};
use crate::graph::changes::{change_address, preallocated_deposed_key};
use crate::graph::facts::ResourceFacts;
use crate::graph::instance_addr::{module_instance_text, InstanceAddr};
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::shared::{FastMap, SharedStr};
use crate::graph::state::Action;
use crate::graph::{Operation, TfGraph, Why};
use std::collections::HashSet;
use std::sync::Arc;

pub struct DiffTransformer;

/// The expand nodes of a resource: by the module's index in the build and the resource's
/// address in it (shared copies, so lookups neither format nor allocate).
fn expand_nodes(g: &TfGraph) -> FastMap<(u32, SharedStr), Vec<NodeId>> {
    let mut expands: FastMap<(u32, SharedStr), Vec<NodeId>> = FastMap::default();
    for id in g.ids() {
        let n = g.node(id);
        if let (NodeKind::ResourceExpand { .. }, Some(ConfigRef::Resource { module, .. } | ConfigRef::CheckData { module, .. })) =
            (&n.kind, n.config)
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
        let Some(changes) = cx.options.changes.as_ref().filter(|_| cx.options.operation == Operation::Apply) else {
            return diags;
        };
        let state = cx.state_index();
        let config = cx.config_resources();
        let expands = expand_nodes(g);
        // Per module instance (`module.a[0]`): its shared text, module path and module index.
        let mut modules: FastMap<SharedStr, (Arc<ModulePath>, Option<u32>)> = FastMap::default();
        for rc in &changes.resources {
            let text = change_address(rc);
            let Ok(addr) = InstanceAddr::parse(&text) else { continue };
            let module_instance = cx.str(&module_instance_text(&addr.module));
            let (path, module_index) = modules
                .entry(module_instance.clone())
                .or_insert_with(|| {
                    let path = cx.names.path(&addr.module_path());
                    let index = cx.module_index.get(&*path).copied();
                    (path, index)
                })
                .clone();
            let local = cx.str(&addr.resource.to_string());
            let cfg = config.get(&path, &local);
            let resource = cfg.as_ref().and_then(|c| cx.resource_of(c));
            let (mut update, delete) = match rc.action {
                Action::NoOp => (false, false),
                Action::Delete => (false, true),
                Action::DeleteThenCreate | Action::CreateThenDelete => (true, true),
                Action::Create | Action::Update | Action::Read => (true, false),
            };
            if rc.action == Action::NoOp {
                update = resource.is_some_and(|r| !r.lifecycle.preconditions.is_empty() || !r.lifecycle.postconditions.is_empty());
            }
            if rc.deposed.is_some() && !matches!(rc.action, Action::Delete | Action::NoOp) {
                diags.push(Diagnostic::error(
                    "Invalid planned change for deposed object",
                    format!("The plan contains a non-remove change for {text} deposed object {}. The only valid actions for a deposed object are to destroy it or remove it from state, so this is a bug in Terraform.", rc.deposed.as_deref().unwrap_or_default()),
                ));
                continue;
            }
            let mut dk = rc.deposed.clone();
            if rc.action == Action::CreateThenDelete {
                let used: HashSet<String> = match (cx.options.state.as_ref(), state.get(&text)) {
                    (Some(_), None) => {
                        diags.push(Diagnostic::error(
                            "Invalid planned change",
                            format!("The plan contains a replace change for {text}, which doesn't exist yet. This is a bug in Terraform."),
                        ));
                        continue;
                    }
                    (_, Some(i)) => i.deposed.iter().filter_map(|o| o.deposed.clone()).collect(),
                    (None, None) => HashSet::new(),
                };
                dk = Some(preallocated_deposed_key(&text, &used));
            }
            let facts = || ResourceFacts { instance: Some(text.clone()), action: Some(rc.action), ..Default::default() };
            let provider = state.get(&text).and_then(|i| i.current.or(i.deposed.first().copied())).map(|o| o.provider.clone());
            let range = resource.map(|r| cx.names.span(&r.range));
            let node = |kind: NodeKind| {
                let mut n = Node::new(kind, path.clone(), local.clone(), range.clone());
                n.config = cfg;
                n.module_instance = Some(module_instance.clone());
                n.state_provider = provider.clone();
                n
            };
            if update {
                let mut n = node(NodeKind::ResourceInstance { mode: addr.resource.mode, key: addr.key_text() });
                n.facts = Some(Box::new(ResourceFacts { deposed: dk.clone(), ..facts() }));
                let id = g.add(n);
                let own = module_index.and_then(|m| expands.get(&(m, local.clone())));
                for &e in own.map(Vec::as_slice).unwrap_or(&[]) {
                    g.connect(id, e, Why::InstanceOfResource);
                }
            }
            if delete {
                let kind = match &dk {
                    None => NodeKind::ResourceInstanceDestroy { key: addr.key_text() },
                    Some(k) => NodeKind::ResourceInstanceDestroyDeposed { key: addr.key_text(), deposed: k.clone() },
                };
                let mut n = node(kind);
                n.facts = Some(Box::new(ResourceFacts { deposed: dk.clone(), ..facts() }));
                g.add(n);
            }
        }
        diags
    }
}
