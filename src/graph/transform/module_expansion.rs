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
use crate::graph::shared::FastMap;
use crate::graph::{TfGraph, Why};
use std::sync::Arc;

pub struct ModuleExpansionTransformer;

impl Transform for ModuleExpansionTransformer {
    fn name(&self) -> &'static str {
        "ModuleExpansionTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        // The module calls, parents before children (module order is depth-first); opaque calls
        // after the loaded ones of the same parent.
        let mut calls: Vec<(Arc<ModulePath>, u32, u32)> = Vec::new();
        for entry in cx.modules.iter().skip(1) {
            let (p, c) = entry.parent.expect("non-root modules have a call");
            calls.push((entry.path.clone(), p, c));
        }
        for o in &cx.opaque_calls {
            calls.push((cx.names.path(&o.path), o.parent, o.call));
        }
        crate::util::sort::sort_by(&mut calls, |a, b| a.0 .0.len().cmp(&b.0 .0.len()).then(a.0.cmp(&b.0)));
        if calls.is_empty() {
            return Diagnostics::new();
        }

        // Existing nodes by module path, in one pass.
        let mut by_module: FastMap<Arc<ModulePath>, Vec<NodeId>> = FastMap::default();
        for id in g.ids() {
            let n = g.node(id);
            if n.is_destroyer() || n.module.is_root() || matches!(n.kind, NodeKind::ModuleClose | NodeKind::Root) {
                continue;
            }
            by_module.entry(n.module.clone()).or_default().push(id);
        }

        let mut expanders: FastMap<&[String], NodeId> = FastMap::default();
        let mut closers: FastMap<&[String], NodeId> = FastMap::default();
        let empty = cx.str("");
        for (path, parent, call) in &calls {
            let c = cx.module_call(*parent, *call);
            let config = ConfigRef::ModuleCall { parent: *parent, call: *call };
            let range = cx.names.span(&c.range);
            let expand = g.add(
                Node::new(NodeKind::ModuleExpand, path.clone(), empty.clone(), Some(range.clone())).with_config(config),
            );
            let close =
                g.add(Node::new(NodeKind::ModuleClose, path.clone(), empty.clone(), Some(range)).with_config(config));
            if let Some(&pe) = expanders.get(&path.0[..path.0.len() - 1]) {
                g.connect(expand, pe, Why::ModuleExpansion);
            }
            g.connect(close, expand, Why::ModuleClose);
            for &v in by_module.get(path).map(Vec::as_slice).unwrap_or(&[]) {
                g.connect(v, expand, Why::ModuleExpansion);
                g.connect(close, v, Why::ModuleClose);
            }
            expanders.insert(&path.0, expand);
            closers.insert(&path.0, close);
        }
        // Each close node waits for the close nodes of every module below it.
        for (path, _, _) in &calls {
            let inner = closers[&path.0[..]];
            for depth in (1..path.0.len()).rev() {
                if let Some(&c) = closers.get(&path.0[..depth]) {
                    g.connect(c, inner, Why::ModuleClose);
                }
            }
        }
        Diagnostics::new()
    }
}
