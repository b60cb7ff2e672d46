//! The set functions: `setintersection`, `setsubtract`, `setunion` (cty's set operations on
//! arguments converted to one set type) and `setproduct`.

use super::collection::{items, key, unmark};
use super::{FuncError, Function, Param, Registry, Returns};
use crate::eval::convert::{convert, unify};
use crate::eval::types::Type;
use crate::eval::value::Value;

#[derive(Clone, Copy)]
enum Op {
    Union,
    Intersection,
    Subtract,
}

fn set_param(name: &'static str) -> Param {
    Param::new(name, Type::set(Type::Dynamic)).dynamic()
}

/// cty's setOperationReturnType: a set of the unified element types (empty sets of unknown
/// element type left out).
fn set_type(a: &[Value]) -> Result<Type, FuncError> {
    let etys: Vec<Type> = a
        .iter()
        .filter(|v| !(v.is_known() && items(v).is_empty() && v.ty().element() == Some(&Type::Dynamic)))
        .map(|v| v.ty().element().cloned().unwrap_or(Type::Dynamic))
        .collect();
    if etys.is_empty() {
        return Ok(Type::set(Type::Dynamic));
    }
    unify(&etys)
        .map(Type::set)
        .ok_or_else(|| FuncError::Other("given sets must all have compatible element types".into()))
}

fn set_op(op: Op, a: &[Value], ret: &Type) -> Result<Value, FuncError> {
    let allow_unknown = matches!(op, Op::Union);
    let elem = ret.element().cloned().unwrap_or(Type::Dynamic);
    let mut acc: Option<Vec<Value>> = None;
    for (i, v) in a.iter().enumerate() {
        let v = convert(v, ret).map_err(|m| FuncError::Arg(i, m))?;
        if !allow_unknown && !v.is_wholly_known() {
            return Ok(Value::unknown(ret.clone()));
        }
        let xs = items(&v).to_vec();
        acc = Some(match (acc, op) {
            (None, _) => xs,
            (Some(mut s), Op::Union) => {
                s.extend(xs);
                s
            }
            (Some(s), Op::Intersection | Op::Subtract) => {
                // Both sides are wholly known here and of one element type.
                let other: std::collections::HashSet<String> = xs.iter().map(key).collect();
                let keep = matches!(op, Op::Intersection);
                s.into_iter().filter(|x| other.contains(&key(x)) == keep).collect()
            }
        });
    }
    let elem =
        if elem == Type::Dynamic { acc.as_ref().and_then(|s| s.first()).map(Value::ty).unwrap_or(elem) } else { elem };
    Ok(Value::set(elem, acc.unwrap_or_default()))
}

pub(super) fn register(r: &mut Registry) {
    r.add(Function {
        name: "setunion",
        params: vec![set_param("first_set")],
        variadic: Some(set_param("other_sets")),
        returns: Returns::Computed(set_type),
        imp: |_, a, ret| set_op(Op::Union, a, ret),
    });
    r.add(Function {
        name: "setintersection",
        params: vec![set_param("first_set")],
        variadic: Some(set_param("other_sets")),
        returns: Returns::Computed(set_type),
        imp: |_, a, ret| set_op(Op::Intersection, a, ret),
    });
    r.add(Function {
        name: "setsubtract",
        params: vec![set_param("a"), set_param("b")],
        variadic: None,
        returns: Returns::Computed(set_type),
        imp: |_, a, ret| set_op(Op::Subtract, a, ret),
    });
    r.add(Function {
        name: "setproduct",
        params: vec![],
        variadic: Some(Param::new("sets", Type::Dynamic).marked()),
        returns: Returns::Computed(product_type),
        imp: |_, a, ret| setproduct(a, ret),
    });
}

/// cty's SetProductFunc type: a list of tuples when every argument is a list or tuple, else a
/// set of them; each tuple element has its argument's (unified) element type.
fn product_type(a: &[Value]) -> Result<Type, FuncError> {
    if a.len() < 2 {
        return Err(FuncError::Other("at least two arguments are required".into()));
    }
    let mut lists = 0;
    let mut etys = Vec::with_capacity(a.len());
    for (i, v) in a.iter().enumerate() {
        match v.ty() {
            Type::Set(e) => etys.push(*e),
            Type::List(e) => {
                etys.push(*e);
                lists += 1;
            }
            Type::Tuple(ts) => {
                lists += 1;
                if ts.is_empty() {
                    etys.push(Type::Dynamic);
                } else {
                    etys.push(
                        unify(&ts).ok_or_else(|| FuncError::Arg(i, "all elements must be of the same type".into()))?,
                    );
                }
            }
            _ => return Err(FuncError::Arg(i, "a set or a list is required".into())),
        }
    }
    let t = Type::Tuple(etys);
    Ok(if lists == a.len() { Type::list(t) } else { Type::set(t) })
}

fn setproduct(a: &[Value], ret: &Type) -> Result<Value, FuncError> {
    let ety = ret.element().cloned().unwrap_or(Type::Dynamic);
    let Type::Tuple(sub) = &ety else { return Ok(Value::unknown(ret.clone())) };
    let mut marked = false;
    let mut unknown = false;
    let mut total: usize = 1;
    let mut args = Vec::with_capacity(a.len());
    for v in a {
        let (v, m) = unmark(v);
        marked |= m;
        if !v.is_known() {
            unknown = true;
            continue;
        }
        total = total.saturating_mul(items(&v).len());
        args.push(v);
    }
    if unknown {
        return Ok(Value::unknown(ret.clone()).mark(marked));
    }
    let make = |rows: Vec<Value>| {
        if matches!(ret, Type::List(_)) {
            Value::list(ety.clone(), rows)
        } else {
            Value::set(ety.clone(), rows)
        }
    };
    if total == 0 {
        return Ok(make(vec![]).mark(marked));
    }
    // Terraform has no limit (`setproduct` of 4,194,304 tuples plans there); the tuples and
    // their elements must fit the expression's budget (eval/limits.rs) before they are built.
    crate::eval::limits::fits(total.saturating_mul(args.len() + 1), 0).map_err(FuncError::Other)?;
    // Every argument's elements converted to its tuple element type once.
    let mut cols = Vec::with_capacity(args.len());
    for (v, t) in args.iter().zip(sub) {
        let col: Result<Vec<Value>, String> = items(v).iter().map(|x| convert(x, t)).collect();
        cols.push(col.map_err(FuncError::Other)?);
    }
    let mut idx = vec![0usize; cols.len()];
    let mut rows = Vec::with_capacity(total);
    for _ in 0..total {
        rows.push(Value::tuple(idx.iter().zip(&cols).map(|(i, c)| c[*i].clone()).collect()));
        for j in (0..idx.len()).rev() {
            idx[j] += 1;
            if idx[j] < cols[j].len() {
                break;
            }
            idx[j] = 0;
        }
    }
    Ok(make(rows).mark(marked))
}
