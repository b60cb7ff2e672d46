//! `AttachStateTransformer` (`internal/terraform/transform_attach_state.go`): gives every
//! resource instance node its instance's current object from the prior state — the stored
//! `dependencies` (destroy order) and `create_before_destroy` (which way replace edges run).

use super::state_support::{attached, StateIndex};
use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::facts::{facts_mut, instance_address};
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
        let state = StateIndex::new(cx);
        let ids: Vec<_> = g.ids().filter(|&id| g.node(id).is_resource_instance()).collect();
        for id in ids {
            let Some(addr) = instance_address(g.node(id)) else { continue };
            let Some(current) = state.get(&addr).and_then(|i| i.current) else { continue };
            let f = facts_mut(g, id);
            f.instance.get_or_insert(addr);
            f.state = Some(attached(current));
        }
        Diagnostics::new()
    }
}
