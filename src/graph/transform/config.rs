//! `ConfigTransformer` (`internal/terraform/transform_config.go`): one node per `resource`,
//! `data` and `ephemeral` block of every module, check blocks' scoped `data` blocks included.
//!
//! The node kind depends on the operation, as Terraform's `Concrete` callback does: plan uses
//! `nodeExpandPlannableResource` (`aws_instance.web (expand)`), validate
//! `NodeValidatableResource` (`aws_instance.web`). For plan-destroy only ephemeral resources are
//! added (Terraform's `destroy` flag): destroy nodes come from the state instead.
//! Why first: every later step connects these nodes.

use super::{BuildContext, Transform};
use crate::graph::state_index::local_address;
use crate::addrs::ResourceMode;
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::{Operation, TfGraph, Walk};

pub struct ConfigTransformer;


fn kind(op: Operation, mode: ResourceMode) -> NodeKind {
    match op {
        Operation::Validate => NodeKind::ResourceValidate { mode },
        _ => NodeKind::ResourceExpand { mode },
    }
}

impl Transform for ConfigTransformer {
    fn name(&self) -> &'static str {
        "ConfigTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let op = cx.options.operation;
        let destroy = cx.options.walk() == Walk::PlanDestroy;
        for (mi, entry) in cx.modules.iter().enumerate() {
            let m = entry.module;
            let mi = mi as u32;
            for (ri, r) in m.resources.iter().enumerate() {
                if destroy && r.mode != ResourceMode::Ephemeral {
                    continue;
                }
                let local = cx.str(local_address(&m.address, &r.address));
                let node = Node::new(kind(op, r.mode), entry.path.clone(), local, Some(cx.names.span(&r.range)))
                    .with_config(ConfigRef::Resource { module: mi, index: ri as u32 });
                g.add(node);
            }
            if destroy {
                continue;
            }
            for (ci, c) in m.checks.iter().enumerate() {
                if let Some(d) = &c.data {
                    let local = format!("data.{}.{}", d.type_name, d.name);
                    let node = Node::new(kind(op, ResourceMode::Data), entry.path.clone(), local, Some(cx.names.span(&d.range)))
                        .with_config(ConfigRef::CheckData { module: mi, check: ci as u32 });
                    g.add(node);
                }
            }
        }
        Diagnostics::new()
    }
}
