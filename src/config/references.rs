//! Expressions to references: HCL's `Variables()` walk and Terraform's `addrs.ParseRef`.
//!
//! The walk visits every sub-expression (templates, directives, heredocs, function calls,
//! conditionals, operators, splats, `for` expressions) with an explicit scope of names bound by
//! enclosing `for` expressions, and collects each *static traversal*: a root name followed by
//! attribute names and literal indexes, stopping at the first splat or dynamic index (whose own
//! expression is walked too). `parse_ref` then turns a traversal into a [`Subject`] with
//! Terraform's rules and messages, or drops it (`count.*`, `each.*`, `path.*`, `terraform.*`,
//! `self`).

#![allow(clippy::result_large_err)] // a Diagnostic per invalid reference is the rare path

use super::diagnostics as msg;
use crate::addrs::{InstanceKey, ResourceAddr, ResourceMode, Subject};
use crate::diag::{Diagnostic, SourceFile};
use hcl::edit::expr::{Expression as HExpr, ObjectKey, TraversalOperator};
use hcl::edit::template::{Directive, Element, Template};
use hcl::edit::Span;
use std::ops::Range;

/// Deepest expression tree the walk descends into. hcl-edit already caps nesting at 64 levels
/// and operator chains at 128, so this is a second line of defence only.
const MAX_WALK_DEPTH: usize = 512;

/// One step of a static traversal, with its span in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub kind: StepKind,
    pub span: Range<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    Root(String),
    Attr(String),
    Index(IndexKey),
}

/// A literal index: Terraform accepts strings and whole numbers as instance keys.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexKey {
    Int(i64),
    Str(String),
    /// Any other literal, with the reason `ParseInstanceKey` rejects it.
    Invalid(&'static str),
}

/// A static traversal found in an expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Trav {
    pub steps: Vec<Step>,
    /// The traversal as written (up to the last static step).
    pub text: String,
}

impl Trav {
    pub fn root(&self) -> &str {
        match &self.steps[0].kind {
            StepKind::Root(n) => n,
            _ => "",
        }
    }

    pub fn span(&self) -> Range<usize> {
        self.steps[0].span.start..self.steps[self.steps.len() - 1].span.end
    }
}

/// Where the text being walked came from: the file itself, or a decoded JSON string whose bytes
/// map back to the file through `map`.
pub struct Origin<'s> {
    /// The text the expression was parsed from.
    pub src: &'s str,
    /// Maps an offset in `src` to an offset in the file.
    pub map: &'s dyn Fn(usize) -> usize,
}

impl Origin<'_> {
    fn file(&self, off: usize) -> usize {
        (self.map)(off)
    }
}

/// Collects static traversals from hcl-edit expressions.
pub struct Walker<'s> {
    origin: Origin<'s>,
    scope: Vec<String>,
    pub out: Vec<Trav>,
    depth: usize,
}

impl<'s> Walker<'s> {
    pub fn new(origin: Origin<'s>) -> Self {
        Walker { origin, scope: Vec::new(), out: Vec::new(), depth: 0 }
    }

    /// Names bound around the walked expression (a dynamic block's iterator).
    pub fn with_scope(mut self, names: Vec<String>) -> Self {
        self.scope = names;
        self
    }

    pub fn expr(&mut self, e: &HExpr) {
        if self.depth >= MAX_WALK_DEPTH {
            return;
        }
        self.depth += 1;
        self.expr_inner(e);
        self.depth -= 1;
    }

    fn expr_inner(&mut self, e: &HExpr) {
        match e {
            HExpr::Null(_) | HExpr::Bool(_) | HExpr::Number(_) | HExpr::String(_) => {}
            HExpr::Array(a) => a.iter().for_each(|x| self.expr(x)),
            HExpr::Object(o) => {
                for (k, v) in o.iter() {
                    if let ObjectKey::Expression(k) = k {
                        self.expr(k);
                    }
                    self.expr(v.expr());
                }
            }
            HExpr::StringTemplate(t) => t.iter().for_each(|el| self.element(el)),
            HExpr::HeredocTemplate(h) => self.template(&h.template),
            HExpr::Parenthesis(p) => self.expr(p.inner()),
            HExpr::Variable(v) => {
                let span = v.span().unwrap_or(0..0);
                self.push_traversal(v.as_str(), span, &[]);
            }
            HExpr::Conditional(c) => {
                self.expr(&c.cond_expr);
                self.expr(&c.true_expr);
                self.expr(&c.false_expr);
            }
            HExpr::FuncCall(f) => f.args.iter().for_each(|x| self.expr(x)),
            HExpr::Traversal(t) => {
                let consumed = match &t.expr {
                    HExpr::Variable(v) => {
                        let span = v.span().unwrap_or(0..0);
                        self.push_traversal(v.as_str(), span, &t.operators)
                    }
                    other => {
                        self.expr(other);
                        0
                    }
                };
                for op in &t.operators[consumed..] {
                    if let TraversalOperator::Index(ix) = op.value() {
                        self.expr(ix);
                    }
                }
            }
            HExpr::UnaryOp(u) => self.expr(&u.expr),
            HExpr::BinaryOp(b) => {
                self.expr(&b.lhs_expr);
                self.expr(&b.rhs_expr);
            }
            HExpr::ForExpr(f) => {
                self.expr(&f.intro.collection_expr);
                let before = self.scope.len();
                if let Some(k) = &f.intro.key_var {
                    self.scope.push(k.as_str().to_string());
                }
                self.scope.push(f.intro.value_var.as_str().to_string());
                if let Some(k) = &f.key_expr {
                    self.expr(k);
                }
                self.expr(&f.value_expr);
                if let Some(c) = &f.cond {
                    self.expr(&c.expr);
                }
                self.scope.truncate(before);
            }
        }
    }

    pub fn template(&mut self, t: &Template) {
        if self.depth >= MAX_WALK_DEPTH {
            return;
        }
        self.depth += 1;
        t.iter().for_each(|el| self.element(el));
        self.depth -= 1;
    }

    fn element(&mut self, el: &Element) {
        match el {
            Element::Literal(_) => {}
            Element::Interpolation(i) => self.expr(&i.expr),
            Element::Directive(d) => match d.as_ref() {
                Directive::If(d) => {
                    self.expr(&d.if_expr.cond_expr);
                    self.template(&d.if_expr.template);
                    if let Some(e) = &d.else_expr {
                        self.template(&e.template);
                    }
                }
                Directive::For(d) => {
                    let f = &d.for_expr;
                    self.expr(&f.collection_expr);
                    let before = self.scope.len();
                    if let Some(k) = &f.key_var {
                        self.scope.push(k.as_str().to_string());
                    }
                    self.scope.push(f.value_var.as_str().to_string());
                    self.template(&f.template);
                    self.scope.truncate(before);
                }
            },
        }
    }

    /// Record the static traversal starting at a root variable; returns how many operators it
    /// consumed (the rest are walked for their index expressions).
    fn push_traversal(&mut self, root: &str, root_span: Range<usize>, ops: &[hcl::edit::Decorated<TraversalOperator>]) -> usize {
        let trav = static_steps(&self.origin, root, root_span, ops);
        let consumed = trav.steps.len() - 1;
        if !self.scope.iter().any(|s| s == root) {
            self.out.push(trav);
        }
        consumed
    }
}

/// The static traversal of `root` followed by `ops`: attribute names and literal indexes, up to
/// the first splat or dynamic index. Spans are file offsets (`Index` spans include the brackets);
/// the text is taken from the walked source, so JSON escapes appear decoded.
pub fn static_steps(
    origin: &Origin<'_>,
    root: &str,
    root_span: Range<usize>,
    ops: &[hcl::edit::Decorated<TraversalOperator>],
) -> Trav {
    let src = origin.src;
    let mut steps = vec![Step { kind: StepKind::Root(root.to_string()), span: root_span.clone() }];
    let mut last_end = root_span.end;
    for op in ops {
        let step = match op.value() {
            TraversalOperator::GetAttr(ident) => {
                let span = ident.span().unwrap_or(last_end..last_end);
                Some((StepKind::Attr(ident.as_str().to_string()), span))
            }
            TraversalOperator::LegacyIndex(n) => {
                let span = n.span().unwrap_or(last_end..last_end);
                Some((StepKind::Index(IndexKey::Int(*n.value() as i64)), span))
            }
            TraversalOperator::Index(ix) => {
                let span = ix.span().unwrap_or(last_end..last_end);
                let key = match ix {
                    HExpr::Number(n) if !src[span.clone()].trim_start().starts_with('-') => {
                        let n = n.value();
                        Some(match n.as_i64() {
                            Some(i) => IndexKey::Int(i),
                            None => match n.as_f64() {
                                Some(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => IndexKey::Int(f as i64),
                                _ => IndexKey::Invalid("value must be a whole number, between -9223372036854775808 and 9223372036854775807"),
                            },
                        })
                    }
                    HExpr::String(s) => Some(IndexKey::Str(s.value().to_string())),
                    HExpr::Bool(_) | HExpr::Null(_) => Some(IndexKey::Invalid("either a string or an integer is required")),
                    _ => None,
                };
                key.map(|k| (StepKind::Index(k), widen_to_brackets(src, span)))
            }
            TraversalOperator::AttrSplat(_) | TraversalOperator::FullSplat(_) => None,
        };
        let Some((kind, span)) = step else { break };
        last_end = span.end;
        steps.push(Step { kind, span });
    }
    let text_start = steps[0].span.start;
    let text_end = last_end;
    let text = src.get(text_start..text_end).unwrap_or("").to_string();
    for s in &mut steps {
        s.span = origin.file(s.span.start)..origin.file(s.span.end);
    }
    Trav { steps, text }
}

/// Extend an index expression's span to the brackets around it.
fn widen_to_brackets(src: &str, span: Range<usize>) -> Range<usize> {
    let b = src.as_bytes();
    let mut start = span.start;
    while start > 0 && b[start - 1].is_ascii_whitespace() {
        start -= 1;
    }
    if start > 0 && b[start - 1] == b'[' {
        start -= 1;
    } else {
        start = span.start;
    }
    let mut end = span.end;
    while end < b.len() && b[end].is_ascii_whitespace() {
        end += 1;
    }
    if end < b.len() && b[end] == b']' {
        end += 1;
    } else {
        end = span.end;
    }
    start..end
}

/// What a traversal refers to.
#[derive(Debug)]
pub enum Parsed {
    /// A graph subject, and the span of the part of the traversal naming it.
    Subject(Subject, Range<usize>),
    /// A valid reference that never becomes an edge (`count.index`, `each.key`, `path.module`,
    /// `terraform.workspace`, `self`).
    Ignored,
}

/// Terraform's `addrs.ParseRef`, plus the attribute checks Terraform makes when evaluating
/// `count.*`, `each.*`, `path.*` and `terraform.*` (so a loader reports them up front).
pub fn parse_ref(t: &Trav, file: &SourceFile) -> Result<Parsed, Diagnostic> {
    let steps = &t.steps;
    let root = t.root();
    let root_span = steps[0].span.clone();
    let range = |s: Range<usize>| file.range(s);
    match root {
        "count" | "each" | "path" | "terraform" => {
            let (name, span) = single_attr(root, steps, file)?;
            let allowed: &[&str] = match root {
                "count" => &["index"],
                "each" => &["key", "value"],
                "path" => &["module", "root", "cwd"],
                _ => &["workspace", "applying"],
            };
            if !allowed.contains(&name.as_str()) {
                let r = range(span);
                return Err(match root {
                    "count" => msg::invalid_count_attr(&name, r),
                    "each" => msg::invalid_each_attr(&name, r),
                    "path" => msg::invalid_path_attr(&name, r),
                    _ => msg::invalid_terraform_attr(&name, r),
                });
            }
            Ok(Parsed::Ignored)
        }
        "self" => Ok(Parsed::Ignored),
        "var" => {
            let (name, span) = single_attr(root, steps, file)?;
            Ok(Parsed::Subject(Subject::InputVariable(name), span))
        }
        "local" => {
            let (name, span) = single_attr(root, steps, file)?;
            Ok(Parsed::Subject(Subject::LocalValue(name), span))
        }
        "data" | "resource" => {
            if steps.len() < 3 {
                let what = if root == "data" { "data source type" } else { "resource type" };
                return Err(msg::invalid_reference(
                    format!("The {root:?} object must be followed by two attribute names: the {what} and the resource name."),
                    range(t.span()),
                ));
            }
            let mode = if root == "data" { ResourceMode::Data } else { ResourceMode::Managed };
            resource_ref(mode, root_span.start, &steps[1..], file)
        }
        "module" => module_ref(steps, file),
        "template" | "lazy" | "arg" => Err(msg::reserved_symbol(root, range(root_span))),
        "ephemeral" => {
            // Terraform 1.10+: `ephemeral.<type>.<name>` (parse_ref.go on main).
            if steps.len() < 3 {
                return Err(msg::invalid_reference(
                    "The \"ephemeral\" object must be followed by two attribute names: the ephemeral resource type and the resource name.",
                    range(t.span()),
                ));
            }
            resource_ref(ResourceMode::Ephemeral, root_span.start, &steps[1..], file)
        }
        _ => resource_ref(ResourceMode::Managed, root_span.start, steps, file),
    }
}

/// `parseSingleAttrRef`.
fn single_attr(root: &str, steps: &[Step], file: &SourceFile) -> Result<(String, Range<usize>), Diagnostic> {
    match steps.get(1) {
        None => Err(msg::invalid_reference(
            format!("The {root:?} object cannot be accessed directly. Instead, access one of its attributes."),
            file.range(steps[0].span.clone()),
        )),
        Some(Step { kind: StepKind::Attr(name), span }) => Ok((name.clone(), steps[0].span.start..span.end)),
        Some(other) => Err(msg::invalid_reference(
            format!("The {root:?} object does not support this operation."),
            file.range(other.span.clone()),
        )),
    }
}

/// `parseResourceRef`: `steps` starts at the type name.
fn resource_ref(mode: ResourceMode, start: usize, steps: &[Step], file: &SourceFile) -> Result<Parsed, Diagnostic> {
    let what = if mode == ResourceMode::Data { "data source" } else { "resource type" };
    if steps.len() < 2 {
        return Err(msg::invalid_reference(
            "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
            file.range(steps[0].span.start..steps[steps.len() - 1].span.end),
        ));
    }
    let type_name = match &steps[0].kind {
        StepKind::Root(n) | StepKind::Attr(n) => n.clone(),
        StepKind::Index(_) => {
            return Err(msg::invalid_reference("The \"data\" object does not support this operation.", file.range(steps[0].span.clone())));
        }
    };
    let StepKind::Attr(name) = &steps[1].kind else {
        return Err(msg::invalid_reference(
            format!("A reference to a {what} must be followed by at least one attribute access, specifying the resource name."),
            file.range(steps[1].span.clone()),
        ));
    };
    let addr = ResourceAddr { mode, type_name, name: name.clone() };
    let mut end = steps[1].span.end;
    if let Some(Step { kind: StepKind::Index(key), span }) = steps.get(2) {
        let key = instance_key(key, "resource instance", span, file)?;
        end = span.end;
        return Ok(Parsed::Subject(Subject::ResourceInstance(addr, key), start..end));
    }
    end = end.max(start);
    Ok(Parsed::Subject(Subject::Resource(addr), start..end))
}

fn module_ref(steps: &[Step], file: &SourceFile) -> Result<Parsed, Diagnostic> {
    let (call, span) = single_attr("module", steps, file)?;
    let mut rest = &steps[2..];
    let mut key = None;
    let mut end = span.end;
    if let Some(Step { kind: StepKind::Index(k), span: ks }) = rest.first() {
        key = Some(instance_key(k, "module instance", ks, file)?);
        end = ks.end;
        rest = &rest[1..];
    }
    let start = steps[0].span.start;
    match rest.first() {
        None => Ok(Parsed::Subject(
            match key {
                None => Subject::ModuleCall(call),
                Some(k) => Subject::ModuleCallInstance(call, k),
            },
            start..end,
        )),
        Some(Step { kind: StepKind::Attr(output), span }) => {
            Ok(Parsed::Subject(Subject::ModuleCallOutput { call, key, output: output.clone() }, start..span.end))
        }
        Some(other) => Err(msg::invalid_reference("Module instance objects do not support this operation.", file.range(other.span.clone()))),
    }
}

fn instance_key(k: &IndexKey, what: &str, span: &Range<usize>, file: &SourceFile) -> Result<InstanceKey, Diagnostic> {
    match k {
        IndexKey::Int(i) => Ok(InstanceKey::Int(*i)),
        IndexKey::Str(s) => Ok(InstanceKey::Str(s.clone())),
        IndexKey::Invalid(reason) => Err(msg::invalid_index_key(what, reason, file.range(span.clone()))),
    }
}
