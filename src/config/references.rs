//! Expressions to references: HCL's `Variables()` walk and Terraform's `addrs.ParseRef`.
//!
//! The walk visits every sub-expression (templates, directives, heredocs, function calls,
//! conditionals, operators, splats, `for` expressions) with an explicit scope of names bound by
//! enclosing `for` expressions, and collects each *static traversal*: a root name followed by
//! attribute names and literal indexes, stopping at the first splat or dynamic index (whose own
//! expression is walked too). `parse_ref` then turns a traversal into a [`Subject`] with
//! Terraform's rules and messages, or drops it (`count.*`, `each.*`, `path.*`, `terraform.*`,
//! `self`).
//!
//! Traversals borrow their names and text from the parsed source (the file, or a decoded JSON
//! string): nothing is copied until a reference is kept in the model.

#![allow(clippy::result_large_err)] // a Diagnostic per invalid reference is the rare path

use super::diagnostics as msg;
use super::json::JStr;
use crate::addrs::{InstanceKey, ResourceAddr, ResourceMode, Subject};
use crate::diag::{Diagnostic, SourceFile};
use crate::hcl::ast::{Expr, ExprKind, Ident, ObjectKey, Op, Part, Template};
use std::borrow::Cow;
use std::ops::Range;

/// Deepest expression tree the walk descends into. The parser already bounds nesting
/// (`hcl::MAX_DEPTH`), so this is a second line of defence only.
const MAX_WALK_DEPTH: usize = 512;

/// One step of a static traversal, with its span in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Step<'a> {
    pub kind: StepKind<'a>,
    pub span: Range<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StepKind<'a> {
    Root(Cow<'a, str>),
    Attr(Cow<'a, str>),
    Index(IndexKey<'a>),
}

/// A literal index: Terraform accepts strings and whole numbers as instance keys.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexKey<'a> {
    Int(i64),
    Str(Cow<'a, str>),
    /// Any other literal, with the reason `ParseInstanceKey` rejects it.
    Invalid(&'static str),
}

/// A static traversal found in an expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Trav<'a> {
    pub steps: Vec<Step<'a>>,
    /// The traversal as written (up to the last static step).
    pub text: Cow<'a, str>,
}

impl Trav<'_> {
    pub fn root(&self) -> &str {
        match &self.steps[0].kind {
            StepKind::Root(n) => n,
            _ => "",
        }
    }

    /// The same traversal, owning its text (for one parsed from a temporary string).
    pub fn into_owned(self) -> Trav<'static> {
        let own = |c: Cow<'_, str>| Cow::Owned(c.into_owned());
        let steps = self
            .steps
            .into_iter()
            .map(|s| Step {
                kind: match s.kind {
                    StepKind::Root(n) => StepKind::Root(own(n)),
                    StepKind::Attr(n) => StepKind::Attr(own(n)),
                    StepKind::Index(IndexKey::Str(k)) => StepKind::Index(IndexKey::Str(own(k))),
                    StepKind::Index(IndexKey::Int(i)) => StepKind::Index(IndexKey::Int(i)),
                    StepKind::Index(IndexKey::Invalid(r)) => StepKind::Index(IndexKey::Invalid(r)),
                },
                span: s.span,
            })
            .collect();
        Trav { steps, text: own(self.text) }
    }

    pub fn span(&self) -> Range<usize> {
        self.steps[0].span.start..self.steps[self.steps.len() - 1].span.end
    }
}

/// Where the text being walked came from, and how its offsets map back into the file.
#[derive(Clone, Copy, Debug)]
pub enum Origin<'a> {
    /// The file itself: offsets are file offsets.
    File(&'a str),
    /// A piece of the file starting at `start`, byte for byte (a native quoted string's text).
    Shifted { src: &'a str, start: usize },
    /// A decoded JSON string (escapes make the mapping non-linear: `JStr::file_offset`).
    Json(&'a JStr),
}

impl<'a> Origin<'a> {
    /// The text the expression was parsed from.
    pub fn src(&self) -> &'a str {
        match *self {
            Origin::File(s) | Origin::Shifted { src: s, .. } => s,
            Origin::Json(s) => &s.value,
        }
    }

    /// The file offset of an offset in [`Origin::src`].
    pub fn file(&self, off: usize) -> usize {
        match *self {
            Origin::File(_) => off,
            Origin::Shifted { start, .. } => start + off,
            Origin::Json(s) => s.file_offset(off),
        }
    }

    pub fn file_span(&self, s: &Range<usize>) -> Range<usize> {
        self.file(s.start)..self.file(s.end)
    }
}

/// Collects static traversals from expressions parsed from `origin`'s text.
pub struct Walker<'a, 'w> {
    origin: Origin<'a>,
    /// Names bound around the walked expression (a dynamic block's iterator).
    outer: &'w [&'w str],
    /// Names bound by the enclosing `for` expressions and directives.
    bound: Vec<&'a str>,
    pub out: Vec<Trav<'a>>,
    depth: usize,
}

impl<'a, 'w> Walker<'a, 'w> {
    pub fn new(origin: Origin<'a>, outer: &'w [&'w str]) -> Self {
        Walker { origin, outer, bound: Vec::new(), out: Vec::new(), depth: 0 }
    }

    pub fn expr(&mut self, e: &Expr<'a>) {
        if self.depth >= MAX_WALK_DEPTH {
            return;
        }
        self.depth += 1;
        self.expr_inner(e);
        self.depth -= 1;
    }

    fn expr_inner(&mut self, e: &Expr<'a>) {
        match &e.kind {
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) => {}
            ExprKind::Template(t) => self.template(t),
            ExprKind::Heredoc(h) => self.template(&h.template),
            ExprKind::Tuple(items) => items.iter().for_each(|x| self.expr(x)),
            ExprKind::Object(items) => {
                for it in items {
                    // A bare identifier key is a literal name (`ObjectConsKeyExpr.literalName`).
                    if let ObjectKey::Expr(k) = &it.key {
                        self.expr(k);
                    }
                    self.expr(&it.value);
                }
            }
            ExprKind::Variable(v) => {
                self.push_traversal(v, &[]);
            }
            ExprKind::Traversal { source, ops } => {
                let consumed = match &source.kind {
                    ExprKind::Variable(v) => self.push_traversal(v, ops),
                    _ => {
                        self.expr(source);
                        0
                    }
                };
                for op in &ops[consumed..] {
                    if let Op::Index { key, .. } = op {
                        self.expr(key);
                    }
                }
            }
            ExprKind::Call { args, .. } => args.iter().for_each(|x| self.expr(x)),
            ExprKind::Paren(x) => self.expr(x),
            ExprKind::Conditional { cond, then, otherwise } => {
                self.expr(cond);
                self.expr(then);
                self.expr(otherwise);
            }
            ExprKind::Unary { expr, .. } => self.expr(expr),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::For(f) => {
                self.expr(&f.collection);
                let before = self.bound.len();
                if let Some(k) = &f.key_var {
                    self.bound.push(k.name);
                }
                self.bound.push(f.value_var.name);
                if let Some(k) = &f.key {
                    self.expr(k);
                }
                self.expr(&f.value);
                if let Some(c) = &f.cond {
                    self.expr(c);
                }
                self.bound.truncate(before);
            }
        }
    }

    pub fn template(&mut self, t: &Template<'a>) {
        if self.depth >= MAX_WALK_DEPTH {
            return;
        }
        self.depth += 1;
        for part in &t.parts {
            match part {
                Part::Literal { .. } => {}
                Part::Interp { expr, .. } => self.expr(expr),
                Part::If { cond, then, otherwise, .. } => {
                    self.expr(cond);
                    self.template(then);
                    if let Some(o) = otherwise {
                        self.template(o);
                    }
                }
                Part::For { key_var, value_var, collection, body, .. } => {
                    self.expr(collection);
                    let before = self.bound.len();
                    if let Some(k) = key_var {
                        self.bound.push(k.name);
                    }
                    self.bound.push(value_var.name);
                    self.template(body);
                    self.bound.truncate(before);
                }
            }
        }
        self.depth -= 1;
    }

    /// Record the static traversal starting at a root variable; returns how many operators it
    /// consumed (the rest are walked for their index expressions).
    fn push_traversal(&mut self, root: &Ident<'a>, ops: &[Op<'a>]) -> usize {
        let trav = static_steps(self.origin, root, ops);
        let consumed = trav.steps.len() - 1;
        let name = root.name;
        if !self.bound.contains(&name) && !self.outer.contains(&name) {
            self.out.push(trav);
        }
        consumed
    }
}

/// The static traversal of `root` followed by `ops`: attribute names and literal indexes, up to
/// the first splat or dynamic index. Spans are file offsets (`Index` spans include the brackets);
/// the text is taken from the walked source, so JSON escapes appear decoded.
pub fn static_steps<'a>(origin: Origin<'a>, root: &Ident<'a>, ops: &[Op<'a>]) -> Trav<'a> {
    let mut steps = Vec::with_capacity(ops.len() + 1);
    steps.push(Step { kind: StepKind::Root(Cow::Borrowed(root.name)), span: root.span.clone() });
    let mut last_end = root.span.end;
    for op in ops {
        let kind = match op {
            Op::Attr(id) => StepKind::Attr(Cow::Borrowed(id.name)),
            Op::LegacyIndex { index, .. } => StepKind::Index(IndexKey::Int(*index as i64)),
            Op::Index { key, .. } => match literal_index(key) {
                Some(k) => StepKind::Index(k),
                None => break,
            },
            Op::AttrSplat { .. } | Op::FullSplat { .. } => break,
        };
        let span = op.span().clone();
        last_end = span.end;
        steps.push(Step { kind, span });
    }
    let text = Cow::Borrowed(origin.src().get(root.span.start..last_end).unwrap_or(""));
    for s in &mut steps {
        s.span = origin.file_span(&s.span);
    }
    Trav { steps, text }
}

/// An index key that keeps a traversal static (`hclsyntax`: a literal value or a string
/// template without interpolations), read as Terraform's `ParseInstanceKey` would.
fn literal_index<'a>(key: &Expr<'a>) -> Option<IndexKey<'a>> {
    match &key.kind {
        // A negative index is an operator, not a literal: the traversal stops there.
        ExprKind::Number(n) if !n.value.is_sign_negative() => Some(match n.int {
            Some(i) => IndexKey::Int(i),
            None if n.value.fract() == 0.0 && n.value.abs() < 9.2e18 => IndexKey::Int(n.value as i64),
            None => {
                IndexKey::Invalid("value must be a whole number, between -9223372036854775808 and 9223372036854775807")
            }
        }),
        ExprKind::Template(t) => t.literal().map(IndexKey::Str),
        ExprKind::Bool(_) | ExprKind::Null => Some(IndexKey::Invalid("either a string or an integer is required")),
        _ => None,
    }
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
        Some(Step { kind: StepKind::Attr(name), span }) => Ok((name.to_string(), steps[0].span.start..span.end)),
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
        StepKind::Root(n) | StepKind::Attr(n) => n.to_string(),
        StepKind::Index(_) => {
            return Err(msg::invalid_reference(
                "The \"data\" object does not support this operation.",
                file.range(steps[0].span.clone()),
            ));
        }
    };
    let StepKind::Attr(name) = &steps[1].kind else {
        return Err(msg::invalid_reference(
            format!("A reference to a {what} must be followed by at least one attribute access, specifying the resource name."),
            file.range(steps[1].span.clone()),
        ));
    };
    let addr = ResourceAddr { mode, type_name, name: name.to_string() };
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
            Ok(Parsed::Subject(Subject::ModuleCallOutput { call, key, output: output.to_string() }, start..span.end))
        }
        Some(other) => Err(msg::invalid_reference(
            "Module instance objects do not support this operation.",
            file.range(other.span.clone()),
        )),
    }
}

fn instance_key(k: &IndexKey, what: &str, span: &Range<usize>, file: &SourceFile) -> Result<InstanceKey, Diagnostic> {
    match k {
        IndexKey::Int(i) => Ok(InstanceKey::Int(*i)),
        IndexKey::Str(s) => Ok(InstanceKey::Str(s.to_string())),
        IndexKey::Invalid(reason) => Err(msg::invalid_index_key(what, reason, file.range(span.clone()))),
    }
}
