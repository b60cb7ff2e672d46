//! Stage 2: Terraform's graphs, built from a loaded [`Config`] (Terraform's
//! `internal/terraform` graph builders and transformers).
//!
//! [`build`] runs a builder's list of transformers ([`builders::plan::steps`] for plan, validate and
//! plan-destroy, [`builders::apply::steps`] for apply) over an empty [`TfGraph`] and returns the graph, a
//! record of every step and the diagnostics. [`BuildOptions::operation`] and
//! [`BuildOptions::mode`] together are Terraform's walk operation ([`Walk`]): applying a plan
//! made with `plan -destroy` is `walkDestroy`, which prunes the apply graph to its destroys.
//! The graph's vertex names, its [`TfGraph::to_string`] text and its DOT are
//! Terraform 1.15's, so Terraform's own test expectations apply unchanged. Unlike Terraform, a
//! graph with cycles is still returned (drawable, with the cycles marked), and every edge says
//! why it exists ([`Why`]).
//!
//! ```text
//!   Config ──► BuildContext (modules flattened, indexed)
//!                 │
//!   TfGraph ◄── ConfigTransformer → variables → locals → outputs → checks → providers
//!                 → module expansion → references → ephemeral close → provider close
//!                 → root → transitive reduction          (plan.rs, one file per step in transform/)
//! ```
//!
//! | file | what |
//! |---|---|
//! | `node.rs` | [`Node`], the closed enum of node kinds of every operation, and their capabilities |
//! | `edge.rs` | [`Edge`] and [`Why`]: the reasons an edge exists |
//! | `shared.rs` | [`SharedStr`], [`Span`] and the build's interner: one copy of each repeated string |
//! | `context.rs` | [`BuildContext`](transform::BuildContext): the configuration indexed for transformers |
//! | `transform/` | the transformers, one per file, and the step runner |
//! | `plan.rs` | the plan / validate / plan-destroy step list in Terraform 1.15's order |
//! | `diagnostics.rs` | cycle errors with a concrete loop, provider errors |
//! | `render.rs` | DOT (full and resource-only) and Mermaid |
//! | `instances.rs` | the static-instances view: `aws_instance.web[0]` where count/for_each are literals |
//! | `state.rs` | the state and changes the apply and destroy graphs start from |
//!
//! # Where this differs from Terraform, deliberately
//! * **No provider schemas.** Terraform extracts a resource's body references through the
//!   provider schema and ignores attributes the schema does not declare (oracle case 4 of the
//!   reference: `foo = aws_instance.foo["a"].num` makes no edge when `foo` is not in the
//!   schema). Here every attribute and nested block counts, so such a reference does make an
//!   edge. On a valid configuration both agree, since every written argument is in the schema;
//!   the difference only shows on arguments the provider would reject.
//! * **Opaque modules.** Terraform always has a module's source installed; here a call whose
//!   source is not local has no loaded module. It still gets `module.m (expand)` and
//!   `module.m (close)` nodes and one `module.m.var.x (expand)` per argument; references to its
//!   outputs fall back, as Terraform's do, to the whole call (its expand and close nodes).
//! * **Errors do not stop the build.** Terraform returns no graph when a transformer fails or
//!   the graph has a cycle. Here every step runs and the graph is returned with the
//!   diagnostics; cycles get one error each, in Terraform 1.16's deterministic text, with a
//!   detail walking one shortest loop edge by edge (Terraform's detail is empty).

pub mod builders;
mod config_ref;
pub mod context;
pub mod dependencies;
pub mod diagnostics;
pub mod edge;
pub mod facts;
pub mod instances;
pub mod node;
pub mod node_facts;
mod render;
pub mod shared;
pub mod state_index;
pub mod transform;

pub use crate::plans::{Action, Changes, ResourceChange};
pub use crate::state::{State, StateObject};
pub use edge::{Edge, Reasons, Why};
pub use node::{ConfigRef, Node, NodeKind};
pub use shared::{SharedStr, SharedVec, Span};

use crate::config::Config;
use crate::dag::{self, NodeId};
use crate::diag::{Diagnostics, SourceRange};
use serde::Serialize;
use shared::{FastHasher, FastMap};
use std::fmt;
use std::hash::Hasher;

/// Which graph to build (Terraform's walk operations that have a graph builder).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// `terraform plan` (`walkPlan`), also `terraform graph -type=plan`.
    #[default]
    Plan,
    /// `terraform plan -destroy` (`walkPlanDestroy`), `-type=plan-destroy`.
    Destroy,
    /// `terraform apply` with a plan (`ApplyGraphBuilder`), `-type=apply`.
    Apply,
    /// `terraform validate` (`walkValidate`, the plan builder with validate nodes).
    Validate,
}

/// Terraform's plan mode (`plans.Mode`, `internal/plans/mode.go`) of the plan a graph is built
/// for. It matters to the apply graph: `terraform apply` of a plan made with `plan -destroy` (or
/// `terraform destroy`) builds the apply graph with Terraform's `walkDestroy` operation instead
/// of `walkApply` (`Context.Apply` in `internal/terraform/context_apply.go`: `if plan.UIMode ==
/// plans.DestroyMode { operation = walkDestroy }`). `terraform show -json` does not print the
/// mode, so it cannot be read from a JSON plan: it is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanMode {
    /// `plans.NormalMode`.
    #[default]
    Normal,
    /// `plans.DestroyMode`: with [`Operation::Apply`], the apply graph of a destroy plan
    /// (`walkDestroy`); with [`Operation::Plan`], the same as [`Operation::Destroy`].
    Destroy,
}

/// Terraform's `walkOperation` a build stands for: [`Operation`] and [`PlanMode`] together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// `walkPlan`.
    Plan,
    /// `walkPlanDestroy`.
    PlanDestroy,
    /// `walkValidate`.
    Validate,
    /// `walkApply`.
    Apply,
    /// `walkDestroy`: applying a destroy plan.
    Destroy,
}

impl Walk {
    /// A full destroy, planned or applied (`walkPlanDestroy` or `walkDestroy`): the walks that
    /// prune unused values, skip checks and keep every cross-provider destroy edge.
    pub fn is_destroy(self) -> bool {
        matches!(self, Walk::PlanDestroy | Walk::Destroy)
    }
}

/// Options of [`build`].
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub operation: Operation,
    /// The plan mode; [`PlanMode::Destroy`] with [`Operation::Apply`] builds the apply graph of
    /// a destroy plan. Ignored by [`Operation::Validate`] (validation has no plan).
    pub mode: PlanMode,
    /// The prior state (orphans, deposed objects; the base of destroy graphs).
    pub state: Option<State>,
    /// Planned changes (the base of the apply graph).
    pub changes: Option<Changes>,
    /// Run Terraform's transitive reduction at the end (skipped on cycles, as Terraform does).
    pub reduce: bool,
    /// Keep the graph text after every step in [`StepRecord::text`].
    pub trace_steps: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            operation: Operation::Plan,
            mode: PlanMode::Normal,
            state: None,
            changes: None,
            reduce: true,
            trace_steps: false,
        }
    }
}

impl BuildOptions {
    /// The Terraform walk operation of these options.
    pub fn walk(&self) -> Walk {
        match (self.operation, self.mode) {
            (Operation::Plan, PlanMode::Normal) => Walk::Plan,
            (Operation::Plan, PlanMode::Destroy) | (Operation::Destroy, _) => Walk::PlanDestroy,
            (Operation::Validate, _) => Walk::Validate,
            (Operation::Apply, PlanMode::Normal) => Walk::Apply,
            (Operation::Apply, PlanMode::Destroy) => Walk::Destroy,
        }
    }
}

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepRecord {
    /// Terraform's transformer name (`ReferenceTransformer`).
    pub name: String,
    /// Why the step sits where it does.
    pub reason: String,
    /// Node and edge counts after the step.
    pub nodes: usize,
    pub edges: usize,
    /// Whether the step changed the graph.
    pub changed: bool,
    /// The graph's `String()` after the step, when tracing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// How many diagnostics the step reported.
    pub diagnostics: usize,
    /// Wall time of the step in microseconds (`performance.now()` in wasm; `None` where the
    /// host has no clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub micros: Option<u64>,
}

/// The result of [`build`]: the graph (always, even with errors), each step, the problems.
#[derive(Clone, Debug)]
pub struct Built {
    pub graph: TfGraph,
    pub steps: Vec<StepRecord>,
    pub diagnostics: Diagnostics,
}

/// Builds the graph of `options.operation` for `config`.
///
/// # Returns
/// [`Built`]: the graph, a [`StepRecord`] per transformer, and diagnostics (provider
/// configurations that cannot be found, cycles: one error per cycle).
///
/// # Complexity
/// O((V + E) log V) apart from transitive reduction (O(V·E/64) worst case, bounded memory):
/// every transformer is linear in what it touches, with per-module node lists and reference
/// maps keyed by (module, address) built once. Strings that nodes and edges repeat (module
/// paths, addresses, file names, reasons' contexts) are interned per build, so the
/// allocations are about a handful per node and one per reference edge (`ALLOCS=1` of
/// bench/graph counts them per step).
///
/// # Example
/// ```
/// use std::collections::BTreeMap;
/// let files = BTreeMap::from([("main.tf".to_string(), r#"
///   resource "aws_vpc" "main" {}
///   resource "aws_subnet" "a" { vpc_id = aws_vpc.main.id }
/// "#.to_string())]);
/// let loaded = tfgraph::config::load(&files, &Default::default());
/// let built = tfgraph::graph::build(&loaded.config, &Default::default());
/// assert!(built.diagnostics.is_empty());
/// assert_eq!(built.graph.dependencies("aws_subnet.a (expand)"), ["aws_vpc.main (expand)"]);
/// ```
pub fn build(config: &Config, options: &BuildOptions) -> Built {
    let cx = transform::BuildContext::new(config, options);
    let mut graph = TfGraph::new();
    let steps = match options.operation {
        Operation::Plan | Operation::Validate | Operation::Destroy => builders::plan::steps(options),
        Operation::Apply => builders::apply::steps(options),
    };
    let (records, mut diags) = transform::run(&steps, &mut graph, &cx);
    diags.extend(diagnostics::cycle_errors(&graph));
    Built { graph, steps: records, diagnostics: diags }
}

/// Sorts edges by `(from, to)` names; stable, since two vertices may share a name. One
/// function, so that the sort is compiled once.
fn sort_by_names(edges: &mut [EdgeInfo]) {
    crate::util::sort::sort_by(edges, |a, b| (&a.from, &a.to).cmp(&(&b.from, &b.to)));
}

/// A node as the query API returns it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeInfo {
    /// Terraform's vertex name.
    pub name: String,
    /// [`Node::kind_name`].
    pub kind: &'static str,
    /// [`Node::address`].
    pub address: String,
    /// The module path as Terraform prints it, empty for the root module.
    pub module: String,
    pub range: Option<SourceRange>,
}

/// An edge as the query API returns it: `from` depends on `to`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EdgeInfo {
    pub from: String,
    pub to: String,
    pub why: Vec<Why>,
}

/// An edge removed by transitive reduction: the dependency still holds through other edges.
/// Kept as node ids and the edge's reasons ([`TfGraph::implied_edges`] gives names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImpliedEdge {
    pub from: NodeId,
    pub to: NodeId,
    pub edge: Edge,
}

/// Which DOT to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DotKind {
    /// Every node: `terraform graph -type=plan` (Terraform's `Graph.Dot`).
    #[default]
    Full,
    /// Resources only, relationships through other nodes kept: `terraform graph` since v1.7.
    Resources,
}

/// The nodes whose names hash to one value, in insertion order (usually one).
#[derive(Clone)]
enum NameSlot {
    One(NodeId),
    Many(Vec<NodeId>),
}

fn name_hash(name: &str) -> u64 {
    let mut h = FastHasher::default();
    h.write(name.as_bytes());
    h.finish()
}

/// A Terraform graph: [`dag::Graph`] of [`Node`]s with [`Edge`] payloads, plus a name index.
#[derive(Clone, Default)]
pub struct TfGraph {
    g: dag::Graph<Node, Edge>,
    /// Node ids by the hash of their name: the names themselves live once, in the graph.
    by_name: FastMap<u64, NameSlot>,
    revision: u64,
    /// Edges removed by transitive reduction, with their reasons.
    pub implied: Vec<ImpliedEdge>,
}

impl TfGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a node under its [`Node::name`]. O(1).
    pub fn add(&mut self, node: Node) -> NodeId {
        let name = node.name();
        let h = name_hash(&name);
        let id = self.g.add(name, node);
        match self.by_name.entry(h) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(NameSlot::One(id));
            }
            std::collections::hash_map::Entry::Occupied(mut e) => match e.get_mut() {
                NameSlot::Many(ids) => ids.push(id),
                NameSlot::One(first) => {
                    let first = *first;
                    *e.get_mut() = NameSlot::Many(vec![first, id]);
                }
            },
        }
        self.revision += 1;
        id
    }

    /// Removes a node and its edges. O(degree).
    pub fn remove(&mut self, id: NodeId) -> Option<Node> {
        let (name, node) = self.g.remove(id)?;
        self.unindex(&name, id);
        self.revision += 1;
        Some(node)
    }

    /// Adds `from -> to` ("from depends on to") for `why`, or adds `why` to the existing edge's
    /// reasons. Returns whether the edge is new. O(1).
    pub fn connect(&mut self, from: NodeId, to: NodeId, why: Why) -> bool {
        if let Some(e) = self.g.edge_mut(from, to) {
            if e.add(why) {
                self.revision += 1;
            }
            return false;
        }
        self.revision += 1;
        self.g.connect(from, to, Edge::new(why))
    }

    /// Removes `from -> to`, returning its reasons.
    pub fn remove_edge(&mut self, from: NodeId, to: NodeId) -> Option<Edge> {
        let e = self.g.remove_edge(from, to);
        if e.is_some() {
            self.revision += 1;
        }
        e
    }

    /// Moves `original`'s edges onto `replacement` and removes `original` (Terraform `Replace`).
    pub fn replace(&mut self, original: NodeId, replacement: NodeId) -> bool {
        let name = self.g.contains(original).then(|| self.g.name(original).to_string());
        let done = self.g.replace(original, replacement);
        if let (true, Some(name)) = (done, name) {
            self.unindex(&name, original);
            self.revision += 1;
        }
        done
    }

    fn unindex(&mut self, name: &str, id: NodeId) {
        let h = name_hash(name);
        let empty = match self.by_name.get_mut(&h) {
            Some(NameSlot::One(i)) => *i == id,
            Some(NameSlot::Many(ids)) => {
                ids.retain(|&i| i != id);
                ids.is_empty()
            }
            None => false,
        };
        if empty {
            self.by_name.remove(&h);
        }
    }

    /// Whether `id` is (still) in the graph.
    pub fn contains(&self, id: NodeId) -> bool {
        self.g.contains(id)
    }

    /// The node with this vertex name (the first added, if several share it). O(1).
    pub fn find(&self, name: &str) -> Option<NodeId> {
        match self.by_name.get(&name_hash(name))? {
            NameSlot::One(id) => (self.g.name(*id) == name).then_some(*id),
            NameSlot::Many(ids) => ids.iter().copied().find(|&id| self.g.name(id) == name),
        }
    }

    /// The node of an id.
    pub fn node(&self, id: NodeId) -> &Node {
        self.g.weight(id)
    }

    /// The node of an id, mutably. Its name must not change (the index is by name).
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        self.revision += 1;
        self.g.weight_mut(id)
    }

    /// The vertex name of an id.
    pub fn name(&self, id: NodeId) -> &str {
        self.g.name(id)
    }

    /// Node ids in insertion order.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.g.node_ids()
    }

    pub fn node_count(&self) -> usize {
        self.g.node_count()
    }

    pub fn edge_count(&self) -> usize {
        self.g.edge_count()
    }

    /// A counter bumped by every change (how the step runner tells a step changed anything).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The underlying generic graph.
    pub fn dag(&self) -> &dag::Graph<Node, Edge> {
        &self.g
    }

    /// The underlying generic graph, mutably (for transformers that need its algorithms). The
    /// name index is not updated: add and remove nodes through [`TfGraph`].
    pub fn dag_mut(&mut self) -> &mut dag::Graph<Node, Edge> {
        self.revision += 1;
        &mut self.g
    }

    /// Every node, sorted by name.
    pub fn nodes(&self) -> Vec<NodeInfo> {
        let mut ids: Vec<NodeId> = self.ids().collect();
        crate::util::sort::sort_by(&mut ids, |&a, &b| self.name(a).cmp(self.name(b)).then(a.cmp(&b)));
        ids.into_iter().map(|id| self.info(id)).collect()
    }

    /// A node's query form.
    pub fn info(&self, id: NodeId) -> NodeInfo {
        let n = self.node(id);
        NodeInfo {
            name: self.name(id).to_string(),
            kind: n.kind_name(),
            address: n.address(),
            module: n.module.to_string(),
            range: n.range.as_ref().map(Span::to_source_range),
        }
    }

    /// The edges transitive reduction removed, as [`EdgeInfo`]s sorted by names: dependencies
    /// that still hold through other edges, with the reasons they were first made.
    pub fn implied_edges(&self) -> Vec<EdgeInfo> {
        let mut out: Vec<EdgeInfo> = self
            .implied
            .iter()
            .filter(|e| self.contains(e.from) && self.contains(e.to))
            .map(|e| EdgeInfo {
                from: self.name(e.from).to_string(),
                to: self.name(e.to).to_string(),
                why: e.edge.why.to_vec(),
            })
            .collect();
        sort_by_names(&mut out);
        out
    }

    /// Every edge, sorted by `(from, to)` names.
    pub fn edges(&self) -> Vec<EdgeInfo> {
        let mut out: Vec<EdgeInfo> = self
            .g
            .edges()
            .map(|(s, t, e)| EdgeInfo {
                from: self.name(s).to_string(),
                to: self.name(t).to_string(),
                why: e.why.to_vec(),
            })
            .collect();
        sort_by_names(&mut out);
        out
    }

    /// The reasons of the edge `from -> to`, each explained in a sentence.
    pub fn explain(&self, from: &str, to: &str) -> Vec<String> {
        let (Some(s), Some(t)) = (self.find(from), self.find(to)) else { return Vec::new() };
        let Some(e) = self.g.edge(s, t) else { return Vec::new() };
        e.why.iter().map(|w| w.explain(&self.label(s), &self.label(t))).collect()
    }

    /// How explanations call a node: its address, or its name when it has none (`root`).
    pub fn label(&self, id: NodeId) -> String {
        let n = self.node(id);
        match n.kind {
            NodeKind::ResourceExpand { .. }
            | NodeKind::ResourceValidate { .. }
            | NodeKind::RootVariable
            | NodeKind::Local
            | NodeKind::Output
            | NodeKind::ModuleVariable => n.address(),
            _ => self.name(id).to_string(),
        }
    }

    fn names(&self, mut ids: Vec<NodeId>) -> Vec<String> {
        crate::util::sort::sort_by(&mut ids, |&a, &b| self.name(a).cmp(self.name(b)).then(a.cmp(&b)));
        ids.into_iter().map(|i| self.name(i).to_string()).collect()
    }

    /// What `name` directly depends on, sorted (empty for an unknown name).
    pub fn dependencies(&self, name: &str) -> Vec<String> {
        self.find(name).map(|id| self.names(self.g.edges_from(id).collect())).unwrap_or_default()
    }

    /// What directly depends on `name`, sorted.
    pub fn dependents(&self, name: &str) -> Vec<String> {
        self.find(name).map(|id| self.names(self.g.edges_to(id).collect())).unwrap_or_default()
    }

    /// Everything `name` transitively depends on (Terraform `Ancestors`), sorted.
    pub fn ancestors(&self, name: &str) -> Vec<String> {
        self.find(name).map(|id| self.names(self.g.ancestors(&[id]).iter().collect())).unwrap_or_default()
    }

    /// Everything that transitively depends on `name` (Terraform `Descendants`), sorted.
    pub fn descendants(&self, name: &str) -> Vec<String> {
        self.find(name).map(|id| self.names(self.g.descendants(&[id]).iter().collect())).unwrap_or_default()
    }

    /// Each strongly connected component of two or more nodes, in Terraform 1.16's cycle order
    /// (reference order, starting at the shortest name), plus each self-loop as a one-name list.
    pub fn cycles(&self) -> Vec<Vec<String>> {
        let mut out: Vec<Vec<String>> =
            self.g.cycles().iter().map(|c| c.iter().map(|&v| self.name(v).to_string()).collect()).collect();
        out.extend(self.g.self_loops().into_iter().map(|v| vec![self.name(v).to_string()]));
        out
    }

    /// Terraform's `StringWithNodeTypes()`: the `String()` layout with each node's Go type.
    pub fn string_with_types(&self) -> String {
        self.g.string_with_types(|_, n| n.go_type().to_string())
    }
}

impl fmt::Display for TfGraph {
    /// Terraform's `Graph.String()`, byte for byte.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.g, f)
    }
}

impl fmt::Debug for TfGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.g, f)
    }
}
