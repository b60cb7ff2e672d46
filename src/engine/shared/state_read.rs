//! The prior state (state v4 JSON) as the walks read it: its objects by resource, and an
//! object's attributes as a value of its schema's type.

use crate::addrs::{InstanceKey, ResourceMode};
use crate::eval::convert::convert;
use crate::eval::json::from_json;
use crate::eval::{Kind, Value};
use crate::providers::ResourceSchema;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// One object of the prior state.
#[derive(Clone, Debug)]
pub struct PriorObject {
    pub key: Option<InstanceKey>,
    pub deposed: Option<String>,
    pub attributes: Json,
    pub sensitive_paths: Json,
    pub dependencies: Vec<String>,
    pub create_before_destroy: bool,
    pub tainted: bool,
}

/// The prior state's objects by (module, mode, type, name).
pub type PriorIndex = BTreeMap<(String, String, String, String), (String, Vec<PriorObject>)>;

/// [`ResourceMode::as_str`], as plan/nodes.rs keys the prior index with it.
pub fn mode_str(m: ResourceMode) -> &'static str {
    m.as_str()
}

/// The mode a state object's `mode` names (managed unless it says otherwise).
pub fn mode_of(s: &str) -> ResourceMode {
    match s {
        "data" => ResourceMode::Data,
        "ephemeral" => ResourceMode::Ephemeral,
        _ => ResourceMode::Managed,
    }
}

/// Reads the objects of a state v4 JSON value.
pub fn index_state(state: Option<&Json>) -> PriorIndex {
    let mut out = PriorIndex::new();
    let Some(resources) = state.and_then(|s| s.get("resources")).and_then(Json::as_array) else { return out };
    for r in resources {
        let s = |k: &str| r.get(k).and_then(Json::as_str).unwrap_or("").to_string();
        let key = (s("module"), s("mode"), s("type"), s("name"));
        let provider = s("provider");
        let mut objs = Vec::new();
        for i in r.get("instances").and_then(Json::as_array).into_iter().flatten() {
            let ik = match i.get("index_key") {
                // A whole part, as Go's `int(float64)` (the state reader's reading).
                Some(Json::Number(n)) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)).map(InstanceKey::Int),
                Some(Json::String(s)) => Some(InstanceKey::Str(s.clone())),
                _ => None,
            };
            objs.push(PriorObject {
                key: ik,
                deposed: i.get("deposed").and_then(Json::as_str).map(String::from),
                attributes: i.get("attributes").cloned().unwrap_or(Json::Null),
                sensitive_paths: i.get("sensitive_attributes").cloned().unwrap_or(Json::Null),
                dependencies: i
                    .get("dependencies")
                    .and_then(Json::as_array)
                    .map(|a| a.iter().filter_map(|d| d.as_str().map(String::from)).collect())
                    .unwrap_or_default(),
                create_before_destroy: i.get("create_before_destroy").and_then(Json::as_bool).unwrap_or(false),
                tainted: i.get("status").and_then(Json::as_str) == Some("tainted"),
            });
        }
        out.insert(key, (provider, objs));
    }
    out
}

/// A state object's attributes as a value of the schema's type, sensitive where the state
/// says (`sensitive_attributes` paths).
pub fn object_value(o: &PriorObject, schema: Option<&ResourceSchema>) -> Value {
    let v = from_json(&o.attributes);
    let mut v = match schema {
        Some(s) => convert(&v, &s.object_type()).unwrap_or(v),
        None => v,
    };
    for path in o.sensitive_paths.as_array().into_iter().flatten() {
        let steps: Vec<String> = path
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|st| {
                let x = st.get("value")?;
                let x = x.get("value").unwrap_or(x);
                x.as_str().map(String::from).or_else(|| x.as_i64().map(|i| i.to_string()))
            })
            .collect();
        mark_path(&mut v, &steps);
    }
    v
}

fn mark_path(v: &mut Value, steps: &[String]) {
    let Some((first, rest)) = steps.split_first() else {
        v.sensitive = true;
        return;
    };
    match &mut v.kind {
        Kind::Object(m) | Kind::Map(_, m) => {
            if let Some(x) = m.get_mut(first) {
                mark_path(x, rest);
            }
        }
        Kind::List(_, items) | Kind::Tuple(items) | Kind::Set(_, items) => {
            if let Some(x) = first.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                mark_path(x, rest);
            }
        }
        _ => {}
    }
}
