//! The expression values Terraform shows under a diagnostic's snippet
//! (`views/json.NewDiagnostic`): each reference of the failing expression, as long a prefix of
//! it as evaluates, with a short statement (`var.size is 3`), sorted. An evaluation error takes
//! the values of the expression that failed ([`super::module_scope::eval_kept`]); the snippet
//! shows them once attached (engine/shared/snippets.rs).

use super::module_scope::{eval_text_plain, Inputs};
use super::scope::Scope;
use super::{Kind, Type, Value};
use crate::config::references::{Origin, StepKind, Walker};
use crate::diag::CausedBy;
use serde_json::json;

/// The `values` of a snippet for the expression `text`, evaluated in `scope`. Sensitive values
/// are left out, and unknown ones named only as far as the diagnostic's cause allows.
pub fn expression_values(
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
    text: &str,
    caused_by: CausedBy,
) -> Vec<serde_json::Value> {
    let Ok(expr) = crate::hcl::parse_expr(text) else { return Vec::new() };
    let mut w = Walker::new(Origin::File(text), &[]);
    w.expr(&expr);
    let mut out: Vec<(String, String)> = Vec::new();
    for t in &w.out {
        // The longest prefix of two steps or more that evaluates.
        for len in (2..=t.steps.len()).rev() {
            let steps = &t.steps[..len];
            let source = &text[steps[0].span.start..steps[len - 1].span.end];
            let Ok(v) = eval_text_plain(scope, inputs, "", source, crate::diag::Pos { line: 1, column: 1, byte: 0 })
            else {
                continue;
            };
            let shown = traversal_str(steps);
            if out.iter().any(|(t, _)| *t == shown) {
                break;
            }
            if let Some(statement) = statement(&v, caused_by) {
                out.push((shown, statement));
            }
            break;
        }
    }
    crate::util::sort::sort(&mut out);
    out.into_iter().map(|(t, s)| json!({"traversal": t, "statement": s})).collect()
}

/// `tfdiags.TraversalStr`.
fn traversal_str(steps: &[crate::config::references::Step<'_>]) -> String {
    let mut s = String::new();
    for st in steps {
        match &st.kind {
            StepKind::Root(n) => s.push_str(n),
            StepKind::Attr(n) => {
                s.push('.');
                s.push_str(n);
            }
            StepKind::Index(crate::config::references::IndexKey::Int(i)) => s.push_str(&format!("[{i}]")),
            StepKind::Index(crate::config::references::IndexKey::Str(k)) => {
                s.push_str(&format!("[{}]", crate::addrs::go_quote(k)))
            }
            StepKind::Index(_) => s.push_str("[]"),
        }
    }
    s
}

/// The statement for one value (`views/json.NewDiagnostic`): a sensitive value (marked itself;
/// one holding sensitive elements is described by its shape) only when it is the cause, an
/// unknown one vaguely unless it is. Unknown collections have no length bounds here (no
/// refinements), which Terraform words as a plain "is a list of ...".
fn statement(v: &Value, caused_by: CausedBy) -> Option<String> {
    if v.sensitive {
        return (caused_by == CausedBy::Sensitive).then(|| "has a sensitive value".into());
    }
    let unknown = caused_by == CausedBy::Unknown;
    if !v.is_known() {
        return match (v.ty(), unknown) {
            (Type::Dynamic, false) => None,
            (Type::Dynamic, true) => Some("will be known only after apply".into()),
            (t, false) => Some(format!("is a {}", t.friendly_name())),
            (t, true) => Some(format!("is a {}, known only after apply", t.friendly_name())),
        };
    }
    Some(format!("is {}", compact(v)))
}

/// `tfdiags.CompactValueStr`.
fn compact(v: &Value) -> String {
    if v.is_null() {
        return "null".into();
    }
    let ty = v.ty();
    match &v.kind {
        Kind::Bool(b) => b.to_string(),
        Kind::Number(n) => crate::eval::functions::text_g(n, 10),
        Kind::String(s) => crate::addrs::go_quote(s),
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => count(items.len(), &ty),
        Kind::Map(_, m) => count(m.len(), &ty),
        Kind::Object(m) => match m.len() {
            0 => "object with no attributes".into(),
            1 => format!("object with 1 attribute {}", m.keys().map(|k| crate::addrs::go_quote(k)).collect::<String>()),
            n => format!("object with {n} attributes"),
        },
        _ => ty.friendly_name(),
    }
}

fn count(n: usize, ty: &Type) -> String {
    match n {
        0 => format!("empty {}", ty.friendly_name()),
        1 => format!("{} with 1 element", ty.friendly_name()),
        n => format!("{} with {n} elements", ty.friendly_name()),
    }
}
