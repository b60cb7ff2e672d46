//! One view over both syntaxes: bodies, attributes, blocks and expressions of native HCL
//! (hcl-edit's AST) and of Terraform's JSON syntax (our span-keeping JSON tree).
//!
//! As in HCL, a body is read against a schema (`content`): in native syntax attributes and blocks
//! are told apart by the syntax, in JSON by the schema. Expressions are interpreted on demand:
//! a JSON string is a template in an expression position, a traversal where one is required.

use super::diagnostics as msg;
use super::json::{JKind, JProp, JStr, JValue};
use super::references::{static_steps, Origin, Trav, Walker};
use crate::diag::{Diagnostic, Diagnostics, SourceFile};
use hcl::edit::expr::{Expression as HExpr, ObjectKey};
use hcl::edit::structure::{Body as HBody, Structure};
use hcl::edit::template::Element;
use hcl::edit::Span;
use std::ops::Range;

/// An expression in either syntax.
#[derive(Clone, Copy, Debug)]
pub enum Ex<'a> {
    Hcl(&'a HExpr),
    Json(&'a JValue),
}

/// A body in either syntax (JSON: an object, an array of objects, or null).
#[derive(Clone, Copy, Debug)]
pub enum BodyRef<'a> {
    Hcl(&'a HBody),
    Json(&'a JValue),
}

#[derive(Clone, Debug)]
pub struct Attr<'a> {
    pub name: &'a str,
    pub name_span: Range<usize>,
    /// `name = expr` in native syntax; the property in JSON.
    pub span: Range<usize>,
    pub expr: Ex<'a>,
}

#[derive(Clone, Debug)]
pub struct Label<'a> {
    pub name: &'a str,
    pub span: Range<usize>,
}

#[derive(Clone, Debug)]
pub struct Block<'a> {
    pub kind: &'a str,
    pub kind_span: Range<usize>,
    pub labels: Vec<Label<'a>>,
    /// The header: type and labels (HCL's `DefRange`).
    pub def_span: Range<usize>,
    pub body: BodyRef<'a>,
}

impl Block<'_> {
    pub fn label(&self, i: usize) -> &str {
        self.labels.get(i).map_or("", |l| l.name)
    }
}

/// What a body may contain.
pub struct Schema {
    pub attrs: &'static [&'static str],
    pub blocks: &'static [(&'static str, &'static [&'static str])],
    /// Keep attributes not listed (resource bodies, module arguments, locals).
    pub any_attrs: bool,
    /// Keep native blocks not listed (resource bodies).
    pub any_blocks: bool,
}

/// A body's attributes and blocks, in source order.
#[derive(Default, Debug)]
pub struct Content<'a> {
    pub attrs: Vec<Attr<'a>>,
    pub blocks: Vec<Block<'a>>,
}

impl<'a> Content<'a> {
    pub fn attr(&self, name: &str) -> Option<&Attr<'a>> {
        self.attrs.iter().find(|a| a.name == name)
    }

    pub fn blocks_of<'s>(&'s self, kind: &'s str) -> impl Iterator<Item = &'s Block<'a>> + 's {
        self.blocks.iter().filter(move |b| b.kind == kind)
    }
}

/// HCL's `nameSuggestion`: the closest candidate within an edit distance of 2.
pub fn suggest<'s>(name: &str, candidates: impl IntoIterator<Item = &'s str>) -> Option<&'s str> {
    candidates.into_iter().find(|c| levenshtein(name, c) < 3)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Read a body against a schema, reporting what does not fit.
pub fn content<'a>(body: BodyRef<'a>, schema: &Schema, f: &SourceFile, diags: &mut Diagnostics) -> Content<'a> {
    match body {
        BodyRef::Hcl(b) => hcl_content(b, schema, f, diags),
        BodyRef::Json(v) => json_content(v, schema, f, diags),
    }
}

fn span_of<T: Span>(x: &T) -> Range<usize> {
    x.span().unwrap_or(0..0)
}

fn hcl_content<'a>(body: &'a HBody, schema: &Schema, f: &SourceFile, diags: &mut Diagnostics) -> Content<'a> {
    let mut out = Content::default();
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                let name = a.key.as_str();
                let name_span = span_of(&a.key);
                if schema.any_attrs || schema.attrs.contains(&name) {
                    out.attrs.push(Attr { name, name_span, span: span_of(a), expr: Ex::Hcl(&a.value) });
                } else {
                    let hint = suggest(name, schema.attrs.iter().copied());
                    diags.push(msg::unsupported_argument(name, hint, f.range(name_span)));
                }
            }
            Structure::Block(b) => {
                let kind = b.ident.as_str();
                let kind_span = span_of(&b.ident);
                let labels: Vec<Label<'a>> =
                    b.labels.iter().map(|l| Label { name: l.as_str(), span: span_of(l) }).collect();
                let def_end = labels.last().map_or(kind_span.end, |l| l.span.end);
                let block = Block { kind, kind_span: kind_span.clone(), labels, def_span: kind_span.start..def_end, body: BodyRef::Hcl(&b.body) };
                match schema.blocks.iter().find(|(k, _)| *k == kind) {
                    Some((_, names)) => {
                        if check_labels(&block, names, f, diags, &f.text, span_of(b)) {
                            out.blocks.push(block);
                        }
                    }
                    None if schema.any_blocks => out.blocks.push(block),
                    None => {
                        let hint = suggest(kind, schema.blocks.iter().map(|(k, _)| *k));
                        diags.push(msg::unsupported_block_type(kind, hint, f.range(kind_span)));
                    }
                }
            }
        }
    }
    out
}

/// HCL's label count checks; false when the block must be skipped.
fn check_labels(block: &Block, names: &[&str], f: &SourceFile, diags: &mut Diagnostics, text: &str, whole: Range<usize>) -> bool {
    if block.labels.len() > names.len() {
        diags.push(msg::extraneous_label(block.kind, names, f.range(block.labels[names.len()].span.clone())));
        return false;
    }
    if block.labels.len() < names.len() {
        // The open brace, as HCL reports it.
        let from = block.def_span.end.min(text.len());
        let brace = text[from..whole.end.max(from).min(text.len())].find('{').map_or(from, |p| from + p);
        diags.push(msg::missing_label(block.kind, names, block.labels.len(), f.range(brace..brace + 1)));
        return false;
    }
    true
}

/// The properties of a JSON body: an object, or an array of objects (flattened).
fn json_props<'a>(v: &'a JValue, f: &SourceFile, diags: &mut Diagnostics, label: Option<&str>) -> Vec<&'a JProp> {
    match &v.kind {
        JKind::Null => Vec::new(),
        JKind::Object(props) => props.iter().collect(),
        JKind::Array(items) => {
            let mut out = Vec::new();
            for it in items {
                match &it.kind {
                    JKind::Object(props) => out.extend(props.iter()),
                    _ => diags.push(match label {
                        Some(l) => msg::json_label_type(l, f.range(it.span.clone())),
                        None => msg::json_body_type(f.range(it.span.clone())),
                    }),
                }
            }
            out
        }
        _ => {
            diags.push(match label {
                Some(l) => msg::json_label_type(l, f.range(v.span.clone())),
                None => msg::json_body_type(f.range(v.span.clone())),
            });
            Vec::new()
        }
    }
}

fn json_content<'a>(v: &'a JValue, schema: &Schema, f: &SourceFile, diags: &mut Diagnostics) -> Content<'a> {
    let mut out = Content::default();
    for p in json_props(v, f, diags, None) {
        let name = p.name.value.as_str();
        if name == "//" {
            continue;
        }
        if let Some((_, labels)) = schema.blocks.iter().find(|(k, _)| *k == name) {
            unpack_block(&p.value, name, p.name.span.clone(), labels, &mut Vec::new(), f, diags, &mut out.blocks);
            continue;
        }
        if schema.any_attrs || schema.attrs.contains(&name) {
            if let Some(prev) = out.attrs.iter().find(|a| a.name == name) {
                diags.push(msg::duplicate_argument(name, &f.range(prev.name_span.clone()), f.range(p.name.span.clone())));
                continue;
            }
            out.attrs.push(Attr {
                name,
                name_span: p.name.span.clone(),
                span: p.name.span.start..p.value.span.end,
                expr: Ex::Json(&p.value),
            });
        } else {
            let candidates = schema.attrs.iter().chain(schema.blocks.iter().map(|(k, _)| k)).copied();
            let hint = suggest(name, candidates);
            diags.push(msg::extraneous_json_property(name, hint, f.range(p.name.span.clone())));
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn unpack_block<'a>(
    v: &'a JValue,
    kind: &'a str,
    kind_span: Range<usize>,
    labels_left: &[&str],
    used: &mut Vec<Label<'a>>,
    f: &SourceFile,
    diags: &mut Diagnostics,
    out: &mut Vec<Block<'a>>,
) {
    if let Some((label, rest)) = labels_left.split_first() {
        let props = json_props(v, f, diags, Some(label));
        if props.is_empty() && matches!(v.kind, JKind::Object(_)) {
            diags.push(msg::missing_json_block_label(kind, label, f.range(v.span.start..v.span.start + 1)));
            return;
        }
        for p in props {
            used.push(Label { name: p.name.value.as_str(), span: p.name.span.clone() });
            unpack_block(&p.value, kind, kind_span.clone(), rest, used, f, diags, out);
            used.pop();
        }
        return;
    }
    let def_span = used.last().map_or(kind_span.clone(), |l| l.span.clone());
    let mk = |body: &'a JValue| Block { kind, kind_span: kind_span.clone(), labels: used.clone(), def_span: def_span.clone(), body: BodyRef::Json(body) };
    match &v.kind {
        JKind::Null => {}
        JKind::Object(_) => out.push(mk(v)),
        JKind::Array(items) => out.extend(items.iter().map(mk)),
        _ => diags.push(msg::json_block_type(kind, f.range(v.span.clone()))),
    }
}

// ---- expressions --------------------------------------------------------------------------------

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
