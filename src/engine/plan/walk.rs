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
//!   ([`super::nodes`]'s `Walk::resource`), and so are its objects in module instances the
//!   walk no longer expands (Terraform's `nodeExpandPlannableResource.DynamicExpand`). Its state `dependencies` are the graph's answer
//!   (`AttachDependenciesTransformer`: every resource ancestor), and so is a forced
//!   create_before_destroy (`ForcedCBDTransformer`). A resource whose plan fails (a
//!   precondition, an import of an instance it does not have, a provider's error) fails its
//!   node: everything that depends on it is skipped and never planned, as Terraform's walk
//!   skips the dependents of a failed vertex. The provider calls are awaited here ([`PlanHost`]): a node whose provider cannot answer
//!   at once (a JS provider's promise) awaits the answers while the walk runs other nodes, then
//!   plans again with them.
//! - **provider** (`provider["…"]`, Terraform's `NodeApplyableProvider`): configures its
//!   provider through the host, its block evaluated over what the walk planned so far (the
//!   graph orders the block's references before it); a configure that fails fails the node, so
//!   the resources it serves are skipped. The built-in providers need no configure step.
//! - **module expand** (`module.a (expand)`, Terraform's `nodeExpandModule`): the call's
//!   `count` / `for_each` evaluated in every instance of the calling module as the walk reaches
//!   it, and the instances recorded (less those an `override_module` names); the resource nodes
//!   inside the module (which the graph orders after it) plan over those instances.
//! - **local**, **module variable**, **variable validation**, **output** (`local.x (expand)`,
//!   `module.m.var.x (expand)`, `module.m.var.x (validation)`, `output.o (expand)`: Terraform's
//!   `NodeLocal`, `nodeModuleVariable`, `nodeVariableValidation`, `NodeApplyableOutput`): the
//!   value evaluated in every instance of its module when the walk reaches it (an output's
//!   preconditions first) and kept where every later reader finds it (eval's `ModuleScope`
//!   memo, which the walk fills); its errors are reported there, once, and fail the node, so
//!   what depends on it is skipped while the rest goes on. A root output that fails, or whose
//!   node the walk skips, is left out of the plan, as Terraform sets no value for it. The root
//!   module's variables are evaluated and validated before the walk (their problems refuse
//!   the plan); **module close**, **check** and **root** have no work here (checks are
//!   evaluated after the walk).
//! - **orphan** (`aws_instance.old (orphan)`, Terraform's `NodePlannableResourceInstanceOrphan`
//!   from `OrphanResourceInstanceTransformer`) and **deposed** (`… (deposed 1a2b3c4d)`,
//!   `NodePlanDeposedResourceInstanceObject` from `StateTransformer`) of a resource gone from
//!   the configuration: the object is refreshed and planned for deletion (or forgotten, under a
//!   `removed` block) by the provider its state names, once that provider's node is done; a
//!   provider that fails to configure skips them ([`OrphanNode`]). Orphaned keys and deposed
//!   objects of configured resources are planned by their resource's node.
//!
//! A destroy plan walks this graph first to refresh the state (unless `-refresh=false`), then
//! the plan-destroy graph (Terraform's `walkPlanDestroy`, [`super::destroy`]): there a
//! `(destroy)` or `(deposed …)` node plans its object's `Delete` from the refreshed state,
//! providers configure as here (their blocks reading the state's values), nothing is expanded,
//! and every root output the state holds is deleted (their nodes depend on nothing).

use crate::addrs::{InstanceKey, ResourceMode};
use crate::config::Config;
use crate::diag::Diagnostics;
use crate::engine::shared;
use crate::graph::dependencies::Dependencies;
use crate::graph::{build, BuildOptions, NodeKind, Operation, PlanMode};
use crate::walk::{self, CancelToken, Dag, Subgraph, Visited, WalkHooks, WalkOptions};
use futures_util::future::LocalBoxFuture;
use serde_json::Value as Json;
use shared::routing::Routing;
use shared::scope::WalkValues;
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
    /// A data source: the resources whose pending changes defer its read to the apply (the
    /// graph's `attachDataResourceDependsOnTransformer`).
    pub data_depends_on: BTreeSet<String>,
}

/// A state object whose `resource` block is gone from the configuration (or whose whole module
/// is): Terraform's `NodePlannableResourceInstanceOrphan`, `aws_instance.web[2] (orphan)`
/// (`OrphanResourceInstanceTransformer`), or for a deposed object of one,
/// `NodePlanDeposedResourceInstanceObject`, `aws_instance.web (deposed 1a2b3c4d)`
/// (`StateTransformer`). Its visit plans the object's deletion.
#[derive(Clone, Debug)]
pub struct OrphanNode {
    /// The module instance, as the state writes it (`module.m[0]`; empty for the root).
    pub module: String,
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
    pub key: Option<InstanceKey>,
    /// The deposed object's key; `None` for the current object.
    pub deposed: Option<String>,
}

/// What a value node of the plan graph evaluates (Terraform's `NodeLocal`,
/// `nodeModuleVariable`, `nodeVariableValidation` and a module's `NodeApplyableOutput`), in
/// every instance of its module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    Local,
    Variable,
    Validation,
    Output,
}

/// A value node: what it evaluates, where (call names from the root), which name.
#[derive(Clone, Debug)]
pub struct ValueNode {
    pub kind: ValueKind,
    pub path: Vec<String>,
    pub name: String,
}

/// graph/'s plan graph, ready to walk.
#[derive(Clone, Debug)]
pub struct PlanGraph {
    /// Per walk node: the resource it plans (index into [`PlanGraph::resources`]), if any.
    pub nodes: Vec<Option<usize>>,
    pub resources: Vec<ResourceNode>,
    /// Per walk node: the orphaned object it plans (index into [`PlanGraph::orphans`]), if any.
    pub orphan_nodes: Vec<Option<usize>>,
    pub orphans: Vec<OrphanNode>,
    /// The graph's edges (`from` depends on `to`) over node indices.
    pub dag: Dag,
    /// Per walk node: the provider configuration it configures, if it is a provider node.
    pub providers: Vec<Option<String>>,
    /// Per walk node: the root module output it stands for (`output.o (expand)`), if any.
    pub outputs: Vec<Option<String>>,
    /// Each root output's resource ancestors (the graph's, read on demand): what `-target`
    /// must keep for the output to be kept (`TargetsTransformer`).
    pub output_resources: Vec<(String, Dependencies)>,
    /// Per walk node: the module call it expands (`module.a.module.b (expand)`: `["a", "b"]`),
    /// if it is a module's expand node.
    pub modules: Vec<Option<Vec<String>>>,
    /// Per walk node: the local, module variable, variable validation or module output it
    /// evaluates, if any.
    pub values: Vec<Option<ValueNode>>,
    /// Terraform's vertex names, for diagnostics and tests.
    pub names: Vec<String>,
    /// The provider configuration serving each resource (the graph's `ProviderTransformer`).
    pub routing: Routing,
}

impl PlanGraph {
    /// Builds the plan graph of `config` over `prior` (state v4 JSON, after `moved` blocks):
    /// `walkPlan`'s, or with [`PlanMode::Destroy`] `walkPlanDestroy`'s (a `(destroy)` node per
    /// object in `prior`, no resource blocks). Its errors (a cycle) refuse the plan, in
    /// `terraform plan`'s one-line form.
    pub fn build(config: &Config, prior: Option<&Json>, mode: PlanMode) -> Result<PlanGraph, Diagnostics> {
        let state = prior.map(|s| crate::state::state_from_value(s).0);
        let options =
            BuildOptions { operation: Operation::Plan, mode, state, changes: None, reduce: false, trace_steps: false };
        let built = build(config, &options);
        if built.diagnostics.has_errors() {
            return Err(Diagnostics(built.diagnostics.errors().map(shared::apply_check::one_line_cycle).collect()));
        }
        let graph = built.graph;
        let ids: Vec<crate::dag::NodeId> = graph.ids().collect();
        let mut index = vec![u32::MAX; graph.dag().node_bound()];
        let mut nodes = Vec::with_capacity(ids.len());
        let mut names = Vec::with_capacity(ids.len());
        let mut providers = Vec::with_capacity(ids.len());
        let mut outputs = Vec::with_capacity(ids.len());
        let mut modules = Vec::with_capacity(ids.len());
        let mut values = Vec::with_capacity(ids.len());
        let mut resources = Vec::new();
        let mut orphan_nodes = Vec::with_capacity(ids.len());
        let mut orphans = Vec::new();
        // The index `AttachDependenciesTransformer` made (on every resource expand node) answers
        // for the root outputs too; none: no resources, so they reach none.
        let mut index_of_dependencies = None;
        for &id in &ids {
            if let Some(d) = graph.node(id).facts.as_ref().and_then(|f| f.dependencies.as_ref()) {
                index_of_dependencies = d.index().cloned();
                break;
            }
        }
        let mut output_resources = Vec::new();
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
                    let data_depends_on = f.map(|f| f.data_depends_on.clone()).unwrap_or_default();
                    resources.push(ResourceNode {
                        address,
                        dependencies,
                        forced_cbd: f.is_some_and(|f| f.forced_cbd),
                        data_depends_on,
                    });
                    Some(resources.len() - 1)
                }
                _ => None,
            };
            nodes.push(resource);
            orphan_nodes.push(orphan_of(n, mode == PlanMode::Destroy).map(|o| {
                orphans.push(o);
                orphans.len() - 1
            }));
            let name = graph.name(id).to_string();
            providers.push(matches!(n.kind, NodeKind::Provider { .. }).then(|| name.clone()));
            let root_output = matches!(n.kind, NodeKind::Output | NodeKind::OutputDestroy) && n.module.is_root();
            if matches!(n.kind, NodeKind::Output) && n.module.is_root() {
                let name = n.addr.strip_prefix("output.").unwrap_or(&n.addr).to_string();
                output_resources
                    .push((name, index_of_dependencies.as_ref().map(|ix| ix.handle(id)).unwrap_or_default()));
            }
            outputs.push(root_output.then(|| n.addr.strip_prefix("output.").unwrap_or(&n.addr).to_string()));
            modules.push(matches!(n.kind, NodeKind::ModuleExpand).then(|| n.module.0.clone()));
            values.push(value_of(n));
            names.push(name);
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
        Ok(PlanGraph {
            nodes,
            resources,
            orphan_nodes,
            orphans,
            dag,
            providers,
            outputs,
            output_resources,
            modules,
            values,
            names,
            routing,
        })
    }

    /// Walks the graph: `visit` does each node's [`Work`] once everything it depends on is
    /// done, and says whether it succeeded; `skipped` is called with the work of each node
    /// never reached because something it depends on failed. At most
    /// `parallelism` visits are under way at once (a visit awaiting its provider lets others
    /// run). `cancel` stops the walk: nothing new starts.
    pub async fn walk<'v>(
        &'v self,
        visit: &'v dyn Fn(Work<'v>) -> LocalBoxFuture<'v, bool>,
        skipped: &'v dyn Fn(Work<'v>),
        parallelism: usize,
        cancel: Option<CancelToken>,
    ) {
        let nodes: Vec<u32> = (0..self.nodes.len() as u32).collect();
        let visit = |&v: &u32| -> LocalBoxFuture<'v, Result<Visited<u32>, ()>> {
            let work = self.work(v as usize);
            Box::pin(async move {
                match work {
                    Some(w) if !visit(w).await => Err(()),
                    _ => Ok(Visited::Done),
                }
            })
        };
        let hooks = Skips { graph: self, skipped };
        let options = WalkOptions { parallelism: parallelism.max(1), cancel, yield_every: 0 };
        walk::walk(Subgraph::new(nodes, self.dag.clone()), visit, hooks, options).await;
    }
}

/// The value a node of the plan graph evaluates. The root module's variables are evaluated
/// and validated before the walk (a problem refuses the plan), and its outputs are
/// [`Work::Output`].
fn value_of(n: &crate::graph::Node) -> Option<ValueNode> {
    let kind = match n.kind {
        NodeKind::Local => ValueKind::Local,
        NodeKind::ModuleVariable => ValueKind::Variable,
        NodeKind::VariableValidation if !n.module.is_root() => ValueKind::Validation,
        NodeKind::Output if !n.module.is_root() => ValueKind::Output,
        _ => return None,
    };
    let name = n.addr.split_once('.').map_or(&*n.addr, |(_, name)| name).to_string();
    Some(ValueNode { kind, path: n.module.0.clone(), name })
}

/// The state object a node of the plan graph plans the deletion of: an `(orphan)` node, or a
/// `(deposed …)` node of a resource gone from the configuration (the deposed objects of a
/// configured resource are planned by its resource node, as Terraform's `DynamicExpand` does).
/// In the plan-destroy graph (`destroy`): every `(destroy)` node
/// (`NodePlanDestroyableResourceInstance`, named after its resource, its instance in its facts)
/// and every `(deposed …)` node. A data source's `(orphan)` node takes its object out of the
/// refreshed state; in a destroy plan data sources have none (a data source's delete is not
/// shown, and the apply drops their objects).
fn orphan_of(n: &crate::graph::Node, destroy: bool) -> Option<OrphanNode> {
    let (mode, key, deposed, instance) = match &n.kind {
        NodeKind::ResourceInstanceOrphan { mode: mode @ (ResourceMode::Managed | ResourceMode::Data), key } => {
            (*mode, key.clone(), None, None)
        }
        NodeKind::ResourceInstanceDeposed { mode: ResourceMode::Managed, key, deposed }
            if n.config.is_none() || destroy =>
        {
            (ResourceMode::Managed, key.clone(), Some(deposed.clone()), None)
        }
        NodeKind::ResourceInstanceDestroy { mode: ResourceMode::Managed, .. } if destroy => {
            let a = crate::addrs::InstanceAddr::parse(n.facts.as_ref()?.instance.as_deref()?).ok()?;
            (ResourceMode::Managed, a.key.clone(), None, Some(a.module_instance()))
        }
        _ => return None,
    };
    let local = n.addr.as_str();
    let (type_name, name) = local.strip_prefix("data.").unwrap_or(local).split_once('.')?;
    Some(OrphanNode {
        module: instance.unwrap_or_else(|| n.module_instance.as_deref().unwrap_or_default().to_string()),
        mode,
        type_name: type_name.to_string(),
        name: name.to_string(),
        key,
        deposed,
    })
}

impl PlanGraph {
    /// Whether a targeted plan keeps root output `name`: it descends from resources, all of
    /// which the plan keeps (Terraform's `TargetsTransformer`).
    pub fn output_kept(&self, name: &str, kept: &BTreeSet<String>) -> bool {
        let reached =
            self.output_resources.iter().find(|(n, _)| n == name).map(|(_, d)| d.to_vec()).unwrap_or_default();
        !reached.is_empty() && reached.iter().all(|r| kept.contains(&**r))
    }

    /// A targeted destroy plan's objects (Terraform's `TargetsTransformer` on the plan-destroy
    /// graph), by index into [`PlanGraph::orphans`]: each object a target contains and every
    /// object node it depends on, which the graph's destroy edges make every object depending
    /// on it.
    pub fn targeted_objects(&self, targets: &crate::engine::shared::targets::Targets) -> Vec<bool> {
        let n = self.nodes.len() as u32;
        let mut kept: Vec<bool> = (0..n as usize)
            .map(|v| {
                self.orphan_nodes[v].is_some_and(|o| {
                    let o = &self.orphans[o];
                    let resource = crate::addrs::ResourceAddr {
                        mode: o.mode,
                        type_name: o.type_name.clone(),
                        name: o.name.clone(),
                    };
                    targets.contains(&o.module, &resource, &o.key)
                })
            })
            .collect();
        // A node is kept when something kept depends on it: passes until nothing changes.
        let mut changed = true;
        while std::mem::take(&mut changed) {
            for v in 0..n {
                if !kept[v as usize] && self.dag.dependents(v).iter().any(|&d| kept[d as usize]) {
                    kept[v as usize] = true;
                    changed = true;
                }
            }
        }
        self.orphan_nodes.iter().zip(kept).filter_map(|(o, k)| o.map(|_| k)).collect()
    }

    /// What walk node `v` does, if anything.
    fn work(&self, v: usize) -> Option<Work<'_>> {
        match (self.nodes[v], self.orphan_nodes[v], &self.providers[v], &self.outputs[v]) {
            (Some(r), ..) => Some(Work::Resource(r)),
            (None, Some(o), ..) => Some(Work::Orphan(o)),
            (None, None, Some(p), _) => Some(Work::Provider(p)),
            (None, None, None, Some(o)) => Some(Work::Output(o)),
            (None, None, None, None) => match &self.values[v] {
                Some(value) => Some(Work::Value(value)),
                None => self.modules[v].as_deref().map(Work::Module),
            },
        }
    }
}

/// The work of one node of the plan graph.
#[derive(Clone, Copy, Debug)]
pub enum Work<'g> {
    /// Plan the resource (an index into [`PlanGraph::resources`]) in every instance of its module.
    Resource(usize),
    /// Plan the deletion (or, under a `removed` block, the forgetting) of an object whose
    /// resource is gone from the configuration (an index into [`PlanGraph::orphans`]).
    Orphan(usize),
    /// Configure the provider configuration at this address (Terraform's
    /// `NodeApplyableProvider`): every resource it serves depends on this node, and the node on
    /// whatever its `provider` block references.
    Provider(&'g str),
    /// The root module output of this name (Terraform's `NodeApplyableOutput`): its
    /// preconditions, then its value; one that fails, or whose node the walk skips (something
    /// it depends on failed), is left out of the plan.
    Output(&'g str),
    /// Evaluate a local, a module's input variable, its validations or a module's output in
    /// every instance of its module, as the walk reaches it: its errors fail the node, and what
    /// depends on it is skipped.
    Value(&'g ValueNode),
    /// Expand the module call at this path (call names from the root; Terraform's
    /// `nodeExpandModule`): its `count` / `for_each` evaluated in every instance of the calling
    /// module, and the instances recorded, which the resource nodes inside it plan.
    Module(&'g [String]),
}

/// What the plan walk asks of the world outside it: its providers' answers, which a provider
/// written in JS gives later (a promise), and their configuration. The built-in providers
/// answer at once ([`Synchronous`]): natively a plan never waits.
///
/// A resource node plans its instances synchronously, each provider question answered from
/// what the provider has already said ([`crate::providers::answered`]); a question it could
/// not answer yet is recorded, and the node's work is then taken back, the answers awaited (the
/// walk runs other nodes meanwhile), and the node planned again with them, until it asks
/// nothing new. Only that last run's results are kept.
pub trait PlanHost {
    /// Configures the provider configuration at `address` as the walk reaches its node, its
    /// `provider` block evaluated over `values` (what the walk has planned so far, which the
    /// graph makes include everything the block references). `Err`: its diagnostics; the
    /// resources it serves are not planned.
    fn configure<'a>(&'a self, address: &'a str, values: &'a WalkValues)
        -> LocalBoxFuture<'a, Result<(), Diagnostics>>;

    /// The questions the providers were asked since the last call and could not answer yet,
    /// being answered: `None` when there are none (what was planned since is final).
    fn answers<'a>(&'a self, values: &'a WalkValues) -> Option<LocalBoxFuture<'a, Result<(), Diagnostics>>>;

    /// Whether the host has providers of its own, which answer later: else every answer is at
    /// hand, and the plan runs to its end at once.
    fn awaits(&self) -> bool {
        true
    }

    /// Memory for `bytes` more, grown at once (wasm: each `memory.grow` is a full GC in Node).
    fn reserve_heap(&self, bytes: usize) {
        let _ = bytes;
    }

    /// Runs `f`, a plan run at once, with the memory grown ahead of it (wasm: a plan does not
    /// know its size before it expands).
    fn growing_ahead(&self, f: &mut dyn FnMut()) {
        f()
    }
}

/// The host of providers that answer at once and need no configure step (the built-in mock
/// and the generic mock).
pub struct Synchronous;

impl PlanHost for Synchronous {
    fn configure<'a>(&'a self, _: &'a str, _: &'a WalkValues) -> LocalBoxFuture<'a, Result<(), Diagnostics>> {
        Box::pin(std::future::ready(Ok(())))
    }

    fn answers<'a>(&'a self, _: &'a WalkValues) -> Option<LocalBoxFuture<'a, Result<(), Diagnostics>>> {
        None
    }

    fn awaits(&self) -> bool {
        false
    }
}

/// Tells the plan which nodes the walk skipped.
struct Skips<'g> {
    graph: &'g PlanGraph,
    skipped: &'g dyn Fn(Work<'g>),
}

impl WalkHooks<u32> for Skips<'_> {
    fn now(&self) -> f64 {
        0.0
    }

    fn event(&self, event: walk::Event<'_, u32>) {
        if event.kind == walk::EventKind::Skip {
            if let Some(work) = self.graph.work(*event.node as usize) {
                (self.skipped)(work);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::plan::nodes::plan;
    use crate::engine::shared::plan::{Plan, PlanOptions};
    use crate::providers::mock::{MockOptions, MockProvider};
    use std::collections::BTreeMap;

    fn planned(list: &[(&str, &str)], options: &PlanOptions) -> Plan {
        planned_over(list, None, options)
    }

    fn planned_over(list: &[(&str, &str)], prior: Option<&serde_json::Value>, options: &PlanOptions) -> Plan {
        let files: BTreeMap<String, String> = list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let loaded = crate::config::load(&files, &Default::default());
        assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
        plan(&files, &loaded.config, prior, &MockProvider::new(MockOptions::default()), options)
    }

    /// A state v4 object holding one object per `(module, type, name, provider)`.
    fn state(objects: &[(&str, &str, &str, &str)]) -> serde_json::Value {
        let resources: Vec<serde_json::Value> = objects
            .iter()
            .map(|(module, type_name, name, provider)| {
                let mut r = serde_json::json!({
                    "mode": "managed", "type": type_name, "name": name, "provider": provider,
                    "instances": [{"schema_version": 0, "attributes": {"id": name, "name": name}}],
                });
                if !module.is_empty() {
                    r["module"] = serde_json::json!(module);
                }
                r
            })
            .collect();
        serde_json::json!({"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "l", "outputs": {}, "resources": resources})
    }

    const MOCK: &str = "provider[\"registry.terraform.io/hashicorp/mock\"]";

    #[test]
    fn orphans_are_planned_by_their_nodes_and_gone_module_instances_by_their_resource() {
        let prior = state(&[("", "mock_resource", "gone", MOCK), ("module.m[1]", "mock_resource", "x", MOCK)]);
        let p = planned_over(
            &[
                ("main.tf", "module \"m\" {\n  source = \"./m\"\n  count  = 1\n}\n"),
                ("m/main.tf", "resource \"mock_resource\" \"x\" {\n  name = \"x\"\n}\n"),
            ],
            Some(&prior),
            &PlanOptions::default(),
        );
        assert!(!p.diagnostics.has_errors(), "{:?}", p.diagnostics);
        let planned: Vec<(String, crate::plans::Action, Option<&str>)> =
            p.changes.iter().map(|c| (c.address(), c.action, c.reason)).collect();
        use crate::plans::Action::{Create, Delete};
        assert_eq!(
            planned,
            [
                ("mock_resource.gone".to_string(), Delete, Some("delete_because_no_resource_config")),
                ("module.m[0].mock_resource.x".to_string(), Create, None),
                ("module.m[1].mock_resource.x".to_string(), Delete, Some("delete_because_no_module")),
            ]
        );
    }

    fn graph_of(list: &[(&str, &str)]) -> super::PlanGraph {
        let files: BTreeMap<String, String> = list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let loaded = crate::config::load(&files, &Default::default());
        assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
        super::PlanGraph::build(&loaded.config, None, crate::graph::PlanMode::Normal).expect("a plan graph")
    }

    #[test]
    fn the_graph_says_what_defers_a_data_source_and_what_an_output_reaches() {
        let g = graph_of(&[
            (
                "main.tf",
                r#"
resource "mock_resource" "first" {
  name = "1"
}
resource "mock_resource" "second" {
  name = mock_resource.first.id
}
resource "mock_resource" "read" {
  name = "r"
}
locals {
  l = mock_resource.second.id
}
module "m" {
  source     = "./m"
  depends_on = [local.l]
}
data "mock_data" "root" {
  name       = mock_resource.read.id
  depends_on = [mock_resource.second]
}
output "o" {
  value = module.m.out
}
"#,
            ),
            (
                "m/main.tf",
                "data \"mock_data\" \"inner\" {\n  name = \"i\"\n}\noutput \"out\" {\n  value = data.mock_data.inner.id\n}\n",
            ),
        ]);
        let data = |a: &str| -> Vec<String> {
            g.resources.iter().find(|r| r.address == a).expect(a).data_depends_on.iter().cloned().collect()
        };
        // Its depends_on names a resource (itself only) and it reads a managed resource.
        assert_eq!(data("data.mock_data.root"), ["mock_resource.read", "mock_resource.second"]);
        // Its module call's depends_on names a local: what that descends from.
        assert_eq!(data("module.m.data.mock_data.inner"), ["mock_resource.first", "mock_resource.second"]);
        let reached: Vec<String> = g.output_resources[0].1.to_vec().iter().map(|s| s.to_string()).collect();
        assert_eq!(reached, ["mock_resource.first", "mock_resource.second", "module.m.data.mock_data.inner"]);
    }

    #[test]
    fn a_resource_waits_for_what_its_import_blocks_read() {
        let g = graph_of(&[(
            "main.tf",
            r#"
resource "mock_resource" "a" {
  name = "a"
}
import {
  for_each = [mock_resource.a.id]
  to       = mock_resource.r[each.key]
  id       = each.value
}
resource "mock_resource" "r" {
  count = 1
  name  = "r"
}
"#,
        )]);
        let node = |name: &str| g.names.iter().position(|n| n == name).expect(name) as u32;
        let (a, r) = (node("mock_resource.a (expand)"), node("mock_resource.r (expand)"));
        assert!(g.dag.dependents(a).contains(&r));
    }

    fn addresses(p: &Plan) -> Vec<String> {
        p.changes.iter().map(|c| c.address()).collect()
    }

    #[test]
    fn depends_on_a_module_records_every_resource_of_the_module() {
        let p = planned(
            &[
                ("main.tf", "module \"m\" {\n  source = \"./m\"\n}\nresource \"mock_resource\" \"after\" {\n  name       = \"a\"\n  depends_on = [module.m]\n}\n"),
                ("m/main.tf", "resource \"mock_resource\" \"one\" {\n  name = \"1\"\n}\nmodule \"n\" {\n  source = \"./n\"\n}\n"),
                ("m/n/main.tf", "resource \"mock_resource\" \"two\" {\n  name = \"2\"\n}\n"),
            ],
            &PlanOptions::default(),
        );
        assert!(!p.diagnostics.has_errors(), "{:?}", p.diagnostics);
        let after = p.changes.iter().find(|c| c.address() == "mock_resource.after").expect("planned");
        assert_eq!(after.dependencies, ["module.m.mock_resource.one", "module.m.module.n.mock_resource.two"]);
    }

    #[test]
    fn a_failed_resource_skips_its_dependents_and_nothing_else() {
        let p = planned(
            &[(
                "main.tf",
                r#"
variable "ok" {
  default = false
}
resource "mock_resource" "a" {
  name = "a"
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "refused"
    }
  }
}
locals {
  x = mock_resource.a.id
}
resource "mock_resource" "b" {
  name = local.x
}
resource "mock_resource" "c" {
  name = "c"
}
"#,
            )],
            &PlanOptions::default(),
        );
        assert_eq!(addresses(&p), ["mock_resource.c"]);
        let errors: Vec<&str> = p.diagnostics.errors().map(|d| d.summary.as_str()).collect();
        assert_eq!(errors, ["Resource precondition failed"]);
    }

    #[test]
    fn an_output_whose_node_the_walk_skips_is_left_out() {
        let p = planned(
            &[
                (
                    "main.tf",
                    r#"
variable "ok" {
  default = false
}
resource "mock_resource" "a" {
  name = "a"
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "refused"
    }
  }
}
module "m" {
  source = "./m"
  in     = mock_resource.a.name
}
output "through_module" {
  value = module.m.out
}
output "fine" {
  value = "ok"
}
"#,
                ),
                ("m/main.tf", "variable \"in\" {}\noutput \"out\" {\n  value = var.in\n}\n"),
            ],
            &PlanOptions::default(),
        );
        let outputs: Vec<&str> = p.outputs.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(outputs, ["fine"]);
    }

    #[test]
    fn a_cancelled_plan_starts_nothing_and_says_so() {
        let cancel = crate::walk::CancelToken::new();
        cancel.cancel();
        let options = PlanOptions { cancel: Some(cancel), ..Default::default() };
        let p = planned(&[("main.tf", "resource \"mock_resource\" \"a\" {\n  name = \"a\"\n}\n")], &options);
        assert!(p.changes.is_empty());
        let errors: Vec<&str> = p.diagnostics.errors().map(|d| d.summary.as_str()).collect();
        assert_eq!(errors, ["execution halted"]);
    }

    /// A host recording each configure: the address, and for the default aws configuration the
    /// planned `name` of `mock_resource.home` (what its block reads) as the walk has it then;
    /// refusing the `.bad` one.
    #[derive(Default)]
    struct Recording(std::cell::RefCell<Vec<(String, Option<String>)>>);

    impl super::PlanHost for Recording {
        fn configure<'a>(
            &'a self,
            address: &'a str,
            values: &'a crate::engine::shared::scope::WalkValues,
        ) -> futures_util::future::LocalBoxFuture<'a, Result<(), crate::diag::Diagnostics>> {
            let key = (String::new(), "managed".to_string(), "mock_resource".to_string(), "home".to_string());
            let name = values
                .get(&key)
                .and_then(|v| crate::engine::shared::body::attr(&v, "name").and_then(|n| n.as_str().map(String::from)));
            // Only the default aws configuration's block reads it (the others may run before or after).
            let name = name.filter(|_| address.ends_with("aws\"]"));
            self.0.borrow_mut().push((address.to_string(), name));
            if address.ends_with(".bad") {
                let mut d = crate::diag::Diagnostics::new();
                d.push(crate::diag::Diagnostic::error("refused", ""));
                return Box::pin(std::future::ready(Err(d)));
            }
            Box::pin(std::future::ready(Ok(())))
        }

        fn answers<'a>(
            &'a self,
            _: &'a crate::engine::shared::scope::WalkValues,
        ) -> Option<futures_util::future::LocalBoxFuture<'a, Result<(), crate::diag::Diagnostics>>> {
            None
        }
    }

    #[test]
    fn each_provider_node_configures_after_what_its_block_reads_and_a_failed_one_fails_what_it_serves() {
        let files: BTreeMap<String, String> = [(
            "main.tf".to_string(),
            r#"
resource "mock_resource" "home" {
  name = "eu-1"
}
provider "aws" {
  region = mock_resource.home.name
}
provider "aws" {
  alias = "bad"
}
resource "aws_bucket" "a" {
  name = "a"
}
resource "aws_bucket" "b" {
  provider = aws.bad
  name     = "b"
}
resource "mock_resource" "after_b" {
  name = aws_bucket.b.name
}
"#
            .to_string(),
        )]
        .into();
        let loaded = crate::config::load(&files, &Default::default());
        let host = Recording::default();
        let options = PlanOptions::default();
        let provider = crate::engine::shared::schemas::providers(&files, &loaded.config, MockOptions::default());
        let walked = crate::engine::plan::plan_walked(&files, &loaded.config, None, &provider, &options, &host, 10);
        let p = crate::engine::shared::clock::VirtualClock::default().run(walked);
        let mut configured = host.0.into_inner();
        configured.sort();
        assert_eq!(
            configured,
            [
                ("provider[\"registry.terraform.io/hashicorp/aws\"]".to_string(), Some("eu-1".to_string())),
                ("provider[\"registry.terraform.io/hashicorp/aws\"].bad".to_string(), None),
                ("provider[\"registry.terraform.io/hashicorp/mock\"]".to_string(), None),
            ]
        );
        assert_eq!(addresses(&p), ["aws_bucket.a", "mock_resource.home"]);
        let errors: Vec<&str> = p.diagnostics.errors().map(|d| d.summary.as_str()).collect();
        assert_eq!(errors, ["refused"]);
    }

    #[test]
    fn an_orphan_whose_provider_fails_to_configure_is_skipped() {
        let files: BTreeMap<String, String> = [(
            "main.tf".to_string(),
            "provider \"aws\" {\n  alias = \"bad\"\n}\nresource \"aws_bucket\" \"kept\" {\n  name = \"k\"\n}\n"
                .to_string(),
        )]
        .into();
        let prior = state(&[
            ("", "aws_bucket", "old", "provider[\"registry.terraform.io/hashicorp/aws\"].bad"),
            ("", "aws_bucket", "other", "provider[\"registry.terraform.io/hashicorp/aws\"]"),
        ]);
        let loaded = crate::config::load(&files, &Default::default());
        let host = Recording::default();
        let options = PlanOptions::default();
        let provider = crate::engine::shared::schemas::providers(&files, &loaded.config, MockOptions::default());
        let walked =
            crate::engine::plan::plan_walked(&files, &loaded.config, Some(&prior), &provider, &options, &host, 10);
        let p = crate::engine::shared::clock::VirtualClock::default().run(walked);
        assert_eq!(addresses(&p), ["aws_bucket.kept", "aws_bucket.other"]);
        let errors: Vec<&str> = p.diagnostics.errors().map(|d| d.summary.as_str()).collect();
        assert_eq!(errors, ["refused"]);
    }

    /// A destroy plan of `prior` through the recording host: what it configured, sorted.
    fn destroyed_through(
        files: &[(&str, &str)],
        prior: &serde_json::Value,
        options: PlanOptions,
    ) -> (Plan, Vec<String>) {
        let files: BTreeMap<String, String> = files.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let loaded = crate::config::load(&files, &Default::default());
        let host = Recording::default();
        let options = PlanOptions { destroy: true, ..options };
        let provider = crate::engine::shared::schemas::providers(&files, &loaded.config, MockOptions::default());
        let walked =
            crate::engine::plan::plan_walked(&files, &loaded.config, Some(prior), &provider, &options, &host, 10);
        let p = crate::engine::shared::clock::VirtualClock::default().run(walked);
        let mut configured: Vec<String> = host.0.into_inner().into_iter().map(|(a, _)| a).collect();
        configured.sort();
        (p, configured)
    }

    #[test]
    fn a_destroy_plan_configures_its_providers_in_the_refresh_and_again_in_the_destroy_walk() {
        let files = [("main.tf", "resource \"aws_bucket\" \"a\" {\n  name = \"a\"\n}\n")];
        let prior = state(&[("", "aws_bucket", "a", "provider[\"registry.terraform.io/hashicorp/aws\"]")]);
        let aws = "provider[\"registry.terraform.io/hashicorp/aws\"]".to_string();
        // Terraform's `destroyPlan`: a refresh plan, then `walkPlanDestroy`, each walk configuring.
        let (p, configured) = destroyed_through(&files, &prior, PlanOptions::default());
        assert!(!p.diagnostics.has_errors(), "{:?}", p.diagnostics);
        assert_eq!(configured, [aws.clone(), aws.clone()]);
        assert_eq!(addresses(&p), ["aws_bucket.a"]);
        let (p, configured) = destroyed_through(&files, &prior, PlanOptions { no_refresh: true, ..Default::default() });
        assert_eq!(configured, [aws]);
        assert_eq!(p.changes.iter().map(|c| c.action).collect::<Vec<_>>(), [crate::plans::Action::Delete]);
    }

    #[test]
    fn a_provider_failing_to_configure_refuses_the_destroy_in_its_refresh_or_skips_its_objects_without() {
        let files = [(
            "main.tf",
            "provider \"aws\" {\n  alias = \"bad\"\n}\nresource \"aws_bucket\" \"a\" {\n  provider = aws.bad\n  name     = \"a\"\n}\nresource \"mock_resource\" \"m\" {\n  name = \"m\"\n}\n",
        )];
        let prior = state(&[
            ("", "aws_bucket", "a", "provider[\"registry.terraform.io/hashicorp/aws\"].bad"),
            ("", "mock_resource", "m", MOCK),
        ]);
        // The refresh plan's errors are the destroy plan's answer: nothing is planned.
        let (p, _) = destroyed_through(&files, &prior, PlanOptions::default());
        let errors: Vec<&str> = p.diagnostics.errors().map(|d| d.summary.as_str()).collect();
        assert_eq!(errors, ["refused"]);
        assert!(p.changes.is_empty() && p.refused);
        // Without a refresh the destroy walk's provider node fails: its objects are not planned.
        let (p, _) = destroyed_through(&files, &prior, PlanOptions { no_refresh: true, ..Default::default() });
        let errors: Vec<&str> = p.diagnostics.errors().map(|d| d.summary.as_str()).collect();
        assert_eq!(errors, ["refused"]);
        assert_eq!(addresses(&p), ["mock_resource.m"]);
    }

    #[test]
    fn a_targeted_destroy_plans_the_target_and_every_object_depending_on_it() {
        let mut prior = state(&[
            ("", "mock_resource", "a", MOCK),
            ("", "mock_resource", "b", MOCK),
            ("", "mock_resource", "c", MOCK),
            ("", "mock_resource", "d", MOCK),
        ]);
        // c depends on b, b on a: targeting a destroys all three (the graph's destroy edges), not d.
        let deps = [("b", vec!["mock_resource.a"]), ("c", vec!["mock_resource.a", "mock_resource.b"])];
        for r in prior["resources"].as_array_mut().unwrap() {
            if let Some((_, d)) = deps.iter().find(|(n, _)| r["name"] == *n) {
                r["instances"][0]["dependencies"] = serde_json::json!(d);
            }
        }
        let options = PlanOptions { destroy: true, targets: vec!["mock_resource.b".into()], ..Default::default() };
        let p = planned_over(&[("main.tf", "")], Some(&prior), &options);
        assert!(!p.diagnostics.has_errors(), "{:?}", p.diagnostics);
        assert_eq!(addresses(&p), ["mock_resource.b", "mock_resource.c"]);
        let options = PlanOptions { targets: vec!["mock_resource.a".into()], ..options };
        let p = planned_over(&[("main.tf", "")], Some(&prior), &options);
        assert_eq!(addresses(&p), ["mock_resource.a", "mock_resource.b", "mock_resource.c"]);
    }

    #[test]
    fn a_module_expands_when_the_walk_reaches_it_over_what_was_planned_before() {
        // The call's count reads a planned value, known at plan: Terraform's `nodeExpandModule`
        // evaluates it after `mock_resource.a` is planned, and so does the module's expand node.
        let p = planned(
            &[
                (
                    "main.tf",
                    "resource \"mock_resource\" \"a\" {\n  name = \"abc\"\n}\nmodule \"m\" {\n  source = \"./m\"\n  count  = length(mock_resource.a.name)\n}\n",
                ),
                ("m/main.tf", "resource \"mock_resource\" \"x\" {\n  name = \"x\"\n}\n"),
            ],
            &PlanOptions::default(),
        );
        assert!(!p.diagnostics.has_errors(), "{:?}", p.diagnostics);
        assert_eq!(
            addresses(&p),
            [
                "mock_resource.a",
                "module.m[0].mock_resource.x",
                "module.m[1].mock_resource.x",
                "module.m[2].mock_resource.x"
            ]
        );
        let files: BTreeMap<String, String> = [
            ("main.tf".to_string(), "resource \"mock_resource\" \"a\" {\n  name = \"abc\"\n}\nmodule \"m\" {\n  source = \"./m\"\n  count  = length(mock_resource.a.name)\n}\n".to_string()),
            ("m/main.tf".to_string(), "resource \"mock_resource\" \"x\" {\n  name = \"x\"\n}\n".to_string()),
        ]
        .into();
        let loaded = crate::config::load(&files, &Default::default());
        let provider = MockProvider::new(MockOptions::default());
        let r = crate::engine::apply::native::testing::apply(
            &files,
            &loaded.config,
            &p,
            None,
            &provider,
            &Default::default(),
        );
        // The apply expands the module as the plan's walk did.
        assert!(!r.diagnostics.has_errors(), "{:?}", r.diagnostics);
        let modules: Vec<&str> =
            r.state["resources"].as_array().into_iter().flatten().filter_map(|r| r["module"].as_str()).collect();
        assert_eq!(modules, ["module.m[0]", "module.m[1]", "module.m[2]"]);
    }

    #[test]
    fn an_overridden_module_instance_is_not_planned_and_its_outputs_are_the_given_ones() {
        let files: BTreeMap<String, String> = [
            ("main.tf".to_string(), "module \"m\" {\n  source = \"./m\"\n  count  = 2\n}\noutput \"o\" {\n  value = module.m[*].out\n}\n".to_string()),
            ("m/main.tf".to_string(), "resource \"mock_resource\" \"x\" {\n  name = \"x\"\n}\noutput \"out\" {\n  value = mock_resource.x.name\n}\n".to_string()),
        ]
        .into();
        let loaded = crate::config::load(&files, &Default::default());
        let mut options = PlanOptions::default();
        let outputs = crate::eval::Value::object([("out".to_string(), crate::eval::Value::string("zero"))].into());
        options.module_overrides.push("module.m[0]", outputs);
        let p = plan(&files, &loaded.config, None, &MockProvider::new(MockOptions::default()), &options);
        assert!(!p.diagnostics.has_errors(), "{:?}", p.diagnostics);
        assert_eq!(addresses(&p), ["module.m[1].mock_resource.x"]);
        let o = p.outputs.iter().find(|o| o.name == "o").expect("planned");
        let want = crate::eval::Value::tuple(vec![crate::eval::Value::string("zero"), crate::eval::Value::string("x")]);
        assert_eq!(o.after.as_ref(), Some(&want));
    }

    #[test]
    fn the_walk_follows_the_graph_not_the_configuration_order() {
        // `first` is declared after what reads it: the graph plans it first, so `second`
        // sees its planned value (known `name`) and its state dependencies name it.
        let p = planned(
            &[(
                "main.tf",
                "resource \"mock_resource\" \"second\" {\n  name = \"${mock_resource.first.name}-2\"\n}\nresource \"mock_resource\" \"first\" {\n  name = \"one\"\n}\n",
            )],
            &PlanOptions::default(),
        );
        assert!(!p.diagnostics.has_errors(), "{:?}", p.diagnostics);
        let second = p.changes.iter().find(|c| c.address() == "mock_resource.second").expect("planned");
        assert_eq!(second.dependencies, ["mock_resource.first"]);
        let name =
            second.after.as_ref().and_then(|a| crate::engine::shared::body::attr(a, "name")).and_then(|v| v.as_str());
        assert_eq!(name, Some("one-2"));
    }
}
