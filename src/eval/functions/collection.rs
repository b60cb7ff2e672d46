//! The collection functions (Terraform's "Collection Functions") that work on sequences:
//! `alltrue` … `zipmap` as cty's `function/stdlib` and Terraform's `internal/lang/funcs`
//! define them (flags and error texts: `funcs_a_spec.md`, "Collection"). Limits: `range` stops
//! at 1024 values as cty does, `setproduct` at [`collection_set::SETPRODUCT_LIMIT`] combinations
//! (Terraform has none); the others make at most as many values as they are given. Sets are in
//! `collection_set.rs`, maps and objects in `collection_map.rs`.
//!
//! [`collection_set::SETPRODUCT_LIMIT`]: super::collection_set::SETPRODUCT_LIMIT

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
            let chunks = xs.chunks(size.min(xs.len() as i64) as usize).map(|c| Value::list(et.clone(), c.to_vec())).collect();
            Ok(Value::list(list.ty(), chunks).mark(marked))
        },
    });
    r.add(Function {
        name: "coalesce",
        params: vec![],
        variadic: Some(Param::new("vals", Type::Dynamic).null().unknown().dynamic()),
        returns: Returns::Computed(|a| {
            unify(&a.iter().map(Value::ty).collect::<Vec<_>>()).ok_or_else(|| FuncError::Other("all arguments must have the same type".into()))
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
                let seq = if matches!(ret, Type::List(_)) { convert(seq, ret).map_err(|m| FuncError::Arg(i, m))? } else { seq.clone() };
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
        params: vec![Param::new("list", Type::Dynamic), Param::new("value", Type::Dynamic).null()],
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
            Ok(if flatten(&a[0], &mut out, &mut marked) { Type::Tuple(out.iter().map(Value::ty).collect()) } else { Type::Dynamic })
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
            if !a[0].is_wholly_known() {
                return Ok(Value::unknown(ret.clone()));
            }
            let mut out = Vec::new();
            for (i, v) in items(&a[0]).iter().enumerate() {
                match v.as_str() {
                    Some(s) => out.push(s.to_string()),
                    None => return Err(FuncError::Other(format!("given list element {i} is null; a null string cannot be sorted"))),
                }
            }
            // Go's sort.Strings: by bytes.
            out.sort_unstable();
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

/// cty's ConcatFunc type: a list when every argument is a list and their types unify, else a
/// tuple of every element's type (`dynamic` while a list's length is unknown).
fn concat_type(a: &[Value]) -> Result<Type, FuncError> {
    if a.is_empty() {
        return Err(FuncError::Other("at least one argument is required".into()));
    }
    if a.iter().all(|v| matches!(v.ty(), Type::List(_))) {
        if let Some(t) = unify(&a.iter().map(Value::ty).collect::<Vec<_>>()) {
            return Ok(t);
        }
    }
    let mut tys = Vec::new();
    for (i, v) in a.iter().enumerate() {
        match v.ty() {
            Type::Tuple(ts) => tys.extend(ts),
            Type::List(e) => {
                if !v.is_known() {
                    return Ok(Type::Dynamic);
                }
                tys.extend(std::iter::repeat_n(*e, items(v).len()));
            }
            t => return Err(FuncError::Arg(i, format!("all arguments must be lists or tuples; got {}", t.friendly_name()))),
        }
    }
    Ok(Type::Tuple(tys))
}

/// cty's flattener: appends the leaves of `v` (lists, sets and tuples inside it opened, nulls
/// kept) to `out`; false when a nested sequence is unknown or an element's type is unknown
/// (the result's shape is not known yet).
fn flatten(v: &Value, out: &mut Vec<Value>, marked: &mut bool) -> bool {
    *marked |= v.sensitive;
    if !v.is_known() {
        return false;
    }
    let mut known = true;
    for x in items(v) {
        if matches!(x.kind, Kind::Unknown(Type::Dynamic)) {
            known = false;
        }
        if !x.is_null() && matches!(x.ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
            if !flatten(x, out, marked) {
                known = false;
            }
        } else {
            out.push(x.clone());
        }
    }
    known
}

/// cty's sliceIndexes: the start and end (each `None` while unknown), checked against each
/// other and the list's length.
fn slice_indexes(a: &[Value]) -> Result<(Option<usize>, Option<usize>), FuncError> {
    let len = if a[0].is_known() || matches!(a[0].ty(), Type::Tuple(_)) {
        Some(match a[0].ty() {
            Type::Tuple(ts) => ts.len(),
            _ => items(&a[0]).len(),
        })
    } else {
        None
    };
    let index = |i: usize, what: &str| -> Result<Option<usize>, FuncError> {
        if !a[i].is_known() {
            return Ok(None);
        }
        let n = whole(&a[i]).map_err(|e| FuncError::Arg(i, format!("invalid {what} index: {e}")))?;
        if n < 0 {
            return Err(FuncError::Arg(i, format!("{what} index must not be less than zero")));
        }
        if len.is_some_and(|l| n as u64 > l as u64) {
            return Err(FuncError::Arg(i, format!("{what} index must not be greater than the length of the list")));
        }
        Ok(Some(n as usize))
    };
    let start = index(1, "start")?;
    let end = index(2, "end")?;
    if let (Some(s), Some(e)) = (start, end) {
        if s > e {
            return Err(FuncError::Arg(1, "start index must not be greater than end index".into()));
        }
    }
    Ok((start, end))
}

/// The most values `range` makes (cty's own limit).
const RANGE_LIMIT: usize = 1024;

/// cty's RangeFunc, on big floats: start, end and step from one to three arguments, values
/// from start toward end (exclusive) by step.
fn range(a: &[Value]) -> Result<Value, FuncError> {
    let n = |i: usize| a[i].as_number().cloned().unwrap_or_else(Number::zero);
    let one = Number::from_i64(1);
    let (start, end, step) = match a.len() {
        1 => (Number::zero(), n(0), if n(0).is_neg() && !n(0).is_zero() { one.neg() } else { one }),
        2 => {
            let down = n(1).cmp_num(&n(0)).is_lt();
            (n(0), n(1), if down { one.neg() } else { one })
        }
        3 => (n(0), n(1), n(2)),
        _ => return Err(FuncError::Other("must have one, two, or three arguments".into())),
    };
    // cty compares the step with zero by identity, which never holds: a zero step runs into
    // the limit below, as in Terraform.
    let down = step.is_neg() && !step.is_zero();
    if down && end.cmp_num(&start).is_gt() {
        return Err(FuncError::Arg(1, "end must be less than start when step is negative".into()));
    }
    if !down && end.cmp_num(&start).is_lt() {
        return Err(FuncError::Arg(1, "end must be greater than start when step is positive".into()));
    }
    let mut out = Vec::new();
    let mut num = start;
    loop {
        let done = if down { num.cmp_num(&end).is_le() } else { num.cmp_num(&end).is_ge() };
        if done {
            break;
        }
        if out.len() >= RANGE_LIMIT {
            return Err(FuncError::Other(
                "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step".into(),
            ));
        }
        let next = num.add(&step).ok_or_else(|| FuncError::Other("range step is not a number".into()))?;
        out.push(Value::number(num));
        num = next;
    }
    Ok(Value::list(Type::Number, out))
}

/// Terraform's SumFunc.
fn sum(v: &Value) -> Result<Value, FuncError> {
    let not_numbers = || FuncError::Arg(0, "argument must be list, set, or tuple of number values".into());
    let ty = v.ty();
    if !matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_) | Type::Map(_) | Type::Object(_)) {
        return Err(FuncError::Arg(0, "cannot sum noniterable".into()));
    }
    if v.length() == Some(0) {
        return Err(FuncError::Arg(0, "cannot sum an empty list".into()));
    }
    if !matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
        return Err(FuncError::Arg(0, format!("argument must be list, set, or tuple. Received {}", ty.friendly_name())));
    }
    if !v.is_wholly_known() {
        return Ok(Value::unknown(Type::Number));
    }
    let mut total: Option<Number> = None;
    for x in items(v) {
        if x.is_null() {
            return Err(not_numbers());
        }
        let x = convert(x, &Type::Number).map_err(|_| not_numbers())?;
        let x = x.as_number().cloned().ok_or_else(not_numbers)?;
        total = Some(match total {
            None => x,
            Some(t) => t.add(&x).ok_or_else(|| FuncError::Other("can't compute sum of opposing infinities".into()))?,
        });
    }
    Ok(Value::number(total.unwrap_or_else(Number::zero)))
}
