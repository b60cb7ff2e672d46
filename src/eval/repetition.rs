//! `count` and `for_each` values shaped into the instances they make, as Terraform's
//! `evaluateCountExpressionValue` and `evaluateForEachExpressionValue` shape them: once, for
//! every block that repeats (resources, module calls, import blocks). Each caller words its own
//! diagnostics from the error, since Terraform's differ by block and by walk.

use super::convert::convert;
use super::types::Type;
use super::value::{Kind, Value};
use crate::diag::Diagnostic;

/// Why a `count` value makes no instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountError {
    /// Not known until apply.
    Unknown,
    /// Not a whole number.
    NotAWholeNumber,
    /// Below zero.
    Negative,
}

/// The number of instances a `count` value makes.
pub fn count(v: &Value) -> Result<i64, CountError> {
    if !v.is_known() {
        return Err(CountError::Unknown);
    }
    let n = convert(v, &Type::Number).ok().and_then(|n| n.as_number().and_then(|n| n.to_i64()));
    match n {
        Some(n) if n >= 0 => Ok(n),
        Some(_) => Err(CountError::Negative),
        None => Err(CountError::NotAWholeNumber),
    }
}

/// Why a `for_each` value makes no instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForEachError {
    /// Null.
    Null,
    /// Its keys are not known until apply; `set` when it is (or will be) a set, else a map.
    Unknown { set: bool },
    /// Neither a map (or object) nor a set.
    Unsuitable,
    /// A set whose elements are not strings: their type.
    SetOf(Type),
    /// A set of strings holding a null.
    SetWithNull,
}

/// The instances a `for_each` value makes: each key with its `each.value`, in key order for a
/// map or object, in the set's order for a set of strings (its elements are their own values).
/// The checks come in Terraform's order (`evaluateForEachExpressionValue`): null, unknown, not
/// a collection, empty (any type then makes no instances), then a set's element type and nulls.
pub fn for_each(v: &Value) -> Result<Vec<(String, Value)>, ForEachError> {
    match &v.kind {
        Kind::Null(_) => Err(ForEachError::Null),
        Kind::Unknown(t) => Err(ForEachError::Unknown { set: matches!(t, Type::Set(_)) }),
        Kind::Map(_, m) | Kind::Object(m) => Ok(m.iter().map(|(k, x)| (k.clone(), x.clone())).collect()),
        Kind::Set(_, items) if items.is_empty() => Ok(Vec::new()),
        Kind::Set(_, items) if !items.iter().all(Value::is_known) => Err(ForEachError::Unknown { set: true }),
        Kind::Set(t, _) if *t != Type::String => Err(ForEachError::SetOf(t.clone())),
        Kind::Set(_, items) => items
            .iter()
            .map(|x| x.as_str().map(|s| (s.to_string(), x.clone())).ok_or(ForEachError::SetWithNull))
            .collect(),
        _ => Err(ForEachError::Unsuitable),
    }
}

/// Terraform's error for a `for_each` value that is known and unsuitable, the same for
/// resources and module calls; `None` for an unknown one (each block words that itself).
pub fn unsuitable(err: &ForEachError, v: &Value) -> Option<Diagnostic> {
    let (summary, detail) = match err {
        ForEachError::Unknown { .. } => return None,
        ForEachError::Null => (
            "Invalid for_each argument",
            "the given \"for_each\" argument value is null. A map, or set of strings is allowed.".to_string(),
        ),
        ForEachError::SetOf(t) => (
            "Invalid for_each set argument",
            format!(
                "\"for_each\" supports maps and sets of strings, but you have provided a set containing type {}.",
                t.friendly_name()
            ),
        ),
        ForEachError::SetWithNull => {
            ("Invalid for_each set argument", "\"for_each\" sets must not contain null values.".to_string())
        }
        ForEachError::Unsuitable => (
            "Invalid for_each argument",
            format!(
                "the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.",
                v.ty().friendly_name()
            ),
        ),
    };
    Some(Diagnostic::error(summary, format!("The given \"for_each\" argument value is unsuitable: {detail}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(count(&Value::int(3)), Ok(3));
        assert_eq!(count(&Value::string("2")), Ok(2));
        assert_eq!(count(&Value::int(-1)), Err(CountError::Negative));
        assert_eq!(count(&Value::string("x")), Err(CountError::NotAWholeNumber));
        assert_eq!(count(&Value::unknown(Type::Number)), Err(CountError::Unknown));
    }

    #[test]
    fn for_each_values() {
        let set = Value::set(Type::String, vec![Value::string("b"), Value::string("a")]);
        let keys: Vec<String> = for_each(&set).unwrap().into_iter().map(|(k, _)| k).collect();
        assert_eq!(keys.len(), 2);
        assert_eq!(
            for_each(&Value::unknown(Type::Set(Box::new(Type::String)))),
            Err(ForEachError::Unknown { set: true })
        );
        assert_eq!(
            for_each(&Value::unknown(Type::Map(Box::new(Type::String)))),
            Err(ForEachError::Unknown { set: false })
        );
        assert_eq!(for_each(&Value::string("x")), Err(ForEachError::Unsuitable));
        assert_eq!(for_each(&Value::null(Type::Set(Box::new(Type::String)))), Err(ForEachError::Null));
        let numbers = Value::set(Type::Number, vec![Value::int(1)]);
        assert_eq!(for_each(&numbers), Err(ForEachError::SetOf(Type::Number)));
        assert_eq!(for_each(&Value::set(Type::Number, vec![])), Ok(vec![]));
        let with_null = Value::set(Type::String, vec![Value::string("a"), Value::null(Type::String)]);
        assert_eq!(for_each(&with_null), Err(ForEachError::SetWithNull));
    }
}
