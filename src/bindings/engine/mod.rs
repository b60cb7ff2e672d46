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
use crate::config::{self, FileSource};
use crate::diag::Diagnostics;
use crate::engine::api::{apply_report, changes_json, has_changes};
use crate::engine::plan::walk::PlanHost;
use crate::engine::session::{self, Applied, ApplyRequest, PlanRequest, Planned};
use crate::engine::shared::scope::WalkValues;
use crate::engine::PlanOptions;
use crate::eval::limits::Limits;
use futures_util::future::LocalBoxFuture;
use futures_util::stream::{FuturesUnordered, StreamExt};
use js_set::{BlockValues, Configuring, JsProviders};
use js_sys::{Function, Promise};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;

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

    fn awaits(&self) -> bool {
        !self.js.is_empty()
    }

    fn reserve_heap(&self, bytes: usize) {
        super::graph::reserve_heap(bytes);
    }

    fn growing_ahead(&self, f: &mut dyn FnMut()) {
        super::heap::growing_ahead(f)
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

/// A plan made by `enginePlan`, for `pkg/api.js`'s `Plan` and for `engineApply`.
#[wasm_bindgen]
pub struct PlanHandle {
    data: Rc<Planned>,
    /// The plan's provider operations as events, in the API's shape.
    events: Vec<Json>,
}

#[wasm_bindgen]
impl PlanHandle {
    /// `terraform show -json` of the plan, as JSON text.
    pub fn json(&self) -> String {
        self.data.note_largest_change();
        super::heap::growing_ahead(|| self.data.json().to_string())
    }
    /// `terraform plan`'s text.
    pub fn text(&self) -> String {
        self.data.note_largest_change();
        super::heap::growing_ahead(|| self.data.text().to_string())
    }
    /// The changes in the API's shape, as JSON text.
    pub fn changes(&self) -> String {
        let values = self.data.note_largest_change();
        // Written into a buffer of about its size: a growing one doubles, and at 400 MB of values
        // the doubling alone asked for 800 MB more.
        let mut out = Vec::with_capacity(values + values / 16 + (64 << 10));
        let _ = serde_json::to_writer(&mut out, &changes_json(&self.data.plan));
        String::from_utf8(out).unwrap_or_default()
    }
    /// Loading and planning diagnostics, as JSON text.
    pub fn diagnostics(&self) -> String {
        serde_json::to_string(self.data.diagnostics()).unwrap_or_default()
    }
    /// The plan's provider operations as events, as JSON text.
    pub fn events(&self) -> String {
        Json::Array(self.events.clone()).to_string()
    }
    pub fn errored(&self) -> bool {
        self.data.diagnostics().has_errors()
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
        let (files, load, cwd, given) = input?;
        let mut loaded = config::load(&files, &load);
        loaded.config.cwd = cwd;
        let (js, provider_diagnostics) =
            match JsProviders::new(given.providers.as_ref(), &loaded.config, given.state.as_ref()).await {
                Ok(js) => (js, Diagnostics::new()),
                Err(d) => (JsProviders::default(), d),
            };
        let set = js.install(session::providers(&files, &loaded.config, given.mock.as_ref()));
        let live = plan_events::LiveEvents::new(given.on_event.clone(), js.shared());
        let request = PlanRequest {
            files: Rc::new(files),
            config: Rc::new(loaded.config),
            load_diagnostics: loaded.diagnostics,
            state_diagnostics: given.state_diagnostics,
            provider_diagnostics,
            state: given.state,
            mock: given.mock,
            options: PlanOptions {
                variables: given.variables,
                destroy: given.destroy,
                no_refresh: !given.refresh,
                targets: given.targets,
                replace: given.replace,
                on_op: Some(live.hook()),
                ..PlanOptions::default()
            },
            refresh_only: false,
            parallelism: given.parallelism,
            limits: given.limits,
        };
        // JS providers are configured over the request's files, configuration and variables.
        let how = Configuring { files: &request.files, config: &request.config, variables: &request.options.variables };
        let host = JsPlanHost { js: &js, how: &how, parallelism: given.parallelism };
        let p = session::plan(&request, &set, &host).await;
        let planned = Planned::new(request, Rc::new(set), p);
        let events = live.finish()?;
        Ok(PlanHandle { data: Rc::new(planned), events }.into())
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
        let lineage = get(&options, "lineage")?.and_then(|l| l.as_string());
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
        let (given, on_state, lineage, signal, given_state) = input?;
        let d = &*data;
        let (js, provider_diagnostics) = match JsProviders::new(given.providers.as_ref(), &d.config, d.prior()).await {
            Ok(js) => (js, Diagnostics::new()),
            Err(diags) => (JsProviders::default(), diags),
        };
        let set = js.install(d.providers());
        let how = Configuring { files: &d.files, config: &d.config, variables: &d.variables };
        let cancel = crate::walk::CancelToken::new();
        let _listener = signal.map(|s| super::walk::options::AbortListener::new(s, cancel.clone())).transpose()?;
        let hooks = drive::Hooks {
            on_event: given.on_event,
            on_state,
            cancel: cancel.clone(),
            callback_error: None,
            pacing: Default::default(),
        };
        let host = drive::JsHost::new(&js, &how, hooks);
        let request = ApplyRequest {
            state: given_state.then_some(given.state),
            state_diagnostics: given.state_diagnostics,
            provider_diagnostics,
            parallelism: given.parallelism,
            limits: given.limits,
            lineage: lineage.unwrap_or_else(|| "00000000-0000-0000-0000-000000000000".into()),
            cancel,
        };
        let (state, rest) = match session::apply(d, request, &set, &host).await {
            Applied::Refused { diagnostics, state } => {
                let report: Json = serde_json::from_str(r#"{"events":[],"waves":[],"maxConcurrency":0,"progress":"","added":0,"changed":0,"destroyed":0,"imported":0,"elapsedMs":0}"#).unwrap_or_default();
                (serde_json::to_string(&state), json!({"diagnostics": diagnostics, "report": report}))
            }
            Applied::Walked { result, diagnostics, elapsed_ms } => {
                // The progress text is the apply's own, as `terraform apply PLAN` prints it (the
                // plan's warnings were printed with the plan, or not at all for a saved plan).
                let report = apply_report(&result, true, elapsed_ms.round());
                // The state's keys in Terraform's order (a `Value` would sort them), so the JS
                // object reads and prints as terraform.tfstate does.
                let state = serde_json::to_string(&crate::engine::apply::state_write::TerraformOrder(&result.state));
                (state, json!({"diagnostics": diagnostics, "report": report}))
            }
        };
        Ok(apply_result(&state.unwrap_or_else(|_| "null".into()), rest))
    })
}

/// What `engineApply` resolves to: `[state, rest]`, both JSON text. The state stays text so that
/// its numbers reach the caller exactly (a JS number keeps 53 bits: 12345678901234567890 would
/// not survive `JSON.parse`); `rest` is `{ diagnostics, report }`.
fn apply_result(state: &str, rest: Json) -> JsValue {
    js_sys::Array::of2(&JsValue::from_str(state), &JsValue::from_str(&rest.to_string())).into()
}
