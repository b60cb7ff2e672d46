//! Expressions of either syntax, interpreted on demand: literal values, static lists and maps,
//! `hcl.AbsTraversalForExpr` (with Terraform's shim for quoted strings), and the traversals a
//! reference walk collects. A JSON string is a template in an expression position and a
//! traversal where one is required; its offsets map back into the JSON file.

use super::diagnostics as msg;
use super::json::{JKind, JStr, JValue};
use super::references::{static_steps, Origin, Trav, Walker};
use super::syntax::Ex;
use crate::diag::{Diagnostic, Diagnostics, SourceFile};
use hcl::edit::expr::{Expression as HExpr, ObjectKey};
use hcl::edit::template::Element;
use hcl::edit::Span;
use std::ops::Range;

fn span_of<T: Span>(x: &T) -> Range<usize> {
    x.span().unwrap_or(0..0)
}

/// Map an hcl-edit parse error (of a whole file, or of a JSON string) to a diagnostic.
pub fn parse_error_diag(e: &hcl::edit::parser::Error, text: &str, to_file: &dyn Fn(usize) -> usize, f: &SourceFile) -> Diagnostic {
    let message = e.message();
    let mut at = e.location().offset().min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut end = (at + 1).min(text.len());
    while end < text.len() && !text.is_char_boundary(end) {
        end += 1;
    }
    let range = f.range(to_file(at)..to_file(end.max(at)));
    if message.contains("nesting depth") || message.contains("chained binary operators") {
        return msg::too_deeply_nested(64, range);
    }
    let line_start = text[..at].rfind('\n').map_or(0, |p| p + 1);
    let at_line_start = text[line_start..at].trim().is_empty();
    if message.contains("redefined attribute") {
        // HCL names where the argument was first set: look back for `name =` at the same indent.
        let name: String = text[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-').collect();
        let range = f.range(to_file(at)..to_file(at + name.len()));
        let indent = &text[line_start..at];
        let mut search_end = line_start;
        while let Some(prev_nl) = text[..search_end.saturating_sub(1)].rfind('\n').map(|p| p + 1).or((search_end > 0).then_some(0)) {
            let line = &text[prev_nl..search_end.saturating_sub(1).max(prev_nl)];
            if let Some(rest) = line.strip_prefix(indent) {
                if rest.starts_with(&name) && rest[name.len()..].trim_start().starts_with('=') {
                    let s = to_file(prev_nl + indent.len());
                    let prev = f.range(s..s + name.len());
                    return msg::syntax_error(
                        "Attribute redefined",
                        &format!("The argument {name:?} was already set at {prev}. Each argument may be set only once."),
                        range,
                    );
                }
            }
            if prev_nl == 0 {
                break;
            }
            search_end = prev_nl;
        }
        return msg::syntax_error("Attribute redefined", message, range);
    }
    let whole_file = text.len() == f.text.len();
    let summary = if whole_file && at + 1 >= text.trim_end().len() && text.matches('{').count() > text.matches('}').count() {
        "Unclosed configuration block"
    } else if message.starts_with("invalid structure") || (message == "unexpected token" && at_line_start) {
        "Argument or block definition required"
    } else if message == "expected `{`" {
        "Invalid block definition"
    } else if message.contains("expected newline or eof") {
        "Missing newline after argument"
    } else if message == "expected `]`" {
        "Missing item separator"
    } else if message == "expected `)`" {
        "Unbalanced parentheses"
    } else {
        "Invalid expression"
    };
    msg::syntax_error(summary, message, range)
}

impl<'a> Ex<'a> {
    pub fn span(&self) -> Range<usize> {
        match self {
            Ex::Hcl(e) => span_of(*e),
            Ex::Json(v) => v.span.clone(),
        }
    }

    pub fn source<'f>(&self, f: &'f SourceFile) -> &'f str {
        f.text.get(self.span()).unwrap_or("")
    }

    /// Every static traversal in the expression, except roots named in `scope`.
    pub fn traversals(&self, f: &SourceFile, scope: &[String], diags: &mut Diagnostics) -> Vec<Trav> {
        match self {
            Ex::Hcl(e) => {
                let ident = |o: usize| o;
                let mut w = Walker::new(Origin { src: &f.text, map: &ident }).with_scope(scope.to_vec());
                w.expr(e);
                w.out
            }
            Ex::Json(v) => {
                let mut out = Vec::new();
                json_traversals(v, f, scope, diags, &mut out);
                out
            }
        }
    }

    /// A literal string (no interpolation).
    pub fn literal_string(&self) -> Option<String> {
        match self {
            Ex::Hcl(HExpr::String(s)) => Some(s.value().to_string()),
            Ex::Hcl(HExpr::StringTemplate(t)) => {
                let mut out = String::new();
                for el in t.iter() {
                    match el {
                        Element::Literal(l) => out.push_str(l.value()),
                        _ => return None,
                    }
                }
                Some(out)
            }
            Ex::Hcl(HExpr::HeredocTemplate(h)) => {
                let mut out = String::new();
                for el in h.template.iter() {
                    match el {
                        Element::Literal(l) => out.push_str(l.value()),
                        _ => return None,
                    }
                }
                Some(match h.indent() {
                    Some(_) => dedent(&out),
                    None => out,
                })
            }
            Ex::Hcl(HExpr::Parenthesis(p)) => Ex::Hcl(p.inner()).literal_string(),
            Ex::Hcl(_) => None,
            Ex::Json(v) => match &v.kind {
                JKind::String(s) if !s.value.contains("${") && !s.value.contains("%{") => Some(s.value.clone()),
                JKind::String(s) => {
                    let t = hcl::edit::parser::parse_template(&s.value).ok()?;
                    let mut out = String::new();
                    for el in t.iter() {
                        match el {
                            Element::Literal(l) => out.push_str(l.value()),
                            _ => return None,
                        }
                    }
                    Some(out)
                }
                _ => None,
            },
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Ex::Hcl(HExpr::Bool(b)) => Some(*b.value()),
            Ex::Hcl(HExpr::Parenthesis(p)) => Ex::Hcl(p.inner()).as_bool(),
            Ex::Json(JValue { kind: JKind::Bool(b), .. }) => Some(*b),
            Ex::Json(JValue { kind: JKind::String(s), .. }) => match s.value.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// `hcl.ExprList`: the items of a static list.
    pub fn list(&self) -> Option<Vec<Ex<'a>>> {
        match self {
            Ex::Hcl(HExpr::Array(a)) => Some(a.iter().map(Ex::Hcl).collect()),
            Ex::Hcl(HExpr::Parenthesis(p)) => Ex::Hcl(p.inner()).list(),
            Ex::Json(JValue { kind: JKind::Array(items), .. }) => Some(items.iter().map(Ex::Json).collect()),
            _ => None,
        }
    }

    /// `hcl.ExprMap`: the items of a static object.
    pub fn object(&self) -> Option<Vec<(Key<'a>, Ex<'a>)>> {
        match self {
            Ex::Hcl(HExpr::Object(o)) => Some(o.iter().map(|(k, v)| (Key::Hcl(k), Ex::Hcl(v.expr()))).collect()),
            Ex::Json(JValue { kind: JKind::Object(props), .. }) => {
                Some(props.iter().filter(|p| p.name.value != "//").map(|p| (Key::Json(&p.name), Ex::Json(&p.value))).collect())
            }
            _ => None,
        }
    }

    /// `hcl.AbsTraversalForExpr`, with Terraform's shim for quoted native strings. The flag says
    /// whether the traversal came from a native quoted string (deprecated form).
    pub fn abs_traversal(&self, f: &SourceFile) -> Option<(Trav, bool)> {
        match self {
            Ex::Hcl(e) => hcl_abs_traversal(e, &f.text),
            Ex::Json(JValue { kind: JKind::String(s), .. }) => json_str_traversal(s).map(|t| (t, false)),
            Ex::Json(_) => None,
        }
    }

    /// Whether this is a native quoted string (for the "must not be given in quotes" errors).
    pub fn is_native_quoted_string(&self) -> bool {
        matches!(self, Ex::Hcl(HExpr::String(_)))
    }
}

/// Remove the common leading whitespace of all non-blank lines (a `<<-` heredoc).
fn dedent(s: &str) -> String {
    let indent = s
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    s.split_inclusive('\n').map(|l| if l.len() >= indent && l[..indent].trim().is_empty() { &l[indent..] } else { l.trim_start() }).collect()
}

/// An object key: an identifier, an expression, or a JSON property name.
#[derive(Clone, Copy, Debug)]
pub enum Key<'a> {
    Hcl(&'a ObjectKey),
    Json(&'a JStr),
}

impl Key<'_> {
    pub fn span(&self) -> Range<usize> {
        match self {
            Key::Hcl(ObjectKey::Ident(i)) => span_of(i),
            Key::Hcl(ObjectKey::Expression(e)) => span_of(e),
            Key::Json(s) => s.span.clone(),
        }
    }

    /// The key read as a traversal (`aws.west`), as `providers` maps are.
    pub fn traversal(&self, f: &SourceFile) -> Option<Trav> {
        let src = f.text.as_str();
        match self {
            Key::Hcl(ObjectKey::Ident(i)) => {
                let ident = |o: usize| o;
                Some(static_steps(&Origin { src, map: &ident }, i.as_str(), span_of(i), &[]))
            }
            Key::Hcl(ObjectKey::Expression(e)) => hcl_abs_traversal(e, src).map(|(t, _)| t),
            Key::Json(s) => json_str_traversal(s),
        }
    }
}

/// `src` is the file text (native spans are file offsets).
fn hcl_abs_traversal(e: &HExpr, src: &str) -> Option<(Trav, bool)> {
    match e {
        HExpr::Variable(v) => {
            let ident = |o: usize| o;
            Some((static_steps(&Origin { src, map: &ident }, v.as_str(), span_of(v), &[]), false))
        }
        HExpr::Traversal(t) => {
            let HExpr::Variable(v) = &t.expr else { return None };
            let ident = |o: usize| o;
            let trav = static_steps(&Origin { src, map: &ident }, v.as_str(), span_of(v), &t.operators);
            (trav.steps.len() - 1 == t.operators.len()).then_some((trav, false))
        }
        HExpr::Parenthesis(p) => hcl_abs_traversal(p.inner(), src),
        HExpr::String(s) => {
            let start = span_of(s).start + 1;
            let expr = hcl::edit::parser::parse_expr(s.value()).ok()?;
            let map = move |o: usize| start + o;
            let trav = owned_abs_traversal(&expr, s.value(), &map)?;
            Some((trav, true))
        }
        _ => None,
    }
}

/// The absolute traversal in an expression parsed from `src`, mapped to the file by `map`.
fn owned_abs_traversal(e: &HExpr, src: &str, map: &dyn Fn(usize) -> usize) -> Option<Trav> {
    let origin = Origin { src, map };
    match e {
        HExpr::Variable(v) => Some(static_steps(&origin, v.as_str(), span_of(v), &[])),
        HExpr::Traversal(t) => {
            let HExpr::Variable(v) = &t.expr else { return None };
            let trav = static_steps(&origin, v.as_str(), span_of(v), &t.operators);
            (trav.steps.len() - 1 == t.operators.len()).then_some(trav)
        }
        HExpr::Parenthesis(p) => owned_abs_traversal(p.inner(), src, map),
        _ => None,
    }
}

fn json_str_traversal(s: &JStr) -> Option<Trav> {
    let expr = hcl::edit::parser::parse_expr(&s.value).ok()?;
    let map = |o: usize| s.file_offset(o);
    owned_abs_traversal(&expr, &s.value, &map)
}

/// Whether a JSON string holds template sequences at all (the common literal case skips parsing).
fn has_template(s: &str) -> bool {
    s.contains("${") || s.contains("%{")
}

fn json_traversals(v: &JValue, f: &SourceFile, scope: &[String], diags: &mut Diagnostics, out: &mut Vec<Trav>) {
    match &v.kind {
        JKind::Null | JKind::Bool(_) | JKind::Number(_) => {}
        JKind::String(s) => json_string_traversals(s, f, scope, diags, out),
        JKind::Array(items) => items.iter().for_each(|i| json_traversals(i, f, scope, diags, out)),
        JKind::Object(props) => {
            for p in props {
                if p.name.value == "//" {
                    continue;
                }
                json_string_traversals(&p.name, f, scope, diags, out);
                json_traversals(&p.value, f, scope, diags, out);
            }
        }
    }
}

/// The traversals in a JSON string read as a template.
pub fn json_string_traversals(s: &JStr, f: &SourceFile, scope: &[String], diags: &mut Diagnostics, out: &mut Vec<Trav>) {
    if !has_template(&s.value) {
        return;
    }
    let map = |o: usize| s.file_offset(o);
    match hcl::edit::parser::parse_template(&s.value) {
        Ok(t) => {
            let mut w = Walker::new(Origin { src: &s.value, map: &map }).with_scope(scope.to_vec());
            w.template(&t);
            out.append(&mut w.out);
        }
        Err(e) => diags.push(parse_error_diag(&e, &s.value, &map, f)),
    }
}
