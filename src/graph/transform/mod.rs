//! Transformers: the small ordered steps that build a graph, one file each.
//!
//! Terraform's `GraphTransformer` is one method, `Transform(*Graph) error`; its builders are
//! plain lists of transformers (`graph_builder_plan.go` `Steps()`), and `BasicGraphBuilder`
//! runs them in order, logging the graph after each at TRACE level. Here a [`Transform`] gets
//! the graph and a read-only [`BuildContext`] and returns diagnostics; [`run`] runs a list and
//! records a [`StepRecord`] per step (the page's "step through the transformers").
//!
//! | file | Terraform | adds |
//! |---|---|---|
//! | `config.rs` | `transform_config.go` | one node per `resource`/`data`/`ephemeral` block |
//! | `root_variable.rs` | `transform_variable.go` | `var.x` |
//! | `module_variable.rs` | `transform_module_variable.go` | `module.m.var.x (expand)` |
//! | `variable_validation.rs` | `transform_variable_validation.go` | `var.x (validation)` |
//! | `local.rs` | `transform_local.go` | `local.x (expand)` |
//! | `output.rs` | `transform_output.go` | `output.o (expand)` |
//! | `check.rs` | `transform_check.go` | `check.c (expand)`, `check.c (report)` |
//! | `provider_config.rs` | `transform_provider.go` `ProviderConfigTransformer` | provider blocks, proxies |
//! | `missing_provider.rs` | `MissingProviderTransformer` | default root providers |
//! | `provider.rs` | `ProviderTransformer` | consumer → provider edges |
//! | `prune_provider.rs` | `PruneProviderTransformer` | removes proxies and unused providers |
//! | `module_expansion.rs` | `transform_module_expansion.go` | `module.m (expand)`, `module.m (close)` |
//! | `reference.rs` | `transform_reference.go` | reference and `depends_on` edges |
//! | `ephemeral_close.rs` | `transform_ephemeral_resource_close.go` | `ephemeral.x.y (close)` |
//! | `close_provider.rs` | `CloseProviderTransformer` | `provider[…] (close)` |
//! | `close_root.rs` | `transform_root.go` `CloseRootModuleTransformer` | `root` |
//! | `transitive_reduction.rs` | `transform_transitive_reduction.go` | removes implied edges |
//!
//! The state-driven steps (prior state, planned changes):
//!
//! | file | Terraform | does |
//! |---|---|---|
//! | `orphan_resource.rs` | `transform_orphan_resource.go` | `addr (orphan)` for state objects whose block is gone |
//! | `state.rs` | `transform_state.go` | `addr (deposed KEY)`; plan-destroy `addr (destroy)` |
//! | `attach_state.rs` | `transform_attach_state.go` | state dependencies and create_before_destroy on instances |
//! | `orphan_output.rs` | `transform_orphan_output.go` | `output.o (destroy)` |
//! | `removed_module.rs` | `transform_removed_modules.go` | `module.m (close)` for modules only in the state |
//! | `diff.rs` | `transform_diff.go` | apply: creators, destroyers and forget nodes per planned change |
//! | `destroy_phase.rs` | `node_resource_apply.go` `filterSelfRefs` | apply: expand nodes never refer to their own instances |
//! | `attach_dependencies.rs` | `AttachDependenciesTransformer` | transitive resource dependencies (recorded) |
//! | `data_depends_on.rs` | `attachDataResourceDependsOnTransformer` | what defers a data source's read (recorded) |
//! | `forced_cbd.rs` | `transform_destroy_cbd.go` `ForcedCBDTransformer` | forced create_before_destroy (recorded) |
//! | `destroy_edge.rs` | `transform_destroy_edge.go` | destroy order from state dependencies |
//! | `cbd_edge.rs` | `transform_destroy_cbd.go` `CBDEdgeTransformer` | reverses creator edges into CBD destroys |
//! | `prune_unused.rs` | `pruneUnusedNodesTransformer` | full destroy: drops what no destroy needs |

mod check;
mod close_provider;
mod close_root;
mod config;
mod ephemeral_close;
mod local;
mod missing_provider;
mod module_expansion;
mod module_variable;
mod output;
mod provider;
mod provider_config;
mod prune_provider;
mod reference;
mod root_variable;
mod transitive_reduction;
mod variable_validation;

mod attach_dependencies;
mod attach_state;
mod cbd_edge;
mod data_depends_on;
mod destroy_edge;
mod destroy_phase;
mod diff;
mod forced_cbd;
mod orphan_output;
mod orphan_resource;
mod prune_unused;
mod removed_module;
mod state;
pub(crate) mod state_support;

pub use super::context::{BuildContext, ModuleEntry, OpaqueCall};
pub use check::CheckTransformer;
pub use close_provider::CloseProviderTransformer;
pub use close_root::CloseRootModuleTransformer;
pub use config::ConfigTransformer;
pub use data_depends_on::AttachDataDependsOnTransformer;
pub use ephemeral_close::EphemeralCloseTransformer;
pub use local::LocalTransformer;
pub use missing_provider::MissingProviderTransformer;
pub use module_expansion::ModuleExpansionTransformer;
pub use module_variable::ModuleVariableTransformer;
pub use output::OutputTransformer;
pub use provider::ProviderTransformer;
pub use provider_config::ProviderConfigTransformer;
pub use prune_provider::PruneProviderTransformer;
pub use reference::{ReferenceMap, ReferenceTransformer};
pub use root_variable::RootVariableTransformer;
pub use transitive_reduction::TransitiveReductionTransformer;
pub use variable_validation::VariableValidationTransformer;

pub use super::dependencies::{resource_ancestors, Dependencies, DependencyIndex, RestrictedLists};
pub use attach_dependencies::AttachDependenciesTransformer;
pub use attach_state::AttachStateTransformer;
pub use cbd_edge::CBDEdgeTransformer;
pub use destroy_edge::DestroyEdgeTransformer;
pub use destroy_phase::SelfReferenceFilter;
pub use diff::DiffTransformer;
pub use forced_cbd::ForcedCBDTransformer;
pub use orphan_output::OrphanOutputTransformer;
pub use orphan_resource::OrphanResourceInstanceTransformer;
pub use prune_unused::PruneUnusedNodesTransformer;
pub use removed_module::RemovedModuleTransformer;
pub use state::StateTransformer;

use super::{StepRecord, TfGraph};
use crate::diag::Diagnostics;

/// One graph-building step (Terraform `GraphTransformer`).
pub trait Transform {
    /// Terraform's name for the step (`ReferenceTransformer`), shown in step traces.
    fn name(&self) -> &'static str;
    /// Changes the graph; problems found become diagnostics (the build goes on).
    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics;
}

/// A step of a builder: the transformer and the one-line reason it sits where it does.
pub struct Step {
    pub transform: Box<dyn Transform>,
    pub reason: &'static str,
}

impl Step {
    pub fn new(transform: impl Transform + 'static, reason: &'static str) -> Self {
        Step { transform: Box::new(transform), reason }
    }
}

/// Runs the steps in order on `g` (Terraform `BasicGraphBuilder.Build`, minus validation),
/// recording each. With `cx.options.trace_steps`, each record keeps the graph text after the
/// step. Every step runs even after errors: the graph is always returned, drawable.
pub fn run(steps: &[Step], g: &mut TfGraph, cx: &BuildContext) -> (Vec<StepRecord>, Diagnostics) {
    let mut records = Vec::with_capacity(steps.len());
    let mut diags = Diagnostics::new();
    for step in steps {
        let before = (g.node_count(), g.edge_count(), g.revision());
        let start = crate::util::clock::now_micros();
        let d = step.transform.transform(g, cx);
        let micros = start.zip(crate::util::clock::now_micros()).map(|(a, b)| (b - a).max(0.0) as u64);
        let changed = (g.node_count(), g.edge_count(), g.revision()) != before;
        records.push(StepRecord {
            name: step.transform.name().to_string(),
            reason: step.reason.to_string(),
            nodes: g.node_count(),
            edges: g.edge_count(),
            changed,
            text: cx.options.trace_steps.then(|| g.to_string()),
            diagnostics: d.len(),
            micros,
        });
        diags.extend(d);
    }
    (records, diags)
}
