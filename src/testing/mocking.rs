//! Mocked providers and overrides (`mock_provider`, `override_resource`, `override_data`), as
//! Terraform's test framework runs them (`providers/mock.go`, `moduletest/mocking`):
//!
//! - a mocked provider configuration never reaches the provider: a create plans its computed
//!   attributes that the configuration leaves null as unknown (or, with `override_during =
//!   plan`, as the apply would fill them), an update plans the configuration over the prior
//!   object, the apply fills what is unknown, a refresh keeps the prior object, a data source
//!   read fills its null computed attributes;
//! - filled from the `mock_resource` / `mock_data` `defaults` of the type, else generated: a
//!   string of 8 characters from `a-z0-9`, number 0, bool false, empty collections, objects
//!   attribute by attribute (`GenerateValueForType`); a default of the wrong type is "Failed
//!   to compute attribute" and a generated value instead;
//! - an override fills one resource's (or instance's) values the same way, whatever provider
//!   serves it, ahead of the mock's defaults.
//!
//! The engine has no notion of any of this: [`TestProvider`] wraps the providers the engine
//! is given. It learns the provider configuration of each request from the engine's routing
//! ([`Provider::for_config`]) and the instance from [`Provider::at_instance`]. Generated strings
//! are derived from the instance, the attribute and a salt per run, so that an apply's second
//! planning of an object agrees with its first.

use super::file::range_text;
use crate::diag::SourceRange;
use crate::eval::{Kind, Type, Value};
use crate::providers::{Applied, Op, PlannedChange, Provider, ProviderError, ResourceSchema};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Values written in a test file and where (the error message cites the range).
#[derive(Clone, Debug)]
pub struct MockedData {
    pub value: Value,
    pub range: SourceRange,
}

/// The defaults of one `mock_resource` / `mock_data` block.
#[derive(Clone, Debug)]
pub struct TypeDefaults {
    pub data: Option<MockedData>,
    pub during_plan: bool,
}

/// What one `mock_provider` block does to the configuration it replaces.
#[derive(Clone, Debug, Default)]
pub struct MockedConfig {
    pub resources: BTreeMap<String, TypeDefaults>,
    pub data_sources: BTreeMap<String, TypeDefaults>,
    /// `override_during = plan` on the block itself.
    pub during_plan: bool,
}

/// One override in force for a run: its target address (`mock_resource.c`,
/// `mock_resource.c[0]`, `data.mock_data.d`, `module.m.mock_resource.x`).
#[derive(Clone, Debug)]
pub struct Override {
    pub target: String,
    pub data: MockedData,
    pub during_plan: bool,
}

/// A run's mocks and overrides.
#[derive(Clone, Debug, Default)]
pub struct Mocking {
    /// Mocked configurations by provider configuration address
    /// (`provider["registry.terraform.io/hashicorp/mock"].alias`).
    pub configs: BTreeMap<String, MockedConfig>,
    /// Overrides, the one that wins first (run, then file, then `mock_provider`).
    pub overrides: Vec<Override>,
    /// Mixed into generated strings (one per run).
    pub salt: String,
}

impl Mocking {
    pub fn is_empty(&self) -> bool {
        self.configs.is_empty() && self.overrides.is_empty()
    }

    /// The override of an instance: one naming the instance itself before one naming its
    /// resource, at the first level that has either.
    fn override_for(&self, instance: &str) -> Option<&Override> {
        self.overrides
            .iter()
            .find(|o| o.target == instance)
            .or_else(|| self.overrides.iter().find(|o| covers(&o.target, instance)))
    }
}

/// Whether `target` names `instance` or the resource (and module instances) it belongs to.
pub fn covers(target: &str, instance: &str) -> bool {
    let t = steps(target);
    let i = steps(instance);
    t.len() == i.len() && t.iter().zip(&i).all(|(a, b)| a.0 == b.0 && (a.1.is_none() || a.1 == b.1))
}

/// An address's steps: each name with its instance key text (`c[0]` → `("c", Some("0"))`).
fn steps(addr: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut name = String::new();
    let mut chars = addr.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' => out.push((std::mem::take(&mut name), None)),
            '[' => {
                let mut key = String::new();
                let mut quoted = false;
                for k in chars.by_ref() {
                    if k == '"' {
                        quoted = !quoted;
                    }
                    if k == ']' && !quoted {
                        break;
                    }
                    key.push(k);
                }
                out.push((std::mem::take(&mut name), Some(key)));
                if chars.peek() == Some(&'.') {
                    chars.next();
                }
            }
            _ => name.push(c),
        }
    }
    if !name.is_empty() {
        out.push((name, None));
    }
    out
}

/// A generated value of a type (`GenerateValueForType`).
pub fn generate(ty: &Type, seed: &str) -> Value {
    match ty {
        Type::String => Value::string(random_string(seed)),
        Type::Number => Value::int(0),
        Type::Bool => Value::bool(false),
        Type::List(e) => Value::list((**e).clone(), Vec::new()),
        Type::Set(e) => Value::set((**e).clone(), Vec::new()),
        Type::Map(e) => Value::map((**e).clone(), BTreeMap::new()),
        Type::Object(attrs) => Value::object(crate::util::sort::btree_map(
            attrs.iter().map(|(k, t)| (k.clone(), generate(t, &format!("{seed}.{k}")))),
        )),
        _ => Value::null(Type::Dynamic),
    }
}

/// Eight characters from `a-z0-9`, from a hash of `seed` (FNV-1a, then xorshift).
fn random_string(seed: &str) -> String {
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (0..8)
        .map(|_| {
            h ^= h << 13;
            h ^= h >> 7;
            h ^= h << 17;
            CHARS[(h % CHARS.len() as u64) as usize] as char
        })
        .collect()
}

/// A mocked value made to fit a type (`FillType`): objects take the attributes given and
/// generate the rest, collections of objects are filled element by element, anything else is
/// converted. `Err`: the path below the attribute and the conversion's message.
fn fill(with: &Value, ty: &Type, seed: &str) -> Result<Value, (String, String)> {
    let incompatible = || {
        (
            String::new(),
            format!("incompatible types; expected {}, found {}", ty.friendly_name(), with.ty().friendly_name()),
        )
    };
    match ty {
        Type::Object(attrs) => {
            let given: Option<&BTreeMap<String, Value>> = match &with.kind {
                Kind::Object(m) | Kind::Map(_, m) => Some(m),
                _ => None,
            };
            let given = given.ok_or_else(incompatible)?;
            let mut out = BTreeMap::new();
            for (k, t) in attrs {
                let v = match given.get(k) {
                    Some(v) => fill(v, t, &format!("{seed}.{k}")).map_err(|(p, e)| (format!(".{k}{p}"), e))?,
                    None => generate(t, &format!("{seed}.{k}")),
                };
                out.insert(k.clone(), v);
            }
            Ok(Value::object(out))
        }
        Type::List(e) | Type::Set(e) if matches!(**e, Type::Object(_)) => {
            let items = match &with.kind {
                Kind::List(_, v) | Kind::Set(_, v) | Kind::Tuple(v) => v,
                _ => return Err(incompatible()),
            };
            let mut out = Vec::new();
            for (i, v) in items.iter().enumerate() {
                out.push(fill(v, e, &format!("{seed}[{i}]")).map_err(|(p, m)| (format!("[{i}]{p}"), m))?);
            }
            Ok(if matches!(ty, Type::List(_)) {
                Value::list((**e).clone(), out)
            } else {
                Value::set((**e).clone(), out)
            })
        }
        _ => crate::eval::convert::convert(with, ty).map_err(|e| (String::new(), e)),
    }
}

/// Which computed attributes to fill: the null ones (plans, data sources) or the unknown ones
/// (applies).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fill {
    Null,
    Unknown,
}

/// `populateComputedValues`: each computed attribute of `target` that is null (or unknown)
/// made unknown (`known` false) or known from `with` (else generated).
fn populate(
    target: &Value,
    with: Option<&MockedData>,
    schema: &ResourceSchema,
    which: Fill,
    known: bool,
    seed: &str,
) -> (Value, Vec<ProviderError>) {
    let mut errors = Vec::new();
    // Values that are not an object replace nothing (`MockedData.validate`).
    let with = match with {
        Some(w) if !matches!(w.value.kind, Kind::Object(_)) => {
            errors.push(ProviderError {
                summary: "Invalid replacement value".into(),
                detail: format!(
                    "The requested replacement value must be an object type, but was {}.",
                    w.value.ty().friendly_name()
                ),
            });
            None
        }
        other => other,
    };
    let Kind::Object(attrs) = &target.kind else { return (target.clone(), errors) };
    let mut out = attrs.clone();
    for (name, a) in &schema.attributes {
        let current = attrs.get(name);
        let hit = match which {
            Fill::Null => current.is_none_or(Value::is_null),
            Fill::Unknown => current.is_some_and(|v| !v.is_known()),
        };
        if !a.computed || !hit {
            continue;
        }
        let seed = format!("{seed}.{name}");
        let value = if !known {
            Value::unknown(a.ty.clone())
        } else {
            let given = with.and_then(|w| match &w.value.kind {
                Kind::Object(m) => m.get(name).map(|v| (v, w)),
                _ => None,
            });
            match given {
                Some((v, w)) => match fill(v, &a.ty, &seed) {
                    Ok(v) => v,
                    Err((path, message)) => {
                        errors.push(ProviderError {
                            summary: "Failed to compute attribute".into(),
                            detail: format!(
                                "Terraform could not compute a value for the target type {} with the mocked data defined at {} with the attribute \"{name}{path}\": {message}.",
                                a.ty.friendly_name(),
                                range_text(&w.range)
                            ),
                        });
                        generate(&a.ty, &seed)
                    }
                },
                None => generate(&a.ty, &seed),
            }
        };
        out.insert(name.clone(), value);
    }
    (Value::object(out), errors)
}

/// The engine's providers with a run's mocks and overrides in front.
pub struct TestProvider<'p> {
    inner: &'p dyn Provider,
    mocking: &'p Mocking,
    /// The provider configuration of the request under way (from the engine's routing).
    config: RefCell<String>,
    /// The resource instance of the request under way.
    instance: RefCell<String>,
}

/// What serves the request under way.
enum Serving<'a> {
    /// Neither mocked nor overridden.
    Real,
    /// Mocked or overridden: the values to fill with, and whether a plan fills them.
    Mocked { data: Option<&'a MockedData>, during_plan: bool },
}

impl<'p> TestProvider<'p> {
    pub fn new(inner: &'p dyn Provider, mocking: &'p Mocking) -> TestProvider<'p> {
        TestProvider { inner, mocking, config: RefCell::new(String::new()), instance: RefCell::new(String::new()) }
    }

    fn real(&self) -> &'p dyn Provider {
        crate::providers::route(self.inner, &self.config.borrow())
    }

    fn serving(&self, type_name: &str, data: bool) -> Serving<'p> {
        let instance = self.instance.borrow();
        if let Some(o) = self.mocking.override_for(&instance) {
            return Serving::Mocked { data: Some(&o.data), during_plan: o.during_plan };
        }
        let Some(m) = self.mocking.configs.get(self.config.borrow().as_str()) else { return Serving::Real };
        let defaults = if data { m.data_sources.get(type_name) } else { m.resources.get(type_name) };
        Serving::Mocked {
            data: defaults.and_then(|d| d.data.as_ref()),
            during_plan: defaults.map(|d| d.during_plan).unwrap_or(m.during_plan),
        }
    }

    fn seed(&self) -> String {
        format!("{}/{}", self.mocking.salt, self.instance.borrow())
    }
}

fn first_error(errors: Vec<ProviderError>) -> Option<ProviderError> {
    errors.into_iter().next()
}

impl Provider for TestProvider<'_> {
    fn source(&self) -> &str {
        self.inner.source()
    }
    fn resource_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.real().resource_schema(type_name)
    }
    fn data_source_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.real().data_source_schema(type_name)
    }
    fn plan_resource_change(
        &self,
        type_name: &str,
        prior: Option<&Value>,
        config: &Value,
    ) -> Result<PlannedChange, ProviderError> {
        let real = self.real();
        let (Serving::Mocked { data, during_plan }, Some(schema)) =
            (self.serving(type_name, false), real.resource_schema(type_name))
        else {
            return real.plan_resource_change(type_name, prior, config);
        };
        let planned = match prior {
            // An update: the configuration, with the computed attributes it leaves null kept
            // from the prior object (the proposed new state).
            Some(prior) => {
                let (Kind::Object(cfg), Kind::Object(old)) = (&config.kind, &prior.kind) else {
                    return Ok(PlannedChange { planned: config.clone(), requires_replace: Vec::new() });
                };
                let mut out = cfg.clone();
                for (name, a) in &schema.attributes {
                    if a.computed && cfg.get(name).is_none_or(Value::is_null) {
                        if let Some(v) = old.get(name) {
                            out.insert(name.clone(), v.clone());
                        }
                    }
                }
                Value::object(out)
            }
            None => {
                let (v, errors) = populate(config, data, schema, Fill::Null, during_plan, &self.seed());
                if let Some(e) = first_error(errors) {
                    return Err(e);
                }
                v
            }
        };
        Ok(PlannedChange { planned, requires_replace: Vec::new() })
    }
    fn apply_resource_change(&self, type_name: &str, prior: Option<&Value>, planned: Option<&Value>) -> Applied {
        let real = self.real();
        let (Serving::Mocked { data, .. }, Some(schema)) =
            (self.serving(type_name, false), real.resource_schema(type_name))
        else {
            return real.apply_resource_change(type_name, prior, planned);
        };
        let Some(planned) = planned else { return Applied { new_state: None, error: None } };
        let (v, errors) = populate(planned, data, schema, Fill::Unknown, true, &self.seed());
        Applied { new_state: Some(v), error: first_error(errors) }
    }
    fn read_resource(&self, type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError> {
        match self.serving(type_name, false) {
            Serving::Mocked { .. } => Ok(Some(prior.clone())),
            Serving::Real => self.real().read_resource(type_name, prior),
        }
    }
    fn read_data_source(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError> {
        let real = self.real();
        let (Serving::Mocked { data, .. }, Some(schema)) =
            (self.serving(type_name, true), real.data_source_schema(type_name))
        else {
            return real.read_data_source(type_name, config);
        };
        let (v, errors) = populate(config, data, schema, Fill::Null, true, &self.seed());
        match first_error(errors) {
            Some(e) => Err(e),
            None => Ok(v),
        }
    }
    fn import_resource_state(&self, type_name: &str, id: &str) -> Result<Value, ProviderError> {
        if self.mocking.configs.contains_key(self.config.borrow().as_str()) {
            return Err(ProviderError {
                summary: "Invalid import request".into(),
                detail: "Cannot import resources from mock providers. Use an `override_resource` block to targeting the specific resource being imported instead.".into(),
            });
        }
        self.real().import_resource_state(type_name, id)
    }
    fn delay_ms(&self, op: Op, name: Option<&str>) -> u64 {
        self.inner.delay_ms(op, name)
    }
    fn injected_failure(&self, op: Op, address: &str) -> Option<ProviderError> {
        self.real().injected_failure(op, address)
    }
    fn at_instance(&self, address: &str) {
        *self.instance.borrow_mut() = address.to_string();
    }
    fn for_config(&self, config_address: &str) -> Option<&dyn Provider> {
        // Every request comes here; the configuration chooses the real provider behind.
        *self.config.borrow_mut() = config_address.to_string();
        None
    }
    fn checks_plans(&self) -> bool {
        self.inner.checks_plans()
    }
    fn schema_document(&self) -> serde_json::Value {
        self.inner.schema_document()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_cover_instances() {
        assert!(covers("mock_resource.c", "mock_resource.c[1]"));
        assert!(covers("mock_resource.c[1]", "mock_resource.c[1]"));
        assert!(!covers("mock_resource.c[0]", "mock_resource.c[1]"));
        assert!(covers("module.m.mock_resource.c", "module.m[\"a.b\"].mock_resource.c"));
        assert!(!covers("mock_resource.c", "module.m.mock_resource.c"));
        assert!(covers("data.mock_data.d", "data.mock_data.d"));
    }

    #[test]
    fn generated_values_have_terraforms_shapes() {
        let s = generate(&Type::String, "x");
        let s = s.as_str().unwrap();
        assert_eq!(s.len(), 8);
        assert!(s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        assert_eq!(generate(&Type::Number, "x"), Value::int(0));
        assert_eq!(generate(&Type::Bool, "x"), Value::bool(false));
        assert_eq!(generate(&Type::list(Type::String), "x").length(), Some(0));
        let obj = Type::Object(BTreeMap::from([("n".to_string(), Type::Number)]));
        assert_eq!(generate(&obj, "x"), Value::object(BTreeMap::from([("n".to_string(), Value::int(0))])));
    }

    #[test]
    fn fill_generates_what_is_missing_and_refuses_wrong_types() {
        let obj = Type::Object(BTreeMap::from([("a".to_string(), Type::String), ("b".to_string(), Type::Bool)]));
        let with = Value::object(BTreeMap::from([("a".to_string(), Value::string("x"))]));
        let v = fill(&with, &obj, "s").unwrap();
        assert_eq!(
            v,
            Value::object(BTreeMap::from([("a".into(), Value::string("x")), ("b".into(), Value::bool(false))]))
        );
        let e = fill(&Value::tuple(vec![Value::string("x")]), &Type::String, "s").unwrap_err();
        assert_eq!(e.1, "string required");
    }
}
