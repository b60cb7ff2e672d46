//! A provider written in JavaScript (`providers: { "hashicorp/aws": impl }`): its methods
//! called with the contract's requests (`pkg/index.d.ts`, `JsProvider`), their results (or
//! promises) awaited and read back through `providers::wire`. Whatever a method throws or
//! returns, the engine gets a `ProviderError` that names the provider and the method; the
//! diagnostic it becomes names the instance (its `address`).

use crate::engine::apply::nodes::{Request, Response};
use crate::eval::Value;
use crate::providers::answered::{Answer, Answered, Question};
use crate::providers::wire::{from_wire, provider_schema_from_json, remark, schemas_from_json, to_wire};
use crate::providers::{Applied, PlannedChange, ProviderError, ResourceSchema};
use js_sys::{Function, Promise, Reflect};
use serde_json::{json, Value as Json};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// One configuration of a JS provider (`provider "aws" { alias = "west" }`): the provider's
/// object and schemas (read once from `schema()`), shared by its configurations, and this
/// configuration's own answers, since they may depend on how it was configured.
pub struct JsProvider {
    object: JsValue,
    /// The configuration's address (`provider["registry.terraform.io/hashicorp/aws"].west`),
    /// sent with every request so one object can serve several configurations.
    pub address: String,
    /// The plan-time face: cached answers, provisional ones while questions are pending.
    pub answered: Answered,
    /// `schema().provider`: what its `provider` blocks may write.
    pub provider_schema: Option<ResourceSchema>,
}

/// `hashicorp/aws` (or `aws`, as a `source` string reads) → `registry.terraform.io/hashicorp/aws`.
pub fn full_source(source: &str) -> String {
    let s = source.trim().to_ascii_lowercase();
    match s.split('/').count() {
        1 => format!("registry.terraform.io/hashicorp/{s}"),
        2 => format!("registry.terraform.io/{s}"),
        _ => s,
    }
}

const BUG: &str = "This is a bug in the provider, which should be reported in the provider's own issue tracker.";

impl JsProvider {
    /// Reads `schema()`; `Err` is the diagnostic text for a provider without a usable one.
    pub async fn new(source: &str, object: JsValue) -> Result<JsProvider, ProviderError> {
        let source = full_source(source);
        let name = format!("provider[{source:?}]");
        if !object.is_object() {
            return Err(ProviderError {
                summary: "Invalid provider".into(),
                detail: format!("{name} must be an object with the JsProvider methods."),
            });
        }
        let raw = call(&object, "schema", &JsValue::UNDEFINED).await.map_err(|e| ProviderError {
            summary: "Failed to read the provider schema".into(),
            detail: format!("{name}.schema(): {e}"),
        })?;
        let invalid = |e: String| ProviderError {
            summary: "Invalid provider schema".into(),
            detail: format!("{name}.schema(): {e}.\n\n{BUG}"),
        };
        let provider_schema = json_of(&raw).and_then(|j| provider_schema_from_json(&j)).map_err(invalid)?;
        let (resources, data_sources) =
            json_of(&raw).and_then(|j| schemas_from_json(&j)).map_err(|e| ProviderError {
                summary: "Invalid provider schema".into(),
                detail: format!("{name}.schema(): {e}.\n\n{BUG}"),
            })?;
        let address = crate::engine::shared::routing::default_config(&source);
        Ok(JsProvider { object, address, answered: Answered::new(source, resources, data_sources), provider_schema })
    }

    /// The same provider serving the configuration at `address`, with answers of its own.
    pub fn for_config(&self, address: &str) -> JsProvider {
        let (r, d) = self.answered.schemas();
        let source = crate::providers::Provider::source(&self.answered).to_string();
        JsProvider {
            object: self.object.clone(),
            address: address.to_string(),
            answered: Answered::new(source, r.clone(), d.clone()),
            provider_schema: self.provider_schema.clone(),
        }
    }

    /// The JS object itself (`configure()` is called on it).
    pub fn object(&self) -> &JsValue {
        &self.object
    }

    fn name(&self) -> String {
        self.address.clone()
    }

    fn schema(&self, type_name: &str, data: bool) -> Option<&ResourceSchema> {
        let (r, d) = self.answered.schemas();
        if data {
            d.get(type_name)
        } else {
            r.get(type_name)
        }
    }

    /// Calls `method(request)`; a throw or a rejection is a provider error.
    async fn ask(&self, method: &str, type_name: &str, mut request: Json) -> Result<JsValue, ProviderError> {
        request["provider"] = Json::String(self.address.clone());
        let request = super::super::to_js(&request).unwrap_or(JsValue::UNDEFINED);
        call(&self.object, method, &request).await.map_err(|e| ProviderError {
            summary: e.clone(),
            detail: format!("{}.{method}() failed for a {type_name}: {e}", self.name()),
        })
    }

    /// A result that does not fit the contract.
    fn invalid(&self, summary: &str, method: &str, type_name: &str, why: String) -> ProviderError {
        ProviderError {
            summary: summary.into(),
            detail: format!("{}.{method}() returned an invalid result for a {type_name}: {why}.\n\n{BUG}", self.name()),
        }
    }

    /// `result[key]` read as a `{ value, unknown }` object of the type's schema (`null` allowed when `nullable`).
    fn object_at(
        &self,
        result: &JsValue,
        key: &str,
        schema: &ResourceSchema,
        nullable: bool,
    ) -> Result<Option<Value>, String> {
        let j = json_of(result)?;
        let Some(x) = j.get(key) else { return Err(format!("expected an object with `{key}`")) };
        if x.is_null() {
            return if nullable { Ok(None) } else { Err(format!("`{key}` is null")) };
        }
        from_wire(x, &schema.object_type()).map(Some).map_err(|e| format!("`{key}`: {e}"))
    }

    /// Answers a plan-time question.
    pub async fn answer(&self, q: &Question) -> Answer {
        match q {
            Question::Plan { type_name, prior, config } => {
                Answer::Plan(self.plan(type_name, prior.as_ref(), config).await)
            }
            Question::Read { type_name, prior } => Answer::Read(self.read(type_name, prior).await),
            Question::ReadData { type_name, config } => Answer::ReadData(self.read_data(type_name, config).await),
            Question::Import { type_name, id } => Answer::Import(self.import(type_name, id).await),
        }
    }

    async fn plan(
        &self,
        type_name: &str,
        prior: Option<&Value>,
        config: &Value,
    ) -> Result<PlannedChange, ProviderError> {
        let schema = self.schema(type_name, false).ok_or_else(|| unsupported(type_name))?;
        let request = json!({"typeName": type_name, "prior": prior.map(to_wire), "config": to_wire(config)});
        let result = self.ask("planResourceChange", type_name, request).await?;
        let bad = |why: String| self.invalid("Provider produced invalid plan", "planResourceChange", type_name, why);
        let planned = self.object_at(&result, "planned", schema, false).map_err(bad)?.unwrap_or_else(Value::dynamic);
        let j = json_of(&result).map_err(bad)?;
        let requires_replace = match j.get("requiresReplace") {
            None | Some(Json::Null) => Vec::new(),
            Some(Json::Array(items)) => items
                .iter()
                .map(|x| {
                    x.as_str()
                        .filter(|a| schema.attributes.contains_key(*a))
                        .map(String::from)
                        .ok_or_else(|| bad(format!("`requiresReplace` names {x}, not an attribute of the schema")))
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err(bad("`requiresReplace` must be an array of attribute names".into())),
        };
        Ok(PlannedChange { planned: remark(planned, config), requires_replace })
    }

    async fn read(&self, type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError> {
        let schema = self.schema(type_name, false).ok_or_else(|| unsupported(type_name))?;
        let result =
            self.ask("readResource", type_name, json!({"typeName": type_name, "state": to_wire(prior)})).await?;
        let v = self
            .object_at(&result, "newState", schema, true)
            .map_err(|why| self.invalid("Provider produced invalid object", "readResource", type_name, why))?;
        Ok(v.map(|v| remark(v, prior)))
    }

    /// `importResourceState({ typeName, id })` → `{ state }`; a provider without the method
    /// cannot import.
    async fn import(&self, type_name: &str, id: &str) -> Result<Value, ProviderError> {
        let schema = self.schema(type_name, false).ok_or_else(|| unsupported(type_name))?;
        if !Reflect::get(&self.object, &"importResourceState".into()).is_ok_and(|f| f.is_function()) {
            return Err(crate::providers::cannot_import(type_name));
        }
        let result = self.ask("importResourceState", type_name, json!({"typeName": type_name, "id": id})).await?;
        let v = self
            .object_at(&result, "state", schema, false)
            .map_err(|why| self.invalid("Provider produced invalid object", "importResourceState", type_name, why))?;
        Ok(v.unwrap_or_else(Value::dynamic))
    }

    async fn read_data(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError> {
        let schema = self.schema(type_name, true).ok_or_else(|| unsupported(type_name))?;
        let result =
            self.ask("readDataSource", type_name, json!({"typeName": type_name, "config": to_wire(config)})).await?;
        let v = self
            .object_at(&result, "state", schema, false)
            .map_err(|why| self.invalid("Provider produced invalid object", "readDataSource", type_name, why))?;
        Ok(remark(v.unwrap_or_else(Value::dynamic), config))
    }

    async fn apply_change(&self, type_name: &str, prior: Option<&Value>, planned: Option<&Value>) -> Applied {
        let Some(schema) = self.schema(type_name, false) else {
            return Applied { new_state: None, error: Some(unsupported(type_name)) };
        };
        let request = json!({"typeName": type_name, "prior": prior.map(to_wire), "planned": planned.map(to_wire)});
        let result = match self.ask("applyResourceChange", type_name, request).await {
            Ok(r) => r,
            // A failed create leaves no object, a failed update or delete the prior one.
            Err(e) => return Applied { new_state: None, error: Some(e) },
        };
        match self.object_at(&result, "newState", schema, planned.is_none()) {
            Ok(v) => Applied {
                new_state: v.map(|v| match planned {
                    Some(p) => remark(v, p),
                    None => v,
                }),
                error: None,
            },
            Err(why) => Applied {
                new_state: None,
                error: Some(self.invalid(
                    "Provider returned invalid result object after apply",
                    "applyResourceChange",
                    type_name,
                    why,
                )),
            },
        }
    }

    /// Answers an apply-time request for `instance`.
    pub async fn respond(&self, request: &Request, instance: &str) -> Response {
        match request {
            Request::Delete { type_name, prior, .. } => {
                Response::Applied(self.apply_change(type_name, Some(prior), None).await)
            }
            Request::ReadData { type_name, config, .. } => Response::Read(self.read_data(type_name, config).await),
            Request::Plan { type_name, prior, config, .. } => {
                Response::Planned(self.plan(type_name, prior.as_ref(), config).await)
            }
            Request::Apply { type_name, prior, planned, .. } => {
                let applied = self.apply_change(type_name, prior.as_ref(), Some(planned)).await;
                self.consistent(type_name, instance, planned, applied)
            }
        }
    }

    /// Terraform's "Provider produced inconsistent result after apply" when the new object
    /// changed what the plan knew (`objchange.AssertObjectCompatible`): one error per problem;
    /// the object is kept (a create's tainted), as Terraform keeps it.
    fn consistent(&self, type_name: &str, instance: &str, planned: &Value, applied: Applied) -> Response {
        let (Some(schema), Some(new), None) = (self.schema(type_name, false), &applied.new_state, &applied.error)
        else {
            return Response::Applied(applied);
        };
        let errs = crate::providers::plan_valid::assert_object_compatible(
            schema,
            &planned.unmark_deep().0,
            &new.unmark_deep().0,
        );
        if errs.is_empty() {
            return Response::Applied(applied);
        }
        let address = crate::addrs::go_quote(&self.address);
        let errors = errs
            .iter()
            .map(|e| ProviderError { summary: "Provider produced inconsistent result after apply".into(), detail: format!("When applying changes to {instance}, provider {address} produced an unexpected new value: {e}.\n\n{BUG}") })
            .collect();
        Response::Inconsistent { applied, errors }
    }
}

fn unsupported(type_name: &str) -> ProviderError {
    ProviderError {
        summary: "Invalid resource type".into(),
        detail: format!("The provider does not support {type_name:?}."),
    }
}

/// `object[method](argument)`, awaited when it returns a thenable. `Err`: what was thrown or
/// rejected, as text.
pub async fn call(object: &JsValue, method: &str, argument: &JsValue) -> Result<JsValue, String> {
    let f = Reflect::get(object, &method.into()).map_err(|e| describe(&e))?;
    let Some(f) = f.dyn_ref::<Function>() else { return Err(format!("it has no method {method}()")) };
    let value = f.call1(object, argument).map_err(|e| describe(&e))?;
    if value.is_object() && Reflect::get(&value, &"then".into()).is_ok_and(|t| t.is_function()) {
        JsFuture::from(Promise::resolve(&value)).await.map_err(|e| describe(&e))
    } else {
        Ok(value)
    }
}

/// A thrown value as text: an Error's message, else its JSON or its type.
pub fn describe(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return String::from(err.message());
    }
    if let Some(s) = e.as_string() {
        return s;
    }
    js_sys::JSON::stringify(e)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| format!("a thrown {}", e.js_typeof().as_string().unwrap_or_default()))
}

/// A JS result as JSON (`JSON.stringify`, so getters run once and functions drop out).
fn json_of(v: &JsValue) -> Result<Json, String> {
    if v.is_undefined() {
        return Err("it returned nothing".into());
    }
    let text =
        js_sys::JSON::stringify(v).map_err(|e| format!("its result is not JSON-compatible: {}", describe(&e)))?;
    let text = text.as_string().ok_or("its result is not JSON-compatible")?;
    serde_json::from_str(&text).map_err(|e| format!("its result is not JSON: {e}"))
}
