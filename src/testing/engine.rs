//! The one place the test runner calls the engine: plan, apply and destroy of a configuration
//! with variables and a state, and the scope a run's assertions are evaluated in (the plan's
//! planned values, or the applied state). When the engine's front door changes, this file
//! changes and nothing else in `testing` does.
//!
//! What the engine has no notion of is done here, as Terraform's test runner does it:
//! - a refresh-only run: the mock providers report no drift, so its plan has no changes and
//!   its values are the prior state's (an apply keeps the state as it was);
//! - an assertion's scope: the run's variables (test-only ones included), `output.NAME`, and
//!   `run.NAME` outputs of earlier runs, over the module's own scope.

use super::mocking::{Mocking, TestProvider};
use super::verbose::Verbose;
use crate::config::{Config, LoadOptions};
use crate::diag::Diagnostics;
use crate::engine::apply::{apply as engine_apply, ApplyOptions};
use crate::engine::plan::plan as engine_plan;
use crate::engine::{Plan, PlanOptions};
use crate::eval::functions::Registry;
use crate::eval::module_scope::{Inputs, ModuleScope};
use crate::eval::scope::ResourceSource;
use crate::eval::Value;
use crate::providers::set::ProviderSet;
use crate::providers::Provider;
use serde_json::Value as Json;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

thread_local! {
    /// Terraform's functions, made once: a test file's expressions are evaluated a few at a
    /// time, and making the registry cost about as much as evaluating them.
    static FUNCS: Rc<Registry> = Rc::new(Registry::builtin());
}

/// The built-in functions (shared).
pub(super) fn builtin_funcs() -> Rc<Registry> {
    FUNCS.with(Rc::clone)
}

/// A configuration under test: the module in `root` (`""`, or a run's `module { source }`).
pub struct Module<'f> {
    pub files: &'f BTreeMap<String, String>,
    pub root: String,
    pub config: Config,
    /// Problems loading it.
    pub diagnostics: Diagnostics,
    /// Shared with the copies `overridden` makes: the schemas do not change.
    provider: Rc<ProviderSet>,
}

/// A module call replaced by `override_module` (`moduletest/mocking`, `node_output.go`): none of
/// its variables, locals, resources, checks or nested calls are evaluated, and each output is
/// the override's value of that name, else null. Its call's `count` / `for_each` still expand.
#[derive(Clone, Debug)]
pub struct ModuleOverride {
    /// The call's address (`module.child`, `module.child.module.grand`).
    pub target: String,
    /// `outputs`, when given (a constant object).
    pub outputs: Option<Value>,
    /// Where the outputs are written: the ranges of the outputs' new expressions.
    pub range: crate::diag::SourceRange,
}

impl<'f> Module<'f> {
    pub fn load(files: &'f BTreeMap<String, String>, root: &str) -> Module<'f> {
        let loaded = crate::config::load(files, &LoadOptions { root: root.to_string() });
        let provider = crate::engine::shared::schemas::providers(files, &loaded.config, Default::default());
        let diagnostics =
            crate::engine::shared::snippets::with_sources(loaded.diagnostics, &crate::eval::MapFiles(files));
        Module { files, root: root.to_string(), config: loaded.config, diagnostics, provider: Rc::new(provider) }
    }

    /// This configuration with module calls replaced by overrides (Terraform leaves the
    /// overridden calls out of its walk; the engine is given a configuration without them).
    pub fn overridden(&self, overrides: &[ModuleOverride]) -> Module<'f> {
        let mut config = self.config.clone();
        for o in overrides {
            if let Some(call) = call_at(&mut config.root, &o.target) {
                override_call(call, o);
            }
        }
        Module {
            files: self.files,
            root: self.root.clone(),
            config,
            diagnostics: self.diagnostics.clone(),
            provider: Rc::clone(&self.provider),
        }
    }

    /// Whether the module declares input variable `name`.
    pub fn declares(&self, name: &str) -> bool {
        self.config.root.variables.iter().any(|v| v.name == name)
    }

    /// `-verbose`'s view of a plan run's plan.
    pub fn verbose_plan(&self, planned: &Planned) -> Verbose {
        let schemas = self.provider.schema_document();
        let full = crate::engine::api::plan_json(&planned.plan, &*self.provider);
        let text = crate::engine::api::plan_text(&planned.plan, &full, &schemas);
        Verbose::plan(text, &full, &schemas)
    }

    /// `-verbose`'s view of the state an apply run left.
    pub fn verbose_state(&self, state: &Json) -> Verbose {
        let values = crate::engine::render::plan_json::state_values(state, &*self.provider);
        Verbose::state(&values, &self.provider.schema_document())
    }
}

/// The call at `target` (`module.a.module.b`: call `b` of call `a`'s module).
fn call_at<'m>(
    module: &'m mut crate::config::model::Module,
    target: &str,
) -> Option<&'m mut crate::config::model::ModuleCall> {
    let (name, rest) = match target.strip_prefix("module.")?.split_once('.') {
        Some((n, r)) => (n, Some(r)),
        None => (target.strip_prefix("module.")?, None),
    };
    let call = module.module_calls.iter_mut().find(|c| c.name == name)?;
    match rest {
        None => Some(call),
        Some(r) => call_at(call.module.as_deref_mut()?, r),
    }
}

fn override_call(call: &mut crate::config::model::ModuleCall, o: &ModuleOverride) {
    // The child's variables are not evaluated: nothing passes them.
    call.arguments.clear();
    let Some(child) = call.module.as_deref_mut() else { return };
    child.variables.clear();
    child.locals.clear();
    child.resources.clear();
    child.module_calls.clear();
    child.providers.clear();
    child.checks.clear();
    child.imports.clear();
    child.moved.clear();
    child.removed.clear();
    let json = o.range.filename.ends_with(".json");
    for out in &mut child.outputs {
        let value = o.outputs.as_ref().and_then(|v| match &v.kind {
            crate::eval::Kind::Object(m) => m.get(&out.name).cloned(),
            _ => None,
        });
        let value = value.unwrap_or_else(|| Value::null(crate::eval::Type::Dynamic));
        let source = if json { json_literal(&value).to_string() } else { hcl_literal(&value) };
        // Its preconditions are not checked: what they read was not evaluated. (Terraform's
        // plan still lists what the value read among its `relevant_attributes`; this one
        // reads nothing.)
        out.preconditions.clear();
        out.depends_on.clear();
        out.references.clear();
        out.value = crate::config::model::Expr { source, range: o.range.clone(), references: Vec::new(), tree: None };
    }
}

/// A constant as HCL native syntax that evaluates to it.
fn hcl_literal(v: &Value) -> String {
    use crate::eval::Kind;
    let items = |xs: &[Value]| xs.iter().map(hcl_literal).collect::<Vec<_>>().join(", ");
    let attrs = |m: &BTreeMap<String, Value>| {
        m.iter().map(|(k, x)| format!("{} = {}", quoted(k), hcl_literal(x))).collect::<Vec<_>>().join(", ")
    };
    match &v.kind {
        Kind::Null(_) | Kind::Unknown(_) | Kind::TypeVal(_) => "null".into(),
        Kind::Bool(b) => b.to_string(),
        Kind::Number(n) => n.to_string(),
        Kind::String(s) => quoted(s),
        Kind::Tuple(xs) => format!("[{}]", items(xs)),
        Kind::List(_, xs) => format!("tolist([{}])", items(xs)),
        Kind::Set(_, xs) => format!("toset([{}])", items(xs)),
        Kind::Object(m) => format!("{{{}}}", attrs(m)),
        Kind::Map(_, m) => format!("tomap({{{}}})", attrs(m)),
    }
}

/// An HCL quoted string: escapes, and template sequences doubled.
fn quoted(s: &str) -> String {
    let escaped = serde_json::to_string(s).unwrap_or_default();
    escaped.replace("${", "$${").replace("%{", "%%{")
}

/// A constant as a `.tf.json` expression: JSON, strings escaped as templates.
fn json_literal(v: &Value) -> Json {
    use crate::eval::Kind;
    match &v.kind {
        Kind::Null(_) | Kind::Unknown(_) | Kind::TypeVal(_) => Json::Null,
        Kind::Bool(b) => Json::Bool(*b),
        Kind::Number(n) => serde_json::from_str(&n.to_string()).unwrap_or(Json::Null),
        Kind::String(s) => Json::String(s.replace("${", "$${").replace("%{", "%%{")),
        Kind::Tuple(xs) | Kind::List(_, xs) | Kind::Set(_, xs) => Json::Array(xs.iter().map(json_literal).collect()),
        Kind::Object(m) | Kind::Map(_, m) => {
            Json::Object(m.iter().map(|(k, x)| (k.clone(), json_literal(x))).collect())
        }
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

/// A plan made for a run.
pub struct Planned {
    pub plan: Plan,
    pub refresh_only: bool,
    pub mocking: Rc<Mocking>,
}

impl Planned {
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.plan.diagnostics
    }
}

/// Plans `module` against `state`.
pub fn plan(module: &Module<'_>, state: Option<&Json>, request: &Request) -> Planned {
    let options = PlanOptions {
        variables: request.variables.clone(),
        destroy: request.destroy,
        no_refresh: !request.refresh,
        targets: request.targets.clone(),
        replace: request.replace.clone(),
        on_op: None,
        cancel: None,
    };
    let provider = TestProvider::new(&*module.provider, &request.mocking);
    let mut plan = engine_plan(module.files, &module.config, state, &provider, &options);
    if request.refresh_only {
        // No drift from the mocks: a refresh-only plan changes nothing.
        plan.changes.clear();
    }
    Planned { plan, refresh_only: request.refresh_only, mocking: Rc::clone(&request.mocking) }
}

/// `terraform plan`'s text of a run's plan (what `terraform test -verbose` prints after a plan run).
pub fn plan_text(module: &Module<'_>, planned: &Planned) -> String {
    let provider = TestProvider::new(&*module.provider, &planned.mocking);
    let json = crate::engine::api::plan_json(&planned.plan, &provider);
    crate::engine::api::plan_text(&planned.plan, &json, &provider.schema_document())
}

/// Applies a plan: the new state and the apply's diagnostics.
pub fn apply(
    module: &Module<'_>,
    planned: &Planned,
    state: Option<&Json>,
    variables: &BTreeMap<String, Json>,
) -> (Option<Json>, Diagnostics) {
    if planned.refresh_only {
        return (state.cloned(), Diagnostics::new());
    }
    let provider = TestProvider::new(&*module.provider, &planned.mocking);
    let r = engine_apply(
        module.files,
        &module.config,
        &planned.plan,
        state,
        &provider,
        &ApplyOptions { variables: variables.clone(), ..Default::default() },
    );
    (Some(r.state), r.diagnostics)
}

/// Destroys every object of `state`: the state left (empty unless something failed).
pub fn destroy(
    module: &Module<'_>,
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
    if planned.plan.diagnostics.has_errors() {
        return (Some(state.clone()), planned.plan.diagnostics);
    }
    apply(module, &planned, Some(state), variables)
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
                Json::String(s) => out.push(format!("{base}[{}]", crate::addrs::quote(s))),
                _ => out.push(base.clone()),
            }
        }
    }
    out
}

/// Resource values of a plan: each resource's planned objects (a single object, a tuple for
/// `count`, an object for `for_each`), unknown where the plan does not know them yet.
#[derive(Default)]
pub struct PlannedValues {
    values: RefCell<HashMap<(String, String, String, String), Rc<Value>>>,
}

impl PlannedValues {
    pub fn of(planned: &Planned, state: Option<&Json>) -> PlannedValues {
        let out = PlannedValues::default();
        if planned.refresh_only {
            // Read from the prior state instead.
            let _ = state;
            return out;
        }
        let mut grouped: BTreeMap<(String, String, String, String), Vec<(Option<crate::addrs::InstanceKey>, Value)>> =
            BTreeMap::new();
        let plan = &planned.plan;
        for c in plan.changes.iter().chain(plan.data_read.iter()) {
            if c.deposed.is_some() {
                continue;
            }
            let mode = if c.mode == crate::addrs::ResourceMode::Data { "data" } else { "managed" };
            let key = (c.module.clone(), mode.to_string(), c.type_name.clone(), c.name.clone());
            let entry = grouped.entry(key).or_default();
            if let Some(after) = &c.after {
                entry.push((c.key.clone(), after.clone()));
            }
        }
        for (key, objects) in grouped {
            let value = match objects.first().map(|o| o.0.clone()) {
                None => Value::tuple(Vec::new()),
                Some(None) => objects.into_iter().next().map(|o| o.1).unwrap_or_else(Value::dynamic),
                Some(Some(crate::addrs::InstanceKey::Int(_))) => {
                    let mut items = objects;
                    crate::util::sort::sort_by_key(&mut items, |o| match o.0 {
                        Some(crate::addrs::InstanceKey::Int(i)) => i,
                        _ => 0,
                    });
                    Value::tuple(items.into_iter().map(|o| o.1).collect())
                }
                Some(Some(_)) => Value::object(crate::util::sort::btree_map(objects.into_iter().map(|o| {
                    let k = match o.0 {
                        Some(crate::addrs::InstanceKey::Str(s)) => s,
                        Some(other) => other.to_string(),
                        None => String::new(),
                    };
                    (k, o.1)
                }))),
            };
            out.values.borrow_mut().insert(key, Rc::new(value));
        }
        out
    }
}

impl ResourceSource for PlannedValues {
    fn resource(&self, module: &str, mode: &str, type_name: &str, name: &str) -> Option<Rc<Value>> {
        let key = (module.to_string(), mode.to_string(), type_name.to_string(), name.to_string());
        self.values.borrow().get(&key).cloned()
    }
}

/// Evaluates with the root scope of `module` over either planned values or a state.
pub fn with_scope<R>(
    module: &Module<'_>,
    variables: &BTreeMap<String, Json>,
    state: Option<&Json>,
    planned: Option<&PlannedValues>,
    planning: bool,
    f: impl FnOnce(&ModuleScope<'_>, &Inputs<'_>) -> R,
) -> R {
    let funcs = builtin_funcs();
    let files = crate::eval::MapFiles(module.files);
    let inputs = Inputs {
        variables,
        state,
        files: &files,
        funcs: &funcs,
        planning,
        unset_variables_unknown: false,
        base_dir: if module.root.is_empty() { "." } else { &module.root },
        cwd: module.config.cwd.as_deref(),
        resources: planned.map(|p| p as &dyn ResourceSource),
    };
    let root_files = crate::eval::module_scope::root_files(module.files, &module.config.root.dir);
    let scope = ModuleScope::root(&module.config, &inputs, &root_files);
    f(&scope, &inputs)
}
