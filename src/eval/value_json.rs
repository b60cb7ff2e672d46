//! cty's value JSON as Terraform's JSON plan and state write it (`internal/command/jsonplan`,
//! `jsonstate`): plain JSON with unknowns left out, the `after_unknown` / `*_sensitive` shapes
//! (`unknownAsBool`, `SensitiveAsBool`), and cty's type JSON. Numbers keep every digit (cty
//! writes a number's exact decimal text; serde_json's `arbitrary_precision` carries it), so
//! `123456789012345678901234567890` reaches the state and the plan as written. Here in eval/
//! rather than with its main user, the engine, because the providers speak it too.

use super::{Kind, Type, Value};
use serde_json::{json, Map, Value as Json};

/// The value without its unknowns (left out of objects and maps, null in sequences).
pub fn value(v: &Value) -> Json {
    match &v.kind {
        Kind::Null(_) | Kind::Unknown(_) => Json::Null,
        Kind::Bool(b) => Json::Bool(*b),
        Kind::Number(n) => number(n),
        Kind::String(s) => Json::String(s.clone()),
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => {
            Json::Array(items.iter().map(value).collect())
        }
        Kind::Map(_, m) | Kind::Object(m) => Json::Object(crate::util::sort::json_map(
            m.iter().filter(|(_, x)| x.is_known()).map(|(k, x)| (k.clone(), value(x))),
        )),
        Kind::TypeVal(t) => Json::String(t.type_expr()),
    }
}

/// A number as a JSON number with its exact digits (serde_json keeps the text as written with
/// `arbitrary_precision`); the state, the plan and the API's values all write numbers here.
pub fn number(n: &super::Number) -> Json {
    let text = n.to_string();
    serde_json::from_str::<Json>(&text).unwrap_or(Json::String(text))
}

fn bool_tree(v: &Value, hit: &dyn Fn(&Value) -> bool, unknown_is_hit: bool) -> Json {
    if hit(v) {
        return Json::Bool(true);
    }
    if v.is_null() {
        return Json::Bool(false);
    }
    if !v.is_known() {
        return Json::Bool(unknown_is_hit);
    }
    match &v.kind {
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => {
            Json::Array(items.iter().map(|x| bool_tree(x, hit, unknown_is_hit)).collect())
        }
        Kind::Map(_, m) | Kind::Object(m) => {
            let mut out = Map::new();
            for (k, x) in m {
                let b = bool_tree(x, hit, unknown_is_hit);
                if b != Json::Bool(false) {
                    out.insert(k.clone(), b);
                }
            }
            Json::Object(out)
        }
        _ => Json::Bool(false),
    }
}

/// `after_unknown`.
pub fn unknown_as_bool(v: &Value) -> Json {
    bool_tree(v, &|x| !x.is_known(), true)
}

/// `before_sensitive` / `after_sensitive` / `sensitive_values`.
pub fn sensitive_as_bool(v: &Value) -> Json {
    bool_tree(v, &|x| x.sensitive, false)
}

/// cty's JSON for a type: `"string"`, `["map","string"]`, `["object",{...}]`.
pub fn type_json(t: &Type) -> Json {
    match t {
        Type::Dynamic => json!("dynamic"),
        Type::Bool => json!("bool"),
        Type::Number => json!("number"),
        Type::String => json!("string"),
        Type::List(e) => json!(["list", type_json(e)]),
        Type::Set(e) => json!(["set", type_json(e)]),
        Type::Map(e) => json!(["map", type_json(e)]),
        Type::Tuple(items) => json!(["tuple", items.iter().map(type_json).collect::<Vec<_>>()]),
        Type::Object(m) => {
            json!(["object", crate::util::sort::json_map(m.iter().map(|(k, t)| (k.clone(), type_json(t))))])
        }
        _ => json!("dynamic"),
    }
}

/// A type from cty's type JSON (`None` when malformed).
pub fn type_from_json(j: &Json) -> Option<Type> {
    Some(match j {
        Json::String(s) => match s.as_str() {
            "string" => Type::String,
            "number" => Type::Number,
            "bool" => Type::Bool,
            "dynamic" => Type::Dynamic,
            _ => return None,
        },
        Json::Array(a) if a.len() == 2 => {
            let kind = a[0].as_str()?;
            match kind {
                "list" => Type::list(type_from_json(&a[1])?),
                "set" => Type::set(type_from_json(&a[1])?),
                "map" => Type::map(type_from_json(&a[1])?),
                "tuple" => Type::Tuple(a[1].as_array()?.iter().map(type_from_json).collect::<Option<_>>()?),
                "object" => Type::Object(
                    a[1].as_object()?
                        .iter()
                        .map(|(k, t)| Some((k.clone(), type_from_json(t)?)))
                        .collect::<Option<Vec<_>>>()
                        .map(crate::util::sort::btree_map)?,
                ),
                _ => return None,
            }
        }
        _ => return None,
    })
}
