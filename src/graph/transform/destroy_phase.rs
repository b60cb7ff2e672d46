//! The part of `ReferenceTransformer` (`internal/terraform/transform_reference.go`) that only
//! matters once a graph has destroy nodes, kept apart from the configuration-driven references:
//!
//! * **Destroy phases** (apply). A destroy node is referenceable as
//!   `aws_instance.a[0]#destroy` and `aws_instance.a#destroy` (`#destroy-cbd` when it is
//!   create_before_destroy; `NodeDestroyResourceInstance.ReferenceableAddrs`), and a creator
//!   that is not create_before_destroy refers to the `#destroy` phase of everything it refers
//!   to (`NodeApplyableResourceInstance.References`): a create or update of B waits for the
//!   destroy of an A that B refers to (shrinking a count destroys the extra instances first).
//!   Instance references fall back to the resource, as other references do.
//! * **Self references of expand nodes** (apply). `nodeExpandApplyableResource.References`
//!   drops references to its own resource (`filterSelfRefs`, for `self`-less provisioner
//!   references), which would otherwise connect the expand node to its own instances.
//! * **Plan-destroy nodes** (plan-destroy). `NodePlanDestroyableResourceInstance` keeps the
//!   ordinary referenceable addresses; what still refers to resources while destroying (a
//!   provider configuration, say) waits for their destroy nodes.

use super::state_support::config_cbd;
use super::{BuildContext, Transform};
use crate::addrs::{ModulePath, Subject};
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::facts::{create_before_destroy, different_module_instances, instance_address};
use crate::graph::instance_addr::InstanceAddr;
use crate::graph::node::NodeKind;
use super::reference::why_for as reference_why;
use crate::graph::{Operation, TfGraph, Why};
use std::collections::HashMap;

pub struct DestroyReferenceTransformer;

fn instance_key_text(g: &TfGraph, id: NodeId) -> Option<String> {
    let a = instance_address(g.node(id))?;
    InstanceAddr::parse(&a).ok()?.key_text()
}

impl Transform for DestroyReferenceTransformer {
    fn name(&self) -> &'static str {
        "ReferenceTransformer (destroy nodes)"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let op = cx.options.operation;
        if op == Operation::Apply {
            // filterSelfRefs: an expand node never refers to its own instances.
            let expands: Vec<NodeId> = g.ids().filter(|&id| matches!(g.node(id).kind, NodeKind::ResourceExpand { .. })).collect();
            for e in expands {
                let own: Vec<NodeId> = g
                    .dag()
                    .edges_from(e)
                    .filter(|&t| {
                        let (a, b) = (g.node(e), g.node(t));
                        matches!(b.kind, NodeKind::ResourceInstance { .. }) && a.module == b.module && a.addr == b.addr
                    })
                    .collect();
                for t in own {
                    g.remove_edge(e, t);
                }
            }
        }
        if !matches!(op, Operation::Apply | Operation::Destroy) {
            return Diagnostics::new();
        }
        let phase = |cbd: bool| if op == Operation::Destroy { "" } else if cbd { "#destroy-cbd" } else { "#destroy" };
        let mut map: HashMap<(ModulePath, String), Vec<NodeId>> = HashMap::new();
        for id in g.ids() {
            let n = g.node(id);
            if !matches!(n.kind, NodeKind::ResourceInstanceDestroy { .. }) {
                continue;
            }
            let p = phase(create_before_destroy(n, config_cbd(cx, n)));
            let key = instance_key_text(g, id).unwrap_or_default();
            for k in [format!("{}{key}{p}", n.addr), format!("{}{p}", n.addr)] {
                map.entry((n.module.clone(), k)).or_default().push(id);
            }
        }
        if map.is_empty() {
            return Diagnostics::new();
        }
        let mut edges: Vec<(NodeId, NodeId, Why)> = Vec::new();
        for v in g.ids() {
            let n = g.node(v);
            let referrer = match op {
                Operation::Apply => matches!(n.kind, NodeKind::ResourceInstance { .. }) && !create_before_destroy(n, config_cbd(cx, n)),
                _ => !n.is_destroyer() && n.is_referencer(),
            };
            if !referrer {
                continue;
            }
            let path = n.reference_path();
            for r in n.references(cx) {
                if !matches!(r.subject, Subject::Resource(_) | Subject::ResourceInstance(..)) {
                    continue;
                }
                let suffix = if op == Operation::Apply { "#destroy" } else { "" };
                let exact = (path.clone(), format!("{}{suffix}", r.subject));
                let whole = (path.clone(), format!("{}{suffix}", r.subject.without_key()));
                let Some(targets) = map.get(&exact).or_else(|| map.get(&whole)) else { continue };
                for &t in targets {
                    if t == v || different_module_instances(n, g.node(t)) {
                        continue;
                    }
                    let why = match op {
                        Operation::Apply => Why::DestroyPhase { traversal: r.traversal.clone() },
                        _ => reference_why(n, r),
                    };
                    edges.push((v, t, why));
                }
            }
        }
        for (from, to, why) in edges {
            g.connect(from, to, why);
        }
        Diagnostics::new()
    }
}
