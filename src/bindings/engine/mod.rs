//! `plan`, `apply` and `destroy` (issue #11): the engine's JS face, wrapped by `pkg/api.js`.
//!
//! `enginePlan(files, options)` resolves to a [`PlanHandle`] (the plan, the configuration and
//! state it was made from, its JSON, text and changes); `engineApply(handle, options)` applies
//! exactly that plan and resolves to `{ state, diagnostics, report }` as JSON text.
//!
//! Providers: the built-in mock and the generic mock (a `ProviderSet`), with providers written in
//! JS serving the sources `providers` names (`js_set`, `js_provider`). Both walks await JS
//! providers where their nodes run: the plan walk through [`JsPlanHost`] (`engine::plan_walk`'s
//! `PlanHost`: a provider node configures, a resource node's questions are answered while other
//! nodes run), the apply walk (`engine::apply_walk`) through `drive`'s host.

mod drive;
mod js_provider;
mod js_set;
mod plan_events;
mod timers;

use super::{get, read_files, read_load_options, type_error};
use crate::config::{self, Config, FileSource};
use crate::diag::Diagnostics;
use crate::engine::api::{
    apply_report, changes_json, has_changes, mock_diagnostics, mock_options, plan_json, plan_text, stale_plan,
};
use crate::engine::apply::nodes::{ApplyNodes, Request, Response};
use crate::engine::plan::walk::PlanHost;
use crate::engine::plan::{plan, plan_walked};
use crate::engine::shared::scope::WalkValues;
use crate::engine::{Plan, PlanOptions};
use crate::eval::limits::Limits;
use crate::providers::set::ProviderSet;
use crate::providers::Provider;
use futures_util::future::LocalBoxFuture;
use futures_util::stream::{FuturesUnordered, StreamExt};
use js_set::{BlockValues, Configuring, JsProviders};
use js_sys::{Function, Promise};
use serde_json::{json, Value as Json};
use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;

/// The providers a walk uses: the mocks' set, with the JS providers given serving their
/// configurations inside it; `js` awaits those at apply.
pub struct Route<'p> {
    pub set: &'p ProviderSet,
    pub js: &'p JsProviders,
    /// What configuring the JS ones needs.
    pub how: &'p Configuring<'p>,
}

impl Route<'_> {
    pub fn provider(&self) -> &dyn Provider {
        self.set
    }

    /// Whether an apply operation served by `provider_config` must configure it first.
    pub fn needs_configure(&self, provider_config: &str) -> bool {
        self.js.needs_configure(provider_config)
    }

    /// Configures `provider_config` for an apply operation with its block evaluated over
    /// `state`, the working state as the operation starts (see `js_set`).
    pub async fn configure(&self, provider_config: &str, state: &Json) -> Result<(), Diagnostics> {
        self.js.configure_for_operation(provider_config, self.how, state).await
    }

    /// The provider's response to an apply-time request for `instance` (the mock's after its
    /// delay).
    pub async fn respond(&self, request: &Request, provider_config: &str, delay: u64, instance: &str) -> Response {
        match self.js.for_config(provider_config) {
            Some(j) => j.respond(request, instance).await,
            None => {
                let response = request.ask(crate::providers::route(self.set, provider_config), instance);
                drive::after(delay).await;
                response
            }
        }
    }
}

/// The request's options as read from JS (`pkg/api.js` passes state, variables and mock as
/// JSON text).
struct EngineRequest {
    state: Option<Json>,
    /// Why `options.state` could not be read: the operation is refused with these.
    state_diagnostics: Diagnostics,
    variables: BTreeMap<String, Json>,
    mock: Option<Json>,
    destroy: bool,
    refresh: bool,
    /// `-target=` and `-replace=` addresses.
    targets: Vec<String>,
    replace: Vec<String>,
    parallelism: usize,
    providers: Option<JsValue>,
    on_event: Option<Function>,
    /// `limits: { instances, moduleInstances, elements, bytes }` (pkg/api.js checked their types).
    limits: Limits,
}

/// `options.limits`, each given limit over its default.
fn read_limits(options: &JsValue, api: &str) -> Result<Limits, JsValue> {
    let mut out = Limits::DEFAULT;
    let Some(given) = get(options, "limits")? else { return Ok(out) };
    for (key, slot) in [
        ("instances", &mut out.instances),
        ("moduleInstances", &mut out.module_instances),
        ("elements", &mut out.elements),
        ("bytes", &mut out.bytes),
    ] {
        if let Some(v) = get(&given, key)? {
            match v.as_f64() {
                Some(n) if n >= 1.0 && n.fract() == 0.0 => *slot = n as usize,
                _ => return Err(type_error(&format!("{api}: `options.limits.{key}` must be a whole number >= 1"))),
            }
        }
    }
    Ok(out)
}

fn json_text(options: &JsValue, key: &str, api: &str) -> Result<Option<Json>, JsValue> {
    match get(options, key)? {
        None => Ok(None),
        Some(v) => {
            let text = v.as_string().ok_or_else(|| type_error(&format!("{api}: `options.{key}` must be an object")))?;
            serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| type_error(&format!("{api}: `options.{key}` is not JSON: {e}")))
        }
    }
}

/// `options[key]`: an array of addresses, or one comma-separated string split as the mock splits
/// `MOCK_FAIL_ADDRESS` (`pkg/api.js` has checked it).
fn strings(options: &JsValue, key: &str, api: &str) -> Result<Vec<String>, JsValue> {
    let Some(v) = get(options, key)? else { return Ok(Vec::new()) };
    if let Some(list) = v.as_string() {
        return Ok(crate::providers::mock::split_addresses(&list).map(String::from).collect());
    }
    let bad = || {
        type_error(&format!("{api}: `options.{key}` must be an array of address strings or a comma-separated string"))
    };
    let array = v.dyn_into::<js_sys::Array>().map_err(|_| bad())?;
    array.iter().map(|x| x.as_string().ok_or_else(bad)).collect()
}

fn function(options: &JsValue, key: &str, api: &str) -> Result<Option<Function>, JsValue> {
    get(options, key)?
        .map(|f| {
            f.dyn_into::<Function>().map_err(|_| type_error(&format!("{api}: `options.{key}` must be a function")))
        })
        .transpose()
}

fn read_request(options: &JsValue, api: &str) -> Result<EngineRequest, JsValue> {
    let (state, state_diagnostics) = super::boundary::read_state(options, api)?;
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
            return Err(type_error(&format!(
                "{api}: `options.providers` must be an object of source address to provider"
            )));
        }
    }
    Ok(EngineRequest {
        state,
        state_diagnostics,
        variables,
        mock: json_text(options, "mock", api)?,
        destroy: flag("destroy", false)?,
        refresh: flag("refresh", true)?,
        targets: strings(options, "targets", api)?,
        replace: strings(options, "replace", api)?,
        parallelism,
        providers,
        on_event: function(options, "onEvent", api)?,
        limits: read_limits(options, api)?,
    })
}

/// The plan walk's host for JS providers: a provider node configures its JS configuration, and
/// the questions a resource node asked them are answered (at most `parallelism` at a time)
/// while the walk runs other nodes.
struct JsPlanHost<'a> {
    js: &'a JsProviders,
    how: &'a Configuring<'a>,
    parallelism: usize,
}

impl PlanHost for JsPlanHost<'_> {
    fn configure<'a>(
        &'a self,
        address: &'a str,
        values: &'a WalkValues,
    ) -> LocalBoxFuture<'a, Result<(), Diagnostics>> {
        Box::pin(self.js.configure_once(address, self.how, BlockValues::Planned(values)))
    }

    fn answers<'a>(&'a self, values: &'a WalkValues) -> Option<LocalBoxFuture<'a, Result<(), Diagnostics>>> {
        let asked: Vec<_> =
            self.js.all().map(|j| (j, j.answered.take_questions())).filter(|(_, q)| !q.is_empty()).collect();
        if asked.is_empty() {
            return None;
        }
        Some(Box::pin(async move {
            let mut questions = Vec::new();
            for (j, asked) in asked {
                // A configuration no provider node configured (one only the prior state names)
                // is configured before its first answer.
                self.js.configure_once(&j.address, self.how, BlockValues::Planned(values)).await?;
                questions.extend(asked.into_iter().map(|(key, q)| (j, key, q)));
            }
            let mut pending = questions.into_iter();
            let mut inflight = FuturesUnordered::new();
            loop {
                while inflight.len() < self.parallelism {
                    let Some((j, key, q)) = pending.next() else { break };
                    inflight.push(async move { (j, key, j.answer(&q).await) });
                }
                let Some((j, key, answer)) = inflight.next().await else { break };
                j.answered.answer(key, answer);
            }
            Ok(())
        }))
    }
}

/// The provider configurations serving what a plan changes or read.
fn used_configurations(p: &Plan) -> BTreeSet<&str> {
    p.changes.iter().chain(&p.data_read).map(|c| c.provider_config.as_str()).collect()
}

/// Everything a plan was made from, and what it shows.
struct PlanData {
    files: BTreeMap<String, String>,
    config: Config,
    plan: Plan,
    /// The state the plan was made from, when it differs from the plan's own `prior_state`
    /// (imports, moves, or none given): else `None`, and [`PlanData::prior`] reads the plan's.
    prior_own: Option<Option<Json>>,
    variables: BTreeMap<String, Json>,
    mock: Option<Json>,
    /// The providers it was planned with: the plan's JSON and text read their schemas.
    set: ProviderSet,
    /// False when the configuration did not load (or the options were bad): never planned, no text.
    planned: bool,
    /// The plan's JSON and text, made on first use (most callers apply and never read them:
    /// together they cost about a sixth of a large plan in Node).
    json: OnceCell<Json>,
    text: OnceCell<String>,
    diagnostics: Diagnostics,
    events: Vec<Json>,
}

impl PlanData {
    /// Notes, for the diagnostic of a module that runs out of memory while the plan is read, the
    /// change whose values are largest, when they are large: each reading copies them (a prior
    /// state object of hundreds of MB is in the changes, the JSON and the text).
    /// Returns the string bytes of all the changes' values.
    fn note_largest_change(&self) -> usize {
        let bytes = |c: &crate::engine::shared::plan::InstanceChange| -> usize {
            [&c.before, &c.after].into_iter().flatten().map(|v| crate::eval::limits::weight(v).1).sum()
        };
        let (mut total, mut largest) = (0, None);
        for c in &self.plan.changes {
            let b = bytes(c);
            total += b;
            if b >= LARGE_VALUES && largest.is_none_or(|(l, _)| b > l) {
                largest = Some((b, c));
            }
        }
        let Some((size, c)) = largest else { return total };
        let block = self
            .config
            .root
            .resources
            .iter()
            .find(|r| c.module.is_empty() && r.mode == c.mode && r.type_name == c.type_name && r.name == c.name);
        let what = format!("{}, whose values (from options.state and the plan) hold {} MiB", c.address(), size >> 20);
        let range = block.map(|r| r.range.clone()).unwrap_or_else(|| crate::diag::SourceRange {
            filename: String::new(),
            start: Default::default(),
            end: Default::default(),
        });
        crate::eval::limits::site(&range, &what);
        total
    }

    /// The state the plan was made from.
    fn prior(&self) -> Option<&Json> {
        match &self.prior_own {
            Some(own) => own.as_ref(),
            None => self.plan.prior_state.as_ref(),
        }
    }

    fn json(&self) -> &Json {
        self.json.get_or_init(|| super::heap::growing_ahead(|| plan_json(&self.plan, &self.set)))
    }

    fn text(&self) -> &str {
        self.text.get_or_init(|| {
            if self.planned {
                super::heap::growing_ahead(|| plan_text(&self.plan, self.json(), &self.set.schema_document()))
            } else {
                String::new()
            }
        })
    }
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
        self.data.note_largest_change();
        self.data.json().to_string()
    }
    /// `terraform plan`'s text.
    pub fn text(&self) -> String {
        self.data.note_largest_change();
        self.data.text().to_string()
    }
    /// The changes in the API's shape, as JSON text.
    pub fn changes(&self) -> String {
        let values = self.data.note_largest_change();
        // Written into a buffer of about its size: a growing one doubles, and at 400 MB of values
        // the doubling alone asked for 800 MB more.
        // (Through Display, as `to_string` writes it: no second copy of the serializer.)
        let mut out = String::with_capacity(values + values / 16 + (64 << 10));
        let _ = std::fmt::Write::write_fmt(&mut out, format_args!("{}", changes_json(&self.data.plan)));
        out
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
        has_changes(&self.data.plan)
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

/// Values this large in one change are named when reading the plan runs out of memory.
const LARGE_VALUES: usize = 64 << 20;

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
        let cwd = super::boundary::read_cwd(&options, "plan")?;
        let request = read_request(&options, "plan")?;
        Ok((all_files(&files, "plan")?, load, cwd, request))
    };
    let input = read();
    future_to_promise(async move {
        let (files, load, cwd, mut request) = input?;
        let mut loaded = config::load(&files, &load);
        loaded.config.cwd = cwd;
        // Configuration errors with Terraform's snippet and `in BLOCK` context, as the plan's own.
        let mut diagnostics =
            crate::engine::shared::snippets::with_sources(loaded.diagnostics, &crate::eval::MapFilesystem(&files));
        diagnostics.extend(std::mem::take(&mut request.state_diagnostics));
        let config = loaded.config;
        let js = match JsProviders::new(request.providers.as_ref(), &config, request.state.as_ref()).await {
            Ok(js) => js,
            Err(d) => {
                diagnostics.extend(d);
                JsProviders::default()
            }
        };
        let set =
            js.install(crate::engine::shared::schemas::providers(&files, &config, mock_options(request.mock.as_ref())));
        let how = Configuring { files: &files, config: &config, variables: &request.variables };
        let live = plan_events::LiveEvents::new(request.on_event.clone(), js.shared());
        let options = PlanOptions {
            variables: request.variables.clone(),
            destroy: request.destroy,
            no_refresh: !request.refresh,
            targets: request.targets.clone(),
            replace: request.replace.clone(),
            on_op: Some(live.hook()),
            cancel: None,
            module_overrides: Default::default(),
        };
        // Bad -target / -replace addresses are refused before planning, as Terraform's arguments are.
        diagnostics.extend(crate::engine::shared::targets::check_options(&options));
        diagnostics.extend(mock_diagnostics(request.mock.as_ref()));
        let loaded_with_errors = diagnostics.has_errors();
        // The heap a plan of the prior state's objects needs, grown once (see `reserve_heap`):
        // a plan made from nothing cannot know its size before it expands.
        super::graph::reserve_heap(state_instances(request.state.as_ref()) * PLAN_BYTES_PER_INSTANCE);
        let mut p = if loaded_with_errors {
            Plan { destroy: request.destroy, prior_state: request.state.clone(), ..Plan::default() }
        } else if js.is_empty() {
            let limits = request.limits;
            crate::eval::limits::with(limits, || {
                super::heap::growing_ahead(|| plan(&files, &config, request.state.as_ref(), &set, &options))
            })
        } else {
            let host = JsPlanHost { js: &js, how: &how, parallelism: request.parallelism };
            let walked =
                plan_walked(&files, &config, request.state.as_ref(), &set, &options, &host, request.parallelism);
            crate::eval::limits::scoped(request.limits, walked).await
        };
        diagnostics.extend(p.diagnostics.clone());
        p.diagnostics = diagnostics.clone();
        let events = live.finish()?;
        // One copy of the state, not two (a state can be hundreds of MB).
        let prior_own = (request.state != p.prior_state).then_some(request.state);
        let data = PlanData {
            files,
            config,
            plan: p,
            prior_own,
            variables: request.variables,
            mock: request.mock,
            set,
            planned: !loaded_with_errors,
            json: OnceCell::new(),
            text: OnceCell::new(),
            diagnostics,
            events,
        };
        Ok(PlanHandle { data: Rc::new(data) }.into())
    })
}

/// Raw `apply` of a plan: resolves to [`apply_result`]'s `[state, { diagnostics, report }]`. Options:
/// `state` (the state now, JSON text: a plan made from another is stale), `providers`,
/// `parallelism`, `signal`, `onEvent`, `onState`, `lineage` (of a new state).
#[wasm_bindgen(js_name = engineApply)]
pub fn engine_apply(handle: &PlanHandle, options: JsValue) -> Promise {
    let data = handle.data.clone();
    let read = || -> Result<_, JsValue> {
        let request = read_request(&options, "apply")?;
        let on_state = function(&options, "onState", "apply")?;
        let lineage = get(&options, "lineage")?
            .and_then(|l| l.as_string())
            .unwrap_or_else(|| "00000000-0000-0000-0000-000000000000".into());
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
            let report = json!({"events": [], "waves": [], "maxConcurrency": 0, "progress": "", "added": 0, "changed": 0, "destroyed": 0, "imported": 0, "elapsedMs": 0});
            Ok(apply_result(
                &serde_json::to_string(&state).unwrap_or_else(|_| "null".into()),
                json!({"diagnostics": diagnostics, "report": report}),
            ))
        };
        if d.diagnostics.has_errors() {
            return refused(d.diagnostics.clone(), d.prior());
        }
        if request.state_diagnostics.has_errors() {
            return refused(request.state_diagnostics, None);
        }
        if given_state {
            if let Some(stale) = stale_plan(d.prior(), request.state.as_ref()) {
                let mut diags = Diagnostics::new();
                diags.push(stale);
                return refused(diags, request.state.as_ref());
            }
        }
        let js = match JsProviders::new(request.providers.as_ref(), &d.config, d.prior()).await {
            Ok(js) => js,
            Err(diags) => return refused(diags, d.prior()),
        };
        let set =
            js.install(crate::engine::shared::schemas::providers(&d.files, &d.config, mock_options(d.mock.as_ref())));
        let how = Configuring { files: &d.files, config: &d.config, variables: &d.variables };
        let route = Route { set: &set, js: &js, how: &how };
        let token = crate::walk::CancelToken::new();
        let _listener = signal.map(|s| super::walk::options::AbortListener::new(s, token.clone())).transpose()?;
        let hooks = drive::Hooks {
            on_event: request.on_event,
            on_state,
            cancel: token.clone(),
            callback_error: None,
            pacing: Default::default(),
        };
        let t0 = timers::elapsed_ms(0.0);
        // Growing wasm memory 64 KiB at a time cost most of a large apply in Node (every
        // `memory.grow` is a full GC there): what the apply will need is grown at once.
        super::graph::reserve_heap(d.plan.changes.len() * APPLY_BYTES_PER_CHANGE);
        let nodes = ApplyNodes::new(&d.files, &d.config, &d.plan, d.prior(), route.provider(), &d.variables, lineage);
        let host = drive::JsHost::new(&route, hooks);
        let walk =
            crate::engine::apply::walk::run(nodes, &d.config, route.provider(), &host, request.parallelism, token);
        let mut r = crate::eval::limits::scoped(request.limits, walk).await;
        host.finished(&r.state);
        let hooks = host.hooks.into_inner();
        // Each JS configuration is configured at its first operation (`apply_walk`); those the
        // plan uses with nothing to do (no-ops, data sources read at plan) once the walk is over,
        // as 1.11 configures them even for an apply with nothing to do, after what their blocks
        // reach (tests/fixtures/providers/configure-*, engine/provider-block-reads-resource).
        if hooks.callback_error.is_none() && !hooks.cancel.is_cancelled() {
            for address in used_configurations(&d.plan).into_iter().filter(|a| js.needs_configure(a)) {
                if let Err(diags) = js.configure(address, &how, BlockValues::State(&r.state)).await {
                    r.diagnostics.extend(diags);
                }
            }
        }
        let elapsed = timers::elapsed_ms(t0);
        // The progress text is the apply's own, as `terraform apply PLAN` prints it (the plan's
        // warnings, e.g. "Resource targeting is in effect", were printed with the plan, or not at
        // all for a saved plan).
        let report = apply_report(&r, true, elapsed.round());
        // The plan's warnings come first, as Terraform prints them.
        let mut diagnostics = d.diagnostics.clone();
        diagnostics.extend(std::mem::take(&mut r.diagnostics));
        r.diagnostics = diagnostics;
        // The state's keys in Terraform's order (a `Value` would sort them), so the JS object
        // reads and prints as terraform.tfstate does.
        let state = serde_json::to_string(&crate::engine::apply::state_write::TerraformOrder(&r.state))
            .unwrap_or_else(|_| "null".into());
        Ok(apply_result(&state, json!({"diagnostics": r.diagnostics, "report": report})))
    })
}

/// What `engineApply` resolves to: `[state, rest]`, both JSON text. The state stays text so that
/// its numbers reach the caller exactly (a JS number keeps 53 bits: 12345678901234567890 would
/// not survive `JSON.parse`); `rest` is `{ diagnostics, report }`.
fn apply_result(state: &str, rest: Json) -> JsValue {
    js_sys::Array::of2(&JsValue::from_str(state), &JsValue::from_str(&rest.to_string())).into()
}
