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
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, HashMap};
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
    /// Shared with the copies `overridden` makes: the schemas do not change.
    provider: Rc<ProviderSet>,
    /// The `override_module`s the engine plans and applies it with.
    overrides: ModuleOverrides,
    /// What validating it said, once for every run and copy (it depends on the configuration
    /// alone).
    validation: Rc<OnceCell<Rc<Diagnostics>>>,
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
            provider: Rc::new(provider),
            overrides: ModuleOverrides::default(),
            validation: Rc::default(),
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
            provider: Rc::clone(&self.provider),
            overrides: engine_overrides,
            validation: Rc::clone(&self.validation),
        }
    }

    fn validation(&self) -> Rc<Diagnostics> {
        let said = self.validation.get_or_init(|| Rc::new(session::validate(&self.files, &self.config)));
        Rc::clone(said)
    }

    /// Whether the module declares input variable `name`.
    pub fn declares(&self, name: &str) -> bool {
        self.config.root.variables.iter().any(|v| v.name == name)
    }

    /// `-verbose`'s view of a plan run's plan.
    pub fn verbose_plan(&self, planned: &Planned) -> Verbose {
        let schemas = self.provider.schema_document();
        let full = crate::engine::api::plan_json(&planned.0.plan, &*self.provider);
        let text = crate::engine::api::plan_text(&planned.0.plan, &full, &schemas);
        Verbose::plan(text, &full, &schemas)
    }

    /// `-verbose`'s view of the state an apply run left.
    pub fn verbose_state(&self, state: &Json) -> Verbose {
        let values = crate::engine::render::plan_json::state_values(state, &*self.provider);
        Verbose::state(&values, &self.provider.schema_document())
    }
}

/// What a run asks of its state.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub variables: BTreeMap<String, Json>,
    pub refresh: bool,
    pub refresh_only: bool,
    pub destroy: bool,
    pub targets: Vec<String>,
    pub replace: Vec<String>,
    /// The run's mocked providers and overrides (shared: a run, its plan and its state's
    /// teardown read the same ones).
    pub mocking: Rc<Mocking>,
}

/// A plan made for a run: the session's, with the mocks it was made with (its apply uses them).
pub struct Planned(session::Planned, Rc<Mocking>);

impl Planned {
    pub fn diagnostics(&self) -> &Diagnostics {
        self.0.diagnostics()
    }

    pub fn refresh_only(&self) -> bool {
        self.0.refresh_only
    }
}

/// Plans `module` against `state` through the engine's front door, with the run's mocks in
/// front of the engine's providers.
pub fn plan(module: &Module, state: Option<&Json>, request: &Request) -> Planned {
    let session_request = PlanRequest {
        state: state.cloned(),
        options: PlanOptions {
            variables: request.variables.clone(),
            destroy: request.destroy,
            no_refresh: !request.refresh,
            targets: request.targets.clone(),
            replace: request.replace.clone(),
            module_overrides: module.overrides.clone(),
            validation: Some(module.validation()),
            ..PlanOptions::default()
        },
        refresh_only: request.refresh_only,
        // What `test()` was given (the native runner: the defaults).
        limits: crate::eval::limits::current(),
        ..PlanRequest::new(Rc::clone(&module.files), Rc::clone(&module.config), Diagnostics::new())
    };
    let provider = TestProvider::new(&*module.provider, &request.mocking);
    let mut plan = session::plan_with(&session_request, &provider);
    // The mocks need no configure step, but Terraform evaluates the blocks it configures with
    // and fails the run on their errors (a test file's blocks stand in for the root's).
    let configure = crate::engine::shared::provider_block::child_errors(
        &module.files,
        &module.config,
        &request.variables,
        || planned_values(&plan, false),
        &module.overrides,
    );
    plan.diagnostics.extend(configure);
    let planned = session::Planned::new(session_request, Rc::clone(&module.provider), plan);
    Planned(planned, Rc::clone(&request.mocking))
}

/// `terraform plan`'s text of a run's plan (what `terraform test -verbose` prints after a plan run).
pub fn plan_text(module: &Module, planned: &Planned) -> String {
    let provider = TestProvider::new(&*module.provider, &planned.1);
    let json = crate::engine::api::plan_json(&planned.0.plan, &provider);
    crate::engine::api::plan_text(&planned.0.plan, &json, &provider.schema_document())
}

/// Applies a plan (made from the state `state`): the new state and the apply's diagnostics.
pub fn apply(module: &Module, planned: &Planned) -> (Option<Json>, Diagnostics) {
    let provider = TestProvider::new(&*module.provider, &planned.1);
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
    let request = Request {
        variables: variables.clone(),
        refresh: true,
        destroy: true,
        mocking: Rc::clone(mocking),
        ..Default::default()
    };
    let planned = plan(module, Some(state), &request);
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
/// instances' outputs, as after a walk. Each resource is read from the JSON once (a run's
/// assertions and outputs read the same resources many times).
struct StateValues<'s> {
    state: &'s Json,
    read: RefCell<HashMap<[String; 4], Option<Rc<Value>>>>,
}

impl ResourceSource for StateValues<'_> {
    fn resource(&self, module: &str, mode: &str, type_name: &str, name: &str) -> Option<Rc<Value>> {
        let key = [module, mode, type_name, name].map(String::from);
        let read = || crate::eval::json::resource_from_state(self.state, module, mode, type_name, name).map(Rc::new);
        self.read.borrow_mut().entry(key).or_insert_with(read).clone()
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
    let from_state = state.map(|state| StateValues { state, read: RefCell::default() });
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
