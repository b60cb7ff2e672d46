//! The few functions the evaluator's own tests lean on (`length`,
//! `tostring`, `tonumber`, `tobool`, `sensitive`, `nonsensitive`, `issensitive`, `type`):
//! the family files hold the rest.

use super::{FuncError, Function, Param, Registry, Returns};
use crate::eval::number::Number;
use crate::eval::types::Type;
use crate::eval::value::{Kind, Value};

pub(super) fn register(r: &mut Registry) {
    r.add(Function {
        name: "length",
        params: vec![Param::new("value", Type::Dynamic).dynamic().unknown().marked()],
        variadic: None,
        returns: Returns::Type(Type::Number),
        imp: |_, args, _| {
            let v = &args[0];
            let ty = v.ty();
            match (&v.kind, &ty) {
                (_, Type::Tuple(ts)) => Ok(Value::int(ts.len() as i64)),
                (_, Type::Object(m)) => Ok(Value::int(m.len() as i64)),
                (Kind::Unknown(_), _) => Ok(Value::unknown(Type::Number)),
                // cty counts grapheme clusters, as Go's textseg does.
                (Kind::String(s), _) => Ok(Value::int(super::string_text::strlen(s) as i64)),
                (Kind::List(..) | Kind::Set(..) | Kind::Map(..), _) => {
                    let n = v.length().unwrap_or(0);
                    // A set's length is unknown while any element is (they may coincide).
                    if matches!(v.kind, Kind::Set(..)) && !v.is_wholly_known() {
                        return Ok(Value::unknown(Type::Number).mark(v.sensitive));
                    }
                    Ok(Value::int(n as i64).mark(v.sensitive))
                }
                (Kind::Null(_), _) => Err(FuncError::Arg(0, "argument must not be null".into())),
                _ => Err(FuncError::Arg(0, "argument must be a string, a collection type, or a structural type".into())),
            }
        },
    });
    for (name, ty) in [("tostring", Type::String), ("tonumber", Type::Number), ("tobool", Type::Bool)] {
        r.add(Function {
            name,
            params: vec![Param::new("v", Type::Dynamic).null().dynamic().unknown().marked()],
            variadic: None,
            returns: Returns::Type(ty),
            imp: |_, args, ret| {
                let v = &args[0];
                if let (Type::Number, Kind::String(s)) = (ret, &v.kind) {
                    return match Number::parse(s.trim()) {
                        Some(n) if s.trim() == s => Ok(Value::number(n).mark(v.sensitive)),
                        _ => Err(FuncError::Other(format!("cannot convert {} to number; given string must be a decimal representation of a number", crate::dag::go_quote(s)))),
                    };
                }
                crate::eval::convert::convert(v, ret).map_err(|_| {
                    FuncError::Arg(0, format!("cannot convert {} to {}", v.ty().friendly_name(), ret.friendly_name()))
                })
            },
        });
    }
    for (name, kind) in [("tolist", 0u8), ("toset", 1), ("tomap", 2)] {
        r.add(Function {
            name,
            params: vec![Param::new("v", Type::Dynamic).null().dynamic().unknown().marked()],
            variadic: None,
            returns: Returns::Computed(match kind {
                0 => |args| collection_type(&args[0], 0),
                1 => |args| collection_type(&args[0], 1),
                _ => |args| collection_type(&args[0], 2),
            }),
            imp: |_, args, ret| crate::eval::convert::convert(&args[0], ret).map_err(|m| FuncError::Arg(0, m)),
        });
    }
    r.add(Function {
        name: "sensitive",
        params: vec![Param::new("value", Type::Dynamic).null().dynamic().unknown().marked()],
        variadic: None,
        returns: Returns::Computed(|args| Ok(args[0].ty())),
        imp: |_, args, _| Ok(args[0].clone().mark(true)),
    });
    r.add(Function {
        name: "nonsensitive",
        params: vec![Param::new("value", Type::Dynamic).null().dynamic().unknown().marked()],
        variadic: None,
        returns: Returns::Computed(|args| Ok(args[0].ty())),
        imp: |_, args, _| {
            let mut v = args[0].clone();
            v.sensitive = false;
            Ok(v)
        },
    });
    r.add(Function {
        name: "issensitive",
        params: vec![Param::new("value", Type::Dynamic).null().dynamic().unknown().marked()],
        variadic: None,
        returns: Returns::Type(Type::Bool),
        imp: |_, args, _| Ok(Value::bool(args[0].has_sensitive())),
    });
}

/// The collection type `tolist`/`toset`/`tomap` (kind 0/1/2) convert their argument to.
fn collection_type(v: &Value, kind: u8) -> Result<Type, FuncError> {
    let ty = v.ty();
    let elems: Option<Vec<Type>> = match (&ty, kind) {
        (Type::Dynamic, _) => return Ok(Type::Dynamic),
        (Type::List(e) | Type::Set(e), 0 | 1) => Some(vec![(**e).clone()]),
        (Type::Tuple(ts), 0 | 1) => Some(ts.clone()),
        (Type::Map(e), 2) => Some(vec![(**e).clone()]),
        (Type::Object(m), 2) => Some(m.values().cloned().collect()),
        _ => None,
    };
    let what = ["list", "set", "map"][kind as usize];
    let Some(elems) = elems else {
        return Err(FuncError::Arg(0, format!("cannot convert {} to {what} of any single type", ty.friendly_name())));
    };
    let e = if elems.is_empty() { Type::Dynamic } else {
        crate::eval::convert::unify(&elems).ok_or_else(|| FuncError::Arg(0, format!("cannot convert {} to {what} of any single type", ty.friendly_name())))?
    };
    Ok(match kind {
        0 => Type::list(e),
        1 => Type::set(e),
        _ => Type::map(e),
    })
}
