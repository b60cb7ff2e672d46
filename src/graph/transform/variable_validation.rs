//! `variableValidationTransformer` (`internal/terraform/transform_variable_validation.go`,
//! Terraform 1.9+): a `var.x (validation)` node for every root or module variable with
//! `validation` blocks, depending on the variable. It is referenceable as `var.x` too, so
//! whatever uses the variable also waits for its validation; its own references are the rules'
//! conditions and messages, minus the variable itself.
//!
//! None when applying a destroy plan: the root and module variable nodes are then made with
//! `DestroyApply` (`graph_builder_apply.go`), and their `variableValidationRules` return no
//! rules ("validation rules typically aren't prepared for dealing with things already having
//! been destroyed", `node_root_variable.go`, `node_module_variable.go`).

use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::{TfGraph, Why};

pub struct VariableValidationTransformer {
    /// Applying a destroy plan validates no variables.
    pub skip: bool,
}

impl Transform for VariableValidationTransformer {
    fn name(&self) -> &'static str {
        "variableValidationTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        if self.skip {
            return Diagnostics::new();
        }
        let vars: Vec<_> = g
            .ids()
            .filter(|&id| matches!(g.node(id).kind, NodeKind::RootVariable | NodeKind::ModuleVariable))
            .collect();
        for id in vars {
            let n = g.node(id);
            let (rules, config) = match n.config {
                Some(ConfigRef::Variable { module, index }) => (&cx.variable(module, index).validations, n.config),
                Some(ConfigRef::ModuleVariable { variable: Some((m, v)), .. }) => {
                    (&cx.variable(m, v).validations, n.config)
                }
                _ => continue,
            };
            if rules.is_empty() {
                continue;
            }
            let mut node = Node::new(NodeKind::VariableValidation, n.module.clone(), n.addr.clone(), n.range.clone());
            node.config = config;
            let v = g.add(node);
            g.connect(v, id, Why::VariableValidation);
        }
        Diagnostics::new()
    }
}
