//! cty's `convert` package: converting a value to a type (type constraints, function
//! parameters, operands) and unifying several types into one (conditionals, `tolist([...])`).
//! Error texts are cty's `MismatchMessage` forms ("string required", `attribute "a": number
//! required`).

use super::number::Number;
use super::types::Type;
use super::value::{Kind, Value};
use std::collections::BTreeMap;

/// Converts `v` to `want`; the error is cty's message (with its path prefix).
pub fn convert(v: &Value, want: &Type) -> Result<Value, String> {
    convert_at(v, want).map_err(|(path, msg)| if path.is_empty() { msg } else { format!("{path}: {msg}") })
}

/// [`convert`], with the error's path (`element 0`, `attribute "a"`) and message apart.
pub fn convert_at_path(v: &Value, want: &Type) -> Result<Value, (String, String)> {
    convert_at(v, want)
}

type ConvError = (String, String);

fn at(prefix: String, e: ConvError) -> ConvError {
    let path = if e.0.is_empty() { prefix } else { format!("{prefix}: {}", e.0) };
    (path, e.1)
}

fn convert_at(v: &Value, want: &Type) -> Result<Value, ConvError> {
    if *want == Type::Dynamic {
        return Ok(v.clone());
    }
    let sensitive = v.sensitive;
    let have = v.ty();
    if have == *want {
        return Ok(v.clone());
    }
    match &v.kind {
        Kind::Null(_) => {
            if !convertible(&have, want) {
                return Err((String::new(), mismatch(&have, want)));
            }
            return Ok(Value::null(concrete(want, &have)).mark(sensitive));
        }
        Kind::Unknown(_) => {
            if !convertible(&have, want) {
                return Err((String::new(), mismatch(&have, want)));
            }
            return Ok(Value::unknown(concrete(want, &have)).mark(sensitive));
        }
        _ => {}
    }
    let out = match (want, &v.kind) {
        (Type::String, Kind::Number(n)) => Value::string(n.to_string()),
        (Type::String, Kind::Bool(b)) => Value::string(if *b { "true" } else { "false" }),
        (Type::Number, Kind::String(s)) => match Number::parse(s) {
            Some(n) => Value::number(n),
            None => return Err((String::new(), "a number is required".into())),
        },
        (Type::Bool, Kind::String(s)) => match s.as_str() {
            "true" | "1" => Value::bool(true),
            "false" | "0" => Value::bool(false),
            other => {
                let msg = match other.to_lowercase().as_str() {
                    "true" => "a bool is required; to convert from string, use lowercase \"true\"".to_string(),
                    "false" => "a bool is required; to convert from string, use lowercase \"false\"".to_string(),
                    _ => "a bool is required".to_string(),
                };
                return Err((String::new(), msg));
            }
        },
        (Type::List(et) | Type::Set(et), Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items)) => {
            let mut out = Vec::with_capacity(items.len());
            let target = if et.has_dynamic() && !items.is_empty() {
                match unify(&items.iter().map(Value::ty).collect::<Vec<_>>()) {
                    Some(t) => merge_constraint(et, &t),
                    None => return Err((String::new(), "all list elements must have the same type".into())),
                }
            } else {
                (**et).clone()
            };
            for (i, x) in items.iter().enumerate() {
                out.push(convert_at(x, &target).map_err(|e| at(format!("element {i}"), e))?);
            }
            // cty's conversionCollectionToList/ToSet: an empty list or set keeps its own element
            // type when the wanted one is dynamic (`distinct(var.l)` of an empty list(string)).
            let elem = match &v.kind {
                Kind::List(t, _) | Kind::Set(t, _) if items.is_empty() && **et == Type::Dynamic => t.clone(),
                _ if items.is_empty() => (**et).clone(),
                _ => target,
            };
            if matches!(want, Type::Set(_)) {
                Value::set(elem, out)
            } else {
                Value::list(elem, out)
            }
        }
        (Type::Map(et), Kind::Map(_, m) | Kind::Object(m)) => {
            let target = if et.has_dynamic() && !m.is_empty() {
                match unify(&m.values().map(Value::ty).collect::<Vec<_>>()) {
                    Some(t) => merge_constraint(et, &t),
                    None => return Err((String::new(), "all map elements must have the same type".into())),
                }
            } else {
                (**et).clone()
            };
            let mut out = BTreeMap::new();
            for (k, x) in m {
                out.insert(
                    k.clone(),
                    convert_at(x, &target).map_err(|e| at(format!("element {}", crate::dag::go_quote(k)), e))?,
                );
            }
            let elem = match &v.kind {
                Kind::Map(t, _) if m.is_empty() && **et == Type::Dynamic => t.clone(),
                _ if m.is_empty() => (**et).clone(),
                _ => target,
            };
            Value::map(elem, out)
        }
        (Type::Tuple(ts), Kind::Tuple(items) | Kind::List(_, items)) if ts.len() == items.len() => {
            let mut out = Vec::with_capacity(items.len());
            for (i, (x, t)) in items.iter().zip(ts).enumerate() {
                out.push(convert_at(x, t).map_err(|e| at(format!("element {i}"), e))?);
            }
            Value::tuple(out)
        }
        (Type::Tuple(ts), Kind::Tuple(items) | Kind::List(_, items)) => {
            return Err((String::new(), format!("tuple required with {} elements, got {}", ts.len(), items.len())));
        }
        (Type::Object(attrs), Kind::Object(m) | Kind::Map(_, m)) => {
            let mut out = BTreeMap::new();
            for (name, t) in attrs {
                match m.get(name) {
                    Some(x) => {
                        out.insert(
                            name.clone(),
                            convert_at(x, t).map_err(|e| at(format!("attribute {}", crate::dag::go_quote(name)), e))?,
                        );
                    }
                    None => {
                        return Err((String::new(), format!("attribute {} is required", crate::dag::go_quote(name))))
                    }
                }
            }
            Value::object(out)
        }
        _ => return Err((String::new(), mismatch(&have, want))),
    };
    Ok(out.mark(sensitive))
}

/// Where a constraint has `dynamic`, the concrete type found for it.
fn merge_constraint(constraint: &Type, found: &Type) -> Type {
    match (constraint, found) {
        (Type::Dynamic, t) => t.clone(),
        (c, _) => c.clone(),
    }
}

/// The type a null or unknown gets when converted to `want` (dynamic parts stay as they were).
fn concrete(want: &Type, have: &Type) -> Type {
    if *want == Type::Dynamic {
        have.clone()
    } else {
        want.clone()
    }
}

/// Whether some value of type `have` could convert to `want` (cty's `GetConversion != nil`).
pub fn convertible(have: &Type, want: &Type) -> bool {
    match (have, want) {
        (_, Type::Dynamic) | (Type::Dynamic, _) => true,
        (a, b) if a == b => true,
        (a, b) if a.is_primitive() && b.is_primitive() => {
            !matches!((a, b), (Type::Number, Type::Bool) | (Type::Bool, Type::Number))
        }
        (Type::List(a) | Type::Set(a), Type::List(b) | Type::Set(b)) => convertible(a, b),
        (Type::Tuple(ts), Type::List(b) | Type::Set(b)) => ts.iter().all(|t| convertible(t, b)),
        (Type::Map(a), Type::Map(b)) => convertible(a, b),
        (Type::Object(m), Type::Map(b)) => m.values().all(|t| convertible(t, b)),
        (Type::Tuple(a), Type::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| convertible(x, y)),
        (Type::List(_), Type::Tuple(_)) => true,
        (Type::Object(a), Type::Object(b)) => b.iter().all(|(k, t)| a.get(k).is_some_and(|s| convertible(s, t))),
        (Type::Map(a), Type::Object(b)) => b.values().all(|t| convertible(a, t)),
        _ => false,
    }
}

/// cty's MismatchMessage, for the cases Terraform users meet.
pub fn mismatch(have: &Type, want: &Type) -> String {
    match want {
        Type::Object(attrs) => {
            if let Type::Object(got) = have {
                if let Some(missing) = attrs.keys().find(|k| !got.contains_key(*k)) {
                    return format!("attribute {} is required", crate::dag::go_quote(missing));
                }
            }
            "object required".into()
        }
        Type::Tuple(_) => "tuple required".into(),
        Type::List(_) if matches!(have, Type::List(_) | Type::Set(_) | Type::Tuple(_)) => {
            "incorrect list element type".into()
        }
        Type::Set(_) if matches!(have, Type::List(_) | Type::Set(_) | Type::Tuple(_)) => {
            "incorrect set element type".into()
        }
        Type::Map(_) if matches!(have, Type::Map(_) | Type::Object(_)) => "incorrect map element type".into(),
        _ => format!("{} required", want.friendly_name_constraint()),
    }
}

/// cty's `convert.Unify`: one type every given type converts to, preferring the most specific.
pub fn unify(types: &[Type]) -> Option<Type> {
    let first = types.first()?;
    if types.iter().all(|t| t == first) {
        return Some(first.clone());
    }
    if types.contains(&Type::Dynamic) {
        // Beside primitives, cty prefers the most specific type (a value of unknown type
        // converts to any); beside collections and structures it cannot tell which shape the
        // unknown will take, and unifies to `dynamic`.
        let rest: Vec<Type> = types.iter().filter(|t| **t != Type::Dynamic).cloned().collect();
        if !rest.is_empty() && rest.iter().all(Type::is_primitive) {
            return unify(&rest);
        }
        return Some(Type::Dynamic);
    }
    if types.iter().all(Type::is_primitive) {
        // Mixed primitives meet at string when one of them is a string (number and bool both
        // convert to it safely); number and bool alone have no common type.
        return types.contains(&Type::String).then_some(Type::String);
    }
    let all = |f: fn(&Type) -> bool| types.iter().all(f);
    if all(|t| matches!(t, Type::List(_) | Type::Tuple(_)))
        || all(|t| matches!(t, Type::Set(_)))
        || all(|t| matches!(t, Type::Map(_) | Type::Object(_)))
    {
        if all(|t| matches!(t, Type::Tuple(_))) {
            let lens: Vec<usize> = types.iter().map(|t| if let Type::Tuple(ts) = t { ts.len() } else { 0 }).collect();
            if lens.iter().all(|l| *l == lens[0]) {
                let mut out = Vec::new();
                for i in 0..lens[0] {
                    let col: Vec<Type> = types
                        .iter()
                        .map(|t| if let Type::Tuple(ts) = t { ts[i].clone() } else { Type::Dynamic })
                        .collect();
                    out.push(unify(&col)?);
                }
                return Some(Type::Tuple(out));
            }
        }
        if all(|t| matches!(t, Type::Object(_))) {
            let keys: Vec<Vec<&String>> =
                types.iter().map(|t| if let Type::Object(m) = t { m.keys().collect() } else { vec![] }).collect();
            if keys.iter().all(|k| *k == keys[0]) {
                let mut out = BTreeMap::new();
                for k in &keys[0] {
                    let col: Vec<Type> = types
                        .iter()
                        .map(|t| if let Type::Object(m) = t { m[*k].clone() } else { Type::Dynamic })
                        .collect();
                    out.insert((*k).clone(), unify(&col)?);
                }
                return Some(Type::Object(out));
            }
        }
        let mut elems = Vec::new();
        for t in types {
            match t {
                Type::List(e) | Type::Set(e) | Type::Map(e) => elems.push((**e).clone()),
                Type::Tuple(ts) => elems.extend(ts.iter().cloned()),
                Type::Object(m) => elems.extend(m.values().cloned()),
                _ => return None,
            }
        }
        let e = if elems.is_empty() { Type::Dynamic } else { unify(&elems)? };
        return Some(match first {
            Type::Set(_) => Type::set(e),
            Type::Map(_) | Type::Object(_) => Type::map(e),
            _ => Type::list(e),
        });
    }
    // cty prefers a collection type among the given ones that all the others convert to
    // safely (`set(string)` beside `[]`).
    types
        .iter()
        .find(|want| {
            matches!(want, Type::List(_) | Type::Set(_) | Type::Map(_))
                && types.iter().all(|t| safely_converts(t, want))
        })
        .cloned()
}

/// Whether a value of type `from` converts to `to` without a conversion that can fail on some
/// values (cty's safe conversions: anything to string, structures element by element).
fn safely_converts(from: &Type, to: &Type) -> bool {
    if from == to || *to == Type::Dynamic || *from == Type::Dynamic {
        return true;
    }
    match (from, to) {
        (f, Type::String) if f.is_primitive() => true,
        (Type::List(e) | Type::Set(e), Type::List(w) | Type::Set(w)) => safely_converts(e, w),
        (Type::Tuple(items), Type::List(w) | Type::Set(w)) => items.iter().all(|t| safely_converts(t, w)),
        (Type::Map(e), Type::Map(w)) => safely_converts(e, w),
        (Type::Object(m), Type::Map(w)) => m.values().all(|t| safely_converts(t, w)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_convert_as_cty() {
        assert_eq!(convert(&Value::int(5), &Type::String).unwrap(), Value::string("5"));
        assert_eq!(convert(&Value::string("2"), &Type::Number).unwrap(), Value::int(2));
        assert_eq!(convert(&Value::string("x"), &Type::Number).unwrap_err(), "a number is required");
        assert_eq!(
            convert(&Value::string("True"), &Type::Bool).unwrap_err(),
            "a bool is required; to convert from string, use lowercase \"true\""
        );
        assert_eq!(convert(&Value::bool(true), &Type::Number).unwrap_err(), "number required");
        assert_eq!(unify(&[Type::Number, Type::String]), Some(Type::String));
        assert_eq!(unify(&[Type::set(Type::String), Type::Tuple(vec![])]), Some(Type::set(Type::String)));
        assert_eq!(unify(&[Type::Tuple(vec![Type::String]), Type::set(Type::String)]), Some(Type::set(Type::String)));
        assert_eq!(unify(&[Type::set(Type::String), Type::Tuple(vec![Type::Bool])]), Some(Type::set(Type::String)));
        assert_eq!(unify(&[Type::set(Type::Number), Type::Tuple(vec![Type::String])]), None);
    }

    #[test]
    fn structures_convert_with_paths() {
        let t = Value::tuple(vec![Value::string("a"), Value::string("b")]);
        assert_eq!(convert(&t, &Type::list(Type::String)).unwrap().ty(), Type::list(Type::String));
        let bad = Value::tuple(vec![Value::string("a"), Value::tuple(vec![])]);
        assert_eq!(convert(&bad, &Type::list(Type::String)).unwrap_err(), "element 1: string required");
        let obj = Value::object(BTreeMap::from([("a".to_string(), Value::string("x"))]));
        let want = Type::Object(BTreeMap::from([("a".to_string(), Type::Number)]));
        assert_eq!(convert(&obj, &want).unwrap_err(), "attribute \"a\": a number is required");
    }
}
