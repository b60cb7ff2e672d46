//! `RootVariableTransformer` (`internal/terraform/transform_variable.go`): one `var.x` node per
//! root module variable. Their values come from outside the graph, so they refer to nothing.

use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::TfGraph;

pub struct RootVariableTransformer;

impl Transform for RootVariableTransformer {
    fn name(&self) -> &'static str {
        "RootVariableTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let root = cx.module(0);
        for (i, v) in root.variables.iter().enumerate() {
            let node = Node::new(
                NodeKind::RootVariable,
                cx.modules[0].path.clone(),
                format!("var.{}", v.name),
                Some(cx.names.span(&v.range)),
            )
            .with_config(ConfigRef::Variable { module: 0, index: i as u32 });
            g.add(node);
        }
        Diagnostics::new()
    }
}
