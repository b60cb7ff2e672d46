//! Values and schemas as a provider written in JavaScript sees them (the package's
//! `JsProvider` contract, `pkg/index.d.ts`): an object as plain JSON with `null` for unset and
//! unknown parts, beside an `unknown` tree in the shape of plan JSON's `after_unknown`; schemas
//! as `{ resources, data_sources }` of `{ version, attributes: { name: { type, optional,
//! computed, required, sensitive, requires_replace } } }`. Pure data, no JS: the bindings carry
//! it across, and native tests check it.

use super::{AttributeSchema, ResourceSchema};
use crate::eval::convert::convert;
use crate::eval::json::from_json;
use crate::eval::value_json::{type_from_json, unknown_as_bool};
use crate::eval::{Kind, Type, Value};
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeMap;

/// `{ value, unknown }` for a value (sensitive marks are not sent, as Terraform strips them
/// before a provider call).
pub fn to_wire(v: &Value) -> Json {
    json!({"value": plain(v), "unknown": unknown_as_bool(v)})
}

/// The value as JSON, `null` for null and unknown parts, every object key kept.
fn plain(v: &Value) -> Json {
    match &v.kind {
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => {
            Json::Array(items.iter().map(plain).collect())
        }
        Kind::Map(_, m) | Kind::Object(m) => {
            Json::Object(crate::util::sort::json_map(m.iter().map(|(k, x)| (k.clone(), plain(x)))))
        }
        _ => crate::eval::value_json::value(v),
    }
}

/// A `{ value, unknown }` answer as a value of type `ty`; `Err` says what is wrong with it.
pub fn from_wire(j: &Json, ty: &Type) -> Result<Value, String> {
    let Some(obj) = j.as_object() else {
        return Err(format!("expected an object {{ value, unknown }}, got {}", kind_of(j)));
    };
    let value = obj.get("value").ok_or("the object has no `value`")?;
    if !value.is_object() {
        return Err(format!("`value` must be an object of the type's attributes, got {}", kind_of(value)));
    }
    // An attribute left out is unset (null), as the contract says.
    let mut filled = value.clone();
    if let (Type::Object(attrs), Some(m)) = (ty, filled.as_object_mut()) {
        for name in attrs.keys() {
            m.entry(name.clone()).or_insert(Json::Null);
        }
    }
    let mut v = convert(&from_json(&filled), ty).map_err(|e| format!("`value` does not fit the schema: {e}"))?;
    if let Some(u) = obj.get("unknown").filter(|u| !u.is_null()) {
        mark_unknown(&mut v, u).map_err(|e| format!("`unknown`: {e}"))?;
    }
    Ok(v)
}

fn kind_of(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// Makes the parts `marks` flags `true` unknown (keeping their types).
fn mark_unknown(v: &mut Value, marks: &Json) -> Result<(), String> {
    match marks {
        Json::Bool(true) => {
            *v = Value::unknown(v.ty());
            Ok(())
        }
        Json::Bool(false) => Ok(()),
        Json::Object(m) => {
            let (Kind::Object(attrs) | Kind::Map(_, attrs)) = &mut v.kind else {
                return Err("an object of marks where the value is not an object or map".into());
            };
            for (k, mk) in m {
                let x = attrs.get_mut(k).ok_or_else(|| format!("marks an attribute `{k}` the value does not have"))?;
                mark_unknown(x, mk)?;
            }
            Ok(())
        }
        Json::Array(items) => {
            let (Kind::List(_, xs) | Kind::Tuple(xs) | Kind::Set(_, xs)) = &mut v.kind else {
                return Err("an array of marks where the value is not a list".into());
            };
            if items.len() != xs.len() {
                return Err("an array of marks of another length than the value".into());
            }
            for (x, mk) in xs.iter_mut().zip(items) {
                mark_unknown(x, mk)?;
            }
            Ok(())
        }
        other => Err(format!("marks must be booleans, arrays or objects, got {}", kind_of(other))),
    }
}

/// Marks `answer` sensitive wherever `config` is (Terraform re-applies the configuration's
/// marks to what a provider plans, since providers never see them).
pub fn remark(answer: Value, config: &Value) -> Value {
    if config.sensitive {
        return answer.mark(true);
    }
    let mut answer = answer;
    match (&mut answer.kind, &config.kind) {
        (Kind::Object(a) | Kind::Map(_, a), Kind::Object(c) | Kind::Map(_, c)) => {
            for (k, cv) in c {
                if let Some(av) = a.remove(k) {
                    a.insert(k.clone(), remark(av, cv));
                }
            }
        }
        (Kind::List(_, a) | Kind::Tuple(a), Kind::List(_, c) | Kind::Tuple(c)) if a.len() == c.len() => {
            let items = std::mem::take(a);
            *a = items.into_iter().zip(c).map(|(av, cv)| remark(av, cv)).collect();
        }
        _ => {}
    }
    answer
}

/// The schemas a JS provider's `schema()` returns: (resource types, data sources).
pub type Schemas = (BTreeMap<String, ResourceSchema>, BTreeMap<String, ResourceSchema>);

/// Reads `{ resources, data_sources }`; `Err` says what is malformed.
pub fn schemas_from_json(j: &Json) -> Result<Schemas, String> {
    let Some(obj) = j.as_object() else {
        return Err(format!("schema() must return an object {{ resources, data_sources }}, got {}", kind_of(j)));
    };
    let group = |key: &str| -> Result<BTreeMap<String, ResourceSchema>, String> {
        let Some(g) = obj.get(key).filter(|g| !g.is_null()) else { return Ok(BTreeMap::new()) };
        let g = g.as_object().ok_or_else(|| format!("schema().{key} must be an object of type name to schema"))?;
        g.iter()
            .map(|(name, s)| Ok((name.clone(), resource_schema(s).map_err(|e| format!("schema().{key}.{name}: {e}"))?)))
            .collect::<Result<Vec<_>, _>>()
            .map(crate::util::sort::btree_map)
    };
    Ok((group("resources")?, group("data_sources")?))
}

/// `schema().provider`: the provider block's own schema (`None`: not declared).
pub fn provider_schema_from_json(j: &Json) -> Result<Option<ResourceSchema>, String> {
    match j.get("provider") {
        None | Some(Json::Null) => Ok(None),
        Some(p) => resource_schema(p).map(Some).map_err(|e| format!("schema().provider: {e}")),
    }
}

fn resource_schema(j: &Json) -> Result<ResourceSchema, String> {
    let version = match j.get("version") {
        None | Some(Json::Null) => 0,
        Some(v) => v.as_u64().ok_or("`version` must be a whole number")?,
    };
    let attrs = j.get("attributes").and_then(Json::as_object).ok_or("`attributes` must be an object")?;
    let mut attributes = BTreeMap::new();
    for (name, a) in attrs {
        let ty = a.get("type").and_then(type_from_json).ok_or_else(|| {
            format!("attribute `{name}` has no valid `type` (\"string\", [\"list\",\"string\"], ...)")
        })?;
        let flag = |k: &str| a.get(k).and_then(Json::as_bool).unwrap_or(false);
        let (required, computed) = (flag("required"), flag("computed"));
        let optional = flag("optional") || (!required && !computed);
        attributes.insert(
            name.clone(),
            AttributeSchema {
                ty,
                optional,
                computed,
                required,
                sensitive: flag("sensitive"),
                requires_replace: flag("requires_replace"),
            },
        );
    }
    Ok(ResourceSchema { version, attributes, blocks: Default::default() })
}

/// `terraform providers schema -json`'s entry for one provider (what the plan renderer reads).
pub fn schemas_json(
    resources: &BTreeMap<String, ResourceSchema>,
    data_sources: &BTreeMap<String, ResourceSchema>,
) -> Json {
    let block = |s: &ResourceSchema| {
        let attrs: Map<String, Json> = crate::util::sort::json_map(s.attributes.iter().map(|(k, a)| {
            let mut m = Map::new();
            m.insert("type".into(), crate::eval::value_json::type_json(&a.ty));
            m.insert("description_kind".into(), json!("plain"));
            for (flag, on) in [
                ("required", a.required),
                ("optional", a.optional),
                ("computed", a.computed),
                ("sensitive", a.sensitive),
            ] {
                if on {
                    m.insert(flag.into(), json!(true));
                }
            }
            (k.clone(), Json::Object(m))
        }));
        json!({"version": s.version, "block": {"attributes": attrs, "description_kind": "plain"}})
    };
    json!({
        "resource_schemas": crate::util::sort::json_map(resources.iter().map(|(k, s)| (k.clone(), block(s)))),
        "data_source_schemas": crate::util::sort::json_map(data_sources.iter().map(|(k, s)| (k.clone(), block(s)))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty() -> Type {
        Type::Object(
            [("id".to_string(), Type::String), ("tags".to_string(), Type::map(Type::String))].into_iter().collect(),
        )
    }

    #[test]
    fn round_trips_unknowns() {
        let v = Value::object(
            [
                ("id".to_string(), Value::unknown(Type::String)),
                (
                    "tags".to_string(),
                    Value::map(Type::String, [("a".to_string(), Value::string("x"))].into_iter().collect()),
                ),
            ]
            .into_iter()
            .collect(),
        );
        let w = to_wire(&v);
        // A known map is marked `{}`, as plan JSON's after_unknown marks it.
        assert_eq!(w, json!({"value": {"id": null, "tags": {"a": "x"}}, "unknown": {"id": true, "tags": {}}}));
        let back = from_wire(&w, &ty()).unwrap();
        assert!(back.raw_equal(&v));
    }

    #[test]
    fn refuses_garbage_with_a_reason() {
        for (bad, why) in [
            (json!(42), "expected an object"),
            (json!({"value": "x"}), "`value` must be an object"),
            (json!({"value": {"id": {"deep": 1}}}), "does not fit the schema"),
            (json!({"value": {"id": "a"}, "unknown": {"nope": true}}), "`nope`"),
            (json!({"value": {"id": "a"}, "unknown": 3}), "marks must be"),
        ] {
            let e = from_wire(&bad, &ty()).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn reads_schemas() {
        let (r, d) = schemas_from_json(&json!({"resources": {"aws_instance": {"attributes": {"ami": {"type": "string", "required": true}, "id": {"type": "string", "computed": true}}}}})).unwrap();
        assert!(r["aws_instance"].attributes["ami"].required);
        assert!(r["aws_instance"].attributes["id"].computed);
        assert!(d.is_empty());
        assert!(schemas_from_json(&json!({"resources": {"x": {"attributes": {"a": {"type": "strin"}}}}}))
            .unwrap_err()
            .contains("`a`"));
    }

    #[test]
    fn remarks_sensitive_parts() {
        let cfg = Value::object(
            [
                ("id".to_string(), Value::null(Type::String)),
                ("tags".to_string(), Value::map(Type::String, Default::default()).mark(true)),
            ]
            .into_iter()
            .collect(),
        );
        let ans = Value::object(
            [
                ("id".to_string(), Value::string("i")),
                ("tags".to_string(), Value::map(Type::String, Default::default())),
            ]
            .into_iter()
            .collect(),
        );
        let out = remark(ans, &cfg);
        assert!(out.has_sensitive());
    }
}
