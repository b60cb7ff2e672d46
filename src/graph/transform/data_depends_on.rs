//! `attachDataResourceDependsOnTransformer` (`internal/terraform/transform_reference.go`,
//! `ReferenceMap.dependsOn`): records on every data source's expand node the resources whose
//! pending changes defer its read to the apply (`forcePlanReadData`, which skips data sources:
//! they are left out here). The graph is unchanged.
//!
//! What a data source waits for, as Terraform's `dependsOn` finds it in the graph:
//! - each node its `depends_on` names, and each managed resource its configuration refers to
//!   (`dataDependsOn`): a resource itself only; anything else (a module, an output, a local)
//!   with every resource it descends from;
//! - for the module it is in (the expand node it depends on), the same for the call's
//!   `depends_on`, up through the calls containing it, each with every resource it descends from
//!   (`parentModuleDependsOn`).
//!
//! Runs right after `AttachDependenciesTransformer`, whose [`DependencyIndex`] answers the
//! descent.

use super::reference::ReferenceMap;
use super::{BuildContext, Transform};
use crate::addrs::{ModulePath, ResourceMode, Subject};
use crate::config::Reference;
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::dependencies::DependencyIndex;
use crate::graph::node::{ConfigRef, NodeKind};
use crate::graph::node_facts::facts_mut;
use crate::graph::TfGraph;
use std::collections::BTreeSet;
use std::sync::Arc;

pub struct AttachDataDependsOnTransformer;

impl Transform for AttachDataDependsOnTransformer {
    fn name(&self) -> &'static str {
        "attachDataResourceDependsOnTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let data: Vec<NodeId> = g
            .ids()
            .filter(|&id| matches!(g.node(id).kind, NodeKind::ResourceExpand { mode: ResourceMode::Data }))
            .collect();
        // The index `AttachDependenciesTransformer` left on them (the graph has not changed since).
        let Some(&first) = data.first() else { return Diagnostics::new() };
        let Some(index) = g.node(first).facts.as_ref().and_then(|f| f.dependencies.as_ref()?.index().cloned()) else {
            return Diagnostics::new();
        };
        let mut found = Vec::with_capacity(data.len());
        {
            let map = ReferenceMap::new(g);
            let deps = DependsOn { g, cx, map: &map, index: &index };
            for &v in &data {
                let n = g.node(v);
                let Some(r) = n.config.as_ref().and_then(|c| cx.resource_of(c)) else { continue };
                let module = n.reference_path();
                let mut out = BTreeSet::new();
                // `dataDependsOn`: its references to managed resources count as depends_on.
                for r in r.depends_on.iter().chain(r.references.iter().filter(|r| {
                    matches!(&r.subject, Subject::Resource(a) | Subject::ResourceInstance(a, _) if a.mode == ResourceMode::Managed)
                })) {
                    deps.referenced(v, &module, r, false, &mut out);
                }
                deps.parent_modules(v, &mut out);
                found.push((v, out));
            }
        }
        for (v, list) in found {
            facts_mut(g, v).data_depends_on = list;
        }
        Diagnostics::new()
    }
}

struct DependsOn<'a, 'c> {
    g: &'a TfGraph,
    cx: &'a BuildContext<'c>,
    map: &'a ReferenceMap<'a>,
    index: &'a Arc<DependencyIndex>,
}

impl DependsOn<'_, '_> {
    /// The nodes reference `r` (made by `v`, looked up in `module`) names: a resource itself
    /// (and, `descent`, what it descends from); anything else, what it descends from.
    fn referenced(&self, v: NodeId, module: &ModulePath, r: &Reference, descent: bool, out: &mut BTreeSet<String>) {
        for &rv in self.map.lookup(module, &r.subject) {
            if rv == v {
                continue;
            }
            let resource = self.g.node(rv).config_resource_address();
            let mut add = |a: &str| {
                // Data sources have no side effects: their changes defer nothing (`forcePlanReadData`).
                if !is_data(a) {
                    out.insert(a.to_string());
                }
            };
            if descent || resource.is_none() {
                self.index.handle(rv).to_vec().iter().for_each(|a| add(a));
            }
            resource.iter().for_each(|a| add(a));
        }
    }

    /// `parentModuleDependsOn`: for the expand node of the module `v` is in (one edge away),
    /// what the call's `depends_on` names and what that descends from, and the same for the
    /// calls containing it.
    fn parent_modules(&self, v: NodeId, out: &mut BTreeSet<String>) {
        for m in self.g.dag().edges_from(v) {
            let n = self.g.node(m);
            if let (NodeKind::ModuleExpand, Some(ConfigRef::ModuleCall { parent, call })) = (&n.kind, n.config) {
                let module = n.reference_path();
                for r in &self.cx.module_call(parent, call).depends_on {
                    self.referenced(m, &module, r, true, out);
                }
                self.parent_modules(m, out);
            }
        }
    }
}

/// Whether a config resource address names a data source (`module.m.data.x.y`).
fn is_data(address: &str) -> bool {
    let mut rest = address;
    while let Some(after) = rest.strip_prefix("module.") {
        rest = after.split_once('.').map_or("", |(_, r)| r);
    }
    rest.starts_with("data.")
}
