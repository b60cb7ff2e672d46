//! The graph an apply walks: graph/'s apply graph (Terraform's `ApplyGraphBuilder`) built from
//! a plan's changes, in the form walk/'s scheduler takes. Built once, when the plan is complete
//! (`apply_check`: its errors refuse the plan), and kept in the [`Plan`].
//!
//! Each node of the graph is a node of the walk; the nodes that apply a change (an instance's
//! creator, its destroyer, a deposed object's destroyer) name that change, so the apply walk
//! knows which provider operation the node runs. Every edge of the graph, before transitive
//! reduction, is an edge of the walk: the walk's order is the graph's order, nothing else.

use super::plan::Plan;
use crate::config::Config;
use crate::diag::Diagnostics;
use crate::graph::dependencies::{Dependencies, DependencyIndex};
use crate::graph::{build, BuildOptions, NodeKind, Operation, PlanMode, TfGraph};
use crate::plans::{change_address, Action, Changes, ResourceChange};
use crate::walk::Dag;
use std::collections::{BTreeSet, HashMap};

/// What an apply-graph node does to the plan's changes: the change it applies (index into
/// [`Plan::changes`]) and whether it is that change's destroy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeNode {
    pub change: usize,
    pub destroy: bool,
}

/// graph/'s apply graph of a plan, ready to walk.
#[derive(Clone, Debug, Default)]
pub struct ApplyGraph {
    /// Per node: the change it applies, if any.
    pub nodes: Vec<Option<ChangeNode>>,
    /// The graph's edges (`from` depends on `to`) over node indices.
    pub dag: Dag,
    /// Terraform's vertex names, for diagnostics and tests.
    pub names: Vec<String>,
    /// The resource ancestors (read on demand) of each configuration resource's expand node
    /// (`module.a.aws_instance.web`: what it waits for, and so what its configuration may read)
    /// and of each root output: indexes into `ancestors`.
    pub resources: HashMap<String, usize>,
    pub outputs: HashMap<String, usize>,
    pub ancestors: Vec<Dependencies>,
}

/// The planned changes as graph/ takes them (one per [`Plan::changes`] entry, same order).
pub fn changes(plan: &Plan) -> Changes {
    Changes {
        resources: plan
            .changes
            .iter()
            .map(|c| ResourceChange {
                module: c.module.clone(),
                resource: c.resource(),
                key: c.key.as_ref().map(ToString::to_string),
                deposed: c.deposed.clone(),
                action: c.action,
            })
            .collect(),
    }
}

/// Builds graph/'s apply graph of `plan` (unreduced: every edge the builder makes); its errors
/// (cycles, in Terraform's multi-line form).
pub fn build_graph(config: &Config, plan: &Plan) -> (TfGraph, Diagnostics) {
    let state = plan.prior_state.as_ref().map(|s| crate::state::state_from_value(s).0);
    let options = BuildOptions {
        operation: Operation::Apply,
        mode: if plan.destroy { PlanMode::Destroy } else { PlanMode::Normal },
        state,
        changes: Some(changes(plan)),
        reduce: false,
        trace_steps: false,
    };
    let built = build(config, &options);
    let errors = Diagnostics(built.diagnostics.errors().cloned().collect());
    (built.graph, errors)
}

impl ApplyGraph {
    /// The resources the expand node of configuration resource `address` (in `resources`), or
    /// root output `address` (in `outputs`), descends from.
    pub fn ancestors_of(&self, of: &HashMap<String, usize>, address: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for a in of.get(address).map(|&i| self.ancestors[i].to_vec()).unwrap_or_default() {
            out.insert(a.to_string());
        }
        out
    }

    /// The walk's form of `graph`, built for `plan`. `None`: the graph has a cycle (the walk
    /// would never end); [`build_graph`]'s diagnostics say where.
    pub fn new(graph: &TfGraph, plan: &Plan) -> Option<ApplyGraph> {
        // (instance address, the change's deposed key, destroy) -> change.
        let mut by_key: HashMap<(String, Option<String>, bool), usize> = HashMap::with_capacity(plan.changes.len());
        for (i, c) in changes(plan).resources.iter().enumerate() {
            let text = change_address(c);
            let destroy = matches!(c.action, Action::Delete | Action::DeleteThenCreate | Action::CreateThenDelete);
            let create = !matches!(c.action, Action::Delete | Action::Forget);
            if create {
                by_key.insert((text.clone(), c.deposed.clone(), false), i);
            }
            if destroy {
                by_key.insert((text, c.deposed.clone(), true), i);
            }
        }
        let ids: Vec<crate::dag::NodeId> = graph.ids().collect();
        let mut index: HashMap<crate::dag::NodeId, u32> = HashMap::with_capacity(ids.len());
        let mut nodes = Vec::with_capacity(ids.len());
        let mut names = Vec::with_capacity(ids.len());
        let index_of_resources = std::sync::Arc::new(DependencyIndex::new(graph));
        let (mut resources, mut outputs, mut ancestors) = (HashMap::new(), HashMap::new(), Vec::new());
        for (i, &id) in ids.iter().enumerate() {
            index.insert(id, i as u32);
            let n = graph.node(id);
            let by_name = match n.kind {
                NodeKind::ResourceExpand { .. } => {
                    Some((&mut resources, n.config_resource_address().unwrap_or_default()))
                }
                NodeKind::Output if n.module.is_root() => {
                    Some((&mut outputs, n.addr.strip_prefix("output.").unwrap_or(&n.addr).to_string()))
                }
                _ => None,
            };
            if let Some((map, name)) = by_name {
                map.insert(name, ancestors.len());
                ancestors.push(index_of_resources.handle(id));
            }
            let destroy = match n.kind {
                NodeKind::ResourceInstance { .. } => Some(false),
                NodeKind::ResourceInstanceDestroy { .. } | NodeKind::ResourceInstanceDestroyDeposed { .. } => {
                    Some(true)
                }
                _ => None,
            };
            let change = destroy.zip(n.facts.as_ref()).and_then(|(destroy, f)| {
                let instance = f.instance.clone()?;
                // A create_before_destroy replacement's destroy names the key its creator
                // deposes the object under; the change itself has none.
                let deposed = if f.action == Some(Action::CreateThenDelete) { None } else { f.deposed.clone() };
                by_key.get(&(instance, deposed, destroy)).map(|&change| ChangeNode { change, destroy })
            });
            nodes.push(change);
            names.push(graph.name(id).to_string());
        }
        let mut edges: Vec<(u32, u32)> = Vec::with_capacity(graph.edge_count());
        for (from, to, _) in graph.dag().edges() {
            edges.push((index[&from], index[&to]));
        }
        let dag = Dag::new(nodes.len(), &edges).ok()?;
        Some(ApplyGraph { nodes, dag, names, resources, outputs, ancestors })
    }
}
