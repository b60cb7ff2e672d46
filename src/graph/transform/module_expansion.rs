//! `ModuleExpansionTransformer` (`internal/terraform/transform_module_expansion.go`): for every
//! module call, a `module.m (expand)` node that evaluates its count/for_each and a
//! `module.m (close)` node that waits for the whole module.
//!
//! * every node declared in the module (resources, variables, locals, outputs, checks, its
//!   provider configurations) depends on `module.m (expand)`; a nested module's expand node
//!   depends on its parent's;
//! * `module.m (close)` depends on its expand node, on every node of the module, and on the
//!   close nodes of all modules nested below it;
//! * destroy nodes are left out of both (they use only their state).
//!
//! Terraform scans all vertices once per module (O(V·M), #30968: 16 s for 90 modules) and
//! compares every pair of close nodes; here nodes are bucketed by module path in one pass and
//! nested close nodes found by walking each path's prefixes: O(V + M·depth).

use super::{BuildContext, Transform};
use crate::addrs::ModulePath;
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::{TfGraph, Why};
use std::collections::HashMap;

pub struct ModuleExpansionTransformer;

impl Transform for ModuleExpansionTransformer {
    fn name(&self) -> &'static str {
        "ModuleExpansionTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        // The module calls, parents before children (module order is depth-first); opaque calls
        // after the loaded ones of the same parent.
        let mut calls: Vec<(ModulePath, u32, u32)> = Vec::new();
        for (mi, entry) in cx.modules.iter().enumerate().skip(1) {
            let (p, c) = entry.parent.expect("non-root modules have a call");
            calls.push((entry.module.path.clone(), p, c));
            let _ = mi;
        }
        for o in &cx.opaque_calls {
            calls.push((o.path.clone(), o.parent, o.call));
        }
        calls.sort_by(|a, b| a.0 .0.len().cmp(&b.0 .0.len()).then(a.0.cmp(&b.0)));
        if calls.is_empty() {
            return Diagnostics::new();
        }

        // Existing nodes by module path, in one pass.
        let mut by_module: HashMap<ModulePath, Vec<NodeId>> = HashMap::new();
        for id in g.ids() {
            let n = g.node(id);
            if n.is_destroyer() || n.module.is_root() || matches!(n.kind, NodeKind::ModuleClose | NodeKind::Root) {
                continue;
            }
            by_module.entry(n.module.clone()).or_default().push(id);
        }

        let mut expanders: HashMap<ModulePath, NodeId> = HashMap::new();
        let mut closers: HashMap<ModulePath, NodeId> = HashMap::new();
        for (path, parent, call) in &calls {
            let c = cx.module_call(*parent, *call);
            let config = ConfigRef::ModuleCall { parent: *parent, call: *call };
            let expand = g.add(Node::new(NodeKind::ModuleExpand, path.clone(), "", Some(c.range.clone())).with_config(config));
            let close = g.add(Node::new(NodeKind::ModuleClose, path.clone(), "", Some(c.range.clone())).with_config(config));
            let parent_path = ModulePath(path.0[..path.0.len() - 1].to_vec());
            if let Some(&pe) = expanders.get(&parent_path) {
                g.connect(expand, pe, Why::ModuleExpansion);
            }
            g.connect(close, expand, Why::ModuleClose);
            for &v in by_module.get(path).map(Vec::as_slice).unwrap_or(&[]) {
                g.connect(v, expand, Why::ModuleExpansion);
                g.connect(close, v, Why::ModuleClose);
            }
            expanders.insert(path.clone(), expand);
            closers.insert(path.clone(), close);
        }
        // Each close node waits for the close nodes of every module below it.
        for (path, _, _) in &calls {
            let inner = closers[path];
            let mut outer = path.clone();
            outer.0.pop();
            while !outer.is_root() {
                if let Some(&c) = closers.get(&outer) {
                    g.connect(c, inner, Why::ModuleClose);
                }
                outer.0.pop();
            }
        }
        Diagnostics::new()
    }
}
