//! Diagnostics as Terraform's CLI prints them without colour (`format.DiagnosticPlain`), and
//! the expression values it shows under a snippet (`views/json.NewDiagnostic`): each reference
//! of the failing expression, as long a prefix of it as evaluates, with a short statement
//! (`var.size is 3`), sorted.

use crate::config::references::{Origin, StepKind, Walker};
use crate::diag::{Diagnostic, Severity, SourceFile};
use crate::eval::module_scope::{eval_text, Inputs};
use crate::eval::scope::Scope;
use crate::eval::{Kind, Type, Value};
use serde_json::json;

/// The `values` of a snippet for the expression `text` (its source, starting at `start`),
/// evaluated in `scope`. Sensitive values and unknowns of unknown type are left out, as in a
/// diagnostic not caused by them.
pub fn expression_values(scope: &dyn Scope, inputs: &Inputs<'_>, text: &str) -> Vec<serde_json::Value> {
    let Ok(expr) = crate::hcl::parse_expr(text) else { return Vec::new() };
    let mut w = Walker::new(Origin::File(text), &[]);
    w.expr(&expr);
    let mut out: Vec<(String, String)> = Vec::new();
    for t in &w.out {
        // The longest prefix of two steps or more that evaluates.
        for len in (2..=t.steps.len()).rev() {
            let steps = &t.steps[..len];
            let source = &text[steps[0].span.start..steps[len - 1].span.end];
            let Ok(v) = eval_text(scope, inputs, "", source, crate::diag::Pos { line: 1, column: 1, byte: 0 }) else { continue };
            let shown = traversal_str(steps);
            if out.iter().any(|(t, _)| *t == shown) {
                break;
            }
            if let Some(statement) = statement(&v) {
                out.push((shown, statement));
            }
            break;
        }
    }
    out.sort();
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
            StepKind::Index(crate::config::references::IndexKey::Str(k)) => s.push_str(&format!("[{}]", crate::addrs::quote(k))),
            StepKind::Index(_) => s.push_str("[]"),
        }
    }
    s
}

/// `statementStr` for a diagnostic caused by neither unknown nor sensitive values.
fn statement(v: &Value) -> Option<String> {
    if v.has_sensitive() {
        return None;
    }
    if !v.is_known() {
        return match v.ty() {
            Type::Dynamic => None,
            t => Some(format!("is a {}", t.friendly_name())),
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
        Kind::Number(n) => n.to_string(),
        Kind::String(s) => crate::addrs::quote(s),
        Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => count(items.len(), &ty),
        Kind::Map(_, m) => count(m.len(), &ty),
        Kind::Object(m) => match m.len() {
            0 => "object with no attributes".into(),
            1 => "object with 1 attribute".into(),
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

/// `d` with its snippet from `file` (the source line and `context`, the enclosing block).
pub fn with_snippet(mut d: Diagnostic, file: &SourceFile, context: Option<String>, values: Vec<serde_json::Value>) -> Diagnostic {
    if let Some(r) = &d.range {
        let mut s = file.snippet(r, context);
        s.values = values;
        d.snippet = Some(s);
    }
    d
}

/// `format.DiagnosticPlain` (no word wrapping: the width of a non-terminal).
pub fn plain(d: &Diagnostic) -> String {
    let mut out = String::from(match d.severity {
        Severity::Error => "\nError: ",
        Severity::Warning => "\nWarning: ",
    });
    out.push_str(&d.summary);
    out.push_str("\n\n");
    if let Some(a) = &d.address {
        out.push_str(&format!("  with {a},\n"));
    }
    if let Some(r) = &d.range {
        match &d.snippet {
            None => out.push_str(&format!("  on {} line {}:\n  (source code not available)\n", r.filename, r.start.line)),
            Some(s) => {
                let context = s.context.as_ref().map(|c| format!(", in {c}")).unwrap_or_default();
                out.push_str(&format!("  on {} line {}{context}:\n", r.filename, r.start.line));
                for (i, line) in s.code.split('\n').enumerate() {
                    out.push_str(&format!("{:4}: {line}\n", s.start_line as usize + i));
                }
                if !s.values.is_empty() {
                    out.push_str("    ├────────────────\n");
                    for v in &s.values {
                        let t = v["traversal"].as_str().unwrap_or("");
                        let mut lines = v["statement"].as_str().unwrap_or("").split('\n');
                        out.push_str(&format!("    │ {t} {}\n", lines.next().unwrap_or("")));
                        for l in lines {
                            out.push_str(&format!("    │   {l}\n"));
                        }
                    }
                }
            }
        }
        out.push('\n');
    }
    if !d.detail.is_empty() {
        out.push_str(&d.detail);
        out.push('\n');
    }
    out
}
