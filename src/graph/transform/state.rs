//! `StateTransformer` (`internal/terraform/transform_state.go`): nodes for the objects in the
//! prior state.
//!
//! * plan: one `addr (deposed KEY)` node per deposed object
//!   (`NodePlanDeposedResourceInstanceObject`); current objects are planned through their
//!   configuration, or as orphans;
//! * plan-destroy: also one `NodePlanDestroyableResourceInstance` per current object. Terraform
//!   1.15 names it after its *resource*, `module.a.aws_instance.web (destroy)`, whatever its
//!   instance (commit 9f920be95f, 2024), so several nodes may share a name;
//!   [`ResourceFacts::instance`] says which instance each destroys.
//!
//! Nodes get their configuration when the block still exists (`AttachResourceConfigTransformer`)
//! and always the provider recorded in the state.

use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::facts::ResourceFacts;
use crate::graph::node::{Node, NodeKind};
use crate::graph::TfGraph;

pub struct StateTransformer {
    /// Validate: there is no state.
    pub skip: bool,
    /// Plan-destroy: a destroy node for every object in the state, not only deposed ones.
    pub destroy_all: bool,
}

impl Transform for StateTransformer {
    fn name(&self) -> &'static str {
        "StateTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        if self.skip || cx.options.state.is_none() {
            return Diagnostics::new();
        }
        let state = cx.state_index();
        let config = cx.config_resources();
        for (text, inst) in &state.instances {
            let (path, local) = (&inst.module.path, &inst.local);
            let cfg = config.get(inst.module.index, local);
            let mut objects = Vec::new();
            if self.destroy_all {
                if let Some(o) = inst.current {
                    objects.push((NodeKind::ResourceInstanceDestroy { mode: inst.mode, key: None }, None, o));
                }
            }
            for o in &inst.deposed {
                let dk = o.deposed.clone().unwrap_or_default();
                objects.push((
                    NodeKind::ResourceInstanceDeposed { mode: inst.mode, key: inst.key.clone(), deposed: dk.clone() },
                    Some(dk),
                    o,
                ));
            }
            for (kind, deposed, o) in objects {
                let plan_destroy = matches!(kind, NodeKind::ResourceInstanceDestroy { .. });
                let mut node = Node::new(kind, path.clone(), local.clone(), None);
                if !plan_destroy {
                    node.module_instance = Some(inst.module.text.clone());
                }
                node.config = cfg;
                if let Some(c) = cfg {
                    node.range = cx.resource_of(&c).map(|r| cx.names.span(&r.range));
                }
                node.state_provider = Some(o.provider.clone());
                node.facts =
                    Some(Box::new(ResourceFacts { instance: Some(text.clone()), deposed, ..Default::default() }));
                g.add(node);
            }
        }
        Diagnostics::new()
    }
}
