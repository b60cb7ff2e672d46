//! The collection functions' larger pieces: `concat`'s type, `flatten`'s walk, `slice`'s
//! indexes, `range` and `sum` (see `collection.rs`, which registers them).

use super::collection::{items, whole};
use super::FuncError;
use crate::eval::convert::{convert, unify};
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::{Kind, Value};

/// cty's ConcatFunc type: a list when every argument is a list and their types unify, else a
/// tuple of every element's type (`dynamic` while a list's length is unknown).
pub(super) fn concat_type(a: &[Value]) -> Result<Type, FuncError> {
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
            t => {
                return Err(FuncError::Arg(
                    i,
                    format!("all arguments must be lists or tuples; got {}", t.friendly_name()),
                ))
            }
        }
    }
    Ok(Type::Tuple(tys))
}

/// cty's flattener: appends the leaves of `v` (lists, sets and tuples inside it opened, nulls
/// kept) to `out`; false when a nested sequence is unknown or an element's type is unknown
/// (the result's shape is not known yet).
pub(super) fn flatten(v: &Value, out: &mut Vec<Value>, marked: &mut bool) -> bool {
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
pub(super) fn slice_indexes(a: &[Value]) -> Result<(Option<usize>, Option<usize>), FuncError> {
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
pub(super) fn range(a: &[Value]) -> Result<Value, FuncError> {
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
pub(super) fn sum(v: &Value) -> Result<Value, FuncError> {
    let not_numbers = || FuncError::Arg(0, "argument must be list, set, or tuple of number values".into());
    let ty = v.ty();
    if !matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_) | Type::Map(_) | Type::Object(_)) {
        return Err(FuncError::Arg(0, "cannot sum noniterable".into()));
    }
    if v.length() == Some(0) {
        return Err(FuncError::Arg(0, "cannot sum an empty list".into()));
    }
    if !matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
        return Err(FuncError::Arg(
            0,
            format!("argument must be list, set, or tuple. Received {}", ty.friendly_name()),
        ));
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
