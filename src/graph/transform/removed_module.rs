//! `RemovedModuleTransformer` (`internal/terraform/transform_removed_modules.go`): a
//! `module.m (close)` node for every module that has objects in the prior state but is no
//! longer in the configuration, so the walk can clean up after its instances.
//!
//! Terraform's `ModuleExpansionTransformer` then connects each such closer to the nodes in
//! its module that are already in the graph (not destroyers); that is done here, as the
//! configuration-driven expansion step only knows configured modules. Closers of nested
//! removed modules are connected to their removed parents' closers.

use super::{BuildContext, Transform};
use crate::addrs::ModulePath;
use crate::diag::Diagnostics;
use crate::graph::node::{Node, NodeKind};
use crate::graph::{TfGraph, Why};

pub struct RemovedModuleTransformer;

impl Transform for RemovedModuleTransformer {
    fn name(&self) -> &'static str {
        "RemovedModuleTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let Some(state) = cx.options.state.as_ref() else { return Diagnostics::new() };
        // The removed module paths, sorted, each with its close node: a sorted `Vec` rather
        // than a B-tree type of its own in the package.
        let mut paths: Vec<ModulePath> = Vec::new();
        for o in &state.resources {
            let Some(m) = cx.module_instance(&o.module) else { continue };
            if !m.path.is_root() && m.index.is_none() {
                paths.push((*m.path).clone());
            }
        }
        if paths.is_empty() {
            return Diagnostics::new();
        }
        crate::util::sort::sort(&mut paths);
        paths.dedup();
        let removed: Vec<(ModulePath, crate::dag::NodeId)> = paths
            .into_iter()
            .map(|path| {
                let id = g.add(Node::new(NodeKind::ModuleClose, path.clone(), "", None));
                (path, id)
            })
            .collect();
        let close_of = |path: &ModulePath| removed.binary_search_by(|(p, _)| p.cmp(path)).ok().map(|i| removed[i].1);
        let members: Vec<_> = g
            .ids()
            .filter(|&id| {
                let n = g.node(id);
                !n.is_destroyer()
                    && !matches!(n.kind, NodeKind::ModuleClose | NodeKind::Root)
                    && close_of(&n.module).is_some()
            })
            .collect();
        for v in members {
            let close = close_of(&g.node(v).module).expect("added");
            g.connect(close, v, Why::ModuleClose);
        }
        for (path, close) in &removed {
            let mut up = path.clone();
            up.0.pop();
            while !up.is_root() {
                if let Some(outer) = close_of(&up) {
                    g.connect(outer, *close, Why::ModuleClose);
                    break;
                }
                up.0.pop();
            }
        }
        Diagnostics::new()
    }
}
