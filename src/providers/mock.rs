//! The built-in `mock` provider (source `hashicorp/mock`): resource `mock_resource` and data
//! source `mock_data`, value for value as the oracle's `provider/mock_provider.py`, so that
//! states compare with Terraform's (the derivation, the plan's unknowns, requires-replace on
//! `force_new`, the injected failures and their texts, the delays).

use super::knobs::Knobs;
use super::{Applied, AttributeSchema, Op, PlannedChange, Provider, ProviderError, ResourceSchema};
use crate::addrs::{InstanceAddr, InstanceKey};
use crate::eval::{Kind, Type, Value};
use sha1::{Digest, Sha1};
use std::collections::{BTreeMap, BTreeSet};

pub const SOURCE: &str = "registry.terraform.io/hashicorp/mock";

/// The oracle's knobs (`MOCK_DELAY_MS`, `MOCK_DELAY_MS_<OP>`, `MOCK_DELAY_BY_NAME`,
/// `MOCK_FAIL_NAME`, `MOCK_FAIL_OPS`), and failures by address (`MOCK_FAIL_ADDRESS`, ours).
#[derive(Clone, Debug, Default)]
pub struct MockOptions {
    pub delay_ms: u64,
    /// `MOCK_DELAY_MS_<OP>`, in the order given (a later one for the same operation wins).
    pub delay_by_op: Vec<(Op, u64)>,
    pub delay_by_name: BTreeMap<String, u64>,
    pub fail_names: BTreeSet<String>,
    /// Resource instances that fail, by address (`aws_instance.web[1]`; a resource's address
    /// without a key fails each of its instances): for objects with no `name` to fail them by.
    pub fail_addresses: Vec<FailAddress>,
    /// Which operations fail for `fail_names` and `fail_addresses`; empty means `create` only
    /// (the oracle's default).
    pub fail_ops: OpSet,
    /// Seeded jitter and transient rate limits (not the oracle's: it has neither).
    pub knobs: Knobs,
}

impl MockOptions {
    /// Reads the knobs as the oracle's environment variables spell them (`KEY=VALUE` pairs).
    pub fn from_env<'a>(vars: impl IntoIterator<Item = (&'a str, &'a str)>) -> MockOptions {
        let mut o = MockOptions::default();
        let ms = |s: &str| s.trim().parse::<f64>().map(|f| f.max(0.0) as u64).unwrap_or(0);
        for (k, v) in vars {
            match k {
                "MOCK_DELAY_MS" | "DELAY_MS" => o.delay_ms = ms(v),
                "MOCK_DELAY_BY_NAME" => {
                    for item in v.split(',') {
                        if let Some((n, d)) = item.split_once('=') {
                            if !d.trim().is_empty() {
                                o.delay_by_name.insert(n.trim().to_string(), ms(d));
                            }
                        }
                    }
                }
                "MOCK_FAIL_NAME" | "FAIL_NAME" => {
                    o.fail_names = crate::util::sort::btree_set(
                        v.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from),
                    )
                }
                "MOCK_FAIL_ADDRESS" => o.fail_addresses = split_addresses(v).filter_map(FailAddress::parse).collect(),
                "MOCK_FAIL_OPS" => {
                    o.fail_ops = OpSet::default();
                    v.split(',').filter_map(|s| op_named(s.trim())).for_each(|op| o.fail_ops.insert(op));
                }
                "MOCK_SEED" => o.knobs.seed = v.trim().parse().unwrap_or(0),
                "MOCK_JITTER_MS" => o.knobs.jitter_ms = ms(v),
                "MOCK_RATE_LIMIT" => o.knobs.rate_limit = v.trim().parse::<f64>().unwrap_or(0.0).clamp(0.0, 1.0),
                "MOCK_MAX_RETRIES" => o.knobs.max_retries = v.trim().parse().ok(),
                _ => {
                    if let Some(op) = k.strip_prefix("MOCK_DELAY_MS_").and_then(|s| op_named(&s.to_ascii_lowercase())) {
                        o.delay_by_op.push((op, ms(v)));
                    }
                }
            }
        }
        o
    }

    /// Whether an injected failure hits `op` on the object named `name`.
    pub fn fails(&self, op: Op, name: Option<&str>) -> bool {
        let Some(name) = name else { return false };
        self.fails_op(op) && self.fail_names.contains(name)
    }

    fn fails_op(&self, op: Op) -> bool {
        if self.fail_ops.is_empty() {
            op == Op::Create
        } else {
            self.fail_ops.contains(op)
        }
    }

    /// The failure injected into `op` on the resource instance at `address`
    /// (`module.m.aws_subnet.a["x"]`), if a `fail_addresses` entry names it.
    pub fn address_failure(&self, op: Op, address: &str) -> Option<ProviderError> {
        if self.fail_addresses.is_empty() || !self.fails_op(op) {
            return None;
        }
        let instance = InstanceAddr::parse(address).ok()?;
        let hit = self.fail_addresses.iter().find(|f| f.contains(&instance))?;
        let verb = match op {
            Op::Create => "creating",
            Op::Update => "updating",
            Op::Delete => "deleting",
            Op::Read | Op::ReadData => "reading",
            Op::Import => "importing",
        };
        Some(ProviderError {
            summary: format!("mock: injected failure {verb} {}", python_repr(address)),
            detail: format!("MOCK_FAIL_ADDRESS contains {}", python_repr(&hit.text)),
        })
    }
}

/// One `fail_addresses` entry: a resource instance, or a whole resource (no key).
#[derive(Clone, Debug, PartialEq)]
pub struct FailAddress {
    /// As given (the failure's detail quotes it).
    pub text: String,
    addr: InstanceAddr,
}

impl FailAddress {
    /// `None` when `text` is not a resource instance address (it could fail nothing).
    pub fn parse(text: &str) -> Option<FailAddress> {
        let text = text.trim();
        InstanceAddr::parse(text).ok().map(|addr| FailAddress { text: text.to_string(), addr })
    }

    /// Whether the entry names `instance`: where the entry gives no key (the resource's or a
    /// module call's), any key matches, so `module.m.x.y` names `module.m[1].x.y[0]`, as the
    /// page's resources view spells what it draws.
    pub fn contains(&self, instance: &InstanceAddr) -> bool {
        let key_fits = |ours: &Option<InstanceKey>, theirs: &Option<InstanceKey>| ours.is_none() || ours == theirs;
        self.addr.resource == instance.resource
            && key_fits(&self.addr.key, &instance.key)
            && self.addr.module.len() == instance.module.len()
            && self.addr.module.iter().zip(&instance.module).all(|((n, k), (m, j))| n == m && key_fits(k, j))
    }
}

/// A comma-separated list of addresses, split only at commas outside index brackets (a key
/// such as `["a,b"]` keeps its comma).
pub fn split_addresses(list: &str) -> impl Iterator<Item = &str> {
    let mut parts = Vec::new();
    let (mut depth, mut quoted, mut escaped, mut from) = (0usize, false, false, 0);
    for (i, c) in list.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' if depth > 0 => quoted = !quoted,
            '[' if !quoted => depth += 1,
            ']' if !quoted => depth = depth.saturating_sub(1),
            ',' if depth == 0 && !quoted => {
                parts.push(&list[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&list[from..]);
    parts.into_iter().map(str::trim).filter(|s| !s.is_empty())
}

/// A set of operations as bits: the per-operation knobs without a `BTreeSet<Op>` of their own
/// (each B-tree key/value type is its own copy of the B-tree's code in the package).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpSet(u32);

impl OpSet {
    pub fn insert(&mut self, op: Op) {
        self.0 |= 1 << op as u32;
    }

    pub fn contains(&self, op: Op) -> bool {
        self.0 & (1 << op as u32) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
}

/// The delay of `op` on the object named `name`: per name, else per operation, else the
/// default; then jittered and lengthened by rate-limit backoffs.
pub fn delay(options: &MockOptions, op: Op, name: Option<&str>) -> u64 {
    let base = match name.and_then(|n| options.delay_by_name.get(n)) {
        Some(d) => *d,
        None => options.delay_by_op.iter().rev().find(|(o, _)| *o == op).map_or(options.delay_ms, |&(_, d)| d),
    };
    options.knobs.delay(base, op, name)
}

fn op_named(s: &str) -> Option<Op> {
    Some(match s {
        "create" => Op::Create,
        "update" => Op::Update,
        "delete" => Op::Delete,
        "read" => Op::Read,
        "read_data" => Op::ReadData,
        "import" => Op::Import,
        _ => return None,
    })
}

pub struct MockProvider {
    pub options: MockOptions,
    resource: ResourceSchema,
    data: ResourceSchema,
}

fn attr(ty: Type, optional: bool, computed: bool, requires_replace: bool) -> AttributeSchema {
    AttributeSchema { ty, optional, computed, required: false, sensitive: false, requires_replace }
}

impl MockProvider {
    pub fn new(options: MockOptions) -> MockProvider {
        let common = |extra: Vec<(&str, AttributeSchema)>| {
            let mut m: BTreeMap<String, AttributeSchema> = BTreeMap::new();
            m.insert("name".into(), attr(Type::String, true, false, false));
            m.insert("input".into(), attr(Type::map(Type::String), true, false, false));
            m.insert("id".into(), attr(Type::String, false, true, false));
            m.insert("output".into(), attr(Type::String, false, true, false));
            for (k, a) in extra {
                m.insert(k.into(), a);
            }
            ResourceSchema { version: 0, attributes: m, blocks: BTreeMap::new() }
        };
        MockProvider {
            options,
            resource: common(vec![("force_new", attr(Type::String, true, false, true))]),
            data: common(vec![]),
        }
    }
}

impl MockProvider {
    /// `terraform providers schema -json` for this provider (the plan renderer reads it).
    pub fn schemas_json(&self) -> serde_json::Value {
        use serde_json::json;
        let block = |s: &ResourceSchema| json!({"version": s.version, "block": super::block_json(s)});
        json!({"format_version": "1.0", "provider_schemas": {SOURCE: {
            "provider": {"version": 0, "block": {"attributes": {"label": {"type": "string", "description_kind": "markdown", "optional": true}}, "description_kind": "plain"}},
            "resource_schemas": {"mock_resource": block(&self.resource)},
            "data_source_schemas": {"mock_data": block(&self.data)},
        }}})
    }
}

fn get<'v>(obj: &'v Value, name: &str) -> Option<&'v Value> {
    match &obj.kind {
        Kind::Object(m) => m.get(name),
        _ => None,
    }
}

fn set(obj: &mut Value, name: &str, v: Value) {
    if let Kind::Object(m) = &mut obj.kind {
        m.insert(name.to_string(), v);
    }
}

fn str_of(obj: &Value, name: &str) -> Option<String> {
    get(obj, name).and_then(|v| v.as_str()).map(String::from)
}

/// The `input` map as (key, value-or-null) pairs, sorted.
fn input_of(obj: &Value) -> Vec<(String, Option<String>)> {
    match get(obj, "input").map(|v| &v.kind) {
        Some(Kind::Map(_, m)) | Some(Kind::Object(m)) => {
            m.iter().map(|(k, v)| (k.clone(), v.as_str().map(String::from))).collect()
        }
        _ => Vec::new(),
    }
}

/// A string as Python's `json.dumps` writes it (`ensure_ascii`: non-ASCII as `\uXXXX`,
/// surrogate pairs beyond the BMP).
pub fn python_json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7f => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{:04x}", unit));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn py_opt(s: Option<&str>) -> String {
    s.map(python_json_string).unwrap_or_else(|| "null".into())
}

/// The oracle's `_derive`: `(id, output)` from `name`, `input` and `force_new`.
pub fn derive(name: Option<&str>, input: &[(String, Option<String>)], force_new: Option<&str>) -> (String, String) {
    let pairs: Vec<String> =
        input.iter().map(|(k, v)| format!("{}: {}", python_json_string(k), py_opt(v.as_deref()))).collect();
    let body = format!(
        "{{\"force_new\": {}, \"input\": {{{}}}, \"name\": {}}}",
        py_opt(force_new),
        pairs.join(", "),
        py_opt(name)
    );
    let hash = Sha1::digest(body.as_bytes());
    let hex: String = hash.iter().take(4).map(|b| format!("{b:02x}")).collect();
    let id = format!("{}-{hex}", name.unwrap_or("anon"));
    // Python formats None as "None" inside the f-string.
    let shown: Vec<String> = input.iter().map(|(k, v)| format!("{k}={}", v.as_deref().unwrap_or("None"))).collect();
    let output = format!("{}[{}]", name.unwrap_or(""), shown.join(","));
    (id, output)
}

fn derive_for(obj: &Value, with_force_new: bool) -> (String, String) {
    let fnv = if with_force_new { str_of(obj, "force_new") } else { None };
    derive(str_of(obj, "name").as_deref(), &input_of(obj), fnv.as_deref())
}

fn equal(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.equals_known(b),
        (None, None) => true,
        (Some(x), None) | (None, Some(x)) => x.is_null(),
    }
}

impl Provider for MockProvider {
    fn source(&self) -> &str {
        SOURCE
    }
    fn resource_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        (type_name == "mock_resource").then_some(&self.resource)
    }
    fn data_source_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        (type_name == "mock_data").then_some(&self.data)
    }

    fn plan_resource_change(
        &self,
        type_name: &str,
        prior: Option<&Value>,
        config: &Value,
    ) -> Result<PlannedChange, ProviderError> {
        let schema = self.resource_schema(type_name).ok_or_else(|| unsupported(type_name))?;
        let mut planned = config.clone();
        let Some(prior) = prior else {
            for (k, a) in &schema.attributes {
                if a.computed && get(config, k).is_none_or(Value::is_null) {
                    set(&mut planned, k, Value::unknown(a.ty.clone()));
                }
            }
            return Ok(PlannedChange { planned, requires_replace: Vec::new() });
        };
        // Computed attributes keep their prior values; `output` follows `name` and `input`.
        for (k, a) in &schema.attributes {
            if a.computed && get(config, k).is_none_or(Value::is_null) {
                set(&mut planned, k, get(prior, k).cloned().unwrap_or_else(|| Value::null(a.ty.clone())));
            }
        }
        let changed = |k: &str| !equal(get(prior, k), get(config, k));
        if changed("name") || changed("input") {
            set(&mut planned, "output", Value::unknown(Type::String));
        }
        let requires_replace = schema
            .attributes
            .iter()
            .filter(|(k, a)| a.requires_replace && changed(k))
            .map(|(k, _)| k.clone())
            .collect();
        Ok(PlannedChange { planned, requires_replace })
    }

    fn apply_resource_change(&self, type_name: &str, prior: Option<&Value>, planned: Option<&Value>) -> Applied {
        if self.resource_schema(type_name).is_none() {
            return Applied { new_state: prior.cloned(), error: Some(unsupported(type_name)) };
        }
        let op = match (prior, planned) {
            (None, _) => Op::Create,
            (Some(_), Some(_)) => Op::Update,
            (Some(_), None) => Op::Delete,
        };
        let name = planned.or(prior).and_then(|v| str_of(v, "name"));
        if let Some(e) = self.options.knobs.rate_limit_error(op, name.as_deref()) {
            return Applied { new_state: prior.cloned(), error: Some(e) };
        }
        match (prior, planned) {
            (None, Some(planned)) => {
                let name = str_of(planned, "name");
                if self.options.fails(Op::Create, name.as_deref()) {
                    let n = name.unwrap_or_default();
                    return Applied {
                        new_state: None,
                        error: Some(ProviderError {
                            summary: format!("mock: injected failure creating {}", python_repr(&n)),
                            detail: format!("MOCK_FAIL_NAME contains {}", python_repr(&n)),
                        }),
                    };
                }
                let (id, output) = derive_for(planned, true);
                let mut st = planned.clone();
                set(&mut st, "id", Value::string(id));
                set(&mut st, "output", Value::string(output));
                Applied { new_state: Some(st), error: None }
            }
            (Some(prior), Some(planned)) => {
                let name = str_of(planned, "name");
                if self.options.fails(Op::Update, name.as_deref()) {
                    return Applied {
                        new_state: Some(prior.clone()),
                        error: Some(ProviderError {
                            summary: format!(
                                "mock: injected failure updating {}",
                                python_repr(&name.unwrap_or_default())
                            ),
                            detail: String::new(),
                        }),
                    };
                }
                let (_, output) = derive_for(planned, true);
                let mut st = planned.clone();
                set(&mut st, "output", Value::string(output));
                set(&mut st, "id", get(prior, "id").cloned().unwrap_or_else(|| Value::null(Type::String)));
                Applied { new_state: Some(st), error: None }
            }
            (Some(prior), None) => {
                let name = str_of(prior, "name");
                if self.options.fails(Op::Delete, name.as_deref()) {
                    return Applied {
                        new_state: Some(prior.clone()),
                        error: Some(ProviderError {
                            summary: format!(
                                "mock: injected failure deleting {}",
                                python_repr(&name.unwrap_or_default())
                            ),
                            detail: String::new(),
                        }),
                    };
                }
                Applied { new_state: None, error: None }
            }
            (None, None) => Applied { new_state: None, error: None },
        }
    }

    fn read_resource(&self, type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError> {
        self.resource_schema(type_name).ok_or_else(|| unsupported(type_name))?;
        if let Some(e) = self.options.knobs.rate_limit_error(Op::Read, str_of(prior, "name").as_deref()) {
            return Err(e);
        }
        Ok(Some(prior.clone()))
    }

    /// Not in the oracle's mock_provider.py, which cannot import: scripts/engine-oracle.py
    /// gives its copy the same answer, the id and nothing else.
    fn import_resource_state(&self, type_name: &str, id: &str) -> Result<Value, ProviderError> {
        let schema = self.resource_schema(type_name).ok_or_else(|| unsupported(type_name))?;
        if let Some(e) = self.options.knobs.rate_limit_error(Op::Import, None) {
            return Err(e);
        }
        Ok(super::imported_object(schema, id))
    }

    fn read_data_source(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError> {
        self.data_source_schema(type_name).ok_or_else(|| unsupported(type_name))?;
        if let Some(e) = self.options.knobs.rate_limit_error(Op::ReadData, str_of(config, "name").as_deref()) {
            return Err(e);
        }
        let (id, output) = derive_for(config, false);
        let mut st = config.clone();
        set(&mut st, "id", Value::string(id));
        set(&mut st, "output", Value::string(output));
        Ok(st)
    }

    fn delay_ms(&self, op: Op, name: Option<&str>) -> u64 {
        delay(&self.options, op, name)
    }

    fn injected_failure(&self, op: Op, address: &str) -> Option<ProviderError> {
        self.options.address_failure(op, address)
    }

    fn schema_document(&self) -> serde_json::Value {
        self.schemas_json()
    }
}

/// Python's `repr` of a string, as the oracle's error texts use it (single quotes unless the
/// string holds one and no double quote).
pub fn python_repr(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::new();
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

fn unsupported(type_name: &str) -> ProviderError {
    ProviderError {
        summary: "Invalid resource type".into(),
        detail: format!("The provider hashicorp/mock does not support resource type \"{type_name}\"."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(pairs: &[(&str, Value)]) -> Value {
        Value::object(pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
    }
    fn input(pairs: &[(&str, &str)]) -> Value {
        Value::map(Type::String, pairs.iter().map(|(k, v)| (k.to_string(), Value::string(*v))).collect())
    }
    fn config(name: &str, inp: Value, force_new: Option<&str>) -> Value {
        obj(&[
            ("name", Value::string(name)),
            ("input", inp),
            ("force_new", force_new.map(Value::string).unwrap_or(Value::null(Type::String))),
            ("id", Value::null(Type::String)),
            ("output", Value::null(Type::String)),
        ])
    }

    #[test]
    fn schemas_are_terraforms() {
        let recorded: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/fixtures/engine/mock-provider-schemas.json")).unwrap();
        assert_eq!(MockProvider::new(MockOptions::default()).schemas_json(), recorded);
    }

    #[test]
    fn derivation_matches_the_readme_examples() {
        assert_eq!(derive(Some("a"), &[("x".into(), Some("1".into()))], None), ("a-00a9bf86".into(), "a[x=1]".into()));
        assert_eq!(derive(Some("root"), &[], None), ("root-47d4a0d0".into(), "root[]".into()));
    }

    #[test]
    fn python_json_escapes_non_ascii() {
        assert_eq!(python_json_string("é\"\n😀"), "\"\\u00e9\\\"\\n\\ud83d\\ude00\"");
    }

    #[test]
    fn create_plans_unknown_computed_then_derives_them() {
        let p = MockProvider::new(MockOptions::default());
        let c = config("a", input(&[("x", "1")]), None);
        let planned = p.plan_resource_change("mock_resource", None, &c).unwrap();
        assert!(!get(&planned.planned, "id").unwrap().is_known());
        assert!(!get(&planned.planned, "output").unwrap().is_known());
        let applied = p.apply_resource_change("mock_resource", None, Some(&planned.planned));
        let st = applied.new_state.unwrap();
        assert_eq!(str_of(&st, "id").as_deref(), Some("a-00a9bf86"));
        assert_eq!(str_of(&st, "output").as_deref(), Some("a[x=1]"));
    }

    #[test]
    fn update_keeps_id_and_force_new_requires_replace() {
        let p = MockProvider::new(MockOptions::default());
        let prior = p
            .apply_resource_change(
                "mock_resource",
                None,
                Some(
                    &p.plan_resource_change("mock_resource", None, &config("a", input(&[("x", "1")]), None))
                        .unwrap()
                        .planned,
                ),
            )
            .new_state
            .unwrap();
        let upd =
            p.plan_resource_change("mock_resource", Some(&prior), &config("a", input(&[("x", "2")]), None)).unwrap();
        assert!(upd.requires_replace.is_empty());
        assert_eq!(str_of(&upd.planned, "id").as_deref(), Some("a-00a9bf86"));
        assert!(!get(&upd.planned, "output").unwrap().is_known());
        let st = p.apply_resource_change("mock_resource", Some(&prior), Some(&upd.planned)).new_state.unwrap();
        assert_eq!(str_of(&st, "output").as_deref(), Some("a[x=2]"));
        assert_eq!(str_of(&st, "id").as_deref(), Some("a-00a9bf86"));
        let same =
            p.plan_resource_change("mock_resource", Some(&prior), &config("a", input(&[("x", "1")]), None)).unwrap();
        assert!(same.planned.raw_equal(&prior));
        let rep = p
            .plan_resource_change("mock_resource", Some(&prior), &config("a", input(&[("x", "1")]), Some("v2")))
            .unwrap();
        assert_eq!(rep.requires_replace, vec!["force_new".to_string()]);
    }

    #[test]
    fn injected_failures_and_their_texts() {
        let opts = MockOptions::from_env([("MOCK_FAIL_NAME", "broken"), ("MOCK_FAIL_OPS", "create,update,delete")]);
        let p = MockProvider::new(opts);
        let c = config("broken", Value::null(Type::map(Type::String)), None);
        let planned = p.plan_resource_change("mock_resource", None, &c).unwrap().planned;
        let a = p.apply_resource_change("mock_resource", None, Some(&planned));
        assert!(a.new_state.is_none());
        let e = a.error.unwrap();
        assert_eq!(e.summary, "mock: injected failure creating 'broken'");
        assert_eq!(e.detail, "MOCK_FAIL_NAME contains 'broken'");
        let prior = obj(&[("name", Value::string("broken")), ("id", Value::string("x"))]);
        let u = p.apply_resource_change("mock_resource", Some(&prior), Some(&c));
        assert_eq!(u.error.unwrap().summary, "mock: injected failure updating 'broken'");
        assert!(u.new_state.unwrap().raw_equal(&prior));
        let d = p.apply_resource_change("mock_resource", Some(&prior), None);
        assert_eq!(d.error.unwrap().summary, "mock: injected failure deleting 'broken'");
        assert!(d.new_state.is_some());
    }

    #[test]
    fn the_last_knob_for_an_operation_wins() {
        let opts = MockOptions::from_env([
            ("MOCK_DELAY_MS_READ", "5"),
            ("MOCK_FAIL_OPS", "update"),
            ("MOCK_DELAY_MS_READ", "7"),
            ("MOCK_FAIL_OPS", "delete,read"),
            ("MOCK_FAIL_NAME", "b"),
        ]);
        assert_eq!(delay(&opts, Op::Read, None), 7);
        assert_eq!(delay(&opts, Op::Update, None), 0);
        assert!(opts.fails(Op::Delete, Some("b")) && opts.fails(Op::Read, Some("b")));
        assert!(!opts.fails(Op::Update, Some("b")) && !opts.fails(Op::Create, Some("b")));
    }

    #[test]
    fn default_fail_ops_is_create_only_and_delays_resolve() {
        let opts = MockOptions::from_env([
            ("MOCK_FAIL_NAME", "b"),
            ("MOCK_DELAY_MS", "300"),
            ("MOCK_DELAY_BY_NAME", "slow=900"),
            ("MOCK_DELAY_MS_READ", "5"),
        ]);
        assert!(opts.fails(Op::Create, Some("b")) && !opts.fails(Op::Update, Some("b")));
        let p = MockProvider::new(opts);
        assert_eq!(p.delay_ms(Op::Create, Some("x")), 300);
        assert_eq!(p.delay_ms(Op::Read, Some("x")), 5);
        assert_eq!(p.delay_ms(Op::Create, Some("slow")), 900);
    }

    #[test]
    fn rate_limits_reach_every_operation_and_lengthen_delays() {
        let p = MockProvider::new(MockOptions::from_env([
            ("MOCK_RATE_LIMIT", "1"),
            ("MOCK_MAX_RETRIES", "1"),
            ("MOCK_DELAY_MS", "50"),
        ]));
        let c = config("a", input(&[]), None);
        let planned = p.plan_resource_change("mock_resource", None, &c).unwrap().planned;
        let a = p.apply_resource_change("mock_resource", None, Some(&planned));
        assert_eq!((a.error.unwrap().summary.as_str(), a.new_state), ("Rate exceeded", None));
        assert_eq!(p.read_resource("mock_resource", &c).unwrap_err().summary, "Rate exceeded");
        assert_eq!(p.read_data_source("mock_data", &c).unwrap_err().summary, "Rate exceeded");
        assert_eq!(p.delay_ms(Op::Create, Some("a")), 50 + 100, "one retry after 100 ms");
        let calm = MockProvider::new(MockOptions::from_env([
            ("MOCK_SEED", "9"),
            ("MOCK_JITTER_MS", "20"),
            ("MOCK_DELAY_MS", "50"),
        ]));
        assert!((30..=70).contains(&calm.delay_ms(Op::Create, Some("a"))));
    }

    #[test]
    fn failures_by_address_name_instances_or_whole_resources() {
        let opts = MockOptions::from_env([(
            "MOCK_FAIL_ADDRESS",
            "aws_instance.web[1], module.m.aws_subnet.a[\"x,y\"], data.d.e, nonsense, module.m[0].r.s",
        )]);
        let texts: Vec<&str> = opts.fail_addresses.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(
            texts,
            ["aws_instance.web[1]", "module.m.aws_subnet.a[\"x,y\"]", "data.d.e", "module.m[0].r.s"],
            "what does not parse is dropped"
        );
        let e = opts.address_failure(Op::Create, "aws_instance.web[1]").unwrap();
        assert_eq!(e.summary, "mock: injected failure creating 'aws_instance.web[1]'");
        assert_eq!(e.detail, "MOCK_FAIL_ADDRESS contains 'aws_instance.web[1]'");
        for (address, fails) in [
            ("aws_instance.web[0]", false),
            ("aws_instance.web", false),
            ("module.m.aws_subnet.a[\"x,y\"]", true),
            ("module.m.aws_subnet.a[\"x\"]", false),
            ("module.n.aws_subnet.a[\"x,y\"]", false),
            ("data.d.e[3]", true),
            ("d.e", false),
            ("module.m[0].r.s[\"k\"]", true),
            ("module.m[1].r.s", false),
            ("module.m[\"k\"].aws_subnet.a[\"x,y\"]", true),
            ("module.m.module.m.aws_subnet.a[\"x,y\"]", false),
        ] {
            assert_eq!(opts.address_failure(Op::Create, address).is_some(), fails, "{address}");
        }
        let whole = opts.address_failure(Op::ReadData, "data.d.e[3]");
        assert!(whole.is_none(), "only failOps' operations (create by default)");
        let mut fail_ops = OpSet::default();
        fail_ops.insert(Op::Delete);
        fail_ops.insert(Op::ReadData);
        let ops = MockOptions { fail_ops, ..opts.clone() };
        assert_eq!(
            ops.address_failure(Op::ReadData, "data.d.e[3]").unwrap().detail,
            "MOCK_FAIL_ADDRESS contains 'data.d.e'"
        );
        assert_eq!(
            ops.address_failure(Op::Delete, "aws_instance.web[1]").unwrap().summary,
            "mock: injected failure deleting 'aws_instance.web[1]'"
        );
        assert!(ops.address_failure(Op::Create, "aws_instance.web[1]").is_none());
        assert!(MockProvider::new(opts.clone()).injected_failure(Op::Create, "aws_instance.web[1]").is_some());
        assert!(MockOptions::default().address_failure(Op::Create, "aws_instance.web[1]").is_none());
    }

    #[test]
    fn address_lists_split_outside_brackets() {
        let split = |s| split_addresses(s).collect::<Vec<_>>();
        assert_eq!(split(" a.b , c.d[0],, "), ["a.b", "c.d[0]"]);
        assert_eq!(split("a.b[\"x,]y\"],c.d"), ["a.b[\"x,]y\"]", "c.d"]);
        assert_eq!(split("a.b[\"q\\\",\"],c.d"), ["a.b[\"q\\\",\"]", "c.d"]);
        assert_eq!(split(""), Vec::<&str>::new());
    }

    #[test]
    fn data_source_reads_keep_null_input() {
        let p = MockProvider::new(MockOptions::default());
        let c = obj(&[
            ("name", Value::string("root")),
            ("input", Value::null(Type::map(Type::String))),
            ("id", Value::null(Type::String)),
            ("output", Value::null(Type::String)),
        ]);
        let st = p.read_data_source("mock_data", &c).unwrap();
        assert_eq!(str_of(&st, "id").as_deref(), Some("root-47d4a0d0"));
        assert!(get(&st, "input").unwrap().is_null());
    }
}
