//! `length`, which the evaluator's own tests lean on: the family files hold the rest.

use super::{FuncError, Function, Param, Registry, Returns};
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
                (_, Type::Tuple(ts)) => Ok(Value::int(ts.len() as i64).mark(v.sensitive)),
                (_, Type::Object(m)) => Ok(Value::int(m.len() as i64).mark(v.sensitive)),
                (Kind::Unknown(_), _) => Ok(Value::unknown(Type::Number).mark(v.sensitive)),
                // cty counts grapheme clusters, as Go's textseg does.
                (Kind::String(s), _) => Ok(Value::int(super::string_text::strlen(s) as i64).mark(v.sensitive)),
                (Kind::List(..) | Kind::Set(..) | Kind::Map(..), _) => {
                    let n = v.length().unwrap_or(0);
                    // A set's length is unknown while any element is (they may coincide).
                    if matches!(v.kind, Kind::Set(..)) && !v.is_wholly_known() {
                        return Ok(Value::unknown(Type::Number).mark(v.sensitive));
                    }
                    Ok(Value::int(n as i64).mark(v.sensitive))
                }
                (Kind::Null(_), _) => Err(FuncError::Arg(0, "argument must not be null".into())),
                _ => Err(FuncError::Other("argument must be a string, a collection type, or a structural type".into())),
            }
        },
    });
}
