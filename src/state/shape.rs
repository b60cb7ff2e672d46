//! The shape checks Terraform makes of a state v4 before reading its meaning: Go's
//! `json.Unmarshal` into `stateV4` (`internal/states/statefile/version4.go`), which refuses the
//! whole state for the first value of the wrong type ("Invalid state file format: The state file
//! field \"resources.instances\" has invalid value object"), and what `prepareStateV4` and the
//! plan then refuse of what the struct let through as raw JSON (`sensitive_attributes` paths,
//! `attributes` that are not an object).
//!
//! Go visits an object's members in the file's order and keeps the first error; the value here
//! is a `serde_json::Value`, whose members are in key order, so of two fields of the wrong type
//! the one named may differ from Terraform's (one is named either way).

use crate::diag::{Diagnostic, Diagnostics};
use serde_json::Value;

const INVALID: &str = "Invalid state file format";

/// A Go type of `stateV4`'s fields, as `encoding/json` decodes into it.
enum Go {
    /// `interface{}`, `json.RawMessage`: anything.
    Any,
    Str,
    Bool,
    U64,
    /// `[]byte`: base64 text, or an array of numbers 0..=255.
    Bytes,
    Slice(&'static Go),
    Map(&'static Go),
    Struct(&'static [(&'static str, Go)]),
}

static OUTPUT: Go = Go::Struct(&[("value", Go::Any), ("type", Go::Any), ("sensitive", Go::Bool)]);
static INSTANCE: Go = Go::Struct(&[
    ("index_key", Go::Any),
    ("status", Go::Str),
    ("deposed", Go::Str),
    ("schema_version", Go::U64),
    ("attributes", Go::Any),
    ("attributes_flat", Go::Map(&Go::Str)),
    ("sensitive_attributes", Go::Any),
    // Terraform 1.12 and later (1.11.4 ignores them).
    ("identity_schema_version", Go::U64),
    ("identity", Go::Any),
    ("private", Go::Bytes),
    ("dependencies", Go::Slice(&Go::Str)),
    ("create_before_destroy", Go::Bool),
]);
static RESOURCE: Go = Go::Struct(&[
    ("module", Go::Str),
    ("mode", Go::Str),
    ("type", Go::Str),
    ("name", Go::Str),
    ("each", Go::Str),
    ("provider", Go::Str),
    ("instances", Go::Slice(&INSTANCE)),
]);
static CHECK_OBJECT: Go =
    Go::Struct(&[("object_addr", Go::Str), ("status", Go::Str), ("failure_messages", Go::Slice(&Go::Str))]);
static CHECK_RESULT: Go = Go::Struct(&[
    ("object_kind", Go::Str),
    ("config_addr", Go::Str),
    ("status", Go::Str),
    ("objects", Go::Slice(&CHECK_OBJECT)),
]);
static STATE: Go = Go::Struct(&[
    // stateVersionV4 reads anything: the version was sniffed before.
    ("version", Go::Any),
    ("terraform_version", Go::Str),
    ("serial", Go::U64),
    ("lineage", Go::Str),
    ("outputs", Go::Map(&OUTPUT)),
    ("resources", Go::Slice(&RESOURCE)),
    ("check_results", Go::Slice(&CHECK_RESULT)),
]);

/// How Go's `UnmarshalTypeError` describes a JSON value: its kind, and a number's text when the
/// number is the right kind but does not fit.
pub(super) fn go_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The first value of `state` that Go's `json.Unmarshal` into `stateV4` refuses, as Terraform's
/// diagnostic (`jsonUnmarshalDiags`).
pub fn unmarshal_error(state: &Value) -> Option<Diagnostic> {
    let mut path = Vec::new();
    check(state, &STATE, &mut path).map(|e| match e {
        Error::Type { field, value } => Diagnostic::error(
            INVALID,
            format!("The state file field {:?} has invalid value {value}", field.join(".")),
        ),
        Error::Base64(at) => Diagnostic::error(
            INVALID,
            format!("The state file does not conform to the expected JSON data structure: illegal base64 data at input byte {at}."),
        ),
    })
}

enum Error {
    Type { field: Vec<&'static str>, value: String },
    Base64(usize),
}

fn check(v: &Value, go: &'static Go, path: &mut Vec<&'static str>) -> Option<Error> {
    let wrong = |path: &Vec<&'static str>, value: String| Some(Error::Type { field: path.clone(), value });
    if v.is_null() {
        return None; // null leaves Go's zero value
    }
    match (go, v) {
        (Go::Any, _) | (Go::Str, Value::String(_)) | (Go::Bool, Value::Bool(_)) => None,
        // As written (serde_json keeps a number's text): 1.0 is no uint64.
        (Go::U64, Value::Number(n)) if n.as_u64().is_some() => None,
        (Go::U64, Value::Number(n)) => wrong(path, format!("number {n}")),
        (Go::Bytes, Value::String(s)) => base64_error(s.as_bytes()).map(Error::Base64),
        (Go::Bytes, Value::Array(items)) => items.iter().find_map(|x| match x {
            Value::Null => None,
            // As written (serde_json keeps a number's text): 1.0 is no byte.
            Value::Number(n) if n.as_u64().is_some_and(|b| b <= 255) => None,
            Value::Number(n) => wrong(path, format!("number {n}")),
            other => wrong(path, go_kind(other).into()),
        }),
        (Go::Slice(element), Value::Array(items)) => items.iter().find_map(|x| check(x, element, path)),
        (Go::Map(element), Value::Object(members)) => members.values().find_map(|x| check(x, element, path)),
        (Go::Struct(fields), Value::Object(members)) => members.iter().find_map(|(key, x)| {
            // Go matches a field's name case-insensitively (the exact name preferred).
            let (name, field) = fields.iter().find(|(name, _)| name.eq_ignore_ascii_case(key))?;
            path.push(name);
            let e = check(x, field, path);
            path.pop();
            e
        }),
        (_, other) => wrong(path, go_kind(other).into()),
    }
}

/// Where Go's `base64.StdEncoding.Decode` stops on `src` (`CorruptInputError`), if it does:
/// padding required, CR and LF skipped.
fn base64_error(src: &[u8]) -> Option<usize> {
    let letter = |c: u8| c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
    let newline = |c: u8| c == b'\n' || c == b'\r';
    let mut si = 0;
    while si < src.len() {
        let mut j = 0;
        while j < 4 {
            if si == src.len() {
                return (j != 0).then_some(si - j);
            }
            let c = src[si];
            si += 1;
            if letter(c) {
                j += 1;
                continue;
            }
            if newline(c) {
                continue;
            }
            if c != b'=' || j < 2 {
                return Some(si - 1);
            }
            if j == 2 {
                while si < src.len() && newline(src[si]) {
                    si += 1;
                }
                if si == src.len() {
                    return Some(src.len());
                }
                if src[si] != b'=' {
                    return Some(si - 1);
                }
                si += 1;
            }
            while si < src.len() && newline(src[si]) {
                si += 1;
            }
            return (si < src.len()).then_some(si);
        }
    }
    None
}

/// What `prepareStateV4` and the plan refuse of one instance object that the struct let through:
/// `sensitive_attributes` that are not paths (`unmarshalPaths`), `attributes` that are not an
/// object (the plan's `ctyjson.Unmarshal` of them). Each skips the instance in Terraform.
pub fn instance_errors(instance: &Value, diags: &mut Diagnostics) -> bool {
    let before = diags.len();
    if let Some(paths) = instance.get("sensitive_attributes").filter(|p| !p.is_null()) {
        sensitive_paths(paths, diags);
    }
    if diags.len() == before {
        if instance.get("attributes").is_some_and(|a| !a.is_null() && !a.is_object()) {
            diags.push(Diagnostic::error("missing expected {", ""));
        }
    }
    diags.len() > before
}

/// What `prepareStateV4` refuses of a root output: a type cty cannot read, or a value not of
/// it (its primitive types; complex types are taken as given).
pub fn output_errors(name: &str, output: &Value, diags: &mut Diagnostics) {
    let bad_type = |why: String| {
        Diagnostic::error(
            "Invalid output value type in state",
            format!("The state file has an invalid type specification for output {name:?}: {why}."),
        )
    };
    let ty = match output.get("type") {
        None => return diags.push(bad_type("EOF".into())),
        Some(Value::Object(_)) => return diags.push(bad_type("invalid complex type description".into())),
        Some(Value::String(s)) if !matches!(s.as_str(), "string" | "number" | "bool" | "dynamic") => {
            return diags.push(bad_type(format!("invalid primitive type name {s:?}")))
        }
        Some(Value::String(s)) => s.as_str(),
        Some(Value::Array(_)) => return,
        Some(_) => return diags.push(bad_type("invalid type description".into())),
    };
    if ty != "dynamic" && output.get("value").is_some_and(|v| v.is_object() || v.is_array()) {
        diags.push(Diagnostic::error(
            "Invalid output value saved in state",
            format!("The state file has an invalid value for output {name:?}: {ty} is required."),
        ));
    }
}

/// Go's `%#v` of a JSON value decoded into `interface{}` (an instance key Terraform refuses).
pub(super) fn go_sharp_v(v: &Value) -> String {
    let join = |items: Vec<String>| items.join(", ");
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(a) => format!("[]interface {{}}{{{}}}", join(a.iter().map(go_sharp_v).collect())),
        Value::Object(m) => format!(
            "map[string]interface {{}}{{{}}}",
            join(m.iter().map(|(k, x)| format!("{k:?}:{}", go_sharp_v(x))).collect())
        ),
        other => other.to_string(),
    }
}

/// `unmarshalPaths`: Go's error for the first value that is not `[][]pathStep`, then each path's
/// first step Terraform cannot read (steps Go could not decode read as steps of type "").
fn sensitive_paths(paths: &Value, diags: &mut Diagnostics) {
    let go = |kind: &Value, into: &str| {
        let kind = go_kind(kind);
        Diagnostic::error("Error unmarshaling path steps", format!("json: cannot unmarshal {kind} into Go {into}"))
    };
    let Value::Array(paths) = paths else {
        return diags.push(go(paths, "value of type [][]statefile.pathStep"));
    };
    let (mut first, mut unreadable) = (None, Vec::new());
    for p in paths {
        let steps = match p {
            Value::Array(steps) => steps.as_slice(),
            Value::Null => &[],
            other => {
                first.get_or_insert_with(|| go(other, "value of type []statefile.pathStep"));
                &[]
            }
        };
        let mut read = true;
        for step in steps {
            let kind = match step.get("type") {
                Some(Value::String(k)) => k.as_str(),
                Some(other) if !other.is_null() => {
                    first.get_or_insert_with(|| go(other, "struct field pathStep.type of type string"));
                    ""
                }
                _ if !step.is_object() && !step.is_null() => {
                    first.get_or_insert_with(|| go(step, "value of type statefile.pathStep"));
                    ""
                }
                _ => "",
            };
            // Each path stops at its first step Terraform cannot read.
            if !read {
                continue;
            }
            let problem = match (kind, step.get("value")) {
                ("index", _) | ("get_attr", Some(Value::String(_) | Value::Null)) => continue,
                ("get_attr", value) => (
                    "Error unmarshaling path step",
                    format!(
                        "Failed to unmarshal get attr step name: {}",
                        value.map_or("unexpected end of JSON input".into(), |v| format!(
                            "json: cannot unmarshal {} into Go value of type string",
                            go_kind(v)
                        ))
                    ),
                ),
                (other, _) => ("Unsupported path step", format!("Unsupported path step type {other:?}")),
            };
            unreadable.push(Diagnostic::error(problem.0, problem.1));
            read = false;
        }
    }
    for d in first.into_iter().chain(unreadable) {
        diags.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_errors_where_go_stops() {
        for (text, want) in
            [("eA==", None), ("eA", Some(0)), ("eA=", Some(3)), ("!!", Some(0)), ("eA==x", Some(4)), ("", None)]
        {
            assert_eq!(base64_error(text.as_bytes()), want, "{text}");
        }
    }
}
