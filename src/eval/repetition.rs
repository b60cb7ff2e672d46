//! `count` and `for_each` values shaped into the instances they make, as Terraform's
//! `evaluateCountExpressionValue` and `evaluateForEachExpressionValue` shape them: once, for
//! every block that repeats (resources, module calls, import blocks). Each caller words its own
//! diagnostics from the error, since Terraform's differ by block and by walk.

use super::convert::convert;
use super::types::Type;
use super::value::{Kind, Value};
use crate::diag::{CausedBy, Diagnostic};

/// Why a `count` value makes no instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountError {
    /// Not a number nor convertible to one: the conversion's message.
    Type(String),
    /// Null.
    Null,
    /// Not known until apply.
    Unknown,
    /// Not a whole number that fits an `int`.
    NotAWholeNumber,
    /// Below zero.
    Negative,
}

/// The number of instances a `count` value makes, checked in Terraform's order
/// (`evaluateCountExpressionValue`): converted to a number, unmarked (a sensitive count is
/// allowed), then null, unknown, a whole number, not negative.
pub fn count(v: &Value) -> Result<i64, CountError> {
    let n = convert(v, &Type::Number).map_err(CountError::Type)?;
    if n.is_null() {
        return Err(CountError::Null);
    }
    if !n.is_known() {
        return Err(CountError::Unknown);
    }
    match n.as_number().filter(|n| n.is_integer()).and_then(|n| n.to_i64()) {
        Some(n) if n >= 0 => Ok(n),
        Some(_) => Err(CountError::Negative),
        None => Err(CountError::NotAWholeNumber),
    }
}

/// Terraform's error for a `count` value, the same for resources and module calls (without
/// its range, which is the expression's); `None` for an unknown one, which the validate walk
/// allows and the plan words with [`count_unknown`]. `Type` is HCL's conversion error, whose
/// snippet names the values read.
pub fn count_error(err: &CountError) -> Option<Diagnostic> {
    let unsuitable = |why: &str| format!("The given \"count\" argument value is unsuitable: {why}.");
    Some(match err {
        CountError::Unknown => return None,
        CountError::Type(why) => Diagnostic::error("Incorrect value type", format!("Invalid expression value: {why}.")),
        CountError::Null => Diagnostic::error(
            "Invalid count argument",
            "The given \"count\" argument value is null. An integer is required.",
        ),
        CountError::NotAWholeNumber => Diagnostic::error(
            "Invalid count argument",
            unsuitable("value must be a whole number, between -9223372036854775808 and 9223372036854775807"),
        ),
        CountError::Negative => {
            Diagnostic::error("Invalid count argument", unsuitable("must be greater than or equal to zero"))
        }
    })
}

/// Terraform's error for a `count` not known at plan (`evaluateCountExpression`), resources
/// and module calls alike.
pub fn count_unknown() -> Diagnostic {
    Diagnostic::error("Invalid count argument", "The \"count\" value depends on resource attributes that cannot be determined until apply, so Terraform cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.")
}

/// Why a `for_each` value makes no instances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForEachError {
    /// Its keys are not known until apply; `set` when it is (or will be) a set, else a map.
    Unknown { set: bool },
    /// Sensitive: its keys would show in instance addresses.
    Sensitive,
    /// Null.
    Null,
    /// Neither a map (or object) nor a set.
    Unsuitable,
    /// A set whose elements are not strings: their type.
    SetOf(Type),
    /// A set of strings holding a null.
    SetWithNull,
}

impl ForEachError {
    /// What the values under its diagnostic's snippet may show (Terraform's diagnostic extras).
    pub fn caused_by(&self) -> CausedBy {
        match self {
            ForEachError::Unknown { .. } => CausedBy::Unknown,
            ForEachError::Sensitive => CausedBy::Sensitive,
            _ => CausedBy::Other,
        }
    }
}

/// The instances a `for_each` value makes: each key with its `each.value`, in key order for a
/// map or object, in the set's order for a set of strings (its elements are their own values).
/// The checks come in Terraform's order (`forEachEvaluator.ResourceValue`): unknown (a set
/// with an unknown element too), then `validateResourceOrActionForEach`'s: sensitive, null,
/// not a collection, empty (any type then makes no instances), a set's element type and nulls.
pub fn for_each(v: &Value) -> Result<Vec<(String, Value)>, ForEachError> {
    match &v.kind {
        Kind::Unknown(t) => return Err(ForEachError::Unknown { set: matches!(t, Type::Set(_)) }),
        Kind::Set(_, items) if !items.iter().all(Value::is_known) => return Err(ForEachError::Unknown { set: true }),
        _ if v.sensitive => return Err(ForEachError::Sensitive),
        _ => {}
    }
    match &v.kind {
        Kind::Null(_) => Err(ForEachError::Null),
        Kind::Map(_, m) | Kind::Object(m) => Ok(m.iter().map(|(k, x)| (k.clone(), x.clone())).collect()),
        Kind::Set(_, items) if items.is_empty() => Ok(Vec::new()),
        Kind::Set(t, _) if *t != Type::String => Err(ForEachError::SetOf(t.clone())),
        Kind::Set(_, items) => items
            .iter()
            .map(|x| x.as_str().map(|s| (s.to_string(), x.clone())).ok_or(ForEachError::SetWithNull))
            .collect(),
        _ => Err(ForEachError::Unsuitable),
    }
}

/// The validate walk's check (`ValidateResourceValue`): unknowns allowed, but a sensitive
/// value is refused even when unknown (a sensitive variable is unknown there).
pub fn for_each_at_validate(v: &Value) -> Option<ForEachError> {
    if v.sensitive {
        return Some(ForEachError::Sensitive);
    }
    for_each(v).err().filter(|e| !matches!(e, ForEachError::Unknown { .. }))
}

/// Terraform's error for a `for_each` value that makes no instances, the same for resources
/// and module calls (without its range, which is the expression's): unknown at plan
/// (`ensureKnownForResource`'s set and map texts), sensitive, or unsuitable.
pub fn for_each_error(err: &ForEachError, v: &Value) -> Diagnostic {
    let unsuitable = |detail: String| format!("The given \"for_each\" argument value is unsuitable: {detail}");
    let (summary, detail) = match err {
        ForEachError::Unknown { set: true } => ("Invalid for_each argument", "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so Terraform cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge.".to_string()),
        ForEachError::Unknown { set: false } => ("Invalid for_each argument", "The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so Terraform cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge.".to_string()),
        ForEachError::Sensitive => ("Invalid for_each argument", "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.".to_string()),
        ForEachError::Null => (
            "Invalid for_each argument",
            unsuitable("the given \"for_each\" argument value is null. A map, or set of strings is allowed.".to_string()),
        ),
        ForEachError::SetOf(t) => (
            "Invalid for_each set argument",
            unsuitable(format!(
                "\"for_each\" supports maps and sets of strings, but you have provided a set containing type {}.",
                t.friendly_name()
            )),
        ),
        ForEachError::SetWithNull => {
            ("Invalid for_each set argument", unsuitable("\"for_each\" sets must not contain null values.".to_string()))
        }
        ForEachError::Unsuitable => (
            "Invalid for_each argument",
            unsuitable(format!(
                "the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.",
                v.ty().friendly_name()
            )),
        ),
    };
    Diagnostic::error(summary, detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(count(&Value::int(3)), Ok(3));
        assert_eq!(count(&Value::string("2")), Ok(2));
        assert_eq!(count(&Value::int(-1)), Err(CountError::Negative));
        assert_eq!(count(&Value::string("x")), Err(CountError::Type("a number is required".into())));
        assert_eq!(count(&Value::unknown(Type::Number)), Err(CountError::Unknown));
        assert_eq!(count(&Value::null(Type::Dynamic)), Err(CountError::Null));
        assert_eq!(count(&Value::int(2).mark(true)), Ok(2));
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
        assert_eq!(for_each(&set.clone().mark(true)), Err(ForEachError::Sensitive));
        let unknown_sensitive = Value::unknown(Type::Set(Box::new(Type::String))).mark(true);
        assert_eq!(for_each_at_validate(&unknown_sensitive), Some(ForEachError::Sensitive));
        assert_eq!(for_each(&Value::null(Type::Set(Box::new(Type::String)))), Err(ForEachError::Null));
        let numbers = Value::set(Type::Number, vec![Value::int(1)]);
        assert_eq!(for_each(&numbers), Err(ForEachError::SetOf(Type::Number)));
        assert_eq!(for_each(&Value::set(Type::Number, vec![])), Ok(vec![]));
        let with_null = Value::set(Type::String, vec![Value::string("a"), Value::null(Type::String)]);
        assert_eq!(for_each(&with_null), Err(ForEachError::SetWithNull));
    }
}
