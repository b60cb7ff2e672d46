//! The type-conversion functions (Terraform's "Type Conversion Functions"): `tobool`,
//! `tonumber`, `tostring`, `tolist`, `toset`, `tomap` as Terraform's `MakeToFunc` builds them,
//! `sensitive`, `nonsensitive`, `issensitive` and `ephemeralasnull`. Flags and error texts are
//! in `funcs_a_spec.md` ("Conversion").

use super::{FuncError, Function, Param, Registry, Returns};
use crate::dag::go_quote;
use crate::eval::convert::{convert, convert_at_path, convertible, unify};
use crate::eval::number::Number;
use crate::eval::typeexpr::Constraint;
use crate::eval::types::Type;
use crate::eval::value::{Kind, Value};

/// What a `to*` function converts to.
#[derive(Clone, Copy)]
enum Want {
    Bool,
    Number,
    String,
    List,
    Set,
    Map,
}

impl Want {
    /// The type as `MakeToFunc` is given it (collections of `dynamic`).
    fn ty(self) -> Type {
        match self {
            Want::Bool => Type::Bool,
            Want::Number => Type::Number,
            Want::String => Type::String,
            Want::List => Type::list(Type::Dynamic),
            Want::Set => Type::set(Type::Dynamic),
            Want::Map => Type::map(Type::Dynamic),
        }
    }

    /// cty's `FriendlyNameForConstraint` of [`Want::ty`].
    fn constraint_name(self) -> &'static str {
        match self {
            Want::Bool => "bool",
            Want::Number => "number",
            Want::String => "string",
            Want::List => "list of any single type",
            Want::Set => "set of any single type",
            Want::Map => "map of any single type",
        }
    }
}

/// The type `v` converts to (cty's `GetConversionUnsafe` succeeding), or the argument error.
fn to_type(v: &Value, want: Want) -> Result<Type, FuncError> {
    let got = v.ty();
    let refuse = || FuncError::Arg(0, format!("cannot convert {} to {}", got.friendly_name(), want.constraint_name()));
    if got == Type::Dynamic {
        return Ok(want.ty());
    }
    let elems: Vec<Type> = match (want, &got) {
        (Want::Bool | Want::Number | Want::String, _) => {
            return if convertible(&got, &want.ty()) { Ok(want.ty()) } else { Err(refuse()) };
        }
        (Want::List | Want::Set, Type::List(e) | Type::Set(e)) => vec![(**e).clone()],
        (Want::List | Want::Set, Type::Tuple(ts)) => ts.clone(),
        (Want::Map, Type::Map(e)) => vec![(**e).clone()],
        (Want::Map, Type::Object(m)) => m.values().cloned().collect(),
        _ => return Err(refuse()),
    };
    let e = if elems.is_empty() { Type::Dynamic } else { unify(&elems).ok_or_else(refuse)? };
    Ok(match want {
        Want::List => Type::list(e),
        Want::Set => Type::set(e),
        _ => Type::map(e),
    })
}

fn to_impl(v: &Value, want: Want, ret: &Type) -> Result<Value, FuncError> {
    if let (Want::Number, Kind::String(s)) = (want, &v.kind) {
        // cty parses a decimal number with nothing around it (no hex, no spaces, no `_`).
        if let Some(n) = Number::parse(s).filter(|_| s.trim() == s && !s.contains('_')) {
            return Ok(Value::number(n).mark(v.sensitive));
        }
    } else if let Ok(out) = convert(v, ret) {
        return Ok(out);
    }
    let (plain, _) = v.unmark_deep();
    let got = plain.ty();
    let what = || plain.as_str().map(go_quote).unwrap_or_else(|| "string".into());
    Err(FuncError::Arg(
        0,
        match (want, &got) {
            _ if v.has_sensitive() => {
                format!("cannot convert this sensitive {} to {}", got.friendly_name(), want.constraint_name())
            }
            (Want::Bool, Type::String) => {
                format!("cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed", what())
            }
            (Want::Number, Type::String) => format!(
                "cannot convert {} to number; given string must be a decimal representation of a number",
                what()
            ),
            _ => format!("cannot convert {} to {}", got.friendly_name(), want.constraint_name()),
        },
    ))
}

fn any_param(name: &'static str) -> Param {
    Param::new(name, Type::Dynamic).null().dynamic().unknown().marked()
}

pub(super) fn register(r: &mut Registry) {
    macro_rules! to_fn {
        ($name:literal, $want:expr) => {
            r.add(Function {
                name: $name,
                params: vec![any_param("v")],
                variadic: None,
                returns: Returns::Computed(|a| to_type(&a[0], $want)),
                imp: |_, a, ret| to_impl(&a[0], $want, ret),
            })
        };
    }
    to_fn!("tobool", Want::Bool);
    to_fn!("tonumber", Want::Number);
    to_fn!("tostring", Want::String);
    to_fn!("tolist", Want::List);
    to_fn!("toset", Want::Set);
    to_fn!("tomap", Want::Map);
    r.add(Function {
        name: "convert",
        params: vec![Param::new("value", Type::Dynamic).null().dynamic(), Param::new("type", Type::Dynamic)],
        variadic: None,
        returns: Returns::Type(Type::Dynamic),
        // The evaluator calls `convert` itself (its second argument is a type expression, not a
        // value); this entry names it for "Did you mean" and refuses other ways of calling it.
        imp: |_, _, _| {
            Err(FuncError::Arg(1, "a type constraint expression is required, such as string or list(number)".into()))
        },
    });
    r.add(Function {
        name: "sensitive",
        params: vec![any_param("value")],
        variadic: None,
        returns: Returns::Computed(|a| Ok(a[0].ty())),
        imp: |_, a, _| Ok(a[0].clone().mark(true)),
    });
    r.add(Function {
        name: "nonsensitive",
        params: vec![any_param("value")],
        variadic: None,
        returns: Returns::Computed(|a| Ok(a[0].ty())),
        // Only the top-level mark goes: marks inside stay where they are.
        imp: |_, a, _| Ok(Value { sensitive: false, ..a[0].clone() }),
    });
    r.add(Function {
        name: "issensitive",
        params: vec![any_param("value")],
        variadic: None,
        returns: Returns::Type(Type::Bool),
        imp: |_, a, _| {
            let v = &a[0];
            Ok(if v.sensitive {
                Value::bool(true)
            } else if !v.is_known() {
                Value::unknown(Type::Bool)
            } else {
                Value::bool(false)
            })
        },
    });
    r.add(Function {
        name: "ephemeralasnull",
        params: vec![any_param("value")],
        variadic: None,
        returns: Returns::Computed(|a| Ok(a[0].ty())),
        // Nothing in this evaluator is ephemeral (no ephemeral resources or variables are
        // evaluated yet), so every value passes through unchanged.
        imp: |_, a, _| Ok(a[0].clone()),
    });
}

/// Terraform 1.15's `convert(value, type)` once the core has decoded the type constraint: the
/// value (null and of unknown type allowed; unknown gives an unknown of the type; marks come
/// off and go back on) converted, with the constraint's optional attributes and defaults. The
/// error is the conversion's message, for the "value" parameter.
pub(crate) fn convert_to_constraint(v: &Value, c: &Constraint) -> Result<Value, String> {
    let want = c.ty();
    let (plain, marked) = v.unmark_deep();
    if !plain.is_known() {
        return Ok(Value::unknown(want).mark(marked));
    }
    let filled = c.apply_defaults(&plain);
    match convert_at_path(&filled, &want) {
        Ok(out) => Ok(out.mark(marked)),
        // As cty's PathError prints itself: the message alone, unless the types cannot convert
        // at all (then cty's MismatchMessage names the element).
        Err((path, m)) if path.is_empty() || convertible(&filled.ty(), &want) => Err(m),
        Err((path, m)) => Err(format!("{path}: {m}")),
    }
}

/// The console-only `type()` (Terraform adds it to the console's scope alone): the type of its
/// argument, which the console prints as a type expression.
pub(super) fn register_console(r: &mut Registry) {
    r.add(Function {
        name: "type",
        params: vec![Param::new("value", Type::Dynamic).null().dynamic().unknown()],
        variadic: None,
        returns: Returns::Type(Type::TypeType),
        imp: |_, a, _| Ok(Kind::TypeVal(a[0].ty()).into()),
    });
}
