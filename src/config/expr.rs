//! Expressions of either syntax, interpreted on demand: literal values, static lists and maps,
//! `hcl.AbsTraversalForExpr` (with Terraform's shim for quoted strings), and the traversals a
//! reference walk collects. A JSON string is a template in an expression position and a
//! traversal where one is required; it is parsed with the native parser (`parse_template`,
//! `parse_expr`) and its offsets map back into the JSON file (`JStr::file_offset`).

use super::diagnostics as msg;
use super::json::{JKind, JStr, JValue};
use super::references::{static_steps, Origin, Trav, Walker};
use super::syntax::Ex;
use crate::diag::{Diagnostic, Diagnostics, SourceFile};
use crate::hcl::ast::{Expr, ExprKind, ObjectKey, Part};
use crate::hcl::{self as syntax, SyntaxError};
use std::borrow::Cow;
use std::ops::Range;

/// A syntax error of the parser (in a file, or in a JSON string: `origin` maps its offsets) as
/// a diagnostic, in HCL's words; a second range named in the detail is printed as HCL prints it
/// (`main.tf:2,3-4`). An empty subject is widened by one column, as Terraform's JSON
/// diagnostics widen it (`views/json/diagnostic.go`: `End.Byte++`, `End.Column++`): over the
/// next character, whole (Terraform adds one byte even inside a multi-byte character), or at
/// the very end of the file, one byte past it, as Terraform does.
pub fn syntax_error_diag(e: &SyntaxError, origin: Origin<'_>, f: &SourceFile) -> Diagnostic {
    let detail = e.detail_with(|at| f.range(origin.file_span(&at)).to_string());
    let mut span = origin.file_span(&e.span);
    let mut past_end = false;
    if span.is_empty() {
        match f.text.get(span.start..).and_then(|rest| rest.chars().next()) {
            Some(c) => span.end += c.len_utf8(),
            None => past_end = true,
        }
    }
    let mut range = f.range(span);
    if past_end {
        range.end.byte += 1;
        range.end.column += 1;
    }
    msg::syntax_error(e.summary, &detail, range)
}

impl<'a> Ex<'a> {
    pub fn span(&self) -> Range<usize> {
        match self {
            Ex::Hcl(e) => e.span.clone(),
            Ex::Json(v) => v.span.clone(),
        }
    }

    pub fn source<'f>(&self, f: &'f SourceFile) -> &'f str {
        f.text.get(self.span()).unwrap_or("")
    }

    /// Every static traversal in the expression, except roots named in `scope`.
    pub fn traversals<'x>(&self, f: &'x SourceFile, scope: &[&str], diags: &mut Diagnostics) -> Vec<Trav<'x>>
    where
        'a: 'x,
    {
        match *self {
            Ex::Hcl(e) => {
                let mut w = Walker::new(Origin::File(&f.text), scope);
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
            Ex::Hcl(e) => match &e.kind {
                ExprKind::Template(t) => t.literal().map(Cow::into_owned),
                ExprKind::Heredoc(h) => {
                    let text = h.template.literal()?;
                    Some(if h.strip_indent { dedent(&text) } else { text.into_owned() })
                }
                ExprKind::Paren(p) => Ex::Hcl(p).literal_string(),
                _ => None,
            },
            Ex::Json(v) => match &v.kind {
                JKind::String(s) if !has_template(&s.value) => Some(s.value.clone()),
                JKind::String(s) => syntax::parse_template(&s.value).ok()?.literal().map(Cow::into_owned),
                _ => None,
            },
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Ex::Hcl(e) => match &e.kind {
                ExprKind::Bool(b) => Some(*b),
                ExprKind::Paren(p) => Ex::Hcl(p).as_bool(),
                _ => None,
            },
            Ex::Json(JValue { kind: JKind::Bool(b), .. }) => Some(*b),
            Ex::Json(JValue { kind: JKind::String(s), .. }) => match s.value.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            Ex::Json(_) => None,
        }
    }

    /// `hcl.ExprList`: the items of a static list.
    pub fn list(&self) -> Option<Vec<Ex<'a>>> {
        match *self {
            Ex::Hcl(e) => match &e.kind {
                ExprKind::Tuple(items) => Some(items.iter().map(Ex::Hcl).collect()),
                ExprKind::Paren(p) => Ex::Hcl(p).list(),
                _ => None,
            },
            Ex::Json(JValue { kind: JKind::Array(items), .. }) => Some(items.iter().map(Ex::Json).collect()),
            Ex::Json(_) => None,
        }
    }

    /// `hcl.ExprMap`: the items of a static object.
    pub fn object(&self) -> Option<Vec<(Key<'a>, Ex<'a>)>> {
        match *self {
            Ex::Hcl(e) => match &e.kind {
                ExprKind::Object(items) => {
                    Some(items.iter().map(|it| (Key::Hcl(&it.key), Ex::Hcl(&it.value))).collect())
                }
                _ => None,
            },
            Ex::Json(JValue { kind: JKind::Object(props), .. }) => Some(
                props
                    .iter()
                    .filter(|p| p.name.value != "//")
                    .map(|p| (Key::Json(&p.name), Ex::Json(&p.value)))
                    .collect(),
            ),
            Ex::Json(_) => None,
        }
    }

    /// `hcl.AbsTraversalForExpr`, with Terraform's shim for quoted native strings. The flag says
    /// whether the traversal came from a native quoted string (deprecated form).
    pub fn abs_traversal<'x>(&self, f: &'x SourceFile) -> Option<(Trav<'x>, bool)>
    where
        'a: 'x,
    {
        match *self {
            Ex::Hcl(e) => native_abs_traversal(e, &f.text),
            Ex::Json(JValue { kind: JKind::String(s), .. }) => json_str_traversal(s).map(|t| (t, false)),
            Ex::Json(_) => None,
        }
    }

    /// Whether this is a native quoted string without interpolations (for the "must not be
    /// given in quotes" errors).
    pub fn is_native_quoted_string(&self) -> bool {
        matches!(self, Ex::Hcl(Expr { kind: ExprKind::Template(t), .. }) if t.parts.iter().all(|p| matches!(p, Part::Literal { .. })))
    }
}

/// A `<<-` heredoc's text with the common leading white space removed, by HCL's rule
/// (`flushHeredocTemplateParts`): a line of only white space ending in a newline is blank and
/// left alone; every other line loses the smallest count of leading white-space characters.
fn dedent(s: &str) -> String {
    let is_blank = |l: &str| l.ends_with('\n') && l.trim_start().is_empty();
    let lead = |l: &str| l.chars().take_while(|c| c.is_whitespace()).count();
    let min = s.split_inclusive('\n').filter(|l| !is_blank(l)).map(lead).min().unwrap_or(0);
    s.split_inclusive('\n')
        .map(|l| if is_blank(l) { l } else { l.char_indices().nth(min).map_or("", |(i, _)| &l[i..]) })
        .collect()
}

/// An object key: an identifier, an expression, or a JSON property name.
#[derive(Clone, Copy, Debug)]
pub enum Key<'a> {
    Hcl(&'a ObjectKey<'a>),
    Json(&'a JStr),
}

impl<'a> Key<'a> {
    pub fn span(&self) -> Range<usize> {
        match self {
            Key::Hcl(k) => k.span().clone(),
            Key::Json(s) => s.span.clone(),
        }
    }

    /// The key read as a traversal (`aws.west`), as `providers` maps are.
    pub fn traversal<'x>(&self, f: &'x SourceFile) -> Option<Trav<'x>>
    where
        'a: 'x,
    {
        match *self {
            Key::Hcl(ObjectKey::Ident(i)) => Some(static_steps(Origin::File(&f.text), i, &[])),
            Key::Hcl(ObjectKey::Expr(e)) => native_abs_traversal(e, &f.text).map(|(t, _)| t),
            Key::Json(s) => json_str_traversal(s),
        }
    }

    /// The key as a literal string when it is one (an identifier, a quoted string, a JSON name),
    /// else its source text.
    pub fn literal(&self, f: &SourceFile) -> String {
        match *self {
            Key::Json(s) => s.value.clone(),
            Key::Hcl(ObjectKey::Ident(i)) => i.name.to_string(),
            Key::Hcl(ObjectKey::Expr(e)) => {
                Ex::Hcl(e).literal_string().unwrap_or_else(|| f.text.get(e.span.clone()).unwrap_or("").to_string())
            }
        }
    }
}

/// A native expression as an absolute traversal; `src` is the file text (native spans are file
/// offsets). A quoted string is parsed as one (Terraform's `shimTraversalInString`).
fn native_abs_traversal<'x>(e: &'x Expr<'x>, src: &'x str) -> Option<(Trav<'x>, bool)> {
    match &e.kind {
        ExprKind::Paren(p) => native_abs_traversal(p, src),
        ExprKind::Template(t) => {
            let start = e.span.start + 1;
            match t.literal()? {
                Cow::Borrowed(text) => {
                    let parsed = syntax::parse_expr(text).ok()?;
                    abs_traversal_in(&parsed, Origin::Shifted { src: text, start }).map(|t| (t, true))
                }
                // Escapes decoded: offsets past them are approximate, as in Terraform's shim.
                Cow::Owned(text) => {
                    let parsed = syntax::parse_expr(&text).ok()?;
                    abs_traversal_in(&parsed, Origin::Shifted { src: &text, start }).map(|t| (t.into_owned(), true))
                }
            }
        }
        _ => abs_traversal_in(e, Origin::File(src)).map(|t| (t, false)),
    }
}

/// `hcl.AbsTraversalForExpr` on an expression parsed from `origin`'s text: a root name with
/// attribute names and literal indexes only.
fn abs_traversal_in<'x>(e: &Expr<'x>, origin: Origin<'x>) -> Option<Trav<'x>> {
    match &e.kind {
        ExprKind::Variable(v) => Some(static_steps(origin, v, &[])),
        ExprKind::Traversal { source, ops } => {
            let ExprKind::Variable(v) = &source.kind else { return None };
            let trav = static_steps(origin, v, ops);
            (trav.steps.len() - 1 == ops.len()).then_some(trav)
        }
        ExprKind::Paren(p) => abs_traversal_in(p, origin),
        _ => None,
    }
}

fn json_str_traversal(s: &JStr) -> Option<Trav<'_>> {
    let expr = syntax::parse_expr(&s.value).ok()?;
    abs_traversal_in(&expr, Origin::Json(s))
}

/// Whether a JSON string holds template sequences at all (the common literal case skips parsing).
fn has_template(s: &str) -> bool {
    s.contains("${") || s.contains("%{")
}

fn json_traversals<'x>(
    v: &'x JValue,
    f: &SourceFile,
    scope: &[&str],
    diags: &mut Diagnostics,
    out: &mut Vec<Trav<'x>>,
) {
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
pub fn json_string_traversals<'x>(
    s: &'x JStr,
    f: &SourceFile,
    scope: &[&str],
    diags: &mut Diagnostics,
    out: &mut Vec<Trav<'x>>,
) {
    if !has_template(&s.value) {
        return;
    }
    match syntax::parse_template(&s.value) {
        Ok(t) => {
            let mut w = Walker::new(Origin::Json(s), scope);
            w.template(&t);
            out.append(&mut w.out);
        }
        Err(e) => diags.push(syntax_error_diag(&e, Origin::Json(s), f)),
    }
}

#[cfg(test)]
mod tests {
    use super::dedent;

    #[test]
    fn flush_heredocs_lose_the_smallest_indent() {
        let cases = [
            ("  a\n    b\n", "a\n  b\n"),
            // An empty or white-space-only line is blank: not counted, left as it is.
            ("  a\n\n  b\n", "a\n\nb\n"),
            ("    a\n  \n    b\n", "a\n  \nb\n"),
            ("\ta\n\t\tb\n", "a\n\tb\n"),
            ("a\n  b\n", "a\n  b\n"),
            // Characters, not bytes: `é` is two bytes.
            ("  é\n   x\n", "é\n x\n"),
            ("", ""),
        ];
        for (text, want) in cases {
            assert_eq!(dedent(text), want, "{text:?}");
        }
    }
}
