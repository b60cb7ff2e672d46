//! `OutputTransformer` (`internal/terraform/transform_output.go`): one `output.o (expand)` node
//! per output of every module (Terraform 1.3+ names root outputs this way too). A child
//! module's outputs are referenced from the calling module as `module.m.o` or `module.m`.
//!
//! A module that is not loaded (registry, git, … source) has outputs we cannot see. Terraform
//! always has the module installed, so a reference `module.m.o` reaches the output node `o`;
//! here each output name the calling module refers to gets a stand-in output node, with no
//! configuration and no references (what it depends on inside the module is unknown). Without
//! it the reference would fall back to the whole call, `module.m (close)`, which waits for all
//! the module's inputs, and a module whose output feeds another of its inputs would look
//! cyclic.

use super::{BuildContext, Transform};
use crate::addrs::Subject;
use crate::diag::Diagnostics;
use crate::graph::context::module_references;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::TfGraph;
use std::collections::BTreeSet;

pub struct OutputTransformer;

impl Transform for OutputTransformer {
    fn name(&self) -> &'static str {
        "OutputTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        for (mi, entry) in cx.modules.iter().enumerate() {
            for (i, o) in entry.module.outputs.iter().enumerate() {
                let node = Node::new(
                    NodeKind::Output,
                    entry.path.clone(),
                    format!("output.{}", o.name),
                    Some(cx.names.span(&o.range)),
                )
                .with_config(ConfigRef::Output { module: mi as u32, index: i as u32 });
                g.add(node);
            }
        }
        for o in &cx.opaque_calls {
            let call = &cx.module_call(o.parent, o.call).name;
            let mut outputs: BTreeSet<&str> = BTreeSet::new();
            for r in module_references(cx.module(o.parent)) {
                if let Subject::ModuleCallOutput { call: c, output, .. } = &r.subject {
                    if c == call {
                        outputs.insert(output.as_str());
                    }
                }
            }
            for name in outputs {
                g.add(Node::new(NodeKind::Output, cx.names.path(&o.path), format!("output.{name}"), None));
            }
        }
        Diagnostics::new()
    }
}
