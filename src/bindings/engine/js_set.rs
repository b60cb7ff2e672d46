//! The JS providers of one walk (`providers: { "hashicorp/aws": impl }`): for each source the
//! configuration or the prior state uses, one [`JsProvider`] per provider configuration of that
//! source (its default, every `provider` block, every configuration the state names), so each
//! alias answers as it was configured. Every other source stays on the mocks of the
//! [`ProviderSet`]. Each configuration is configured (`configure()`) once per walk, before its
//! first resource operation, as Terraform's provider node runs before its resources: in the
//! plan with the plan's values of what its block references, in the apply at its first
//! operation, once what the block reaches has been applied (`engine::provider_block`), with
//! those objects' values.

use super::js_provider::{self, JsProvider};
use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::shared::provider_block;
use crate::engine::shared::scope::WalkValues;
use crate::eval::Value;
use crate::providers::set::ProviderSet;
use crate::providers::{Applied, PlannedChange, Provider, ProviderError, ResourceSchema};
use serde_json::{json, Value as Json};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Terraform's `providerConfigErr`: a configuration failed with no `provider` block to fix.
const IMPLIED: &str = "requires explicit configuration. Add a provider block to the root module and configure the provider's required arguments as described in the provider documentation.";

/// What a walk needs to evaluate provider blocks.
pub struct Configuring<'a> {
    pub files: &'a BTreeMap<String, String>,
    pub config: &'a Config,
    pub variables: &'a BTreeMap<String, Json>,
}

/// Where a provider block's references to resources get their values.
pub enum BlockValues<'v> {
    /// The plan's (known, or unknown until apply).
    Planned(&'v WalkValues),
    /// The apply's working state (state v4).
    State(&'v Json),
}

/// A configuration's `configure()` this walk.
enum Slot {
    /// Under way: the operations waiting for it.
    Running(Vec<Waker>),
    /// Answered (`Err`: its diagnostics).
    Done(Result<(), Diagnostics>),
}

#[derive(Default)]
pub struct JsProviders {
    /// By configuration address.
    configs: BTreeMap<String, Rc<JsProvider>>,
    /// Source → its default configuration's address (serves addresses not listed).
    defaults: BTreeMap<String, String>,
    /// Each configuration's `configure()` this walk.
    configured: RefCell<BTreeMap<String, Slot>>,
}

/// Every source address the configuration's resources and provider blocks use.
fn config_sources(config: &Config) -> BTreeSet<String> {
    fn walk(m: &crate::config::model::Module, out: &mut BTreeSet<String>) {
        out.extend(m.resources.iter().map(|r| r.provider.fqn.clone()));
        out.extend(m.providers.iter().map(|p| p.fqn.clone()));
        for c in m.module_calls.iter().filter_map(|c| c.module.as_deref()) {
            walk(c, out);
        }
    }
    let mut out = BTreeSet::new();
    walk(&config.root, &mut out);
    out
}

/// Every provider block's address, by source.
fn block_addresses(config: &Config) -> Vec<(String, String)> {
    fn walk(m: &crate::config::model::Module, out: &mut Vec<(String, String)>) {
        out.extend(m.providers.iter().map(|p| (p.fqn.clone(), p.address.clone())));
        for c in m.module_calls.iter().filter_map(|c| c.module.as_deref()) {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    walk(&config.root, &mut out);
    out
}

/// The configuration addresses the prior state's resources name.
fn state_addresses(state: Option<&Json>) -> Vec<String> {
    let resources = state.and_then(|s| s.get("resources")).and_then(Json::as_array);
    resources.into_iter().flatten().filter_map(|r| r.get("provider").and_then(Json::as_str).map(String::from)).collect()
}

fn source_of(address: &str) -> Option<String> {
    crate::addrs::AbsProviderConfig::parse(address).map(|c| c.provider)
}

impl JsProviders {
    /// Reads each given provider's `schema()` (for the sources in use); `Err`: why one cannot serve.
    pub async fn new(
        providers: Option<&JsValue>,
        config: &Config,
        prior: Option<&Json>,
    ) -> Result<JsProviders, Diagnostics> {
        let mut out = JsProviders::default();
        let Some(providers) = providers else { return Ok(out) };
        let from_state = state_addresses(prior);
        let mut used = config_sources(config);
        used.extend(from_state.iter().filter_map(|a| source_of(a)));
        let mut diags = Diagnostics::new();
        for key in js_sys::Object::keys(providers.unchecked_ref::<js_sys::Object>()).iter() {
            let key = key.as_string().unwrap_or_default();
            let source = js_provider::full_source(&key);
            if !used.contains(&source) {
                continue;
            }
            let object = js_sys::Reflect::get(providers, &JsValue::from_str(&key)).unwrap_or(JsValue::UNDEFINED);
            let base = match JsProvider::new(&key, object).await {
                Ok(p) => p,
                Err(e) => {
                    diags.push(Diagnostic::error(e.summary, e.detail));
                    continue;
                }
            };
            let blocks = block_addresses(config).into_iter().filter(|(s, _)| *s == source).map(|(_, a)| a);
            let states = from_state.iter().filter(|a| source_of(a).as_deref() == Some(source.as_str())).cloned();
            for address in blocks.chain(states) {
                if address != base.address && !out.configs.contains_key(&address) {
                    out.configs.insert(address.clone(), Rc::new(base.for_config(&address)));
                }
            }
            out.defaults.insert(source, base.address.clone());
            out.configs.insert(base.address.clone(), Rc::new(base));
        }
        if diags.has_errors() {
            return Err(diags);
        }
        Ok(out)
    }

    pub fn is_empty(&self) -> bool {
        self.configs.is_empty()
    }

    /// The JS provider serving the configuration at `address`, if a JS one does.
    pub fn for_config(&self, address: &str) -> Option<&JsProvider> {
        if let Some(p) = self.configs.get(address) {
            return Some(p);
        }
        let default = self.defaults.get(&source_of(address)?)?;
        self.configs.get(default).map(|p| &**p)
    }

    /// Each configuration's provider, shared (the plan's live events watch their answers).
    pub fn shared(&self) -> Vec<Rc<JsProvider>> {
        self.configs.values().cloned().collect()
    }

    pub fn all(&self) -> impl Iterator<Item = &JsProvider> {
        self.configs.values().map(|p| &**p)
    }

    /// The mocks' set with these providers serving their configurations instead.
    pub fn install(&self, mut set: ProviderSet) -> ProviderSet {
        // Each source's default configuration serves addresses not listed (`with_provider`).
        for default in self.defaults.values() {
            if let Some(p) = self.configs.get(default) {
                set = set.with_provider(Box::new(Shared(Rc::clone(p))));
            }
        }
        for (address, p) in &self.configs {
            set = set.with_config_provider(address, Box::new(Shared(Rc::clone(p))));
        }
        set
    }

    /// Whether the configuration at `address` is a JS one not configured (nor being) this walk.
    pub fn needs_configure(&self, address: &str) -> bool {
        self.for_config(address).is_some_and(|p| !self.configured.borrow().contains_key(&p.address))
    }

    /// Configures the provider configuration at `address` unless it was this walk, with its
    /// `provider` block evaluated over `values`, for a plan's provider node or an answer that
    /// needs it configured: a failure's diagnostics go to the call that ran the `configure()` only (the
    /// plan reports the provider's error once); the others fail with none.
    pub async fn configure_once(
        &self,
        address: &str,
        how: &Configuring<'_>,
        values: BlockValues<'_>,
    ) -> Result<(), Diagnostics> {
        match self.ensure(address, how, values).await {
            (Err(_), false) => Err(Diagnostics::new()),
            (result, _) => result,
        }
    }

    /// As [`JsProviders::configure_once`] for an apply operation (or, once the walk is over, a
    /// configuration the plan uses with nothing to do): a failure's diagnostics go to the
    /// operation that ran the `configure()` only (Terraform reports the provider's error once);
    /// the others fail with none.
    pub async fn configure_for_operation(
        &self,
        address: &str,
        how: &Configuring<'_>,
        state: &Json,
    ) -> Result<(), Diagnostics> {
        match self.ensure(address, how, BlockValues::State(state)).await {
            (Err(_), false) => Err(Diagnostics::new()),
            (result, _) => result,
        }
    }

    /// The configuration's `configure()` result, and whether this call made it: the first call
    /// runs it, calls while it runs wait for it.
    async fn ensure(
        &self,
        address: &str,
        how: &Configuring<'_>,
        values: BlockValues<'_>,
    ) -> (Result<(), Diagnostics>, bool) {
        let Some(p) = self.for_config(address) else { return (Ok(()), false) };
        let address = p.address.clone();
        let running = match self.configured.borrow().get(&address) {
            Some(Slot::Done(done)) => return (done.clone(), false),
            Some(Slot::Running(_)) => true,
            None => false,
        };
        if running {
            return (Finished { set: self, address }.await, false);
        }
        self.configured.borrow_mut().insert(address.clone(), Slot::Running(Vec::new()));
        let result = configure_one(p, how, values).await;
        let before = self.configured.borrow_mut().insert(address, Slot::Done(result.clone()));
        if let Some(Slot::Running(waiting)) = before {
            waiting.into_iter().for_each(Waker::wake);
        }
        (result, true)
    }
}

/// Resolves when the configuration at `address` is configured.
struct Finished<'s> {
    set: &'s JsProviders,
    address: String,
}

impl Future for Finished<'_> {
    type Output = Result<(), Diagnostics>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.set.configured.borrow_mut().get_mut(&self.address) {
            Some(Slot::Done(done)) => Poll::Ready(done.clone()),
            Some(Slot::Running(waiting)) => {
                waiting.push(cx.waker().clone());
                Poll::Pending
            }
            None => Poll::Ready(Ok(())),
        }
    }
}

async fn configure_one(p: &JsProvider, how: &Configuring<'_>, values: BlockValues<'_>) -> Result<(), Diagnostics> {
    let has = js_sys::Reflect::get(p.object(), &"configure".into()).is_ok_and(|f| f.is_function());
    let (files, config) = (how.files, how.config);
    let block = provider_block::block(config, &p.address);
    let (resources, state): (Option<&dyn crate::eval::scope::ResourceSource>, _) = match values {
        BlockValues::Planned(v) => (Some(v), None),
        BlockValues::State(s) => (None, Some(s)),
    };
    let value = provider_block::evaluate(
        files,
        config,
        how.variables,
        resources,
        state,
        &p.address,
        p.provider_schema.as_ref(),
    )?;
    if !has {
        return Ok(());
    }
    let alias = crate::addrs::AbsProviderConfig::parse(&p.address).and_then(|c| c.alias);
    let request = json!({"config": crate::providers::wire::to_wire(&value), "provider": p.address, "alias": alias});
    let request = crate::bindings::to_js(&request).unwrap_or(JsValue::UNDEFINED);
    let Err(e) = js_provider::call(p.object(), "configure", &request).await else { return Ok(()) };
    // The provider's own error about the whole block, as Terraform elaborates it
    // (`InConfigBody`): the configuration's address, the block's body.
    let mut d =
        Diagnostic::error(e.clone(), format!("{}.configure() failed: {e}", p.address)).with_address(p.address.clone());
    if let Some((_, pc)) = block {
        d = d.with_range(provider_block::body_range(files, pc));
    }
    let mut diags = Diagnostics::new();
    diags.push(d);
    if block.is_none() {
        let source = p.answered.source().to_string();
        diags.push(Diagnostic::error("Invalid provider configuration", format!("Provider {:?} {IMPLIED}\n", source)));
    }
    Err(diags)
}

/// A JS provider configuration as the engine's synchronous [`Provider`]: its plan-time answers.
struct Shared(Rc<JsProvider>);

impl Provider for Shared {
    fn source(&self) -> &str {
        self.0.answered.source()
    }
    fn resource_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.0.answered.resource_schema(type_name)
    }
    fn data_source_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.0.answered.data_source_schema(type_name)
    }
    fn plan_resource_change(
        &self,
        type_name: &str,
        prior: Option<&Value>,
        config: &Value,
    ) -> Result<PlannedChange, ProviderError> {
        self.0.answered.plan_resource_change(type_name, prior, config)
    }
    fn apply_resource_change(&self, type_name: &str, prior: Option<&Value>, planned: Option<&Value>) -> Applied {
        self.0.answered.apply_resource_change(type_name, prior, planned)
    }
    fn read_resource(&self, type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError> {
        self.0.answered.read_resource(type_name, prior)
    }
    fn read_data_source(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError> {
        self.0.answered.read_data_source(type_name, config)
    }
    fn import_resource_state(&self, type_name: &str, id: &str) -> Result<Value, ProviderError> {
        self.0.answered.import_resource_state(type_name, id)
    }
    fn checks_plans(&self) -> bool {
        true
    }
    fn schema_document(&self) -> Json {
        let (r, d) = self.0.answered.schemas();
        json!({"format_version": "1.0", "provider_schemas": {self.source(): crate::providers::wire::schemas_json(r, d)}})
    }
}
