//! The collection functions on maps and objects: `keys`, `values`, `lookup`, `merge`,
//! `zipmap`, `transpose`, and `matchkeys` (as cty and Terraform define them; see
//! `funcs_a_spec.md`, "Collection").

use super::collection::{items, unmark};
use super::{FuncError, Function, Param, Registry, Returns};
use crate::dag::go_quote;
use crate::eval::convert::{convert, unify};
use crate::eval::expr::equals;
use crate::eval::types::Type;
use crate::eval::value::{Kind, Value};
use std::collections::BTreeMap;

/// The entries of a map or object, in key order.
fn entries(v: &Value) -> Option<&BTreeMap<String, Value>> {
    match &v.kind {
        Kind::Map(_, m) | Kind::Object(m) => Some(m),
        _ => None,
    }
}

pub(super) fn register(r: &mut Registry) {
    r.add(Function {
        name: "keys",
        params: vec![Param::new("inputMap", Type::Dynamic).unknown().marked()],
        variadic: None,
        returns: Returns::Computed(|a| match a[0].ty() {
            Type::Map(_) => Ok(Type::list(Type::String)),
            Type::Object(m) => Ok(Type::Tuple(vec![Type::String; m.len()])),
            _ => Err(FuncError::Arg(0, "must have map or object type".into())),
        }),
        imp: |_, a, ret| {
            let (m, marked) = unmark(&a[0]);
            let out = match (m.ty(), &m.kind) {
                // An object's attribute names are in its type, known or not.
                (Type::Object(attrs), _) => Value::tuple(attrs.into_keys().map(Value::string).collect()),
                (_, Kind::Unknown(_)) => Value::unknown(ret.clone()),
                (_, Kind::Map(_, entries)) => {
                    Value::list(Type::String, entries.keys().map(|k| Value::string(k.clone())).collect())
                }
                _ => Value::unknown(ret.clone()),
            };
            Ok(out.mark(marked))
        },
    });
    r.add(Function {
        name: "values",
        params: vec![Param::new("mapping", Type::Dynamic).marked()],
        variadic: None,
        returns: Returns::Computed(|a| match a[0].ty() {
            Type::Map(e) => Ok(Type::List(e)),
            Type::Object(m) => Ok(Type::Tuple(m.into_values().collect())),
            _ => Err(FuncError::Other("values() requires a map as the first argument".into())),
        }),
        imp: |_, a, ret| {
            let (m, marked) = unmark(&a[0]);
            let vals: Vec<Value> = entries(&m).map(|e| e.values().cloned().collect()).unwrap_or_default();
            Ok(match ret {
                Type::List(e) => Value::list((**e).clone(), vals),
                _ => Value::tuple(vals),
            }
            .mark(marked))
        },
    });
    r.add(Function {
        name: "lookup",
        params: vec![Param::new("inputMap", Type::Dynamic).marked(), Param::new("key", Type::String).marked()],
        variadic: Some(Param::new("default", Type::Dynamic).null().unknown().dynamic().marked()),
        returns: Returns::Computed(lookup_type),
        imp: |_, a, ret| {
            let (m, m_marked) = unmark(&a[0]);
            let (key, k_marked) = unmark(&a[1]);
            let marked = m_marked || k_marked;
            let key = key.as_str().unwrap_or_default();
            // Terraform's own lookup (not cty's) reads a known element of a map whose other
            // elements are unknown: only an unknown map or key makes the result unknown, and the
            // call machinery answers those before this runs.
            if let Some(v) = entries(&m).and_then(|e| e.get(key)) {
                return Ok(v.clone().mark(marked));
            }
            if let Some(d) = a.get(2) {
                return convert(d, ret).map(|d| d.mark(marked)).map_err(FuncError::Other);
            }
            let shown = if k_marked { "(sensitive value)".to_string() } else { go_quote(key) };
            Err(FuncError::Other(format!("lookup failed to find key {shown}")))
        },
    });
    r.add(Function {
        name: "merge",
        params: vec![],
        variadic: Some(Param::new("maps", Type::Dynamic).null().dynamic().marked()),
        returns: Returns::Computed(merge_type),
        imp: |_, a, ret| {
            let mut out = BTreeMap::new();
            let mut marked = false;
            for v in a {
                if v.is_null() {
                    continue;
                }
                let (v, m) = unmark(v);
                marked |= m;
                if let Some(e) = entries(&v) {
                    out.extend(e.iter().map(|(k, x)| (k.clone(), x.clone())));
                }
            }
            Ok(match ret {
                Type::Map(e) => Value::map((**e).clone(), out),
                _ => Value::object(out),
            }
            .mark(marked))
        },
    });
    r.add(Function {
        name: "zipmap",
        params: vec![
            Param::new("keys", Type::list(Type::String)).marked(),
            Param::new("values", Type::Dynamic).marked(),
        ],
        variadic: None,
        returns: Returns::Computed(zipmap_type),
        imp: |_, a, ret| {
            let (keys, k_marked) = unmark(&a[0]);
            let (vals, v_marked) = unmark(&a[1]);
            let mut marked = k_marked || v_marked;
            if !keys.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()).mark(marked));
            }
            let (ks, vs) = (items(&keys), items(&vals));
            if ks.len() != vs.len() {
                return Err(FuncError::Other(format!(
                    "number of keys ({}) does not match number of values ({})",
                    ks.len(),
                    vs.len()
                )));
            }
            let mut out = BTreeMap::new();
            for (i, (k, v)) in ks.iter().zip(vs).enumerate() {
                marked |= k.sensitive;
                let Some(k) = k.as_str() else {
                    return Err(FuncError::Other(format!("keys list has null value at index {i}")));
                };
                out.insert(k.to_string(), v.clone());
            }
            Ok(match ret {
                Type::Map(e) => Value::map((**e).clone(), out),
                _ => Value::object(out),
            }
            .mark(marked))
        },
    });
    r.add(Function {
        name: "transpose",
        params: vec![Param::new("values", Type::map(Type::list(Type::String)))],
        variadic: None,
        returns: Returns::Type(Type::map(Type::list(Type::String))),
        imp: |_, a, ret| {
            if !a[0].is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
            for (k, list) in entries(&a[0]).into_iter().flatten() {
                if list.is_null() {
                    return Err(FuncError::Other("input must not contain null list".into()));
                }
                for v in items(list) {
                    let Some(s) = v.as_str() else {
                        return Err(FuncError::Other("input list must not contain null string".into()));
                    };
                    out.entry(s.to_string()).or_default().push(Value::string(k.clone()));
                }
            }
            Ok(Value::map(
                Type::list(Type::String),
                crate::util::sort::btree_map(out.into_iter().map(|(k, v)| (k, Value::list(Type::String, v)))),
            ))
        },
    });
    r.add(Function {
        name: "matchkeys",
        params: vec![
            Param::new("values", Type::list(Type::Dynamic)),
            Param::new("keys", Type::list(Type::Dynamic)),
            Param::new("searchset", Type::list(Type::Dynamic)),
        ],
        variadic: None,
        returns: Returns::Computed(|a| {
            unify(&[a[1].ty(), a[2].ty()])
                .ok_or_else(|| FuncError::Other("keys and searchset must be of the same type".into()))?;
            Ok(a[0].ty())
        }),
        imp: |_, a, ret| {
            let elem = ret.element().cloned().unwrap_or(Type::Dynamic);
            if items(&a[0]).len() != items(&a[1]).len() {
                return Err(FuncError::Other("length of keys and values should be equal".into()));
            }
            let ty = unify(&[a[1].ty(), a[2].ty()]).unwrap_or(Type::Dynamic);
            let keys = convert(&a[1], &ty).map_err(FuncError::Other)?;
            let search = convert(&a[2], &ty).map_err(FuncError::Other)?;
            if items(&search).is_empty() {
                return Ok(Value::list(elem, vec![]));
            }
            if !a[0].is_wholly_known() || !keys.is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let mut out = Vec::new();
            for (i, k) in items(&keys).iter().enumerate() {
                for s in items(&search) {
                    match equals(k, s) {
                        None => return Ok(Value::list(elem, vec![])),
                        Some(true) => {
                            out.push(items(&a[0])[i].clone());
                            break;
                        }
                        Some(false) => {}
                    }
                }
            }
            Ok(Value::list(elem, out))
        },
    });
}

/// Terraform's LookupFunc type: an object's attribute type (or the default's type), a map's
/// element type.
fn lookup_type(a: &[Value]) -> Result<Type, FuncError> {
    if a.len() > 3 {
        return Err(FuncError::Other(format!("lookup() takes two or three arguments, got {}", a.len())));
    }
    match a[0].ty() {
        Type::Object(attrs) => {
            let Some(key) = a[1].as_str() else { return Ok(Type::Dynamic) };
            if let Some(t) = attrs.get(key) {
                return Ok(t.clone());
            }
            match a.get(2) {
                Some(d) => Ok(d.ty()),
                None => Err(FuncError::Arg(0, format!("the given object has no attribute {}", go_quote(key)))),
            }
        }
        Type::Map(e) => {
            if let Some(d) = a.get(2) {
                convert(d, &e).map_err(|_| {
                    FuncError::Arg(2, "the default value must have the same type as the map elements".into())
                })?;
            }
            Ok(*e)
        }
        _ => Err(FuncError::Arg(0, "lookup() requires a map as the first argument".into())),
    }
}

/// cty's MergeFunc type: the arguments' type when they all have the same one, else an object
/// of every attribute (later arguments winning), `dynamic` while a map's keys are unknown.
fn merge_type(a: &[Value]) -> Result<Type, FuncError> {
    if a.is_empty() {
        return Ok(Type::Object(BTreeMap::new()));
    }
    let mut attrs = BTreeMap::new();
    let mut known = true;
    for v in a {
        let ty = v.ty();
        if ty == Type::Dynamic {
            return Ok(Type::Dynamic);
        }
        match (&ty, &v.kind) {
            (Type::Object(m), _) if !v.is_null() => attrs.extend(m.iter().map(|(k, t)| (k.clone(), t.clone()))),
            (Type::Map(_), Kind::Null(_)) => {}
            (Type::Map(e), Kind::Map(_, m)) => attrs.extend(m.keys().map(|k| (k.clone(), (**e).clone()))),
            (Type::Map(_), _) => known = false,
            (Type::Object(_), _) => {}
            _ => {
                return Err(FuncError::Other(format!(
                    "arguments must be maps or objects, got {}",
                    go_quote(&ty.friendly_name())
                )))
            }
        }
    }
    let first = a[0].ty();
    if a.iter().all(|v| v.ty() == first) {
        return Ok(first);
    }
    Ok(if known { Type::Object(attrs) } else { Type::Dynamic })
}

/// cty's ZipmapFunc type: a map for list values, an object for tuple values.
fn zipmap_type(a: &[Value]) -> Result<Type, FuncError> {
    match a[1].ty() {
        Type::List(e) => Ok(Type::Map(e)),
        Type::Tuple(ts) => {
            if !a[0].is_wholly_known() {
                return Ok(Type::Dynamic);
            }
            let keys = items(&a[0]);
            if keys.len() != ts.len() {
                return Err(FuncError::Other(format!(
                    "number of keys ({}) does not match number of values ({})",
                    keys.len(),
                    ts.len()
                )));
            }
            let mut attrs = BTreeMap::new();
            for (i, (k, t)) in keys.iter().zip(ts).enumerate() {
                let Some(k) = k.as_str() else {
                    return Err(FuncError::Other(format!("keys list has null value at index {i}")));
                };
                attrs.insert(k.to_string(), t);
            }
            Ok(Type::Object(attrs))
        }
        _ => Err(FuncError::Other("values argument must be a list or tuple value".into())),
    }
}
