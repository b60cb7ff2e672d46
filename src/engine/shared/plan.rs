//! The plan as data: what the plan walk decided and found (its changes, its provider
//! operations, its diagnostics), which the apply walks and the renderers read; and the plan
//! walk's options.

use crate::addrs::{InstanceKey, ResourceMode};
use crate::diag::Diagnostics;
use crate::eval::module_overrides::ModuleOverrides;
use crate::eval::module_scope::ModuleKey;
use crate::eval::Value;
use crate::plans::Action;
use std::collections::BTreeMap;

use super::{apply_graph, checks, clock, relevant};

/// Options of a plan ([`crate::engine::session::plan`]).
#[derive(Clone, Debug, Default)]
pub struct PlanOptions {
    /// Input variables, as `-var` gives them.
    pub variables: BTreeMap<String, serde_json::Value>,
    /// `plan -destroy`.
    pub destroy: bool,
    /// `plan -refresh=false`: prior objects are taken as the state has them, without asking
    /// their provider.
    pub no_refresh: bool,
    /// `plan -target=ADDR`: only what these name and what that depends on (in a destroy plan:
    /// what depends on it) is planned.
    pub targets: Vec<String>,
    /// `plan -replace=ADDR`: these instances are replaced even when they could be updated.
    pub replace: Vec<String>,
    /// Told of each provider operation as the walk reaches it (live progress).
    pub on_op: Option<OpHook>,
    /// Stops the plan walk: nothing new starts (Terraform's stop), and the plan ends with
    /// `execution halted`.
    pub cancel: Option<crate::walk::CancelToken>,
    /// `terraform test`'s `override_module`s: the module instances they name are not planned,
    /// and their outputs are the given values.
    pub module_overrides: ModuleOverrides,
    /// What [`validate`](crate::engine::plan::validate) said of the configuration, when the
    /// caller has it already (`terraform test` plans one configuration many times): else the
    /// plan validates it first.
    pub validation: Option<std::rc::Rc<Diagnostics>>,
}

/// Where a plan-time provider operation (refresh, data source read) is.
pub enum OpProgress<'v> {
    /// About to ask the provider; `prior` is the object refreshed (none for a data source).
    Start {
        prior: Option<&'v Value>,
    },
    /// Answered with this object (`None`: a refresh found it gone).
    Finish {
        object: Option<&'v Value>,
    },
    Fail {
        error: &'v crate::providers::ProviderError,
    },
}

/// What [`OpHook`] calls.
pub type OpCallback = dyn Fn(&PlanOp, OpProgress<'_>);

/// A callback for [`PlanOptions::on_op`].
#[derive(Clone)]
pub struct OpHook(pub std::rc::Rc<OpCallback>);

impl std::fmt::Debug for OpHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OpHook")
    }
}

/// One planned change of a resource instance object.
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceChange {
    /// The module instance (`""`, `module.a`).
    pub module: String,
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
    pub key: Option<InstanceKey>,
    pub deposed: Option<String>,
    pub action: Action,
    pub before: Option<Value>,
    pub after: Option<Value>,
    /// Terraform's `action_reason` (`replace_because_cannot_update`, ...).
    pub reason: Option<&'static str>,
    /// Attributes whose change forces the replacement.
    pub replace_paths: Vec<String>,
    /// The provider's source address (plan JSON's `provider_name`).
    pub provider: String,
    /// The provider configuration serving it (state's `provider`):
    /// `provider["registry.terraform.io/hashicorp/aws"].west`.
    pub provider_config: String,
    pub schema_version: u64,
    /// The resources it depends on (state `dependencies`), sorted.
    pub dependencies: Vec<String>,
    pub create_before_destroy: bool,
    /// The address before a `moved` block renamed it.
    pub previous_address: Option<String>,
    /// The id an `import` block imported it with (plan JSON's `importing`).
    pub importing: Option<String>,
}

impl InstanceChange {
    /// The resource's address in its module (`mock_resource.a`, `data.mock_data.d`).
    pub fn resource(&self) -> String {
        let prefix = if self.mode == ResourceMode::Data { "data." } else { "" };
        format!("{prefix}{}.{}", self.type_name, self.name)
    }
    /// The absolute instance address.
    pub fn address(&self) -> String {
        let key = self.key.as_ref().map(|k| k.to_string()).unwrap_or_default();
        if self.module.is_empty() {
            format!("{}{key}", self.resource())
        } else {
            format!("{}.{}{key}", self.module, self.resource())
        }
    }
}

/// One root module output's change.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputChange {
    pub name: String,
    pub action: Action,
    pub before: Option<Value>,
    pub after: Option<Value>,
    pub before_sensitive: bool,
    pub sensitive: bool,
}

/// A provider operation of the plan walk, and the resources it waits for.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanOp {
    pub op: crate::providers::Op,
    pub address: String,
    /// Its resource (empty for orphans, which wait for nothing).
    pub resource: String,
    /// The resources whose operations must finish first.
    pub deps: Vec<String>,
    /// The object's `name` (the mock provider's per-name delays).
    pub name: Option<String>,
    /// An earlier operation of the same instance it follows (a refresh after its import).
    pub after: Option<usize>,
}

impl Plan {
    /// The plan's provider operations as the walk runs them with `parallelism`: grouped in
    /// waves by start on the virtual clock, and the maximum number in flight.
    pub fn op_waves(&self, provider: &dyn crate::providers::Provider, parallelism: usize) -> (Vec<Vec<String>>, usize) {
        let n = self.ops.len();
        let preds: Vec<Vec<usize>> = self
            .ops
            .iter()
            .map(|o| {
                (0..n)
                    .filter(|&j| {
                        (!self.ops[j].resource.is_empty() && o.deps.contains(&self.ops[j].resource))
                            || o.after == Some(j)
                    })
                    .collect()
            })
            .collect();
        let items: Vec<(String, u64)> = self
            .ops
            .iter()
            .map(|o| (format!("{} {}", o.op.as_str(), o.address), provider.delay_ms(o.op, o.name.as_deref())))
            .collect();
        clock::schedule(&items, &preds, parallelism, provider.delay_ms(crate::providers::Op::Read, None))
    }
}

/// A plan: what the plan walk decided, and what it found.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub changes: Vec<InstanceChange>,
    pub outputs: Vec<OutputChange>,
    /// The root module's variables, as the plan used them.
    pub variables: BTreeMap<String, Value>,
    /// The prior state (refreshed), state v4 JSON, when there was one.
    pub prior_state: Option<serde_json::Value>,
    pub diagnostics: Diagnostics,
    /// The provider operations of the plan (refresh reads, data source reads), in walk order.
    pub ops: Vec<PlanOp>,
    pub destroy: bool,
    /// Data sources read during the plan (no change: they are part of the refreshed state).
    pub data_read: Vec<InstanceChange>,
    /// Conditions and check blocks, as far as the plan could evaluate them.
    pub checks: Vec<checks::CheckResult>,
    /// The plan JSON's `configuration` section (the configuration the plan was made from).
    pub configuration: Option<serde_json::Value>,
    /// The plan JSON's `relevant_attributes` entries (made when first read).
    pub relevant_attributes: relevant::Relevant,
    /// Refused before the walk (a cycle in the validate graph): Terraform makes no plan at all
    /// then, so prints none (`backend/local` with a nil plan).
    pub refused: bool,
    /// The `-target` addresses it was made with (a targeted plan is not complete).
    pub targets: Vec<String>,
    /// Refused after it was complete: the apply graph it would build has errors (a cycle;
    /// `apply_check`). Terraform still renders and saves such a plan, not marked errored.
    pub apply_graph_refused: bool,
    /// The apply graph that walks this plan (`apply_graph`), built when it was checked: none
    /// when it changes nothing or was refused.
    pub apply_graph: Option<std::sync::Arc<apply_graph::ApplyGraph>>,
    /// With targets: the configuration resources it planned (its apply evaluates the checks
    /// of these only).
    pub kept: Option<std::collections::BTreeSet<String>>,
    /// The `override_module`s it was made with, which its apply keeps (Terraform's
    /// `plan.Overrides`).
    pub module_overrides: ModuleOverrides,
    /// The instances of each module call the walk expanded (module path → each instance's keys,
    /// one per call of the path): the apply expands the modules as the plan did.
    pub module_instances: ModuleInstances,
}

/// Module path (call names) → the instances of the module there, each as its keys.
pub type ModuleInstances = std::collections::HashMap<Vec<String>, Vec<Vec<Option<ModuleKey>>>>;

impl Plan {
    /// Terraform's `plan.Errored`: errors while planning. The apply graph's errors, found once
    /// the plan is complete, refuse it without marking it errored; whether a plan may be
    /// applied is `!diagnostics.has_errors()`.
    pub fn errored(&self) -> bool {
        self.diagnostics.has_errors() && !self.apply_graph_refused
    }
}
