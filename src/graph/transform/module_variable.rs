//! `ModuleVariableTransformer` (`internal/terraform/transform_module_variable.go`): one
//! `module.m.var.x (expand)` node per variable declared by a child module. Its value is the
//! call's argument of that name, written in the *calling* module, so its references are looked
//! up there (`ReferenceOutside`).
//!
//! Terraform visits children before their parent; the order only affects node ids here. For a
//! call whose module is not loaded (an opaque source) the declared variables are unknown, so
//! each argument of the call stands for one.

use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::TfGraph;

pub struct ModuleVariableTransformer;

impl Transform for ModuleVariableTransformer {
    fn name(&self) -> &'static str {
        "ModuleVariableTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        for (mi, entry) in cx.modules.iter().enumerate().skip(1) {
            let Some((parent, call)) = entry.parent else { continue };
            let c = cx.module_call(parent, call);
            for (vi, v) in entry.module.variables.iter().enumerate() {
                let argument = c.arguments.iter().position(|a| a.name == v.name).map(|a| a as u32);
                let node = Node::new(
                    NodeKind::ModuleVariable,
                    entry.path.clone(),
                    format!("var.{}", v.name),
                    Some(cx.names.span(&v.range)),
                )
                .with_config(ConfigRef::ModuleVariable {
                    parent,
                    call,
                    variable: Some((mi as u32, vi as u32)),
                    argument,
                });
                g.add(node);
            }
        }
        for o in &cx.opaque_calls {
            let c = cx.module_call(o.parent, o.call);
            for (ai, a) in c.arguments.iter().enumerate() {
                let node = Node::new(
                    NodeKind::ModuleVariable,
                    cx.names.path(&o.path),
                    format!("var.{}", a.name),
                    Some(cx.names.span(&a.expr.range)),
                )
                .with_config(ConfigRef::ModuleVariable {
                    parent: o.parent,
                    call: o.call,
                    variable: None,
                    argument: Some(ai as u32),
                });
                g.add(node);
            }
        }
        Diagnostics::new()
    }
}
