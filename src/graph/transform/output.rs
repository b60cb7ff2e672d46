//! `OutputTransformer` (`internal/terraform/transform_output.go`): one `output.o (expand)` node
//! per output of every module (Terraform 1.3+ names root outputs this way too). A child
//! module's outputs are referenced from the calling module as `module.m.o` or `module.m`.

use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::TfGraph;

pub struct OutputTransformer;

impl Transform for OutputTransformer {
    fn name(&self) -> &'static str {
        "OutputTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        for (mi, entry) in cx.modules.iter().enumerate() {
            for (i, o) in entry.module.outputs.iter().enumerate() {
                let node = Node::new(NodeKind::Output, entry.module.path.clone(), format!("output.{}", o.name), Some(o.range.clone()))
                    .with_config(ConfigRef::Output { module: mi as u32, index: i as u32 });
                g.add(node);
            }
        }
        Diagnostics::new()
    }
}
