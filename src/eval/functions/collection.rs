//! The collection functions (Terraform's "Collection Functions") that work on sequences:
//! `alltrue` … `zipmap` as cty's `function/stdlib` and Terraform's `internal/lang/funcs`
//! define them (flags and error texts: `funcs_a_spec.md`, "Collection"). Limits: `range` stops
//! at 1024 values as cty does; `setproduct` checks its product against the expression's budget
//! (`eval/limits.rs`; Terraform has no limit) before building it; the others make at most as
//! many values as they are given, and what every call returns is spent from that budget. Sets are
//! in `collection_set.rs`, maps and objects in `collection_map.rs`.

use super::collection_seq::{concat_type, flatten, range, slice_indexes, sum};
use super::{FuncError, Function, Param, Registry, Returns};
use crate::eval::convert::{convert, unify};
use crate::eval::expr::equals;
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::{Kind, Value};

/// A whole number as Go's `int`, or gocty's error text.
pub(super) fn whole(v: &Value) -> Result<i64, String> {
    v.as_number()
        .filter(|n| n.is_integer())
        .and_then(Number::to_i64)
        .ok_or_else(|| "value must be a whole number, between -9223372036854775808 and 9223372036854775807".to_string())
}

/// The value without its own sensitive mark, and that mark (for a parameter that takes marks
/// and puts the collection's mark back on the result).
pub(super) fn unmark(v: &Value) -> (Value, bool) {
    let mut plain = v.clone();
    plain.sensitive = false;
    (plain, v.sensitive)
}

/// Elements of a list, set or tuple (empty for anything else).
pub(super) fn items(v: &Value) -> &[Value] {
    match &v.kind {
        Kind::List(_, x) | Kind::Set(_, x) | Kind::Tuple(x) => x,
        _ => &[],
    }
}

fn one_param(name: &'static str, ty: Type, returns: Returns, imp: super::ImplFn) -> Function {
    Function { name, params: vec![Param::new(name_of(name), ty)], variadic: None, returns, imp }
}

/// The single parameter's name of the one-argument functions.
fn name_of(f: &str) -> &'static str {
    match f {
        "values" => "mapping",
        _ => "list",
    }
}

pub(super) fn register(r: &mut Registry) {
    r.add(one_param("alltrue", Type::list(Type::Bool), Returns::Type(Type::Bool), |_, a, _| {
        for v in items(&a[0]) {
            match &v.kind {
                Kind::Unknown(_) => return Ok(Value::unknown(Type::Bool)),
                Kind::Null(_) | Kind::Bool(false) => return Ok(Value::bool(false)),
                _ => {}
            }
        }
        Ok(Value::bool(true))
    }));
    r.add(one_param("anytrue", Type::list(Type::Bool), Returns::Type(Type::Bool), |_, a, _| {
        let mut unknown = false;
        for v in items(&a[0]) {
            match &v.kind {
                Kind::Unknown(_) => unknown = true,
                Kind::Bool(true) => return Ok(Value::bool(true)),
                _ => {}
            }
        }
        Ok(if unknown { Value::unknown(Type::Bool) } else { Value::bool(false) })
    }));
    r.add(Function {
        name: "chunklist",
        params: vec![Param::new("list", Type::list(Type::Dynamic)).marked(), Param::new("size", Type::Number).marked()],
        variadic: None,
        returns: Returns::Computed(|a| Ok(Type::list(a[0].ty()))),
        imp: |_, a, ret| {
            let (list, m1) = unmark(&a[0]);
            let marked = m1 || a[1].sensitive;
            let size = whole(&a[1]).map_err(|e| FuncError::Other(format!("invalid size: {e}")))?;
            if size < 0 {
                return Err(FuncError::Other("the size argument must be positive".into()));
            }
            let elem = ret.element().cloned().unwrap_or(Type::Dynamic);
            let xs = items(&list);
            if xs.is_empty() {
                return Ok(Value::list(elem, vec![]).mark(marked));
            }
            if size == 0 {
                return Ok(Value::list(list.ty(), vec![list]).mark(marked));
            }
            let Kind::List(et, _) = &list.kind else { return Ok(Value::list(elem, vec![]).mark(marked)) };
            let chunks =
                xs.chunks(size.min(xs.len() as i64) as usize).map(|c| Value::list(et.clone(), c.to_vec())).collect();
            Ok(Value::list(list.ty(), chunks).mark(marked))
        },
    });
    r.add(Function {
        name: "coalesce",
        params: vec![],
        variadic: Some(Param::new("vals", Type::Dynamic).null().unknown().dynamic()),
        returns: Returns::Computed(|a| {
            unify(&a.iter().map(Value::ty).collect::<Vec<_>>())
                .ok_or_else(|| FuncError::Other("all arguments must have the same type".into()))
        }),
        imp: |_, a, ret| {
            for v in a {
                let v = convert(v, ret).map_err(FuncError::Other)?;
                if !v.is_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                if v.is_null() || (*ret == Type::String && v.as_str() == Some("")) {
                    continue;
                }
                return Ok(v);
            }
            Err(FuncError::Other("no non-null, non-empty-string arguments".into()))
        },
    });
    r.add(Function {
        name: "coalescelist",
        params: vec![],
        variadic: Some(Param::new("vals", Type::Dynamic).null().unknown().dynamic()),
        returns: Returns::Computed(|a| {
            if a.is_empty() {
                return Err(FuncError::Other("at least one argument is required".into()));
            }
            let mut tys = Vec::with_capacity(a.len());
            for v in a {
                if !v.is_known() {
                    return Ok(Type::Dynamic);
                }
                let t = v.ty();
                if !matches!(t, Type::List(_) | Type::Tuple(_)) {
                    return Err(FuncError::Other("coalescelist arguments must be lists or tuples".into()));
                }
                tys.push(t);
            }
            Ok(if tys.iter().all(|t| *t == tys[0]) { tys[0].clone() } else { Type::Dynamic })
        }),
        imp: |_, a, ret| {
            for v in a {
                if !v.is_known() {
                    return Ok(Value::unknown(ret.clone()));
                }
                if !v.is_null() && !items(v).is_empty() {
                    return Ok(v.clone());
                }
            }
            Err(FuncError::Other("no non-null arguments".into()))
        },
    });
    r.add(one_param("compact", Type::list(Type::String), Returns::Type(Type::list(Type::String)), |_, a, ret| {
        if !a[0].is_wholly_known() {
            return Ok(Value::unknown(ret.clone()));
        }
        let kept = items(&a[0]).iter().filter(|v| !v.is_null() && v.as_str() != Some("")).cloned().collect();
        Ok(Value::list(Type::String, kept))
    }));
    r.add(Function {
        name: "concat",
        params: vec![],
        variadic: Some(Param::new("seqs", Type::Dynamic).marked()),
        returns: Returns::Computed(concat_type),
        imp: |_, a, ret| {
            let mut out = Vec::new();
            let mut marked = false;
            for (i, seq) in a.iter().enumerate() {
                let seq = if matches!(ret, Type::List(_)) {
                    convert(seq, ret).map_err(|m| FuncError::Arg(i, m))?
                } else {
                    seq.clone()
                };
                marked |= seq.sensitive;
                out.extend(items(&seq).iter().cloned());
            }
            Ok(match ret {
                Type::List(e) => Value::list((**e).clone(), out),
                _ => Value::tuple(out),
            }
            .mark(marked))
        },
    });
    r.add(Function {
        name: "contains",
        // A null value is refused through 1.15 (cty 1.18.0); cty 1.18.1 (6854da9, in 1.16.0)
        // allows it.
        params: vec![Param::new("list", Type::Dynamic), Param::new("value", Type::Dynamic)],
        variadic: None,
        returns: Returns::Type(Type::Bool),
        imp: |_, a, _| {
            if !matches!(a[0].ty(), Type::List(_) | Type::Tuple(_) | Type::Set(_)) {
                return Err(FuncError::Other("argument must be list, tuple, or set".into()));
            }
            let mut unknown = false;
            for v in items(&a[0]) {
                match equals(&a[1], v) {
                    Some(true) => return Ok(Value::bool(true)),
                    Some(false) => {}
                    None => unknown = true,
                }
            }
            Ok(if unknown { Value::unknown(Type::Bool) } else { Value::bool(false) })
        },
    });
    r.add(one_param("distinct", Type::list(Type::Dynamic), Returns::Computed(|a| Ok(a[0].ty())), |_, a, ret| {
        if !a[0].is_wholly_known() {
            return Ok(Value::unknown(ret.clone()));
        }
        // Elements of one list share a type and are known and unmarked here, so equal values
        // have equal JSON: a set of those keeps this linear on long lists.
        let mut seen = std::collections::HashSet::new();
        let out: Vec<Value> = items(&a[0]).iter().filter(|v| seen.insert(key(v))).cloned().collect();
        Ok(Value::list(ret.element().cloned().unwrap_or(Type::Dynamic), out))
    }));
    r.add(Function {
        name: "element",
        params: vec![Param::new("list", Type::Dynamic).marked(), Param::new("index", Type::Number)],
        variadic: None,
        returns: Returns::Computed(|a| match a[0].ty() {
            Type::List(e) => Ok(*e),
            Type::Tuple(ts) => {
                if !a[1].is_known() {
                    return Ok(Type::Dynamic);
                }
                let i = whole(&a[1]).map_err(|e| FuncError::Other(format!("invalid index: {e}")))?;
                if ts.is_empty() {
                    return Err(FuncError::Other("cannot use element function with an empty list".into()));
                }
                Ok(ts[i.rem_euclid(ts.len() as i64) as usize].clone())
            }
            t => Err(FuncError::Other(format!("cannot read elements from {}", t.friendly_name()))),
        }),
        imp: |_, a, ret| {
            let i = whole(&a[1]).map_err(|e| FuncError::Other(format!("invalid index: {e}")))?;
            let (list, marked) = unmark(&a[0]);
            if !list.is_known() {
                return Ok(Value::unknown(ret.clone()).mark(marked));
            }
            let xs = items(&list);
            if xs.is_empty() {
                return Err(FuncError::Other("cannot use element function with an empty list".into()));
            }
            Ok(xs[i.rem_euclid(xs.len() as i64) as usize].clone().mark(marked))
        },
    });
    r.add(Function {
        name: "flatten",
        params: vec![Param::new("list", Type::Dynamic).marked()],
        variadic: None,
        returns: Returns::Computed(|a| {
            if !a[0].is_wholly_known() {
                return Ok(Type::Dynamic);
            }
            if !matches!(a[0].ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
                return Err(FuncError::Other("can only flatten lists, sets and tuples".into()));
            }
            let mut out = Vec::new();
            let mut marked = false;
            Ok(if flatten(&a[0], &mut out, &mut marked) {
                Type::Tuple(out.iter().map(Value::ty).collect())
            } else {
                Type::Dynamic
            })
        }),
        imp: |_, a, ret| {
            let mut out = Vec::new();
            let mut marked = false;
            if !flatten(&a[0], &mut out, &mut marked) {
                return Ok(Value::unknown(ret.clone()).mark(marked));
            }
            Ok(Value::tuple(out).mark(marked))
        },
    });
    r.add(Function {
        name: "index",
        params: vec![Param::new("list", Type::Dynamic), Param::new("value", Type::Dynamic)],
        variadic: None,
        returns: Returns::Type(Type::Number),
        imp: |_, a, _| {
            if !matches!(a[0].ty(), Type::List(_) | Type::Tuple(_)) {
                return Err(FuncError::Other("argument must be a list or tuple".into()));
            }
            let xs = items(&a[0]);
            if xs.is_empty() {
                return Err(FuncError::Other("cannot search an empty list".into()));
            }
            for (i, v) in xs.iter().enumerate() {
                match equals(v, &a[1]) {
                    None => return Ok(Value::unknown(Type::Number)),
                    Some(true) => return Ok(Value::int(i as i64)),
                    Some(false) => {}
                }
            }
            Err(FuncError::Other("item not found".into()))
        },
    });
    for (name, what) in [("list", "list"), ("map", "map")] {
        r.add(Function {
            name,
            params: vec![],
            variadic: Some(Param::new("vals", Type::Dynamic).null().unknown().dynamic()),
            returns: Returns::Computed(if what == "list" {
                |_| Err(FuncError::Other("the \"list\" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list".into()))
            } else {
                |_| Err(FuncError::Other("the \"map\" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map".into()))
            }),
            imp: |_, _, _| Err(FuncError::Other("removed function".into())),
        });
    }
    r.add(Function {
        name: "one",
        params: vec![Param::new("list", Type::Dynamic)],
        variadic: None,
        returns: Returns::Computed(|a| match a[0].ty() {
            Type::List(e) | Type::Set(e) => Ok(*e),
            Type::Tuple(ts) if ts.is_empty() => Ok(Type::Dynamic),
            Type::Tuple(ts) if ts.len() == 1 => Ok(ts[0].clone()),
            _ => Err(one_error()),
        }),
        imp: |_, a, ret| match items(&a[0]) {
            [] => Ok(Value::null(ret.clone())),
            [x] => Ok(x.clone()),
            _ => Err(one_error()),
        },
    });
    r.add(Function {
        name: "range",
        params: vec![],
        variadic: Some(Param::new("params", Type::Number)),
        returns: Returns::Type(Type::list(Type::Number)),
        imp: |_, a, _| range(a),
    });
    r.add(Function {
        name: "reverse",
        params: vec![Param::new("list", Type::Dynamic).marked()],
        variadic: None,
        returns: Returns::Computed(|a| match a[0].ty() {
            Type::Tuple(mut ts) => {
                ts.reverse();
                Ok(Type::Tuple(ts))
            }
            Type::List(e) | Type::Set(e) => Ok(Type::List(e)),
            t => Err(FuncError::Arg(0, format!("can only reverse list or tuple values, not {}", t.friendly_name()))),
        }),
        imp: |_, a, ret| {
            let (list, marked) = unmark(&a[0]);
            let mut xs = items(&list).to_vec();
            xs.reverse();
            Ok(match ret {
                Type::List(e) => Value::list((**e).clone(), xs),
                _ => Value::tuple(xs),
            }
            .mark(marked))
        },
    });
    r.add(Function {
        name: "slice",
        params: vec![Param::new("list", Type::Dynamic).marked(), Param::new("start_index", Type::Number), Param::new("end_index", Type::Number)],
        variadic: None,
        returns: Returns::Computed(|a| {
            let ty = a[0].ty();
            if matches!(ty, Type::Set(_)) {
                return Err(FuncError::Arg(0, "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important".into()));
            }
            if !matches!(ty, Type::List(_) | Type::Tuple(_)) {
                return Err(FuncError::Arg(0, "must be a list or tuple value".into()));
            }
            let (start, end) = slice_indexes(a)?;
            Ok(match (ty, start, end) {
                (Type::Tuple(ts), Some(s), Some(e)) => Type::Tuple(ts[s..e].to_vec()),
                (Type::Tuple(_), _, _) => Type::Dynamic,
                (t, _, _) => t,
            })
        }),
        imp: |_, a, ret| {
            let (list, marked) = unmark(&a[0]);
            if *ret == Type::Dynamic || !list.is_known() {
                return Ok(Value::unknown(ret.clone()).mark(marked));
            }
            let (Some(s), Some(e)) = slice_indexes(a)? else { return Ok(Value::unknown(ret.clone()).mark(marked)) };
            let xs = items(&list)[s..e].to_vec();
            Ok(match ret {
                Type::List(el) => Value::list((**el).clone(), xs),
                _ => Value::tuple(xs),
            }
            .mark(marked))
        },
    });
    r.add(Function {
        name: "sort",
        params: vec![Param::new("list", Type::list(Type::String)).unknown()],
        variadic: None,
        returns: Returns::Type(Type::list(Type::String)),
        imp: |_, a, ret| {
            if !a[0].is_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            if !a[0].is_wholly_known() {
                // cty refines the unknown result to the list's length, and a list refined to
                // an exact length is a known list of unknown elements (cty's `NewValue`).
                return Ok(Value::list(Type::String, vec![Value::unknown(Type::String); items(&a[0]).len()]));
            }
            let mut out = Vec::new();
            for (i, v) in items(&a[0]).iter().enumerate() {
                match v.as_str() {
                    Some(s) => out.push(s.to_string()),
                    None => {
                        return Err(FuncError::Other(format!(
                            "given list element {i} is null; a null string cannot be sorted"
                        )))
                    }
                }
            }
            // Go's sort.Strings: by bytes.
            crate::util::sort::sort(&mut out);
            Ok(Value::list(Type::String, out.into_iter().map(Value::string).collect()))
        },
    });
    r.add(one_param("sum", Type::Dynamic, Returns::Type(Type::Number), |_, a, _| sum(&a[0])));
    super::collection_map::register(r);
    super::collection_set::register(r);
}

/// A known, unmarked value's identity among values of its type (cty's Equals on them).
pub(super) fn key(v: &Value) -> String {
    crate::eval::render::to_json_text(v).unwrap_or_else(|| crate::eval::render::console(v))
}

fn one_error() -> FuncError {
    FuncError::Arg(0, "must be a list, set, or tuple value with either zero or one elements".into())
}
