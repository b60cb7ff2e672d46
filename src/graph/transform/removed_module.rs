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
use std::collections::BTreeMap;

pub struct RemovedModuleTransformer;

impl Transform for RemovedModuleTransformer {
    fn name(&self) -> &'static str {
        "RemovedModuleTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let Some(state) = cx.options.state.as_ref() else { return Diagnostics::new() };
        let mut removed: BTreeMap<ModulePath, Option<crate::dag::NodeId>> = BTreeMap::new();
        for o in &state.resources {
            let Some(m) = cx.module_instance(&o.module) else { continue };
            if !m.path.is_root() && m.index.is_none() {
                removed.insert((*m.path).clone(), None);
            }
        }
        if removed.is_empty() {
            return Diagnostics::new();
        }
        for (path, id) in removed.iter_mut() {
            *id = Some(g.add(Node::new(NodeKind::ModuleClose, path.clone(), "", None)));
        }
        let members: Vec<_> = g
            .ids()
            .filter(|&id| {
                let n = g.node(id);
                !n.is_destroyer() && !matches!(n.kind, NodeKind::ModuleClose | NodeKind::Root) && removed.contains_key(&n.module)
            })
            .collect();
        for v in members {
            let close = removed[&g.node(v).module].expect("added");
            g.connect(close, v, Why::ModuleClose);
        }
        let paths: Vec<ModulePath> = removed.keys().cloned().collect();
        for p in paths {
            let mut up = p.clone();
            up.0.pop();
            while !up.is_root() {
                if let Some(&Some(outer)) = removed.get(&up) {
                    g.connect(outer, removed[&p].expect("added"), Why::ModuleClose);
                    break;
                }
                up.0.pop();
            }
        }
        Diagnostics::new()
    }
}
