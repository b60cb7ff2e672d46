//! `ConfigTransformer` (`internal/terraform/transform_config.go`): one node per `resource`,
//! `data` and `ephemeral` block of every module, check blocks' scoped `data` blocks included.
//!
//! The node kind depends on the operation, as Terraform's `Concrete` callback does: plan uses
//! `nodeExpandPlannableResource` (`aws_instance.web (expand)`), validate
//! `NodeValidatableResource` (`aws_instance.web`). For plan-destroy only ephemeral resources are
//! added (Terraform's `destroy` flag): destroy nodes come from the state instead.
//! Why first: every later step connects these nodes.

use super::{BuildContext, Transform};
use crate::addrs::ResourceMode;
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::state_index::local_address;
use crate::graph::TfGraph;

pub struct ConfigTransformer {
    /// Validate's node kind (`NodeValidatableResource`) instead of plan's expand node.
    pub validate: bool,
    /// Plan-destroy: only ephemeral resources (the destroys come from the state).
    pub only_ephemeral: bool,
}

fn kind(validate: bool, mode: ResourceMode) -> NodeKind {
    if validate {
        NodeKind::ResourceValidate { mode }
    } else {
        NodeKind::ResourceExpand { mode }
    }
}

impl Transform for ConfigTransformer {
    fn name(&self) -> &'static str {
        "ConfigTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let (validate, destroy) = (self.validate, self.only_ephemeral);
        for (mi, entry) in cx.modules.iter().enumerate() {
            let m = entry.module;
            let mi = mi as u32;
            for (ri, r) in m.resources.iter().enumerate() {
                if destroy && r.mode != ResourceMode::Ephemeral {
                    continue;
                }
                let local = cx.str(local_address(&m.address, &r.address));
                let node = Node::new(kind(validate, r.mode), entry.path.clone(), local, Some(cx.names.span(&r.range)))
                    .with_config(ConfigRef::Resource { module: mi, index: ri as u32 });
                g.add(node);
            }
            if destroy {
                continue;
            }
            for (ci, c) in m.checks.iter().enumerate() {
                if let Some(d) = &c.data {
                    let local = format!("data.{}.{}", d.type_name, d.name);
                    let node = Node::new(
                        kind(validate, ResourceMode::Data),
                        entry.path.clone(),
                        local,
                        Some(cx.names.span(&d.range)),
                    )
                    .with_config(ConfigRef::CheckData { module: mi, check: ci as u32 });
                    g.add(node);
                }
            }
        }
        Diagnostics::new()
    }
}
