//! Values from JSON: API inputs, `.tfvars.json` files, and resource attributes from a state v4
//! object (cty's implied types: objects, tuples, numbers, strings, bools, null).

use super::number::Number;
use super::types::Type;
use super::value::Value;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// A JSON value as cty reads it without a type (`ImpliedType`): objects become objects,
/// arrays tuples.
pub fn from_json(j: &Json) -> Value {
    match j {
        Json::Null => Value::null(Type::Dynamic),
        Json::Bool(b) => Value::bool(*b),
        Json::Number(n) => Value::number(Number::parse(&n.to_string()).unwrap_or_else(Number::zero)),
        Json::String(s) => Value::string(s.clone()),
        Json::Array(items) => Value::tuple(items.iter().map(from_json).collect()),
        Json::Object(m) => {
            Value::object(crate::util::sort::btree_map(m.iter().map(|(k, v)| (k.clone(), from_json(v)))))
        }
    }
}

/// A resource's value from a state v4 object: one instance's attributes as an object, a
/// tuple of them for `count`, an object keyed by instance key for `for_each`. `None` when the
/// state has no such resource.
pub fn resource_from_state(state: &Json, module: &str, mode: &str, type_name: &str, name: &str) -> Option<Value> {
    let resources = state.get("resources")?.as_array()?;
    let r = resources.iter().find(|r| {
        r.get("module").and_then(Json::as_str).unwrap_or("") == module
            && r.get("mode").and_then(Json::as_str) == Some(mode)
            && r.get("type").and_then(Json::as_str) == Some(type_name)
            && r.get("name").and_then(Json::as_str) == Some(name)
    })?;
    let instances: Vec<&Json> = r.get("instances")?.as_array()?.iter().filter(|i| i.get("deposed").is_none()).collect();
    let attrs = |i: &Json| i.get("attributes").map(from_json).unwrap_or_else(|| Value::object(BTreeMap::new()));
    // Terraform 0.12 wrote `each`; later versions leave it out, and the instances' keys say it:
    // numbers for count, strings for for_each, none for a single instance.
    let each = r.get("each").and_then(Json::as_str).or_else(|| match instances.first()?.get("index_key")? {
        Json::Number(_) => Some("list"),
        Json::String(_) => Some("map"),
        _ => None,
    });
    Some(match each {
        Some("list") => {
            let mut items: Vec<(i64, Value)> =
                instances.iter().map(|i| (i.get("index_key").and_then(Json::as_i64).unwrap_or(0), attrs(i))).collect();
            crate::util::sort::sort_by_key(&mut items, |(k, _)| *k);
            Value::tuple(items.into_iter().map(|(_, v)| v).collect())
        }
        Some("map") => Value::object(crate::util::sort::btree_map(
            instances.iter().map(|i| (i.get("index_key").and_then(Json::as_str).unwrap_or("").to_string(), attrs(i))),
        )),
        _ => instances.first().map(|i| attrs(i)).unwrap_or_else(Value::dynamic),
    })
}
