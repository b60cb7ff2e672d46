//! The one place the test runner calls the engine: plan, apply and destroy of a configuration
//! with variables and a state, and the scope a run's assertions are evaluated in (the plan's
//! planned values, or the applied state). When the engine's front door changes, this file
//! changes and nothing else in `testing` does.
//!
//! Plans and applies go through the engine's front door (`engine::session`) with the run's
//! mocks in front of its providers. What the engine has no notion of is done here, as
//! Terraform's test runner does it: an assertion's scope (the run's variables, test-only ones
//! included, `output.NAME`, and `run.NAME` outputs of earlier runs, over the module's own
//! scope; a refresh-only run's values are the prior state's).

use super::mocking::{Mocking, TestProvider};
use super::verbose::Verbose;
use crate::config::{Config, LoadOptions};
use crate::diag::Diagnostics;
use crate::engine::session::{self, Applied, ApplyRequest, PlanRequest};
use crate::engine::shared::provider_block::planned_values;
use crate::engine::shared::scope::WalkValues;
use crate::engine::PlanOptions;
use crate::eval::functions::Registry;
use crate::eval::module_overrides::ModuleOverrides;
use crate::eval::module_scope::{Inputs, ModuleScope};
use crate::eval::scope::ResourceSource;
use crate::eval::Value;
use crate::providers::set::ProviderSet;
use crate::providers::Provider;
use serde_json::Value as Json;
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A configuration under test: the module in `root` (`""`, or a run's `module { source }`).
pub struct Module {
    /// Every file, shared by the configurations of one `terraform test` and their plans.
    pub files: Rc<BTreeMap<String, String>>,
    pub root: String,
    /// Shared with the copies `overridden` makes.
    pub config: Rc<Config>,
    /// Problems loading it.
    pub diagnostics: Diagnostics,
    /// Shared with the copies `overridden` makes.
    shared: Rc<Shared>,
    /// The `override_module`s the engine plans and applies it with.
    overrides: ModuleOverrides,
}

/// What does not change from run to run of one configuration.
struct Shared {
    /// The providers' schemas.
    provider: Rc<ProviderSet>,
    /// What validating it said, made once (it depends on the configuration alone).
    validation: OnceCell<Rc<Diagnostics>>,
}

/// A module call or module instance replaced by `override_module` (`moduletest/mocking`,
/// `node_output.go`): the engine evaluates and plans nothing in it, and each output is the
/// override's value of that name, else null. Its call's `count` / `for_each` still expand.
#[derive(Clone, Debug)]
pub struct ModuleOverride {
    /// The call's or instance's address (`module.child`, `module.many[0]`,
    /// `module.child.module.grand`).
    pub target: String,
    /// `outputs`, when given (a constant object).
    pub outputs: Option<Value>,
}

impl Module {
    pub fn load(files: Rc<BTreeMap<String, String>>, root: &str) -> Module {
        let loaded = crate::config::load(&files, &LoadOptions { root: root.to_string() });
        let provider = session::providers(&files, &loaded.config, None);
        let diagnostics =
            crate::engine::shared::snippets::with_sources(loaded.diagnostics, &crate::eval::MapFilesystem(&files));
        Module {
            files,
            root: root.to_string(),
            config: Rc::new(loaded.config),
            diagnostics,
            shared: Rc::new(Shared { provider: Rc::new(provider), validation: OnceCell::new() }),
            overrides: ModuleOverrides::default(),
        }
    }

    /// This configuration with module calls or instances overridden (the engine leaves them
    /// out of its plan and gives their outputs the overrides' values), the first of a target
    /// winning.
    pub fn overridden(&self, overrides: &[ModuleOverride]) -> Module {
        let mut engine_overrides = ModuleOverrides::default();
        for o in overrides {
            let outputs = o.outputs.clone().unwrap_or_else(|| Value::null(crate::eval::Type::Dynamic));
            engine_overrides.push(&o.target, outputs);
        }
        Module {
            files: Rc::clone(&self.files),
            root: self.root.clone(),
            config: Rc::clone(&self.config),
            diagnostics: self.diagnostics.clone(),
            shared: Rc::clone(&self.shared),
            overrides: engine_overrides,
        }
    }

    fn validation(&self) -> Rc<Diagnostics> {
        let said = self.shared.validation.get_or_init(|| Rc::new(session::validate(&self.files, &self.config)));
        Rc::clone(said)
    }

    /// Whether the module declares input variable `name`.
    pub fn declares(&self, name: &str) -> bool {
        self.config.root.variables.iter().any(|v| v.name == name)
    }

    /// `-verbose`'s view of a plan run's plan.
    pub fn verbose_plan(&self, planned: &Planned) -> Verbose {
        Verbose::plan(planned.text().to_string(), planned.0.json(), &self.shared.provider.schema_document())
    }

    /// `-verbose`'s view of the state an apply run left.
    pub fn verbose_state(&self, state: &Json) -> Verbose {
        let values = crate::engine::render::plan_json::state_values(state, &*self.shared.provider);
        Verbose::state(&values, &self.shared.provider.schema_document())
    }
}

/// A plan made for a run: the session's, with the mocks it was made with (its apply uses them).
pub struct Planned(session::Planned, Rc<Mocking>);

impl Planned {
    pub fn diagnostics(&self) -> &Diagnostics {
        self.0.diagnostics()
    }

    /// `terraform plan`'s text of it (what `terraform test -verbose` prints after a plan run).
    pub fn text(&self) -> &str {
        self.0.text()
    }

    pub fn refresh_only(&self) -> bool {
        self.0.refresh_only
    }
}

/// Plans `module` against `state` with a run's `options` (its variables, `plan_options`)
/// through the engine's front door, with the run's mocks in front of the engine's providers.
pub fn plan(
    module: &Module,
    state: Option<&Json>,
    options: PlanOptions,
    refresh_only: bool,
    mocking: &Rc<Mocking>,
) -> Planned {
    let mut options = options;
    options.module_overrides = module.overrides.clone();
    options.validation = Some(module.validation());
    let session_request = PlanRequest {
        files: Rc::clone(&module.files),
        config: Rc::clone(&module.config),
        load_diagnostics: Diagnostics::new(),
        state_diagnostics: Diagnostics::new(),
        provider_diagnostics: Diagnostics::new(),
        state: state.cloned(),
        mock: None,
        options,
        refresh_only,
        parallelism: crate::walk::DEFAULT_PARALLELISM,
        // What `test()` was given (the native runner: the defaults).
        limits: crate::eval::limits::current(),
    };
    let provider = TestProvider::new(&*module.shared.provider, mocking);
    let mut plan = session::plan_with(&session_request, &provider, &crate::engine::plan::walk::Synchronous);
    // The mocks need no configure step, but Terraform evaluates the blocks it configures with
    // and fails the run on their errors (a test file's blocks stand in for the root's).
    let configure = crate::engine::shared::provider_block::child_errors(
        &module.files,
        &module.config,
        &session_request.options.variables,
        || planned_values(&plan, false),
        &module.overrides,
    );
    plan.diagnostics.extend(configure);
    let planned = session::Planned::new(session_request, Rc::clone(&module.shared.provider), plan);
    Planned(planned, Rc::clone(mocking))
}

/// Applies a plan (made from the state `state`): the new state and the apply's diagnostics.
pub fn apply(module: &Module, planned: &Planned) -> (Option<Json>, Diagnostics) {
    let provider = TestProvider::new(&*module.shared.provider, &planned.1);
    let request = ApplyRequest { limits: crate::eval::limits::current(), ..ApplyRequest::default() };
    match session::apply_with(&planned.0, request, &provider) {
        // The apply's own diagnostics: the run reported the plan's already.
        Applied::Walked { result, .. } => (Some(result.state).filter(|s| !s.is_null()), result.diagnostics),
        Applied::Refused { diagnostics, state } => (state, diagnostics),
    }
}

/// Destroys every object of `state`: the state left (empty unless something failed).
pub fn destroy(
    module: &Module,
    state: &Json,
    variables: &BTreeMap<String, Json>,
    mocking: &Rc<Mocking>,
) -> (Option<Json>, Diagnostics) {
    let options = PlanOptions { variables: variables.clone(), destroy: true, ..PlanOptions::default() };
    let planned = plan(module, Some(state), options, false, mocking);
    if planned.diagnostics().has_errors() {
        return (Some(state.clone()), planned.diagnostics().clone());
    }
    apply(module, &planned)
}

/// Whether a state still holds managed resource objects.
pub fn has_objects(state: &Json) -> bool {
    state["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|r| r["mode"] == "managed" && r["instances"].as_array().is_some_and(|i| !i.is_empty()))
}

/// The managed resource instance addresses of a state, for "left the following resources".
pub fn state_addresses(state: &Json) -> Vec<String> {
    let mut out = Vec::new();
    for r in state["resources"].as_array().into_iter().flatten() {
        if r["mode"] != "managed" {
            continue;
        }
        let module = r["module"].as_str().map(|m| format!("{m}.")).unwrap_or_default();
        let base = format!("{module}{}.{}", r["type"].as_str().unwrap_or(""), r["name"].as_str().unwrap_or(""));
        for i in r["instances"].as_array().into_iter().flatten() {
            match &i["index_key"] {
                Json::Number(n) => out.push(format!("{base}[{n}]")),
                Json::String(s) => out.push(format!("{base}[{}]", crate::addrs::go_quote(s))),
                _ => out.push(base.clone()),
            }
        }
    }
    out
}

/// Resource values of a plan: each resource's planned objects (a single object, a tuple for
/// `count`, an object for `for_each`, an empty tuple when the plan deletes them all), unknown
/// where the plan does not know them yet; a resource the plan has nothing of is read elsewhere.
#[derive(Default)]
pub struct PlannedValues(WalkValues);

impl PlannedValues {
    pub fn of(planned: &Planned) -> PlannedValues {
        if planned.refresh_only() {
            // Read from the prior state instead.
            return PlannedValues::default();
        }
        PlannedValues(planned_values(&planned.0.plan, true))
    }
}

impl ResourceSource for PlannedValues {
    fn resource(&self, module: &str, mode: &str, type_name: &str, name: &str) -> Option<Rc<Value>> {
        self.0.shared(&(module.to_string(), mode.to_string(), type_name.to_string(), name.to_string()))
    }
}

/// A state's resources as a walk's values: what reads an expanded module call sees its
/// instances' outputs, as after a walk.
struct StateValues<'s>(&'s Json);

impl ResourceSource for StateValues<'_> {
    fn resource(&self, module: &str, mode: &str, type_name: &str, name: &str) -> Option<Rc<Value>> {
        crate::eval::json::resource_from_state(self.0, module, mode, type_name, name).map(Rc::new)
    }
}

/// Evaluates with the root scope of `module` over either planned values or a state.
pub fn with_scope<R>(
    module: &Module,
    variables: &BTreeMap<String, Json>,
    state: Option<&Json>,
    planned: Option<&PlannedValues>,
    planning: bool,
    f: impl FnOnce(&ModuleScope<'_>, &Inputs<'_>) -> R,
) -> R {
    let funcs = Registry::builtin();
    let files = crate::eval::MapFilesystem(&module.files);
    let from_state = state.map(StateValues);
    let resources = match (planned, &from_state) {
        (Some(p), _) => Some(p as &dyn ResourceSource),
        (None, Some(s)) => Some(s as &dyn ResourceSource),
        (None, None) => None,
    };
    let inputs = Inputs {
        state,
        planning,
        resources,
        overrides: Some(&module.overrides),
        ..Inputs::of(&module.config, variables, &files, &funcs)
    };
    let root_files = crate::eval::module_scope::root_files(&module.files, &module.config.root.dir);
    let scope = ModuleScope::root(&module.config, &inputs, &root_files);
    f(&scope, &inputs)
}
