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
    /// Fields: the JSON name, the path Go's errors name it by (struct fields from the top, no
    /// indexes or map keys), the type.
    Struct(&'static [(&'static str, &'static str, Go)]),
}

static OUTPUT: Go =
    Go::Struct(&[("value", "", Go::Any), ("type", "", Go::Any), ("sensitive", "outputs.sensitive", Go::Bool)]);
static INSTANCE: Go = Go::Struct(&[
    ("index_key", "", Go::Any),
    ("status", "resources.instances.status", Go::Str),
    ("deposed", "resources.instances.deposed", Go::Str),
    ("schema_version", "resources.instances.schema_version", Go::U64),
    ("attributes", "", Go::Any),
    ("attributes_flat", "resources.instances.attributes_flat", Go::Map(&Go::Str)),
    ("sensitive_attributes", "", Go::Any),
    // Terraform 1.12 and later (1.11.4 ignores them).
    ("identity_schema_version", "resources.instances.identity_schema_version", Go::U64),
    ("identity", "", Go::Any),
    ("private", "resources.instances.private", Go::Bytes),
    ("dependencies", "resources.instances.dependencies", Go::Slice(&Go::Str)),
    ("create_before_destroy", "resources.instances.create_before_destroy", Go::Bool),
]);
static RESOURCE: Go = Go::Struct(&[
    ("module", "resources.module", Go::Str),
    ("mode", "resources.mode", Go::Str),
    ("type", "resources.type", Go::Str),
    ("name", "resources.name", Go::Str),
    ("each", "resources.each", Go::Str),
    ("provider", "resources.provider", Go::Str),
    ("instances", "resources.instances", Go::Slice(&INSTANCE)),
]);
static CHECK_OBJECT: Go = Go::Struct(&[
    ("object_addr", "check_results.objects.object_addr", Go::Str),
    ("status", "check_results.objects.status", Go::Str),
    ("failure_messages", "check_results.objects.failure_messages", Go::Slice(&Go::Str)),
]);
static CHECK_RESULT: Go = Go::Struct(&[
    ("object_kind", "check_results.object_kind", Go::Str),
    ("config_addr", "check_results.config_addr", Go::Str),
    ("status", "check_results.status", Go::Str),
    ("objects", "check_results.objects", Go::Slice(&CHECK_OBJECT)),
]);
static STATE: Go = Go::Struct(&[
    // stateVersionV4 reads anything: the version was sniffed before.
    ("version", "", Go::Any),
    ("terraform_version", "terraform_version", Go::Str),
    ("serial", "serial", Go::U64),
    ("lineage", "lineage", Go::Str),
    ("outputs", "outputs", Go::Map(&OUTPUT)),
    ("resources", "resources", Go::Slice(&RESOURCE)),
    ("check_results", "check_results", Go::Slice(&CHECK_RESULT)),
]);

/// How Go's `UnmarshalTypeError` describes a JSON value of the wrong kind.
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
    check(state, &STATE, "").map(|detail| Diagnostic::error(INVALID, detail))
}

/// The detail of the first value under `v` Go refuses to decode into `go` (at `field`).
fn check(v: &Value, go: &'static Go, field: &'static str) -> Option<String> {
    let wrong = |what: &str| Some(format!("The state file field {field:?} has invalid value {what}"));
    if v.is_null() {
        return None; // null leaves Go's zero value
    }
    match (go, v) {
        (Go::Any, _) | (Go::Str, Value::String(_)) | (Go::Bool, Value::Bool(_)) => None,
        // As written (serde_json keeps a number's text): 1.0 is no uint64, a number that does
        // not fit is named with its text.
        (Go::U64, Value::Number(n)) if n.as_u64().is_some() => None,
        (Go::U64, Value::Number(n)) => wrong(&format!("number {n}")),
        (Go::Bytes, Value::String(s)) => base64_error(s.as_bytes()).map(|at| {
            format!("The state file does not conform to the expected JSON data structure: illegal base64 data at input byte {at}.")
        }),
        (Go::Bytes, Value::Array(items)) => items.iter().find_map(|x| match x {
            Value::Null => None,
            Value::Number(n) if n.as_u64().is_some_and(|b| b <= 255) => None,
            Value::Number(n) => wrong(&format!("number {n}")),
            other => wrong(go_kind(other)),
        }),
        (Go::Slice(element), Value::Array(items)) => items.iter().find_map(|x| check(x, element, field)),
        (Go::Map(element), Value::Object(members)) => members.values().find_map(|x| check(x, element, field)),
        (Go::Struct(fields), Value::Object(members)) => members.iter().find_map(|(key, x)| {
            // Go matches a field's name case-insensitively (the exact name preferred).
            let (_, path, go) = fields.iter().find(|(name, _, _)| name.eq_ignore_ascii_case(key))?;
            check(x, go, path)
        }),
        (_, other) => wrong(go_kind(other)),
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

/// What `prepareStateV4` and the plan refuse of what Go's decoding let through as raw JSON: each
/// instance's (see [`instance_errors`]). Root outputs' types and values are not checked (cty's
/// type JSON and conversions): a state whose output is not of its type reads here.
pub fn prepare_errors(state: &Value, diags: &mut Diagnostics) {
    if let Some(Value::Array(resources)) = state.get("resources") {
        for r in resources {
            if let Some(Value::Array(instances)) = r.get("instances") {
                for i in instances {
                    instance_errors(i, diags);
                }
            }
        }
    }
}

/// What `prepareStateV4` and the plan refuse of one instance object that the struct let through:
/// `sensitive_attributes` that are not paths (`unmarshalPaths`), `attributes` that are not an
/// object (the plan's `ctyjson.Unmarshal` of them). Each skips the instance in Terraform.
fn instance_errors(instance: &Value, diags: &mut Diagnostics) {
    let before = diags.len();
    if let Some(paths) = instance.get("sensitive_attributes").filter(|p| !p.is_null()) {
        sensitive_paths(paths, diags);
    }
    // An instance whose paths were refused is skipped before its attributes are read.
    if diags.len() == before && instance.get("attributes").is_some_and(|a| !a.is_null() && !a.is_object()) {
        diags.push(Diagnostic::error("missing expected {", ""));
    }
}

/// `unmarshalPaths`: Go's error for the first value that is not `[][]pathStep`, then each path's
/// first step of a type Terraform does not know (steps Go could not decode read as steps of
/// type ""). A `get_attr` step's name and an `index` step's key are not decoded.
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
            // (A get_attr step's value and an index step's key are not decoded here.)
            if kind == "index" || kind == "get_attr" {
                continue;
            }
            unreadable.push(Diagnostic::error("Unsupported path step", format!("Unsupported path step type {kind:?}")));
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
