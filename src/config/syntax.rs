//! One view over both syntaxes: bodies, attributes, blocks and expressions of native HCL
//! (our parser's [`ast`](crate::hcl::ast)) and of Terraform's JSON syntax (our span-keeping JSON
//! tree).
//!
//! As in HCL, a body is read against a schema (`content`): in native syntax attributes and blocks
//! are told apart by the syntax, in JSON by the schema. Expressions are interpreted on demand:
//! a JSON string is a template in an expression position, a traversal where one is required.

use super::diagnostics as msg;
use super::json::{JKind, JProp, JValue};
use crate::diag::{Diagnostics, SourceFile};
use crate::hcl::ast;
use std::ops::Range;

/// An expression in either syntax.
#[derive(Clone, Copy, Debug)]
pub enum Ex<'a> {
    Hcl(&'a ast::Expr<'a>),
    Json(&'a JValue),
}

/// A body in either syntax (JSON: an object, an array of objects, or null).
#[derive(Clone, Copy, Debug)]
pub enum BodyRef<'a> {
    Hcl(&'a ast::Body<'a>),
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

pub use crate::hcl::messages::suggest;

/// Read a body against a schema, reporting what does not fit.
pub fn content<'a>(body: BodyRef<'a>, schema: &Schema, f: &SourceFile, diags: &mut Diagnostics) -> Content<'a> {
    match body {
        BodyRef::Hcl(b) => hcl_content(b, schema, f, diags),
        BodyRef::Json(v) => json_content(v, schema, f, diags),
    }
}

fn hcl_content<'a>(body: &'a ast::Body<'a>, schema: &Schema, f: &SourceFile, diags: &mut Diagnostics) -> Content<'a> {
    // Sized up front: a resource's attributes grown one push at a time took two or three
    // reallocations per body (bench/RESULTS.md, 2026-12-07 13:20).
    let attrs = body.items.iter().filter(|i| matches!(i, ast::Item::Attr(_))).count();
    let mut out = Content { attrs: Vec::with_capacity(attrs), blocks: Vec::with_capacity(body.items.len() - attrs) };
    for item in &body.items {
        match item {
            ast::Item::Attr(a) => {
                let name = a.name.name;
                if schema.any_attrs || schema.attrs.contains(&name) {
                    out.attrs.push(Attr {
                        name,
                        name_span: a.name.span.clone(),
                        span: a.span.clone(),
                        expr: Ex::Hcl(&a.expr),
                    });
                } else {
                    let hint = suggest(name, schema.attrs.iter().copied());
                    diags.push(msg::unsupported_argument(name, hint, f.range(a.name.span.clone())));
                }
            }
            ast::Item::Block(b) => {
                let kind = b.kind.name;
                let kind_span = b.kind.span.clone();
                let labels: Vec<Label<'a>> =
                    b.labels.iter().map(|l| Label { name: &l.value, span: l.span.clone() }).collect();
                let def_end = labels.last().map_or(kind_span.end, |l| l.span.end);
                let block = Block {
                    kind,
                    kind_span: kind_span.clone(),
                    labels,
                    def_span: kind_span.start..def_end,
                    body: BodyRef::Hcl(&b.body),
                };
                match schema.blocks.iter().find(|(k, _)| *k == kind) {
                    Some((_, names)) => {
                        if check_labels(&block, names, f, diags, b.open_brace.clone()) {
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

/// HCL's label count checks; false when the block must be skipped. A missing label is reported
/// at the open brace, as HCL does.
fn check_labels(
    block: &Block,
    names: &[&str],
    f: &SourceFile,
    diags: &mut Diagnostics,
    open_brace: Range<usize>,
) -> bool {
    if block.labels.len() > names.len() {
        diags.push(msg::extraneous_label(block.kind, names, f.range(block.labels[names.len()].span.clone())));
        return false;
    }
    if block.labels.len() < names.len() {
        diags.push(msg::missing_label(block.kind, names, block.labels.len(), f.range(open_brace)));
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
                diags.push(msg::duplicate_argument(
                    name,
                    &f.range(prev.name_span.clone()),
                    f.range(p.name.span.clone()),
                ));
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
    let mk = |body: &'a JValue| Block {
        kind,
        kind_span: kind_span.clone(),
        labels: used.clone(),
        def_span: def_span.clone(),
        body: BodyRef::Json(body),
    };
    match &v.kind {
        JKind::Null => {}
        JKind::Object(_) => out.push(mk(v)),
        JKind::Array(items) => out.extend(items.iter().map(mk)),
        _ => diags.push(msg::json_block_type(kind, f.range(v.span.clone()))),
    }
}
