//! `LocalTransformer` (`internal/terraform/transform_local.go`): one `local.x (expand)` node per
//! local value of every module.

use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::TfGraph;

pub struct LocalTransformer;

impl Transform for LocalTransformer {
    fn name(&self) -> &'static str {
        "LocalTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        for (mi, entry) in cx.modules.iter().enumerate() {
            for (i, l) in entry.module.locals.iter().enumerate() {
                let node = Node::new(
                    NodeKind::Local,
                    entry.path.clone(),
                    format!("local.{}", l.name),
                    Some(cx.names.span(&l.range)),
                )
                .with_config(ConfigRef::Local { module: mi as u32, index: i as u32 });
                g.add(node);
            }
        }
        Diagnostics::new()
    }
}
