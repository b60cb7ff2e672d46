//! The plan graph's steps (Terraform 1.15 `PlanGraphBuilder.Steps()` in
//! `internal/terraform/graph_builder_plan.go`), also used for validate (`walkValidate`: validate
//! nodes, no check reports, no ephemeral close nodes) and plan-destroy (`walkPlanDestroy`: no
//! resource blocks, no checks).
//!
//! Terraform 1.15 steps not listed here, and why:
//! * `ActionTriggerConfigTransformer`, `ActionInvokePlanTransformer`: `action` blocks are not
//!   loaded.
//! * `AttachResourceConfigTransformer`, `AttachSchemaTransformer`: nodes link to their
//!   configuration from the start, and there are no provider schemas (every attribute's
//!   references count).
//! * `ExternalReferenceTransformer`: only for Terraform's test and stacks runtimes.
//! * `TargetsTransformer`, `QueryTransformer`: no `-target` and no query mode.
//!
//! Deferred data reads belong to the walk, not to the graph. A data source that `depends_on`
//! a managed resource with a pending change is read during apply instead of plan
//! (`dependenciesHavePendingChanges` in `node_resource_abstract_instance.go`, reason
//! `read_because_dependency_pending`), but "pending" is known only once the provider has planned
//! that resource (`PlanResourceChange`: a no-op does not defer), and the data source is visited
//! before the walk knows it, from the same `data.x.y (expand)` node either way: the plan graph is
//! the same whether the read is deferred or not. The graph says which resources can defer it
//! (`attachDataResourceDependsOnTransformer`); the walk asks whether they have changes.
//! What the deferral produces is a `read` action in
//! the plan, and the apply graph built from that plan does express it: `changes` with
//! `"data.x.y": ["read"]` gives the instance node `data.x.y`, ordered after what it depends on.

use crate::graph::transform::*;
use crate::graph::{BuildOptions, Walk};

/// The steps of the plan-like graphs, in Terraform 1.15's order, each with its reason and the
/// setup the walk gives it (Terraform's `PlanGraphBuilder` fields: `skip`, `destroy`, ...).
pub fn steps(options: &BuildOptions) -> Vec<Step> {
    let walk = options.walk();
    vec![
        Step::new(ConfigTransformer { validate: walk == Walk::Validate, only_ephemeral: walk == Walk::PlanDestroy }, "Creates a node for every resource block: every later step connects them."),
        Step::new(RootVariableTransformer, "Root variables are values given from outside; others refer to them."),
        Step::new(ModuleVariableTransformer, "Module inputs are evaluated in the calling module, one node per declared variable."),
        Step::new(
            VariableValidationTransformer { skip: false },
            "Validation rules run after their variable and before anything that uses it, so they must follow the variables.",
        ),
        Step::new(LocalTransformer, "Local values, one node per name per module."),
        Step::new(OutputTransformer, "Outputs; a child module's outputs are how its caller refers into it."),
        Step::new(CheckTransformer { skip: walk.is_destroy(), report_nodes: walk == Walk::Plan }, "Check blocks: their assertions, and the report node their scoped data source waits for."),
        Step::new(OrphanResourceInstanceTransformer { skip: walk != Walk::Plan }, "Plan only: an orphan node for each state object whose block is gone."),
        Step::new(StateTransformer { skip: walk == Walk::Validate, destroy_all: walk == Walk::PlanDestroy }, "Nodes for deposed objects; in plan-destroy, a destroy node for every object in the state."),
        Step::new(AttachStateTransformer, "Each state-backed node gets its state object: stored dependencies, create_before_destroy."),
        Step::new(OrphanOutputTransformer, "Root outputs left in the state without a declaration are removed."),
        Step::new(ProviderConfigTransformer, "Provider blocks, unconfigured required providers, and proxies for `providers` maps."),
        Step::new(MissingProviderTransformer, "A default root configuration for every provider some resource uses."),
        Step::new(ProviderTransformer, "Connects each resource to the configuration it uses: own module, inherited, or passed in."),
        Step::new(PruneProviderTransformer, "Drops proxies and provider configurations nothing uses."),
        Step::new(RemovedModuleTransformer, "Close nodes for modules that are in the state but not in the configuration."),
        Step::new(
            ModuleExpansionTransformer,
            "Expand and close nodes per module call; must come after every step that adds nodes inside modules.",
        ),
        Step::new(ReferenceTransformer, "Edges for every reference and depends_on, now that every referenceable node exists."),
        Step::new(AttachDependenciesTransformer { expand_nodes: true }, "Records each resource's transitive resource dependencies (stored in state by the walk)."),
        Step::new(AttachDataDependsOnTransformer, "Records on each data source what defers its read to the apply: its depends_on, its module calls', the managed resources it refers to."),
        Step::new(DestroyEdgeTransformer { full_destroy: walk.is_destroy() }, "Destroy order from the state: dependents first (deposed objects; every object in plan-destroy)."),
        Step::new(PruneUnusedNodesTransformer { skip: !walk.is_destroy() }, "Plan-destroy only: drops values and expanders no destroy needs."),
        Step::new(ForcedCBDTransformer, "Records forced create_before_destroy on whatever a create_before_destroy resource depends on."),
        Step::new(
            EphemeralCloseTransformer { skip: walk == Walk::Validate },
            "Closes each ephemeral resource after its last user; needs the reference edges to find them.",
        ),
        Step::new(CloseProviderTransformer, "Closes each provider after every node that uses it."),
        Step::new(CloseRootModuleTransformer, "The `root` node waits for everything nothing else waits for."),
        Step::new(TransitiveReductionTransformer, "Removes implied edges for readability; skipped if there is a cycle."),
    ]
}
