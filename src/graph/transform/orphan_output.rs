//! `OrphanOutputTransformer` (`internal/terraform/transform_orphan_output.go`): an
//! `output.o (destroy)` node (`NodeDestroyableOutput`) for every root output in the prior state
//! that the configuration no longer declares, so the walk removes it from the state.

use super::{BuildContext, Transform};
use crate::addrs::ModulePath;
use crate::diag::Diagnostics;
use crate::graph::node::{Node, NodeKind};
use crate::graph::TfGraph;

pub struct OrphanOutputTransformer;

impl Transform for OrphanOutputTransformer {
    fn name(&self) -> &'static str {
        "OrphanOutputTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let Some(state) = cx.options.state.as_ref() else { return Diagnostics::new() };
        let declared = &cx.config.root.outputs;
        for name in &state.outputs {
            if declared.iter().any(|o| &o.name == name) {
                continue;
            }
            g.add(Node::new(NodeKind::OutputDestroy, ModulePath::root(), format!("output.{name}"), None));
        }
        Diagnostics::new()
    }
}
