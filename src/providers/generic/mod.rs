//! The generic mock: the provider of every source but `hashicorp/mock` (aws, azurerm,
//! google, random, ...). It accepts whatever the configuration writes, because its schemas are
//! derived from the configuration itself ([`GenericSchemas`], built by `engine::schemas`):
//! every argument and nested block written for a type, plus the attributes the configuration
//! reads from that type without writing them, which are *computed*: unknown until apply, then
//! given a plausible value ([`plausible`]).
//!
//! Behaviour, as a real provider's with no opinions: a create echoes the configuration and
//! fills the computed attributes; an update keeps the computed ones; a refresh finds the object
//! unchanged; a data source is read from its configuration. It knows no requires-replace
//! attributes, no defaults, no validation and no normalisation. The mock's knobs (delays,
//! injected failures by `name` or address, jitter, rate limits) apply as to the built-in mock.
//!
//! Write-only attributes (Terraform 1.11+): real providers name them `*_wo` (`password_wo`,
//! beside a plain `password_wo_version`), and Terraform requires their planned and applied
//! values to be null, so the configured value reaches the provider but never the plan or the
//! state. The generic mock follows that convention: such an attribute is planned and stored as
//! null, and its schema says `write_only` (the plan's text shows `(write-only attribute)`).

pub mod plausible;

use super::mock::{self, MockOptions};
use super::{Applied, Op, PlannedChange, Provider, ProviderError, ResourceSchema};
use crate::eval::{Kind, Type, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The schemas of the generic types of one configuration, and the shape of each computed
/// attribute (`(type, attribute)` → a list where the configuration indexes it, an object where
/// it reads keys of it).
#[derive(Clone, Debug, Default)]
pub struct GenericSchemas {
    pub resources: BTreeMap<String, ResourceSchema>,
    pub data_sources: BTreeMap<String, ResourceSchema>,
    pub shapes: BTreeMap<(String, String), Type>,
    /// Every configured type → the source address the configuration uses for it.
    pub sources: BTreeMap<String, String>,
}

/// The generic mock for one source address.
pub struct GenericProvider {
    source: String,
    /// `aws` for `registry.terraform.io/hashicorp/aws`: what ids and ARNs look like.
    family: String,
    schemas: Arc<GenericSchemas>,
    options: MockOptions,
    /// The `region` its provider configuration writes (what ARNs and regions read).
    region: Option<String>,
}

fn get<'v>(obj: &'v Value, name: &str) -> Option<&'v Value> {
    match &obj.kind {
        Kind::Object(m) => m.get(name),
        _ => None,
    }
}

fn name_of(obj: &Value) -> Option<String> {
    get(obj, "name").and_then(Value::as_str).map(String::from)
}

/// Equal as the state would store them: both known, the same JSON (a set written in the
/// configuration and the tuple read back from state are the same attribute value).
fn same_json(a: &Value, b: &Value) -> bool {
    a.is_wholly_known() && b.is_wholly_known() && crate::eval::value_json::value(a) == crate::eval::value_json::value(b)
}

/// Whether `name` is a write-only attribute by the providers' naming convention.
pub fn is_write_only(name: &str) -> bool {
    name.len() > 3 && name.ends_with("_wo")
}

/// `v` with every write-only attribute null, in nested blocks too.
fn without_write_only(v: Value) -> Value {
    let sensitive = v.sensitive;
    let mut out = match v.kind {
        Kind::Object(m) => Value::object(crate::util::sort::btree_map(m.into_iter().map(|(k, x)| {
            let x = if is_write_only(&k) { Value::null(x.ty()) } else { without_write_only(x) };
            (k, x)
        }))),
        Kind::Tuple(items) => Value::tuple(items.into_iter().map(without_write_only).collect()),
        Kind::List(t, items) => Value::list(t, items.into_iter().map(without_write_only).collect()),
        Kind::Set(t, items) => Value::set(t, items.into_iter().map(without_write_only).collect()),
        kind => Value::from(kind),
    };
    out.sensitive = sensitive;
    out
}

/// The schema document's attributes named `*_wo` marked `write_only`, in nested blocks too.
fn mark_write_only(block: &mut serde_json::Value) {
    if let Some(attrs) = block.get_mut("attributes").and_then(serde_json::Value::as_object_mut) {
        for (k, a) in attrs.iter_mut() {
            if let (true, Some(a)) = (is_write_only(k), a.as_object_mut()) {
                a.insert("write_only".into(), serde_json::Value::Bool(true));
            }
        }
    }
    if let Some(blocks) = block.get_mut("block_types").and_then(serde_json::Value::as_object_mut) {
        for b in blocks.values_mut() {
            if let Some(inner) = b.get_mut("block") {
                mark_write_only(inner);
            }
        }
    }
}

/// Unknowns left anywhere (in nested values) become null: an applied object is wholly known.
fn settle(v: Value) -> Value {
    let sensitive = v.sensitive;
    let mut out = match v.kind {
        Kind::Unknown(t) => Value::null(t),
        Kind::Object(m) => Value::object(crate::util::sort::btree_map(m.into_iter().map(|(k, x)| (k, settle(x))))),
        Kind::Tuple(items) => Value::tuple(items.into_iter().map(settle).collect()),
        Kind::List(t, items) => Value::list(t, items.into_iter().map(settle).collect()),
        Kind::Map(t, m) => Value::map(t, crate::util::sort::btree_map(m.into_iter().map(|(k, x)| (k, settle(x))))),
        kind => Value::from(kind),
    };
    out.sensitive = sensitive;
    out
}

impl GenericProvider {
    pub fn new(source: &str, schemas: Arc<GenericSchemas>, options: MockOptions) -> GenericProvider {
        let family = source.rsplit('/').next().unwrap_or(source).to_string();
        GenericProvider { source: source.to_string(), family, schemas, options, region: None }
    }

    /// The same provider for a configuration that writes `region`.
    pub fn in_region(&self, region: &str) -> GenericProvider {
        GenericProvider {
            region: Some(region.to_string()),
            ..GenericProvider::new(&self.source, Arc::clone(&self.schemas), self.options.clone())
        }
    }

    fn shape(&self, type_name: &str, attr: &str) -> Type {
        self.schemas.shapes.get(&(type_name.to_string(), attr.to_string())).cloned().unwrap_or(Type::Dynamic)
    }

    /// `planned` with every unknown computed attribute given its plausible value.
    fn fill(&self, type_name: &str, schema: Option<&ResourceSchema>, planned: &Value) -> Value {
        settle(self.fill_object(type_name, "", schema, planned, planned))
    }

    /// Fills the computed attributes of `obj` (at `path` in the object: `""`, `vpc_config.`)
    /// and of its nested blocks; `whole` is the object the hashes read.
    fn fill_object(
        &self,
        type_name: &str,
        path: &str,
        schema: Option<&ResourceSchema>,
        obj: &Value,
        whole: &Value,
    ) -> Value {
        let mut out = obj.clone();
        let context =
            plausible::Object { family: &self.family, region: self.region.as_deref(), type_name, value: whole };
        let (Kind::Object(m), Some(schema)) = (&mut out.kind, schema) else { return out };
        for (k, a) in &schema.attributes {
            let unset = m.get(k).is_none_or(|v| !v.is_known() || (v.is_null() && !a.optional));
            if a.computed && unset {
                let at = format!("{path}{k}");
                m.insert(k.clone(), plausible::value(&context, &at, &self.shape(type_name, &at)));
            }
        }
        for (k, inner) in &schema.blocks {
            let at = format!("{path}{k}.");
            let items = match m.get(k).map(|v| &v.kind) {
                Some(Kind::Tuple(items)) => {
                    items.iter().map(|item| self.fill_object(type_name, &at, Some(inner), item, whole)).collect()
                }
                // A computed block (read, none written): one block of computed attributes.
                Some(Kind::Unknown(_)) => {
                    let skeleton = Value::object(crate::util::sort::btree_map(
                        inner
                            .attributes
                            .keys()
                            .map(|a| (a.clone(), Value::dynamic()))
                            .chain(inner.blocks.keys().map(|b| (b.clone(), Value::tuple(Vec::new())))),
                    ));
                    vec![self.fill_object(type_name, &at, Some(inner), &skeleton, whole)]
                }
                _ => continue,
            };
            m.insert(k.clone(), Value::tuple(items));
        }
        out
    }

    /// A block type the configuration reads but this object writes none of: the provider's.
    fn computed_block(&self, type_name: &str, path: &str) -> bool {
        self.schemas.shapes.contains_key(&(type_name.to_string(), path.to_string()))
    }

    /// The planned object for `config` (at `path`): computed attributes unknown on a create,
    /// kept from `prior` on an update, in nested blocks too (by position); what equals the
    /// prior object's value stays as the state has it.
    fn plan_object(
        &self,
        type_name: &str,
        path: &str,
        schema: Option<&ResourceSchema>,
        prior: Option<&Value>,
        config: &Value,
    ) -> Value {
        let mut planned = config.clone();
        let (Kind::Object(pm), Some(schema)) = (&mut planned.kind, schema) else { return planned };
        for (k, a) in &schema.attributes {
            let configured = pm.get(k).is_some_and(|v| !v.is_null());
            if !a.computed || configured {
                continue;
            }
            let v = match prior {
                Some(prior) => get(prior, k).cloned().unwrap_or_else(|| Value::null(a.ty.clone())),
                // The shape reads give it, else the schema's type (`id`: a string).
                None => Value::unknown(match self.shape(type_name, &format!("{path}{k}")) {
                    Type::Dynamic => a.ty.clone(),
                    shape => shape,
                }),
            };
            pm.insert(k.clone(), v);
        }
        for (k, inner) in &schema.blocks {
            let Some(Value { kind: Kind::Tuple(items), .. }) = pm.get(k) else { continue };
            if items.is_empty() && self.computed_block(type_name, &format!("{path}{k}")) {
                let v = match prior.and_then(|p| get(p, k)) {
                    Some(p) => p.clone(),
                    None => Value::dynamic(),
                };
                pm.insert(k.clone(), v);
                continue;
            }
            let prior_items = match prior.and_then(|p| get(p, k)).map(|v| &v.kind) {
                Some(Kind::Tuple(p) | Kind::List(_, p)) => p.clone(),
                _ => Vec::new(),
            };
            let at = format!("{path}{k}.");
            let items = items
                .iter()
                .enumerate()
                .map(|(i, item)| self.plan_object(type_name, &at, Some(inner), prior_items.get(i), item))
                .collect();
            pm.insert(k.clone(), Value::tuple(items));
        }
        if let Some(prior) = prior {
            for (k, v) in pm.iter_mut() {
                if let Some(p) = get(prior, k) {
                    if same_json(p, v) || (p.is_null() && v.is_null()) {
                        *v = p.clone();
                    }
                }
            }
        }
        planned
    }

    fn failure(&self, op: Op, name: Option<&str>) -> Option<ProviderError> {
        if let Some(e) = self.options.knobs.rate_limit_error(op, name) {
            return Some(e);
        }
        self.options.fails(op, name).then(|| {
            let n = mock::python_repr(name.unwrap_or_default());
            let verb = match op {
                Op::Create => "creating",
                Op::Update => "updating",
                Op::Delete => "deleting",
                Op::Read => "reading",
                Op::ReadData => "reading",
                Op::Import => "importing",
            };
            ProviderError {
                summary: format!("mock: injected failure {verb} {n}"),
                detail: format!("MOCK_FAIL_NAME contains {n}"),
            }
        })
    }

    fn document_entry(&self) -> serde_json::Value {
        use serde_json::json;
        let blocks = |m: &BTreeMap<String, ResourceSchema>| -> serde_json::Map<String, serde_json::Value> {
            crate::util::sort::json_map(m.iter().map(|(k, s)| {
                let mut block = super::block_json(s);
                mark_write_only(&mut block);
                (k.clone(), json!({"version": s.version, "block": block}))
            }))
        };
        let resources: BTreeMap<_, _> = crate::util::sort::btree_map(
            self.schemas.resources.iter().filter(|(t, _)| self.serves(t)).map(|(k, v)| (k.clone(), v.clone())),
        );
        let data: BTreeMap<_, _> = crate::util::sort::btree_map(
            self.schemas.data_sources.iter().filter(|(t, _)| self.serves(t)).map(|(k, v)| (k.clone(), v.clone())),
        );
        json!({
            "provider": {"version": 0, "block": {"description_kind": "plain"}},
            "resource_schemas": blocks(&resources),
            "data_source_schemas": blocks(&data),
        })
    }

    fn serves(&self, type_name: &str) -> bool {
        self.schemas.sources.get(type_name) == Some(&self.source)
    }
}

impl Provider for GenericProvider {
    fn source(&self) -> &str {
        &self.source
    }
    fn resource_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.schemas.resources.get(type_name)
    }
    fn data_source_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.schemas.data_sources.get(type_name)
    }

    fn plan_resource_change(
        &self,
        type_name: &str,
        prior: Option<&Value>,
        config: &Value,
    ) -> Result<PlannedChange, ProviderError> {
        // Planned from the configuration without its write-only values, so that a prior null
        // stays as the state has it (no change on the next plan).
        let config = without_write_only(config.clone());
        let planned = self.plan_object(type_name, "", self.resource_schema(type_name), prior, &config);
        Ok(PlannedChange { planned, requires_replace: Vec::new() })
    }

    fn apply_resource_change(&self, type_name: &str, prior: Option<&Value>, planned: Option<&Value>) -> Applied {
        let op = match (prior, planned) {
            (None, _) => Op::Create,
            (Some(_), Some(_)) => Op::Update,
            (Some(_), None) => Op::Delete,
        };
        let name = planned.or(prior).and_then(name_of);
        if let Some(e) = self.failure(op, name.as_deref()) {
            return Applied { new_state: prior.cloned(), error: Some(e) };
        }
        match planned {
            Some(planned) => {
                let applied = self.fill(type_name, self.resource_schema(type_name), planned);
                Applied { new_state: Some(without_write_only(applied)), error: None }
            }
            None => Applied { new_state: None, error: None },
        }
    }

    fn read_resource(&self, _type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError> {
        match self.options.knobs.rate_limit_error(Op::Read, name_of(prior).as_deref()) {
            Some(e) => Err(e),
            None => Ok(Some(prior.clone())),
        }
    }

    fn import_resource_state(&self, type_name: &str, id: &str) -> Result<Value, ProviderError> {
        let schema = self.resource_schema(type_name).ok_or_else(|| super::cannot_import(type_name))?;
        match self.options.knobs.rate_limit_error(Op::Import, None) {
            Some(e) => Err(e),
            None => Ok(super::imported_object(schema, id)),
        }
    }

    fn read_data_source(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError> {
        if let Some(e) = self.failure(Op::ReadData, name_of(config).as_deref()) {
            return Err(e);
        }
        // What the configuration leaves unset (or null) is the data source's to compute.
        let schema = self.data_source_schema(type_name);
        Ok(self.fill(type_name, schema, &self.plan_object(type_name, "", schema, None, config)))
    }

    fn delay_ms(&self, op: Op, name: Option<&str>) -> u64 {
        mock::delay(&self.options, op, name)
    }

    fn injected_failure(&self, op: Op, address: &str) -> Option<ProviderError> {
        self.options.address_failure(op, address)
    }

    fn schema_document(&self) -> serde_json::Value {
        serde_json::json!({"format_version": "1.0", "provider_schemas": {self.source.clone(): self.document_entry()}})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::AttributeSchema;

    fn attr(computed: bool, optional: bool) -> AttributeSchema {
        AttributeSchema {
            ty: Type::Dynamic,
            optional,
            computed,
            required: false,
            sensitive: false,
            requires_replace: false,
        }
    }

    fn provider() -> GenericProvider {
        let mut s = GenericSchemas::default();
        let mut vpc = ResourceSchema::default();
        vpc.attributes.insert("id".into(), attr(true, false));
        vpc.attributes.insert("arn".into(), attr(true, false));
        vpc.attributes.insert("cidr_block".into(), attr(false, true));
        vpc.attributes.insert("tags".into(), attr(false, true));
        s.resources.insert("aws_vpc".into(), vpc);
        GenericProvider::new("registry.terraform.io/hashicorp/aws", Arc::new(s), MockOptions::default())
    }

    fn config(cidr: &str) -> Value {
        let mut m = BTreeMap::new();
        m.insert("id".to_string(), Value::null(Type::Dynamic));
        m.insert("arn".to_string(), Value::null(Type::Dynamic));
        m.insert("cidr_block".to_string(), Value::string(cidr));
        m.insert(
            "tags".to_string(),
            Value::object([("Name".to_string(), Value::string("main"))].into_iter().collect()),
        );
        Value::object(m)
    }

    #[test]
    fn create_then_replan_is_a_no_op() {
        let p = provider();
        let planned = p.plan_resource_change("aws_vpc", None, &config("10.0.0.0/16")).unwrap().planned;
        assert!(!get(&planned, "id").unwrap().is_known() && !get(&planned, "arn").unwrap().is_known());
        let st = p.apply_resource_change("aws_vpc", None, Some(&planned)).new_state.unwrap();
        assert!(st.is_wholly_known());
        let id = get(&st, "id").unwrap().as_str().unwrap().to_string();
        assert!(id.starts_with("vpc-"), "{id}");
        assert!(get(&st, "arn").unwrap().as_str().unwrap().ends_with(&format!(":vpc/{id}")));
        // The state's JSON read back (objects, tuples) plans to exactly the prior object.
        let back = crate::eval::json::from_json(&crate::eval::value_json::value(&st));
        let again = p.plan_resource_change("aws_vpc", Some(&back), &config("10.0.0.0/16")).unwrap().planned;
        assert!(again.raw_equal(&back));
        let changed = p.plan_resource_change("aws_vpc", Some(&back), &config("10.1.0.0/16")).unwrap();
        assert!(!changed.planned.raw_equal(&back) && changed.requires_replace.is_empty());
        assert_eq!(get(&changed.planned, "id").unwrap().as_str(), Some(id.as_str()), "an update keeps the id");
    }

    #[test]
    fn injected_failures_and_rate_limits() {
        let mut s = GenericSchemas::default();
        s.resources.insert("aws_vpc".into(), ResourceSchema::default());
        let mut o = MockOptions::from_env([("MOCK_FAIL_NAME", "bad")]);
        let p = GenericProvider::new("registry.terraform.io/hashicorp/aws", Arc::new(s.clone()), o.clone());
        let bad = Value::object([("name".to_string(), Value::string("bad"))].into_iter().collect());
        let a = p.apply_resource_change("aws_vpc", None, Some(&bad));
        assert_eq!(a.error.unwrap().summary, "mock: injected failure creating 'bad'");
        assert!(a.new_state.is_none());
        o.fail_names.clear();
        o.knobs.rate_limit = 1.0;
        let p = GenericProvider::new("registry.terraform.io/hashicorp/aws", Arc::new(s), o);
        assert_eq!(p.apply_resource_change("aws_vpc", None, Some(&bad)).error.unwrap().summary, "Rate exceeded");
        assert!(p.delay_ms(Op::Create, Some("bad")) >= 100 + 200 + 400 + 800);
    }
}
