//! The graph a plan walks: graph/'s plan graph (Terraform's `PlanGraphBuilder`, `walkPlan`)
//! built for the configuration and the prior state, walked by walk/'s scheduler. The walk's
//! order is the graph's order, nothing else: every edge of the graph, before transitive
//! reduction, is an edge of the walk.
//!
//! What each node kind does when the walk reaches it:
//! - **resource** (`aws_instance.web (expand)`, Terraform's `nodeExpandPlannableResource`):
//!   its `count` / `for_each` evaluated in every instance of its module, and each instance
//!   refreshed, evaluated, planned by its provider (or, for a data source, read now or
//!   deferred to the apply), orphaned keys and deposed objects planned for deletion
//!   ([`super::plan`]'s `Walk::resource`). Its state `dependencies` are the graph's answer
//!   (`AttachDependenciesTransformer`: every resource ancestor), and so is a forced
//!   create_before_destroy (`ForcedCBDTransformer`). A resource whose plan fails (a
//!   precondition, an import of an instance it does not have) fails its node: everything that
//!   depends on it is skipped and never planned, as Terraform's walk skips the dependents of a
//!   failed vertex.
//! - **provider** (`provider["…"]`), **variable**, **local**, **output**, **module expand**
//!   and **module close**, **check**, **root**: their values are evaluated on demand by eval's
//!   `ModuleScope` (memoised), the first time something that depends on them reads them; the
//!   node is where those dependents may start. Natively the built-in providers need no
//!   configure step; a JS provider is configured by the bindings before the plan.
//! - **orphans** of resources gone from the configuration and deposed objects of them are
//!   planned after the walk (`Walk::orphans`), as before; orphaned keys and deposed objects of
//!   configured resources are planned by their resource's node.
//!
//! A destroy plan walks the same plan graph: Terraform plans a destroy after a refresh-only
//! plan over the normal plan graph, which is where data sources are read and objects
//! refreshed; the deletions themselves need no order at plan time (the apply's destroy graph
//! orders them).

use super::routing::Routing;
use crate::config::Config;
use crate::diag::Diagnostics;
use crate::graph::{build, BuildOptions, NodeKind, Operation, PlanMode};
use crate::walk::{self, Dag, Subgraph, Visited, WalkHooks, WalkOptions};
use futures_util::future::LocalBoxFuture;
use serde_json::Value as Json;
use std::collections::BTreeSet;

/// A resource node of the plan graph: what its visit plans.
#[derive(Clone, Debug)]
pub struct ResourceNode {
    /// The configuration resource address (`module.a.aws_instance.web`, no instance keys).
    pub address: String,
    /// Every resource it depends on, transitively (the graph's resource ancestors, sorted):
    /// its instances' state `dependencies`.
    pub dependencies: BTreeSet<String>,
    /// Whether create_before_destroy is forced on it by a dependent that has it.
    pub forced_cbd: bool,
}

/// graph/'s plan graph, ready to walk.
#[derive(Clone, Debug)]
pub struct PlanGraph {
    /// Per walk node: the resource it plans (index into [`PlanGraph::resources`]), if any.
    pub nodes: Vec<Option<usize>>,
    pub resources: Vec<ResourceNode>,
    /// The graph's edges (`from` depends on `to`) over node indices.
    pub dag: Dag,
    /// Terraform's vertex names, for diagnostics and tests.
    pub names: Vec<String>,
    /// The provider configuration serving each resource (the graph's `ProviderTransformer`).
    pub routing: Routing,
}

impl PlanGraph {
    /// Builds the plan graph of `config` over `prior` (state v4 JSON, after `moved` blocks).
    /// Its errors (a cycle) refuse the plan, in `terraform plan`'s one-line form.
    pub fn build(config: &Config, prior: Option<&Json>) -> Result<PlanGraph, Diagnostics> {
        let state = prior.map(|s| crate::state::state_from_value(s).0);
        let options = BuildOptions {
            operation: Operation::Plan,
            mode: PlanMode::Normal,
            state,
            changes: None,
            reduce: false,
            trace_steps: false,
        };
        let built = build(config, &options);
        if built.diagnostics.has_errors() {
            return Err(Diagnostics(built.diagnostics.errors().map(super::apply_check::one_line_cycle).collect()));
        }
        let graph = built.graph;
        let ids: Vec<crate::dag::NodeId> = graph.ids().collect();
        let mut index = vec![u32::MAX; graph.dag().node_bound()];
        let mut nodes = Vec::with_capacity(ids.len());
        let mut names = Vec::with_capacity(ids.len());
        let mut resources = Vec::new();
        for (i, &id) in ids.iter().enumerate() {
            index[id.index()] = i as u32;
            let n = graph.node(id);
            let resource = match (&n.kind, n.config_resource_address()) {
                (NodeKind::ResourceExpand { .. }, Some(address)) => {
                    let f = n.facts.as_deref();
                    let dependencies = f
                        .and_then(|f| f.dependencies.as_ref())
                        .map(|d| d.to_vec().into_iter().map(|s| s.to_string()).collect())
                        .unwrap_or_default();
                    resources.push(ResourceNode { address, dependencies, forced_cbd: f.is_some_and(|f| f.forced_cbd) });
                    Some(resources.len() - 1)
                }
                _ => None,
            };
            nodes.push(resource);
            names.push(graph.name(id).to_string());
        }
        let edges: Vec<(u32, u32)> =
            graph.dag().edges().map(|(from, to, _)| (index[from.index()], index[to.index()])).collect();
        let dag = match Dag::new(nodes.len(), &edges) {
            Ok(dag) => dag,
            Err(_) => {
                let mut d = Diagnostics::new();
                d.push(crate::diag::Diagnostic::error("Cycle in the plan graph", ""));
                return Err(d);
            }
        };
        let routing = Routing::from_graph(&graph);
        Ok(PlanGraph { nodes, resources, dag, names, routing })
    }

    /// Walks the graph: `plan` is called for each resource node once everything it depends
    /// on is done, and says whether it succeeded; `skipped` for each resource node never
    /// reached because something it depends on failed. Natively every visit completes when
    /// polled (the built-in providers answer at once), so the walk runs to its end here.
    pub fn walk(&self, plan: &dyn Fn(usize) -> bool, skipped: &dyn Fn(usize), parallelism: usize) {
        let nodes: Vec<u32> = (0..self.nodes.len() as u32).collect();
        let visit = |&v: &u32| -> LocalBoxFuture<'_, Result<Visited<u32>, ()>> {
            let resource = self.nodes[v as usize];
            Box::pin(async move {
                match resource {
                    Some(r) if !plan(r) => Err(()),
                    _ => Ok(Visited::Done),
                }
            })
        };
        let hooks = Skips { graph: self, skipped };
        let options = WalkOptions { parallelism: parallelism.max(1), cancel: None, yield_every: 0 };
        let clock = super::clock::VirtualClock::default();
        clock.run(walk::walk(Subgraph::new(nodes, self.dag.clone()), visit, hooks, options));
    }
}

/// Tells the plan which resource nodes the walk skipped.
struct Skips<'g> {
    graph: &'g PlanGraph,
    skipped: &'g dyn Fn(usize),
}

impl WalkHooks<u32> for Skips<'_> {
    fn now(&self) -> f64 {
        0.0
    }

    fn event(&self, event: walk::Event<'_, u32>) {
        if event.kind == walk::EventKind::Skip {
            if let Some(r) = self.graph.nodes[*event.node as usize] {
                (self.skipped)(r);
            }
        }
    }
}
