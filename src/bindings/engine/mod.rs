//! `plan`, `apply` and `destroy` (issue #11): the engine's JS face, wrapped by `pkg/api.js`.
//!
//! `enginePlan(files, options)` resolves to a [`PlanHandle`] (the plan, the configuration and
//! state it was made from, its JSON, text and changes); `engineApply(handle, options)` applies
//! exactly that plan and resolves to `{ state, diagnostics, report }` as JSON text.
//!
//! Providers: the built-in mock and the generic mock (a `ProviderSet`), or one provider written in JS (`js_provider`). The plan walk
//! is synchronous Rust, so a JS provider is planned in passes (`providers::answered`): plan,
//! await the questions it could not answer, plan again with the answers, until a pass asks
//! nothing new. The apply walk awaits the provider directly (`drive`).

mod drive;
mod js_provider;
mod timers;

use super::{get, read_files, read_load_options, type_error};
use crate::config::{self, Config, FileSource};
use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::api::{apply_report, event_json, mock_options, plan_events, plan_view, stale_plan, PlanView};
use crate::engine::plan::plan;
use crate::engine::stepper::{Request, Response, Stepper};
use crate::engine::{Plan, PlanOptions};
use crate::providers::set::ProviderSet;
use crate::providers::Provider;
use futures_util::stream::{FuturesUnordered, StreamExt};
use js_provider::JsProvider;
use js_sys::{Function, Promise};
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;

/// At most this many planning passes for a JS provider: each pass answers every question the
/// previous one could not, so a configuration needs about as many passes as its longest chain
/// of resources; more means a provider whose answers never settle.
const MAX_PASSES: usize = 256;

/// The provider a walk uses.
pub enum Route<'p> {
    /// The built-in mock for `hashicorp/mock`, the generic mock for every other source.
    Set(&'p ProviderSet),
    Js(&'p JsProvider),
}

impl Route<'_> {
    pub fn provider(&self) -> &dyn Provider {
        match self {
            Route::Set(m) => *m,
            Route::Js(j) => &j.answered,
        }
    }

    /// The provider's response to an apply-time request (the mock's after its delay).
    pub async fn respond(&self, request: &Request, provider_config: &str, delay: u64) -> Response {
        match self {
            Route::Set(m) => {
                let response = request.ask(crate::providers::route(*m, provider_config));
                drive::after(delay).await;
                response
            }
            Route::Js(j) => j.respond(request).await,
        }
    }

    /// `terraform providers schema -json` (what the plan renderer reads).
    fn schemas_json(&self) -> Json {
        match self {
            Route::Set(m) => m.schema_document(),
            Route::Js(j) => {
                let (r, d) = j.answered.schemas();
                json!({"format_version": "1.0", "provider_schemas": {j.answered.source(): crate::providers::wire::schemas_json(r, d)}})
            }
        }
    }
}

/// Every provider source address the configuration's resources use.
fn sources(config: &Config) -> BTreeSet<String> {
    fn walk(m: &crate::config::model::Module, out: &mut BTreeSet<String>) {
        out.extend(m.resources.iter().map(|r| r.provider.fqn.clone()));
        for c in &m.module_calls {
            if let Some(child) = &c.module {
                walk(child, out);
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(&config.root, &mut out);
    out
}

/// The request's options as read from JS (`pkg/api.js` passes state, variables and mock as
/// JSON text).
struct EngineRequest {
    state: Option<Json>,
    variables: BTreeMap<String, Json>,
    mock: Option<Json>,
    destroy: bool,
    refresh: bool,
    parallelism: usize,
    providers: Option<JsValue>,
    on_event: Option<Function>,
}

fn json_text(options: &JsValue, key: &str, api: &str) -> Result<Option<Json>, JsValue> {
    match get(options, key)? {
        None => Ok(None),
        Some(v) => {
            let text = v.as_string().ok_or_else(|| type_error(&format!("{api}: `options.{key}` must be an object")))?;
            serde_json::from_str(&text).map(Some).map_err(|e| type_error(&format!("{api}: `options.{key}` is not JSON: {e}")))
        }
    }
}

fn function(options: &JsValue, key: &str, api: &str) -> Result<Option<Function>, JsValue> {
    get(options, key)?.map(|f| f.dyn_into::<Function>().map_err(|_| type_error(&format!("{api}: `options.{key}` must be a function")))).transpose()
}

fn read_request(options: &JsValue, api: &str) -> Result<EngineRequest, JsValue> {
    let state = json_text(options, "state", api)?.filter(|s| !s.is_null());
    if let Some(s) = &state {
        if !s.is_object() {
            return Err(type_error(&format!("{api}: `options.state` must be a state v4 object")));
        }
    }
    let variables = match json_text(options, "variables", api)? {
        None => BTreeMap::new(),
        Some(Json::Object(m)) => crate::util::sort::btree_map(m),
        Some(_) => return Err(type_error(&format!("{api}: `options.variables` must be an object"))),
    };
    let flag = |key: &str, default: bool| -> Result<bool, JsValue> {
        match get(options, key)? {
            None => Ok(default),
            Some(v) => v.as_bool().ok_or_else(|| type_error(&format!("{api}: `options.{key}` must be a boolean"))),
        }
    };
    let parallelism = match get(options, "parallelism")? {
        None => 10,
        Some(v) => match v.as_f64() {
            Some(n) if n >= 1.0 && n.fract() == 0.0 => n as usize,
            _ => return Err(type_error(&format!("{api}: `options.parallelism` must be a whole number >= 1"))),
        },
    };
    let providers = get(options, "providers")?;
    if let Some(p) = &providers {
        if !p.is_object() {
            return Err(type_error(&format!("{api}: `options.providers` must be an object of source address to provider")));
        }
    }
    Ok(EngineRequest {
        state,
        variables,
        mock: json_text(options, "mock", api)?,
        destroy: flag("destroy", false)?,
        refresh: flag("refresh", true)?,
        parallelism,
        providers,
        on_event: function(options, "onEvent", api)?,
    })
}

/// The JS provider for the configuration's provider, if `providers` has it. Until resources
/// are routed to providers by address, one walk uses one provider: a JS one when given for a
/// source the configuration uses, else the built-in mock.
async fn js_provider_for(config: &Config, providers: Option<&JsValue>) -> Result<Option<JsProvider>, Diagnostic> {
    let Some(providers) = providers else { return Ok(None) };
    let used = sources(config);
    let keys = js_sys::Object::keys(providers.unchecked_ref::<js_sys::Object>());
    let mut matching = Vec::new();
    for k in keys.iter() {
        let key = k.as_string().unwrap_or_default();
        if used.contains(&js_provider::full_source(&key)) {
            matching.push(key);
        }
    }
    let Some(key) = matching.first() else { return Ok(None) };
    if used.len() > 1 {
        return Err(Diagnostic::error(
            "Several providers in one configuration",
            format!("This configuration uses {}; tfgraph plans with one provider at a time for now, so a JS provider cannot be combined with others yet.", used.into_iter().collect::<Vec<_>>().join(", ")),
        ));
    }
    let object = js_sys::Reflect::get(providers, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED);
    JsProvider::new(key, object).await.map(Some).map_err(|e| Diagnostic::error(e.summary, e.detail))
}

/// Plans with a JS provider in passes (see the module documentation).
async fn plan_in_passes(js: &JsProvider, files: &BTreeMap<String, String>, config: &Config, state: Option<&Json>, options: &PlanOptions, parallelism: usize) -> Plan {
    for _ in 0..MAX_PASSES {
        let p = plan(files, config, state, &js.answered, options);
        let questions = js.answered.take_questions();
        if questions.is_empty() {
            return p;
        }
        let mut pending = questions.into_iter();
        let mut inflight = FuturesUnordered::new();
        loop {
            while inflight.len() < parallelism {
                let Some((key, q)) = pending.next() else { break };
                inflight.push(async move { (key, js.answer(&q).await) });
            }
            let Some((key, answer)) = inflight.next().await else { break };
            js.answered.answer(key, answer);
        }
    }
    let mut p = Plan::default();
    p.diagnostics.push(Diagnostic::error("Provider answers did not settle", format!("Planning with provider[{:?}] asked new questions in each of {MAX_PASSES} passes: its answers depend on something besides its inputs.", js.answered.source())));
    p
}

/// Everything a plan was made from, and what it shows.
struct PlanData {
    files: BTreeMap<String, String>,
    config: Config,
    plan: Plan,
    prior: Option<Json>,
    variables: BTreeMap<String, Json>,
    mock: Option<Json>,
    view: PlanView,
    diagnostics: Diagnostics,
    events: Vec<Json>,
}

/// A plan made by `enginePlan`, for `pkg/api.js`'s `Plan` and for `engineApply`.
#[wasm_bindgen]
pub struct PlanHandle {
    data: Rc<PlanData>,
}

#[wasm_bindgen]
impl PlanHandle {
    /// `terraform show -json` of the plan, as JSON text.
    pub fn json(&self) -> String {
        self.data.view.json.to_string()
    }
    /// `terraform plan`'s text.
    pub fn text(&self) -> String {
        self.data.view.text.clone()
    }
    /// The changes in the API's shape, as JSON text.
    pub fn changes(&self) -> String {
        self.data.view.changes.to_string()
    }
    /// Loading and planning diagnostics, as JSON text.
    pub fn diagnostics(&self) -> String {
        serde_json::to_string(&self.data.diagnostics).unwrap_or_default()
    }
    /// The plan's provider operations as events, as JSON text.
    pub fn events(&self) -> String {
        Json::Array(self.data.events.clone()).to_string()
    }
    pub fn errored(&self) -> bool {
        self.data.diagnostics.has_errors()
    }
    #[wasm_bindgen(js_name = hasChanges)]
    pub fn has_changes(&self) -> bool {
        self.data.view.has_changes
    }
    pub fn destroy(&self) -> bool {
        self.data.plan.destroy
    }
}

/// Reads every file (the plan reads tfvars and, through functions, any file).
fn all_files(files: &JsValue, api: &'static str) -> Result<BTreeMap<String, String>, JsValue> {
    let files = read_files(files, api)?;
    let paths: Vec<String> = files.paths().into_iter().map(str::to_string).collect();
    let mut out = BTreeMap::new();
    for (i, p) in paths.into_iter().enumerate() {
        out.insert(p, files.read(i)?.into_owned());
    }
    Ok(out)
}

/// Wasm memory a plan (`--sizes 10000` of bench/engine: 108 MB) and an apply (128 MB more)
/// took per instance, rounded up: a shortfall is paid in `memory.grow`s, pages reserved and
/// never used cost address space only.
const PLAN_BYTES_PER_INSTANCE: usize = 12 << 10;
const APPLY_BYTES_PER_CHANGE: usize = 14 << 10;

/// How many objects a state v4 holds.
fn state_instances(state: Option<&Json>) -> usize {
    let resources = state.and_then(|s| s.get("resources")).and_then(Json::as_array);
    resources.map_or(0, |rs| rs.iter().map(|r| r.get("instances").and_then(Json::as_array).map_or(0, Vec::len)).sum())
}

/// Raw `plan`: resolves to a [`PlanHandle`]; rejects only for misuse (`TypeError`).
#[wasm_bindgen(js_name = enginePlan)]
pub fn engine_plan(files: JsValue, options: JsValue) -> Promise {
    let read = || -> Result<_, JsValue> {
        let load = read_load_options(&options, "plan")?;
        let request = read_request(&options, "plan")?;
        Ok((all_files(&files, "plan")?, load, request))
    };
    let input = read();
    future_to_promise(async move {
        let (files, load, request) = input?;
        let loaded = config::load(&files, &load);
        let mut diagnostics = loaded.diagnostics;
        let config = loaded.config;
        let options = PlanOptions { variables: request.variables.clone(), destroy: request.destroy, no_refresh: !request.refresh };
        let mock = crate::engine::schemas::providers(&files, &config, mock_options(request.mock.as_ref()));
        let js = match js_provider_for(&config, request.providers.as_ref()).await {
            Ok(js) => js,
            Err(d) => {
                diagnostics.push(d);
                None
            }
        };
        let route = match &js {
            Some(j) => Route::Js(j),
            None => Route::Set(&mock),
        };
        // The heap a plan of the prior state's objects needs, grown once (see `reserve_heap`):
        // a plan made from nothing cannot know its size before it expands.
        super::graph::reserve_heap(state_instances(request.state.as_ref()) * PLAN_BYTES_PER_INSTANCE);
        let mut p = if diagnostics.has_errors() {
            Plan { destroy: request.destroy, prior_state: request.state.clone(), ..Plan::default() }
        } else {
            match &js {
                Some(j) => plan_in_passes(j, &files, &config, request.state.as_ref(), &options, request.parallelism).await,
                None => super::heap::growing_ahead(|| plan(&files, &config, request.state.as_ref(), &mock, &options)),
            }
        };
        diagnostics.extend(p.diagnostics.clone());
        p.diagnostics = diagnostics.clone();
        let view = super::heap::growing_ahead(|| plan_view(&p, route.provider(), &route.schemas_json()));
        let events: Vec<Json> = plan_events(&p).iter().map(|e| event_json(e, "plan")).collect();
        if let Some(f) = &request.on_event {
            for e in &events {
                f.call1(&JsValue::UNDEFINED, &super::to_js(e)?)?;
            }
        }
        let data = PlanData { files, config, plan: p, prior: request.state, variables: request.variables, mock: request.mock, view, diagnostics, events };
        Ok(PlanHandle { data: Rc::new(data) }.into())
    })
}

/// Raw `apply` of a plan: resolves to `{ state, diagnostics, report }` as JSON text. Options:
/// `state` (the state now, JSON text: a plan made from another is stale), `providers`,
/// `parallelism`, `signal`, `onEvent`, `onState`, `lineage` (of a new state).
#[wasm_bindgen(js_name = engineApply)]
pub fn engine_apply(handle: &PlanHandle, options: JsValue) -> Promise {
    let data = handle.data.clone();
    let read = || -> Result<_, JsValue> {
        let request = read_request(&options, "apply")?;
        let on_state = function(&options, "onState", "apply")?;
        let lineage = get(&options, "lineage")?.and_then(|l| l.as_string()).unwrap_or_else(|| "00000000-0000-0000-0000-000000000000".into());
        let signal = get(&options, "signal")?;
        if let Some(s) = &signal {
            if !js_sys::Reflect::get(s, &"addEventListener".into())?.is_function() {
                return Err(type_error("apply: `options.signal` must be an AbortSignal"));
            }
        }
        let given_state = get(&options, "state")?.is_some();
        Ok((request, on_state, lineage, signal, given_state))
    };
    let input = read();
    future_to_promise(async move {
        let (request, on_state, lineage, signal, given_state) = input?;
        let d = &*data;
        let refused = |diagnostics: Diagnostics, state: Option<&Json>| -> Result<JsValue, JsValue> {
            let report = json!({"events": [], "waves": [], "maxConcurrency": 0, "progress": "", "added": 0, "changed": 0, "destroyed": 0, "elapsedMs": 0});
            Ok(JsValue::from_str(&json!({"state": state, "diagnostics": diagnostics, "report": report}).to_string()))
        };
        if d.diagnostics.has_errors() {
            return refused(d.diagnostics.clone(), d.prior.as_ref());
        }
        if given_state {
            if let Some(stale) = stale_plan(d.prior.as_ref(), request.state.as_ref()) {
                let mut diags = Diagnostics::new();
                diags.push(stale);
                return refused(diags, request.state.as_ref());
            }
        }
        let mock = crate::engine::schemas::providers(&d.files, &d.config, mock_options(d.mock.as_ref()));
        let js = match js_provider_for(&d.config, request.providers.as_ref()).await {
            Ok(js) => js,
            Err(diag) => {
                let mut diags = Diagnostics::new();
                diags.push(diag);
                return refused(diags, d.prior.as_ref());
            }
        };
        let route = match &js {
            Some(j) => Route::Js(j),
            None => Route::Set(&mock),
        };
        let token = crate::walk::CancelToken::new();
        let _listener = signal.map(|s| super::walk::options::AbortListener::new(s, token.clone())).transpose()?;
        let mut hooks = drive::Hooks { on_event: request.on_event, on_state, cancel: token, callback_error: None };
        let t0 = timers::elapsed_ms(0.0);
        // Growing wasm memory 64 KiB at a time cost most of a large apply in Node (every
        // `memory.grow` is a full GC there): what the apply will need is grown at once.
        super::graph::reserve_heap(d.plan.changes.len() * APPLY_BYTES_PER_CHANGE);
        let mut stepper = Stepper::new(&d.files, &d.config, &d.plan, d.prior.as_ref(), route.provider(), &d.variables, lineage);
        let mut r = drive::apply_walk(&mut stepper, &route, request.parallelism, &mut hooks).await;
        let elapsed = timers::elapsed_ms(t0);
        // The plan's warnings come first, as Terraform prints them.
        let mut diagnostics = d.diagnostics.clone();
        diagnostics.extend(std::mem::take(&mut r.diagnostics));
        r.diagnostics = diagnostics;
        let out = json!({"state": r.state, "diagnostics": r.diagnostics, "report": apply_report(&r, true, elapsed.round())});
        Ok(JsValue::from_str(&out.to_string()))
    })
}
