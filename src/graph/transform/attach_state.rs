//! `AttachStateTransformer` (`internal/terraform/transform_attach_state.go`): gives every
//! resource instance node its instance's current object from the prior state — the stored
//! `dependencies` (destroy order) and `create_before_destroy` (which way replace edges run).

use super::state_support::attached;
use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::node_facts::{facts_mut, instance_address_ref};
use crate::graph::TfGraph;

pub struct AttachStateTransformer;

impl Transform for AttachStateTransformer {
    fn name(&self) -> &'static str {
        "AttachStateTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        if cx.options.state.is_none() {
            return Diagnostics::new();
        }
        let state = cx.state_index();
        let ids: Vec<_> = g.ids().filter(|&id| g.node(id).is_resource_instance()).collect();
        for id in ids {
            let n = g.node(id);
            let Some(addr) = instance_address_ref(n) else { continue };
            let Some(current) = state.get(&addr).and_then(|i| i.current) else { continue };
            let has_instance = n.facts.as_ref().is_some_and(|f| f.instance.is_some());
            let addr = (!has_instance).then(|| addr.into_owned());
            let f = facts_mut(g, id);
            if let Some(addr) = addr {
                f.instance = Some(addr);
            }
            f.state = Some(attached(current));
        }
        Diagnostics::new()
    }
}
