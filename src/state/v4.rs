//! Terraform state v4 JSON (`terraform.tfstate`, `internal/states/statefile/version4.go`) to
//! the [`State`] graph building reads.
//!
//! Read: `version` (must be 4), root `outputs` (names only), and every resource's `module`,
//! `mode`, `type`, `name`, `each`, `provider` and `instances[]` with `index_key`, `status`,
//! `deposed`, `dependencies`, `create_before_destroy`. Attributes, private data and identities
//! are ignored: graphs do not need them. Malformed input gives Terraform's diagnostics
//! (`Unsupported state file format`, `Invalid resource instance metadata in state`, …) and
//! the offending resource or instance is skipped; nothing panics.

use super::diagnostics as diag;
use super::{State, StateObject};
use crate::addrs::{parse_module_instance, InstanceAddr, InstanceKey, ResourceAddr, ResourceMode};
use crate::diag::Diagnostics;
use crate::util::shared::StrInterner;
use crate::util::{FastMap, FastSet, SharedStr};
use serde::de::DeserializeSeed;
use serde::Deserialize;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashSet;

/// Parses state JSON text. See [`state_from_value`].
///
/// Only what [`state_from_value`] reads is kept from the text, borrowed where it can be
/// ([`Lean`], [`J`]): a state is mostly resource attributes and output values, which graphs
/// never look at, and building the whole document as a JSON tree first cost more time and
/// memory than the rest of reading it.
pub fn parse_state(text: &str) -> (State, Diagnostics) {
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = Lean::Top.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    match parsed {
        Ok(v) => state_from_json(&v),
        Err(e) => {
            let mut d = Diagnostics::new();
            d.push(diag::not_json(&e));
            (State::default(), d)
        }
    }
}

/// Converts a parsed state v4 object into a [`State`], with diagnostics for what cannot be
/// read. An unsupported `version` gives an empty state and one error.
///
/// # Complexity
/// O(size of the JSON).
pub fn state_from_value(v: &Value) -> (State, Diagnostics) {
    state_from_json(&J::from_value_lean(v, Lean::Top))
}

/// A JSON value as reading a state needs it: strings borrowed from the text (or from a
/// `serde_json::Value`) where they can be, objects as short lists of members (the last of
/// duplicate keys wins, as in `serde_json::Value`), everything else as a `Value`.
#[derive(Debug)]
enum J<'a> {
    Str(Cow<'a, str>),
    Arr(Vec<J<'a>>),
    Obj(Vec<(Cow<'a, str>, J<'a>)>),
    Other(Value),
}

const NULL: J<'static> = J::Other(Value::Null);

impl<'a> J<'a> {
    /// `v` as [`J`], keeping only what reading a state at `place` reads (as [`parse_state`]
    /// keeps from text): a state's attributes are not copied.
    fn from_value_lean(v: &'a Value, place: Lean) -> J<'a> {
        match v {
            Value::String(s) => J::Str(Cow::Borrowed(s)),
            Value::Array(a) => J::Arr(a.iter().map(|x| J::from_value_lean(x, place.element())).collect()),
            Value::Object(o) => J::Obj(
                o.iter()
                    .filter_map(|(k, v)| match place {
                        Lean::Outputs => Some((Cow::Borrowed(k.as_str()), NULL)),
                        _ => place.member(k).map(|m| (Cow::Borrowed(k.as_str()), J::from_value_lean(v, m))),
                    })
                    .collect(),
            ),
            other => J::Other(other.clone()),
        }
    }

    /// The value as a `serde_json::Value` (for messages that print it).
    fn to_value(&self) -> Value {
        match self {
            J::Str(s) => Value::String(s.to_string()),
            J::Arr(a) => Value::Array(a.iter().map(J::to_value).collect()),
            J::Obj(o) => {
                Value::Object(crate::util::sort::json_map(o.iter().map(|(k, v)| (k.to_string(), v.to_value()))))
            }
            J::Other(v) => v.clone(),
        }
    }

    fn get(&self, key: &str) -> Option<&J<'a>> {
        match self {
            J::Obj(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            J::Str(s) => Some(s),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<&[J<'a>]> {
        match self {
            J::Arr(a) => Some(a),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self, J::Other(Value::Null))
    }
}

impl std::fmt::Display for J<'_> {
    /// As JSON, like `serde_json::Value`'s `Display`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.to_value(), f)
    }
}

/// Terraform's `sniffJSONStateVersion` and `readState`: the errors of a state whose version is
/// not 4 (none when it is).
fn version_diagnostics(v: &J) -> Diagnostics {
    let mut diags = Diagnostics::new();
    if !matches!(v, J::Obj(_)) {
        // Go decodes the top level into a struct: a type error, then no version.
        if !v.is_null() {
            let kind = match v {
                J::Str(_) => "string",
                J::Arr(_) => "array",
                J::Obj(_) => "object",
                J::Other(x) => super::shape::go_kind(x),
            };
            diags.push(diag::version_not_a_number(kind));
        }
        diags.push(diag::missing_version());
        return diags;
    }
    match v.get("version").map(J::to_value) {
        None | Some(Value::Null) => diags.push(diag::missing_version()),
        Some(Value::Number(n)) => match n.as_u64() {
            Some(4) => {}
            Some(0) => diags.push(diag::version_zero()),
            Some(v) if v < 4 => diags.push(diag::version_too_old(v)),
            Some(v) => diags.push(diag::version_too_new(v)),
            // Go's UnmarshalTypeError: a number that is no uint64 by its text, anything else by kind.
            None => diags.push(diag::version_not_a_number(&format!("number {n}"))),
        },
        Some(other) => diags.push(diag::version_not_a_number(super::shape::go_kind(&other))),
    }
    diags
}

/// Whether a state value is version 4; else Terraform's errors for it.
pub(super) fn check_version(v: &Value) -> Diagnostics {
    version_diagnostics(&J::from_value_lean(v, Lean::Top))
}

fn state_from_json(v: &J) -> (State, Diagnostics) {
    let mut state = State::default();
    let mut diags = version_diagnostics(v);
    if diags.has_errors() {
        return (state, diags);
    }
    if let Some(J::Obj(outputs)) = v.get("outputs") {
        state.outputs = outputs.iter().map(|(k, _)| k.to_string()).collect();
        crate::util::sort::sort(&mut state.outputs);
        state.outputs.dedup();
    }
    let resources = match v.get("resources") {
        None => return (state, diags),
        Some(r) if r.is_null() => return (state, diags),
        Some(J::Arr(a)) => a,
        Some(_) => {
            diags.push(diag::resources_not_array());
            return (state, diags);
        }
    };
    let mut read = Reader::default();
    for r in resources {
        read.resource(r, &mut state, &mut diags);
    }
    (state, diags)
}

/// Where in a state document a value sits, and so which of its parts reading a state uses: a
/// value is read into a [`J`] with everything else skipped (`IgnoredAny`: parsed and checked,
/// not kept). Values of an unexpected type are kept whole, for the diagnostics.
#[derive(Clone, Copy)]
enum Lean {
    /// The document: `version`, `outputs` (their names), `resources`.
    Top,
    /// `outputs`: the names only (values become `null`).
    Outputs,
    /// `resources[]`.
    Resources,
    /// One resource: `module`, `mode`, `type`, `name`, `each`, `provider`, `instances`.
    Resource,
    /// `instances[]`.
    Instances,
    /// One instance object: `index_key`, `status`, `deposed`, `dependencies`,
    /// `create_before_destroy`.
    Instance,
    /// A value read whole.
    Whole,
}

impl Lean {
    /// What a key of an object at this place holds: `None` for keys nothing reads.
    fn member(self, key: &str) -> Option<Lean> {
        let keep = |keys: &[&str]| keys.contains(&key).then_some(Lean::Whole);
        match self {
            Lean::Top => match key {
                "outputs" => Some(Lean::Outputs),
                "resources" => Some(Lean::Resources),
                _ => keep(&["version"]),
            },
            Lean::Resource if key == "instances" => Some(Lean::Instances),
            Lean::Resource => keep(&["module", "mode", "type", "name", "each", "provider"]),
            Lean::Instance => keep(&["index_key", "status", "deposed", "dependencies", "create_before_destroy"]),
            _ => Some(Lean::Whole),
        }
    }

    /// What an element of an array at this place is.
    fn element(self) -> Lean {
        match self {
            Lean::Resources => Lean::Resource,
            Lean::Instances => Lean::Instance,
            _ => Lean::Whole,
        }
    }
}

/// An object key, borrowed from the text when it has no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> DeserializeSeed<'de> for Lean {
    type Value = J<'de>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<J<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Lean {
    type Value = J<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<J<'de>, A::Error> {
        let mut out = Vec::new();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            // A number, as serde_json hands one over with `arbitrary_precision` (its text under
            // this key): read back as the number it is.
            if key == "$serde_json::private::Number" {
                let text: String = map.next_value()?;
                let n = serde_json::from_str::<Value>(&text).map_err(serde::de::Error::custom)?;
                return Ok(J::Other(n));
            }
            let seed = match self {
                Lean::Outputs => None,
                _ => self.member(&key),
            };
            match seed {
                Some(seed) => {
                    let v = map.next_value_seed(seed)?;
                    out.push((key, v));
                }
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                    if let Lean::Outputs = self {
                        out.push((key, NULL));
                    }
                }
            }
        }
        Ok(J::Obj(out))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<J<'de>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element_seed(self.element())? {
            out.push(v);
        }
        Ok(J::Arr(out))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<J<'de>, E> {
        Ok(J::Str(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<J<'de>, E> {
        Ok(J::Str(Cow::Owned(v.to_string())))
    }
    fn visit_string<E>(self, v: String) -> Result<J<'de>, E> {
        Ok(J::Str(Cow::Owned(v)))
    }
    // Like `serde_json::Value`'s own visitor.
    fn visit_bool<E>(self, v: bool) -> Result<J<'de>, E> {
        Ok(J::Other(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<J<'de>, E> {
        Ok(J::Other(Value::from(v)))
    }
    fn visit_u64<E>(self, v: u64) -> Result<J<'de>, E> {
        Ok(J::Other(Value::from(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<J<'de>, E> {
        Ok(J::Other(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)))
    }
    fn visit_unit<E>(self) -> Result<J<'de>, E> {
        Ok(NULL)
    }
    fn visit_none<E>(self) -> Result<J<'de>, E> {
        Ok(NULL)
    }
}

fn str_field<'a>(v: &'a J, key: &str) -> Option<&'a str> {
    v.get(key).and_then(J::as_str)
}

/// What reading one state remembers across resources: the instances seen (duplicates are
/// errors), one shared copy of each module, resource, provider and dependency address (a state
/// repeats them for every object), each checked once, and module instances parsed once each.
#[derive(Default)]
struct Reader {
    seen: HashSet<(SharedStr, SharedStr, Option<InstanceKey>, Option<String>)>,
    names: StrInterner,
    valid_providers: FastSet<SharedStr>,
    valid_dependencies: FastSet<SharedStr>,
    modules: FastMap<String, Result<(ModuleSteps, SharedStr), String>>,
}

type ModuleSteps = Vec<(String, Option<InstanceKey>)>;

impl Reader {
    fn resource(&mut self, r: &J, state: &mut State, diags: &mut Diagnostics) {
        read_resource(r, state, self, diags)
    }

    /// The parsed module instance (`module.a[0]`) and its printed form, once per text.
    fn module(&mut self, text: &str) -> &Result<(ModuleSteps, SharedStr), String> {
        if !self.modules.contains_key(text) {
            let parsed = parse_module_instance(text).map(|steps| {
                let printed = self.names.str(&crate::addrs::module_instance_text(&steps));
                (steps, printed)
            });
            self.modules.insert(text.to_string(), parsed);
        }
        &self.modules[text]
    }
}

fn read_resource(r: &J, state: &mut State, read: &mut Reader, diags: &mut Diagnostics) {
    let type_name = str_field(r, "type").unwrap_or_default();
    let name = str_field(r, "name").unwrap_or_default();
    let mode_text = str_field(r, "mode").unwrap_or_default();
    let mode = match mode_text {
        "managed" => ResourceMode::Managed,
        "data" => ResourceMode::Data,
        _ => {
            diags.push(diag::invalid_mode(mode_text, type_name, name));
            return;
        }
    };
    let module_text = str_field(r, "module").unwrap_or_default();
    let (module, module_instance) = match read.module(module_text) {
        Ok((steps, printed)) => (steps.clone(), printed.clone()),
        Err(e) => {
            diags.push(diag::invalid_module_instance(module_text, e));
            return;
        }
    };
    if type_name.is_empty() || name.is_empty() {
        diags.push(diag::missing_type_or_name(type_name, name));
        return;
    }
    let provider = read.names.str(str_field(r, "provider").unwrap_or_default());
    if !read.valid_providers.contains(&provider) && crate::addrs::AbsProviderConfig::parse(&provider).is_none() {
        diags.push(diag::invalid_provider(&provider, type_name, name));
        return;
    }
    read.valid_providers.insert(provider.clone());
    let resource = ResourceAddr { mode, type_name: type_name.into(), name: name.into() };
    let resource_text = read.names.str(&resource.to_string());
    let base = || InstanceAddr { module: module.clone(), resource: resource.clone(), key: None };
    let each = str_field(r, "each");
    let Some(instances) = r.get("instances").and_then(J::as_array) else { return };
    for inst in instances {
        let key = match inst.get("index_key") {
            None => None,
            Some(k) if k.is_null() => None,
            // Go reads a JSON number as a float64 and keeps its whole part (`int(tk)`).
            Some(J::Other(Value::Number(n))) if n.as_f64().is_some() && each != Some("map") => {
                Some(InstanceKey::Int(n.as_i64().unwrap_or_else(|| n.as_f64().unwrap_or(0.0) as i64)))
            }
            Some(J::Str(s)) if each != Some("list") => Some(InstanceKey::Str(s.to_string())),
            Some(other) => {
                diags.push(diag::invalid_instance_key(base(), &other.to_string()));
                continue;
            }
        };
        let addr = || InstanceAddr { key: key.clone(), ..base() };
        if let Some(status) = str_field(inst, "status") {
            if status != "tainted" {
                diags.push(diag::invalid_status(addr(), status));
                continue;
            }
        }
        let deposed = match inst.get("deposed") {
            None => None,
            Some(d) if d.is_null() => None,
            Some(J::Str(dk)) if dk.is_empty() => None,
            Some(J::Str(dk)) if dk.len() == 8 && dk.bytes().all(|b| b.is_ascii_hexdigit()) => Some(dk.to_string()),
            Some(other) => {
                let dk = other.as_str().map(str::to_string).unwrap_or_else(|| other.to_string());
                diags.push(diag::invalid_deposed_key(addr(), &dk));
                continue;
            }
        };
        // The printed address identifies an instance; its parts do too, without printing it.
        if !read.seen.insert((module_instance.clone(), resource_text.clone(), key.clone(), deposed.clone())) {
            diags.push(diag::duplicate_instance(addr(), deposed.as_deref()));
            continue;
        }
        let mut dependencies: Vec<SharedStr> = Vec::new();
        if let Some(deps) = inst.get("dependencies").and_then(J::as_array) {
            for d in deps {
                let text = d.as_str().unwrap_or_default();
                if let Some(known) = read.valid_dependencies.get(text) {
                    dependencies.push(known.clone());
                    continue;
                }
                match InstanceAddr::parse_config_resource(text) {
                    Ok(_) => {
                        let shared = read.names.str(text);
                        read.valid_dependencies.insert(shared.clone());
                        dependencies.push(shared);
                    }
                    Err(e) => diags.push(diag::invalid_dependency(addr(), text, &e)),
                }
            }
        }
        crate::util::sort::sort(&mut dependencies);
        dependencies.dedup();
        let create_before_destroy = matches!(inst.get("create_before_destroy"), Some(J::Other(Value::Bool(true))));
        state.resources.push(StateObject {
            module: module_instance.clone(),
            resource: resource_text.clone(),
            key: key.as_ref().map(|k| k.to_string()),
            provider: provider.clone(),
            dependencies: dependencies.into(),
            create_before_destroy,
            deposed,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_real_state() {
        let (s, d) = parse_state(
            r#"{"version":4,"terraform_version":"1.15.0","serial":3,"lineage":"x","outputs":{"b":{"value":1,"type":"number"}},
            "resources":[{"module":"module.a[0]","mode":"managed","type":"aws_instance","name":"web","each":"list",
              "provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
              "instances":[{"index_key":1,"schema_version":0,"attributes":{"id":"i"},"dependencies":["module.a.aws_vpc.v"],"create_before_destroy":true},
                           {"index_key":1,"deposed":"0a1b2c3d","attributes":{}}]}]}"#,
        );
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(s.outputs, ["b"]);
        assert_eq!(s.resources.len(), 2);
        assert_eq!(s.resources[0].module, "module.a[0]");
        assert_eq!(s.resources[0].key.as_deref(), Some("[1]"));
        assert!(s.resources[0].create_before_destroy);
        assert_eq!(s.resources[1].deposed.as_deref(), Some("0a1b2c3d"));
    }

    #[test]
    fn malformed_states_give_terraform_diagnostics() {
        let cases = [
            ("{}", "does not have a \"version\""),
            ("{\"version\":5}", "format version 5, which is not supported by Terraform 1.15"),
            ("{\"version\":3}", "format version 3, which tfgraph does not read"),
            ("{\"version\":\"4\"}", "A positive whole number is required"),
            ("[", "syntax error"),
            (
                r#"{"version":4,"resources":[{"mode":"weird","type":"a","name":"b","provider":"provider[\"x\"]"}]}"#,
                "mode \"weird\"",
            ),
            (
                r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","each":"list","provider":"provider[\"x\"]","instances":[{"index_key":"k"}]}]}"#,
                "invalid instance key \"k\"",
            ),
            (
                r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]","instances":[{"deposed":"xyz"}]}]}"#,
                "deposed key \"xyz\"",
            ),
            (
                r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]","instances":[{},{}]}]}"#,
                "appears multiple times",
            ),
            (
                r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]","instances":[{"dependencies":["a.b[0]"]}]}]}"#,
                "invalid dependency \"a.b[0]\"",
            ),
            (
                r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"nope","instances":[{}]}]}"#,
                "invalid provider config address",
            ),
            (
                r#"{"version":4,"resources":[{"module":"mod.x","mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]"}]}"#,
                "invalid module instance address",
            ),
            (
                r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]","instances":[{"status":"gone"}]}]}"#,
                "invalid status \"gone\"",
            ),
        ];
        for (text, want) in cases {
            let (_, d) = parse_state(text);
            assert!(d.has_errors(), "{text}");
            let all: Vec<String> = d.iter().map(|d| format!("{}: {}", d.summary, d.detail)).collect();
            assert!(all.iter().any(|s| s.contains(want)), "{text}: {all:?}");
        }
    }

    /// Reading text (borrowed, attributes skipped) and reading a parsed `Value` agree on the
    /// state and on every diagnostic, whatever the input's shape.
    #[test]
    fn text_and_value_read_the_same() {
        let cases = [
            r#"{"version":4,"outputs":{"b":{"value":1},"a":{}},"resources":[{"module":"module.a[0]","mode":"managed","type":"t","name":"n","each":"list",
              "provider":"provider[\"registry.terraform.io/hashicorp/t\"]","attributes_ignored":{"x":[1,2]},
              "instances":[{"index_key":1,"attributes":{"id":"i","nested":{"deep":[{"a":"\u0041"}]}},"private":"eA==","dependencies":["module.a.t.m","t.z","t.z"],"create_before_destroy":true},
                           {"index_key":1,"deposed":"0a1b2c3d"},{"index_key":1,"deposed":"0a1b2c3d"},{"index_key":2,"status":"tainted"},{"index_key":[1]},{"index_key":"s"},{"deposed":7}]},
              {"mode":"data","type":"d","name":"x","provider":"provider[\"registry.terraform.io/hashicorp/d\"]","instances":[{"dependencies":["bad[0]",3]}]},
              {"mode":"managed","type":"\u0074","name":"esc","provider":"provider[\"x\"]","instances":{}},
              7, {"mode":"managed","mode":"data","type":"dup","name":"keys","provider":"provider[\"x\"]","instances":[{}]}]}"#,
            r#"{"version":4,"outputs":[],"resources":null}"#,
            r#"{"version":4.0}"#,
            r#"{"version":"4","resources":{}}"#,
            r#"[1,2]"#,
            r#""text""#,
        ];
        for text in cases {
            let value: Value = serde_json::from_str(text).unwrap();
            let (a, da) = parse_state(text);
            let (b, db) = state_from_value(&value);
            assert_eq!(a, b, "{text}");
            let show = |d: &Diagnostics| d.iter().map(|d| format!("{}: {}", d.summary, d.detail)).collect::<Vec<_>>();
            assert_eq!(show(&da), show(&db), "{text}");
        }
    }
}
