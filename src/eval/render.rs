//! Values as Terraform shows them: [`console`] is `terraform console`'s rendering (Terraform's
//! `repl.FormatValue`), [`to_json`] is cty's JSON (what `jsonencode` produces), and
//! [`to_api`] is the API's form: plain JSON plus parallel `unknown` / `sensitive` trees in the
//! shape of the plan JSON's `after_unknown` / `after_sensitive`.

use super::types::Type;
use super::value::{Kind, Value};
use crate::dag::go_quote;
use serde_json::Value as Json;

/// `terraform console`'s text for a value.
pub fn console(v: &Value) -> String {
    // What the console-only `type()` returns prints as the type, whatever its marks.
    if let Kind::TypeVal(t) = &v.kind {
        return t.type_expr();
    }
    format_value(v, 0)
}

fn format_value(v: &Value, indent: usize) -> String {
    if !v.is_known() {
        return "(known after apply)".into();
    }
    if v.sensitive {
        return "(sensitive value)".into();
    }
    match &v.kind {
        Kind::Null(t) => match t {
            Type::Dynamic => "null".into(),
            Type::String => "tostring(null)".into(),
            Type::Number => "tonumber(null)".into(),
            Type::Bool => "tobool(null)".into(),
            Type::List(e) => format!("tolist(null) /* of {} */", e.friendly_name()),
            Type::Set(e) => format!("toset(null) /* of {} */", e.friendly_name()),
            Type::Map(e) => format!("tomap(null) /* of {} */", e.friendly_name()),
            other => format!("null /* {} */", other.friendly_name()),
        },
        Kind::Unknown(_) => unreachable!("handled above"),
        Kind::Bool(b) => b.to_string(),
        Kind::Number(n) => n.to_string(),
        Kind::String(s) => multiline(s, indent).unwrap_or_else(|| go_quote(s)),
        Kind::Tuple(items) => sequence(items.iter(), indent),
        Kind::List(_, items) => format!("tolist({})", sequence(items.iter(), indent)),
        Kind::Set(_, items) => format!("toset({})", sequence(items.iter(), indent)),
        Kind::Object(m) => mapping(m.iter(), indent),
        Kind::Map(_, m) => format!("tomap({})", mapping(m.iter(), indent)),
        Kind::TypeVal(t) => t.type_expr(),
    }
}

fn multiline(s: &str, indent: usize) -> Option<String> {
    let lines: Vec<&str> = s.split('\n').collect();
    if lines.len() < 2 {
        return None;
    }
    let op = if indent > 0 { "<<-" } else { "<<" };
    let mut delim = String::from("EOT");
    while lines.iter().any(|l| l.trim() == delim) {
        delim.push('_');
    }
    let pad = " ".repeat(indent);
    let mut out = format!("{op}{delim}");
    for l in &lines {
        out.push('\n');
        out.push_str(&pad);
        out.push_str(l);
    }
    out.push('\n');
    out.push_str(&pad);
    out.push_str(&delim);
    Some(out)
}

fn sequence<'a>(items: impl Iterator<Item = &'a Value>, indent: usize) -> String {
    let pad = " ".repeat(indent + 2);
    let mut out = String::from("[");
    let mut count = 0;
    for v in items {
        count += 1;
        out.push('\n');
        out.push_str(&pad);
        out.push_str(&format_value(v, indent + 2));
        out.push(',');
    }
    if count > 0 {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push(']');
    out
}

fn mapping<'a>(items: impl Iterator<Item = (&'a String, &'a Value)>, indent: usize) -> String {
    let pad = " ".repeat(indent + 2);
    let mut out = String::from("{");
    let mut count = 0;
    for (k, v) in items {
        count += 1;
        out.push('\n');
        out.push_str(&pad);
        out.push_str(&multiline(k, indent + 2).unwrap_or_else(|| go_quote(k)));
        out.push_str(" = ");
        out.push_str(&format_value(v, indent + 2));
    }
    if count > 0 {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push('}');
    out
}

/// cty's JSON encoding of a wholly known value (`jsonencode`); `None` when a part is unknown.
/// Numbers are written with every digit (as `jsonencode` does), so the text is exact.
/// Whether an infinite number is anywhere in `v` (cty cannot write one as JSON).
pub fn has_infinity(v: &Value) -> bool {
    match &v.kind {
        Kind::Number(n) => n.is_infinite(),
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => items.iter().any(has_infinity),
        Kind::Map(_, m) | Kind::Object(m) => m.values().any(has_infinity),
        _ => false,
    }
}

/// `jsonencode`'s text for `v`; `None` when it has none (an unknown part, a type value, an
/// infinity).
pub fn to_json_text(v: &Value) -> Option<String> {
    let mut out = String::new();
    write_json(v, &mut out).then_some(out)
}

fn write_json(v: &Value, out: &mut String) -> bool {
    match &v.kind {
        // A type (from the console-only `type()`) has no JSON form.
        Kind::Unknown(_) | Kind::TypeVal(_) => return false,
        Kind::Null(_) => out.push_str("null"),
        Kind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Kind::Number(n) if n.is_infinite() => return false,
        Kind::Number(n) => out.push_str(&n.to_string()),
        Kind::String(s) => out.push_str(&json_string(s)),
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_json(x, out) {
                    return false;
                }
            }
            out.push(']');
        }
        Kind::Map(_, m) | Kind::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&json_string(k));
                out.push(':');
                if !write_json(x, out) {
                    return false;
                }
            }
            out.push('}');
        }
    }
    true
}

/// A JSON string as Go's encoding/json writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped,
/// `\b` and `\f` short.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Go 1.22 and later write these two short forms too.
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The API's form of a value: `(value, unknown, sensitive)`. `value` is plain JSON with
/// unknown parts as `null` (numbers as JSON numbers: exact digits are in [`to_json_text`]);
/// `unknown` and `sensitive` are `true` for a whole value, `false` for none, or an array /
/// object of the same shape as `value` (as `after_unknown` and `after_sensitive` in plan JSON).
pub fn to_api(v: &Value) -> (Json, Json, Json) {
    let value = api_value(v);
    (value, flags(v, &|v| !v.is_known()), flags(v, &|v| v.sensitive))
}

fn api_value(v: &Value) -> Json {
    match &v.kind {
        Kind::Null(_) | Kind::Unknown(_) => Json::Null,
        Kind::Bool(b) => Json::Bool(*b),
        Kind::Number(n) => super::value_json::number(n),
        Kind::String(s) => Json::String(s.clone()),
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => {
            Json::Array(items.iter().map(api_value).collect())
        }
        Kind::Map(_, m) | Kind::Object(m) => {
            Json::Object(crate::util::sort::json_map(m.iter().map(|(k, x)| (k.clone(), api_value(x)))))
        }
        Kind::TypeVal(t) => Json::String(t.type_expr()),
    }
}

fn flags(v: &Value, f: &impl Fn(&Value) -> bool) -> Json {
    if f(v) {
        return Json::Bool(true);
    }
    match &v.kind {
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => {
            let inner: Vec<Json> = items.iter().map(|x| flags(x, f)).collect();
            if inner.iter().all(|j| j == &Json::Bool(false)) {
                Json::Bool(false)
            } else {
                Json::Array(inner)
            }
        }
        Kind::Map(_, m) | Kind::Object(m) => {
            let inner = crate::util::sort::json_map(
                m.iter().map(|(k, x)| (k.clone(), flags(x, f))).filter(|(_, j)| j != &Json::Bool(false)),
            );
            if inner.is_empty() {
                Json::Bool(false)
            } else {
                Json::Object(inner)
            }
        }
        _ => Json::Bool(false),
    }
}
