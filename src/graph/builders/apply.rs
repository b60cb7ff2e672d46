//! The apply graph's steps (Terraform 1.15 `ApplyGraphBuilder.Steps()` in
//! `internal/terraform/graph_builder_apply.go`): the graph `terraform apply` walks for a saved
//! plan, built from the configuration, the planned changes and the prior state.
//!
//! Terraform 1.15 steps not listed here, and why:
//! * `ActionTriggerConfigTransformer`, `ActionInvokeApplyTransformer`, `ActionDiffTransformer`,
//!   `DeferredTransformer`: no `action` blocks, no deferred changes.
//! * `AttachResourceConfigTransformer`, `AttachSchemaTransformer`: nodes link to their
//!   configuration from the start; no provider schemas.
//! * `ExternalReferenceTransformer`: test and stacks runtimes only.
//! * `checkStartTransformer`: it orders nested check data sources after everything else only
//!   during the walk.
//! * `TargetsTransformer`: no `-target`.
//!
//! Applying a destroy plan ([`PlanMode::Destroy`](super::PlanMode), Terraform's `walkDestroy`)
//! uses the same steps; what changes with the walk, as in Terraform:
//! * `variableValidationTransformer` adds no validation nodes (`DestroyApply` variables have no
//!   rules);
//! * root outputs refer to nothing (`OutputTransformer{Destroying}`: they are removed from the
//!   state, not evaluated);
//! * `checkTransformer` adds nothing;
//! * `DestroyEdgeTransformer` keeps every cross-provider destroy edge (no cycle back-out);
//! * `pruneUnusedNodesTransformer` keeps only the destroyers, what they depend on (providers
//!   and what configures them) and root outputs. In a normal apply it does nothing.

use crate::graph::transform::*;
use crate::graph::{BuildOptions, Walk};

/// The apply graph's steps, in Terraform 1.15's order, each with its reason.
pub fn steps(options: &BuildOptions) -> Vec<Step> {
    let walk = options.walk();
    vec![
        Step::new(
            ConfigTransformer { validate: false, only_ephemeral: false },
            "One expand node per resource block: records count/for_each and the provider for each resource.",
        ),
        Step::new(RootVariableTransformer, "Root variables are values given from outside; others refer to them."),
        Step::new(
            ModuleVariableTransformer,
            "Module inputs are evaluated in the calling module, one node per declared variable.",
        ),
        Step::new(
            VariableValidationTransformer { skip: walk == Walk::Destroy },
            "Validation rules run after their variable and before anything that uses it.",
        ),
        Step::new(LocalTransformer, "Local values, one node per name per module."),
        Step::new(OutputTransformer, "Outputs; a child module's outputs are how its caller refers into it."),
        Step::new(
            DiffTransformer,
            "An instance node per planned change: creators, destroyers, deposed-object destroyers.",
        ),
        Step::new(CheckTransformer { skip: walk.is_destroy(), report_nodes: false }, "Check blocks' assertions."),
        Step::new(
            AttachStateTransformer,
            "Each instance gets its state object: stored dependencies and create_before_destroy.",
        ),
        Step::new(OrphanOutputTransformer, "Root outputs left in the state without a declaration are removed."),
        Step::new(
            ProviderConfigTransformer,
            "Provider blocks, unconfigured required providers, and proxies for `providers` maps.",
        ),
        Step::new(MissingProviderTransformer, "A default root configuration for every provider some resource uses."),
        Step::new(
            ProviderTransformer,
            "Connects each resource and instance to its provider configuration (state-only objects: the one in state).",
        ),
        Step::new(PruneProviderTransformer, "Drops proxies and provider configurations nothing uses."),
        Step::new(
            RemovedModuleTransformer,
            "Close nodes for modules that are in the state but not in the configuration.",
        ),
        Step::new(
            ModuleExpansionTransformer,
            "Expand and close nodes per module call; after every step that adds nodes inside modules.",
        ),
        Step::new(
            ReferenceTransformer,
            "Edges for every reference and depends_on: expand nodes and instances both refer.",
        ),
        Step::new(SelfReferenceFilter, "Expand nodes never refer to their own instances (Terraform's filterSelfRefs)."),
        Step::new(
            AttachDependenciesTransformer { expand_nodes: false },
            "Records each creator's transitive resource dependencies, the new state's `dependencies`.",
        ),
        Step::new(
            ForcedCBDTransformer,
            "Forces create_before_destroy on whatever a create_before_destroy node depends on.",
        ),
        Step::new(
            DestroyEdgeTransformer { full_destroy: walk.is_destroy() },
            "Destroy order from the state: dependents are destroyed first, replaced objects destroyed before created.",
        ),
        Step::new(
            CBDEdgeTransformer,
            "Reverses creator edges into create_before_destroy destroys: create first, destroy the old object last.",
        ),
        Step::new(
            PruneUnusedNodesTransformer { skip: !walk.is_destroy() },
            "Only when applying a destroy plan: keeps destroyers, what they need, and root outputs.",
        ),
        Step::new(EphemeralCloseTransformer { skip: false }, "Closes each ephemeral resource after its last user."),
        Step::new(CloseProviderTransformer, "Closes each provider after every node that uses it."),
        Step::new(CloseRootModuleTransformer, "The `root` node waits for everything nothing else waits for."),
        Step::new(
            TransitiveReductionTransformer,
            "Removes implied edges for readability; skipped if there is a cycle.",
        ),
    ]
}
