//! The expression evaluator: HCL's native-syntax expressions (`hclsyntax`) over cty values,
//! with Terraform's diagnostics. It walks the syntax tree of `src/hcl` and reads names only
//! through a [`Scope`].
//!
//! Deliberate difference: HCL keeps evaluating after an error to collect every diagnostic of
//! an expression; this evaluator stops at the first error of an expression (the first one HCL
//! would report, in the same words and range).

use super::convert::{convert, unify};
use super::functions::{call, CallError, FuncContext, Registry};
use super::number::Number;
use super::scope::unshare;
use super::scope::Scope;
use super::types::Type;
use super::value::{Kind, Value};
use crate::dag::go_quote;
use crate::diag::{Diagnostic, Pos, SourceFile, SourceRange};
use crate::hcl::ast::{BinaryOp, Expr, ExprKind, ForExpr, Ident, ObjectKey, Op, Part, Span, Template, UnaryOp};
use std::collections::BTreeMap;
use std::rc::Rc;

mod template_funcs;
use template_funcs::TemplateCall;

/// Where the evaluated text sits, to give diagnostics their file, line and column. Lines are
/// indexed only when a diagnostic needs a position (most evaluations have none).
pub struct Source<'a> {
    text: &'a str,
    lines: std::cell::OnceCell<SourceFile>,
    /// The whole file's own line index, when the text is a loaded file (a kept tree's spans are
    /// offsets in its file): nothing to index again.
    file: Option<&'a SourceFile>,
    /// Where the text starts in its file (the text may be one expression of a larger file).
    start: Pos,
    filename: &'a str,
}

impl<'a> Source<'a> {
    pub fn new(filename: &'a str, text: &'a str, start: Pos) -> Source<'a> {
        Source { text, lines: std::cell::OnceCell::new(), file: None, start, filename }
    }

    /// A whole loaded file, with its line index.
    pub fn file(file: &'a SourceFile) -> Source<'a> {
        Source {
            text: &file.text,
            lines: std::cell::OnceCell::new(),
            file: Some(file),
            start: Pos { line: 1, column: 1, byte: 0 },
            filename: &file.name,
        }
    }

    pub fn range(&self, span: &Span) -> SourceRange {
        let file = match self.file {
            Some(f) => f,
            None => self.lines.get_or_init(|| SourceFile::new(self.filename, self.text)),
        };
        let shift = |p: Pos| -> Pos {
            Pos {
                line: self.start.line + p.line - 1,
                column: if p.line == 1 { self.start.column + p.column - 1 } else { p.column },
                byte: self.start.byte + p.byte,
            }
        };
        SourceRange {
            filename: self.filename.to_string(),
            start: shift(file.pos(span.start)),
            end: shift(file.pos(span.end)),
        }
    }

    pub fn text(&self) -> &str {
        self.text
    }
}

/// Limits on what one evaluation may build, so that hostile input ends in an error.
const MAX_DEPTH: usize = 256;
const MAX_STRING: usize = 64 << 20;

pub struct Evaluator<'a> {
    pub scope: &'a dyn Scope,
    pub funcs: &'a Registry,
    pub ctx: FuncContext<'a>,
    pub source: &'a Source<'a>,
    /// `for` and template-`for` variables, innermost last.
    locals: Vec<(String, Value)>,
    depth: usize,
    /// Set while evaluating the template of a `templatestring`/`templatefile` call: those two
    /// may not be called again, and `templatestring` templates may not read files.
    template: Option<TemplateCall>,
    /// The innermost expression whose evaluation failed: its text is what the error's snippet
    /// values come from (HCL's diagnostic `Expression`).
    failed: Option<std::ops::Range<usize>>,
}

type R = Result<Value, Box<Diagnostic>>;

/// A traversal step's result: an element of its operand as it is, or a value made for it.
enum Stepped<'v> {
    Ref(&'v Value),
    Owned(Value),
}

impl<'a> Evaluator<'a> {
    pub fn new(scope: &'a dyn Scope, funcs: &'a Registry, ctx: FuncContext<'a>, source: &'a Source<'a>) -> Self {
        Evaluator { scope, funcs, ctx, source, locals: Vec::new(), depth: 0, template: None, failed: None }
    }

    fn err(&self, summary: &str, detail: impl Into<String>, span: &Span) -> Box<Diagnostic> {
        Box::new(Diagnostic::error(summary, detail).with_range(self.source.range(span)))
    }

    /// The text of the innermost expression whose evaluation failed.
    pub fn failed_text(&self) -> Option<&str> {
        self.source.text().get(self.failed.clone()?)
    }

    pub fn eval(&mut self, e: &Expr<'_>) -> R {
        self.depth += 1;
        // Levels of evaluation on the stack, those of the evaluations this one runs inside
        // included (each local value a chain reads adds its expression's depth).
        let frames = super::limits::enter();
        if self.depth > MAX_DEPTH || frames > super::limits::MAX_FRAMES {
            super::limits::leave();
            self.depth -= 1;
            let detail = if frames > super::limits::MAX_FRAMES {
                format!(
                    "This expression nests more than {} levels of evaluation, counting those of the local values, outputs and variables it is evaluated inside.",
                    super::limits::MAX_FRAMES
                )
            } else {
                format!("This expression nests more than {MAX_DEPTH} levels of evaluation.")
            };
            return Err(self.err("Expression too deep", detail, &e.span));
        }
        // The outermost evaluation opens the budget of what it may make (eval/limits.rs), and
        // counts the evaluations it runs inside (a local read by a local read by ...).
        let outermost = self.depth == 1;
        if outermost && super::limits::open() > super::limits::MAX_NESTED {
            super::limits::close();
            super::limits::leave();
            self.depth -= 1;
            return Err(self.err(
                "Expression too deep",
                format!(
                    "This expression is evaluated inside more than {} others (local values, outputs or variables each reading the next), more than this tool follows.",
                    super::limits::MAX_NESTED
                ),
                &e.span,
            ));
        }
        let r = self.eval_inner(e);
        if r.is_err() && self.failed.is_none() {
            self.failed = Some(e.span.clone());
        }
        if outermost {
            super::limits::close();
        }
        super::limits::leave();
        self.depth -= 1;
        r
    }

    /// Spends `v` from the evaluation's budget (eval/limits.rs), or the error at `span`.
    fn spend(&self, v: &Value, span: &Span) -> Result<(), Box<Diagnostic>> {
        super::limits::spend_value(v).map_err(|m| self.too_large(m, span))
    }

    fn too_large(&self, m: String, span: &Span) -> Box<Diagnostic> {
        let mut detail = m;
        if let Some(first) = detail.get(..1) {
            detail.replace_range(..1, &first.to_uppercase());
        }
        detail.push('.');
        self.err("Expression result too large", detail, span)
    }

    fn eval_inner(&mut self, e: &Expr<'_>) -> R {
        match &e.kind {
            ExprKind::Null => Ok(Value::null(Type::Dynamic)),
            ExprKind::Bool(b) => Ok(Value::bool(*b)),
            ExprKind::Number(_) => {
                let text = &self.source.text()[e.span.clone()];
                Number::parse(text).map(Value::number).ok_or_else(|| {
                    self.err("Invalid number literal", "Failed to recognize the value of this number literal.", &e.span)
                })
            }
            ExprKind::Template(t) => self.template_value(t, &e.span),
            ExprKind::Heredoc(h) if h.strip_indent => self.template(&flush_heredoc(&h.template), &e.span),
            ExprKind::Heredoc(h) => self.template(&h.template, &e.span),
            ExprKind::Tuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    let v = self.eval(x)?;
                    self.spend(&v, &x.span)?;
                    out.push(v);
                }
                Ok(Value::tuple(out))
            }
            ExprKind::Object(items) => self.object(items),
            ExprKind::Variable(id) => self.traversal_root(id, &[]).map(|(v, _)| v),
            ExprKind::Traversal { source, ops } => self.traversal(source, ops),
            ExprKind::Call { name, args, expand_final } => self.call(name, args, *expand_final, &e.span),
            ExprKind::Paren(inner) => self.eval(inner),
            ExprKind::Conditional { cond, then, otherwise } => self.conditional(cond, then, otherwise),
            ExprKind::Unary { op, expr } => self.unary(*op, expr),
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs),
            ExprKind::For(f) => self.for_expr(f, &e.span),
        }
    }

    // ---- names and traversals ------------------------------------------------------------

    fn local(&self, name: &str) -> Option<&Value> {
        self.locals.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// A root name followed by attribute names: a `for` variable, or the scope's answer.
    /// Returns the value and how many of `attrs` it consumed.
    fn traversal_root(&mut self, root: &Ident<'_>, attrs: &[&Ident<'_>]) -> Result<(Value, usize), Box<Diagnostic>> {
        self.traversal_root_shared(root, attrs).map(|(v, n)| (unshare(v), n))
    }

    /// [`Self::traversal_root`], the value shared with the scope that keeps it.
    fn traversal_root_shared(
        &mut self,
        root: &Ident<'_>,
        attrs: &[&Ident<'_>],
    ) -> Result<(Rc<Value>, usize), Box<Diagnostic>> {
        if let Some(v) = self.local(root.name) {
            return Ok((Rc::new(v.clone()), 0));
        }
        let mut names = vec![root.name];
        names.extend(attrs.iter().map(|a| a.name));
        match self.scope.lookup_shared(&names) {
            Ok((v, used)) => Ok((v, used.saturating_sub(1))),
            Err(le) => {
                let last = if le.names <= 1 || attrs.is_empty() {
                    &root.span
                } else {
                    &attrs[(le.names - 2).min(attrs.len() - 1)].span
                };
                Err(self.err(&le.summary, le.detail, &(root.span.start..last.end)))
            }
        }
    }

    /// Steps and splats read their operand by reference and copy only what they select: a
    /// resource's object stays with the scope when one attribute of it is read.
    fn traversal(&mut self, source: &Expr<'_>, ops: &[Op<'_>]) -> R {
        let (root, mut i) = match &source.kind {
            ExprKind::Variable(root) => {
                let attrs: Vec<&Ident<'_>> =
                    ops.iter().map_while(|op| if let Op::Attr(a) = op { Some(a) } else { None }).collect();
                self.traversal_root_shared(root, &attrs)?
            }
            _ => (Rc::new(self.eval(source)?), 0),
        };
        // `at` walks into the root by reference while steps select elements as they are;
        // `v` holds the value once a step has built one.
        let mut at: &Value = &root;
        let mut v: Option<Value> = None;
        while i < ops.len() {
            let here: &Value = match &v {
                Some(x) => x,
                None => at,
            };
            // What a splat here applies to, for its errors: the source and the steps before it.
            let src = source.span.start..if i == 0 { source.span.end } else { ops[i - 1].span().end };
            let next = match &ops[i] {
                Op::FullSplat { .. } => return self.splat(here, &ops[i + 1..], src),
                Op::AttrSplat { .. } => {
                    // The legacy splat applies only the attribute steps right after it.
                    let n =
                        ops[i + 1..].iter().take_while(|o| matches!(o, Op::Attr(_) | Op::LegacyIndex { .. })).count();
                    let next = self.splat(here, &ops[i + 1..i + 1 + n], src)?;
                    v = Some(next);
                    i += 1 + n;
                    continue;
                }
                op if v.is_none() => match self.step_ref(at, op)? {
                    Stepped::Ref(x) => {
                        at = x;
                        i += 1;
                        continue;
                    }
                    Stepped::Owned(x) => x,
                },
                op => self.step(here, op)?,
            };
            v = Some(next);
            i += 1;
        }
        if let Some(v) = v {
            return Ok(v);
        }
        let whole = std::ptr::eq(at, &*root);
        Ok(if whole { unshare(root) } else { at.clone() })
    }

    /// One step, as a reference into `v` where it selects an element as it is (nothing to
    /// mark sensitive, nothing unknown): what [`Self::step`] would copy.
    fn step_ref<'v>(&mut self, v: &'v Value, op: &Op<'_>) -> Result<Stepped<'v>, Box<Diagnostic>> {
        let key = match op {
            Op::Attr(id) => {
                if let (false, Kind::Object(m) | Kind::Map(_, m)) = (v.sensitive, &v.kind) {
                    if let Some(x) = m.get(id.name) {
                        return Ok(Stepped::Ref(x));
                    }
                }
                return self.step(v, op).map(Stepped::Owned);
            }
            Op::LegacyIndex { index, .. } => Value::int(*index as i64),
            Op::Index { key, .. } => self.eval(key)?,
            Op::FullSplat { .. } | Op::AttrSplat { .. } => unreachable!("splats are handled by traversal"),
        };
        if !v.sensitive && !key.sensitive {
            let found = match (&v.kind, &key.kind) {
                (Kind::List(_, items) | Kind::Tuple(items), Kind::Number(n)) if n.is_integer() && !n.is_neg() => {
                    n.to_i64().and_then(|i| items.get(i as usize))
                }
                (Kind::Map(_, m) | Kind::Object(m), Kind::String(k)) => m.get(k),
                _ => None,
            };
            if let Some(x) = found {
                return Ok(Stepped::Ref(x));
            }
        }
        let span = match op {
            Op::LegacyIndex { span, .. } | Op::Index { span, .. } => span,
            _ => unreachable!("attributes returned above"),
        };
        self.index(v, key, span).map(Stepped::Owned)
    }

    /// A splat of `v` with the steps `rest` after it (a nested splat among them applies to each
    /// element's value so far); `src` is the range of what it splats, for its errors.
    fn splat(&mut self, v: &Value, rest: &[Op<'_>], src: Span) -> R {
        let sensitive = v.sensitive;
        let apply = |me: &mut Self, x: &Value| -> R {
            let mut owned: Option<Value> = None;
            for (j, op) in rest.iter().enumerate() {
                let here = owned.as_ref().unwrap_or(x);
                let next = match op {
                    Op::FullSplat { .. } | Op::AttrSplat { .. } => {
                        let inner = if j == 0 { src.clone() } else { rest[0].span().start..rest[j - 1].span().end };
                        return me.splat(here, &rest[j + 1..], inner);
                    }
                    op => me.step(here, op)?,
                };
                owned = Some(next);
            }
            Ok(owned.unwrap_or_else(|| x.clone()))
        };
        match &v.kind {
            // A null sequence cannot be splatted; any other null is an empty tuple (HCL's
            // SplatExpr: only non-sequences are upgraded to a one-element tuple).
            Kind::Null(Type::List(_) | Type::Set(_) | Type::Tuple(_)) => Err(self.err(
                "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
                &src,
            )),
            Kind::Null(_) => Ok(Value::tuple(vec![]).mark(sensitive)),
            // HCL's SplatExpr resultTy: the traversal applied to an unknown element of the
            // source's element type gives the result's element type, for an unknown source and
            // for an empty one (`var.l[*]` of an empty list(string) is list(string)).
            Kind::Unknown(Type::List(t) | Type::Set(t)) => {
                let each = apply(self, &Value::unknown((**t).clone()))?;
                Ok(Value::unknown(Type::list(each.ty())).mark(sensitive))
            }
            Kind::Unknown(Type::Tuple(ts)) => {
                let mut tys = Vec::with_capacity(ts.len());
                for t in ts {
                    tys.push(apply(self, &Value::unknown(t.clone()))?.ty());
                }
                Ok(Value::unknown(Type::Tuple(tys)).mark(sensitive))
            }
            Kind::Unknown(_) => Ok(Value::dynamic().mark(sensitive)),
            Kind::List(t, items) | Kind::Set(t, items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(apply(self, x)?);
                }
                let tys: Vec<Type> = out.iter().map(Value::ty).collect();
                if out.is_empty() {
                    let each = apply(self, &Value::unknown(t.clone()))?;
                    return Ok(Value::list(each.ty(), vec![]).mark(sensitive));
                }
                match unify(&tys) {
                    Some(t) => Ok(Value::list(
                        t.clone(),
                        out.iter().map(|x| convert(x, &t).unwrap_or_else(|_| x.clone())).collect(),
                    )
                    .mark(sensitive)),
                    None => Ok(Value::tuple(out).mark(sensitive)),
                }
            }
            Kind::Tuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for x in items {
                    out.push(apply(self, x)?);
                }
                Ok(Value::tuple(out).mark(sensitive))
            }
            _ => {
                // A single value splats as a one-element tuple.
                let x = apply(self, v)?;
                Ok(Value::tuple(vec![x]))
            }
        }
    }

    fn step(&mut self, v: &Value, op: &Op<'_>) -> R {
        match op {
            Op::Attr(id) => self.get_attr(v, id.name, &(id.span.start.saturating_sub(1)..id.span.end)),
            Op::LegacyIndex { index, span } => self.index(v, Value::int(*index as i64), span),
            Op::Index { key, span } => {
                let k = self.eval(key)?;
                self.index(v, k, span)
            }
            Op::FullSplat { .. } | Op::AttrSplat { .. } => unreachable!("splats are handled by traversal"),
        }
    }

    fn get_attr(&mut self, v: &Value, name: &str, span: &Span) -> R {
        let sensitive = v.sensitive;
        match &v.kind {
            Kind::Null(_) => Err(self.err(
                "Attempt to get attribute from null value",
                "This value is null, so it does not have any attributes.",
                span,
            )),
            Kind::Unknown(t) => match t {
                Type::Object(m) => match m.get(name) {
                    Some(t) => Ok(Value::unknown(t.clone()).mark(sensitive)),
                    None => Err(self.err(
                        "Unsupported attribute",
                        format!("This object does not have an attribute named {}.", go_quote(name)),
                        span,
                    )),
                },
                Type::Map(e) => Ok(Value::unknown((**e).clone()).mark(sensitive)),
                _ => Ok(Value::dynamic().mark(sensitive)),
            },
            Kind::Object(m) => match m.get(name) {
                Some(x) => Ok(x.clone().mark(sensitive)),
                None => Err(self.err(
                    "Unsupported attribute",
                    format!("This object does not have an attribute named {}.", go_quote(name)),
                    span,
                )),
            },
            Kind::Map(_, m) => match m.get(name) {
                Some(x) => Ok(x.clone().mark(sensitive)),
                None => Err(self.err(
                    "Missing map element",
                    format!("This map does not have an element with the key {}.", go_quote(name)),
                    span,
                )),
            },
            Kind::List(e, _) | Kind::Set(e, _) if matches!(e, Type::Object(_)) => {
                let kind = if matches!(v.kind, Kind::Set(..)) { "set" } else { "list" };
                Err(self.err(
                    "Unsupported attribute",
                    format!("Can't access attributes on a {kind} of objects. Did you mean to access an attribute for a specific element of the {kind}, or across all elements of the {kind}?"),
                    span,
                ))
            }
            Kind::List(..) | Kind::Set(..) | Kind::Tuple(_) => {
                Err(self.err("Unsupported attribute", "This value does not have any attributes.", span))
            }
            _ => Err(self.err(
                "Unsupported attribute",
                format!("Can't access attributes on a primitive-typed value ({}).", v.ty().friendly_name()),
                span,
            )),
        }
    }

    fn index(&mut self, v: &Value, key: Value, span: &Span) -> R {
        let sensitive = v.sensitive || key.sensitive;
        let invalid = |me: &Self, why: &str| {
            me.err(
                "Invalid index",
                format!("The given key does not identify an element in this collection value{why}."),
                span,
            )
        };
        if v.is_null() {
            return Err(self.err(
                "Attempt to index null value",
                "This value is null, so it does not have any indices.",
                span,
            ));
        }
        if key.is_null() {
            return Err(self.err("Invalid index", "Can't use a null value as an indexing key.", span));
        }
        // Only the type's kind (and a list's or map's element type) matters here: a tuple's or
        // object's full type is not built (a resource with count is a tuple of objects).
        let ty = match &v.kind {
            Kind::Tuple(_) => Type::Tuple(Vec::new()),
            Kind::Object(_) => Type::Object(BTreeMap::new()),
            _ => v.ty(),
        };
        match &ty {
            Type::List(_) | Type::Tuple(_) => {
                let k = match convert(&key, &Type::Number) {
                    Ok(k) => k,
                    Err(m) => return Err(invalid(self, &format!(": {m}"))),
                };
                if !k.is_known() || !v.is_known() {
                    let et = match &ty {
                        Type::List(e) => (**e).clone(),
                        _ => Type::Dynamic,
                    };
                    return Ok(Value::unknown(et).mark(sensitive));
                }
                let n = k.as_number().cloned().unwrap_or_else(Number::zero);
                if !n.is_integer() {
                    return Err(invalid(self, ": indexing a sequence requires a whole number, but the given index has a fractional part"));
                }
                if n.is_neg() {
                    return Err(invalid(self, ": a negative number is not a valid index for a sequence"));
                }
                let items = v.elements().unwrap_or_default();
                match n.to_i64().and_then(|i| items.get(i as usize)) {
                    Some(x) => Ok((*x).clone().mark(sensitive)),
                    // HCL's Index says more only when the index minus the length is not positive,
                    // i.e. for the index just past the end, and not of a sensitive collection.
                    None if !v.sensitive && n.to_i64() == Some(items.len() as i64) => Err(invalid(
                        self,
                        if items.is_empty() {
                            ": the collection has no elements"
                        } else {
                            ": the given index is greater than or equal to the length of the collection"
                        },
                    )),
                    None => Err(invalid(self, "")),
                }
            }
            Type::Map(_) | Type::Object(_) => {
                let by_number = key.ty() == Type::Number;
                let k = match convert(&key, &Type::String) {
                    Ok(k) => k,
                    Err(m) => return Err(invalid(self, &format!(": {m}"))),
                };
                if !k.is_known() || !v.is_known() {
                    let et = match &ty {
                        Type::Map(e) => (**e).clone(),
                        _ => Type::Dynamic,
                    };
                    return Ok(Value::unknown(et).mark(sensitive));
                }
                let name = k.as_str().unwrap_or("");
                match &v.kind {
                    Kind::Map(_, m) => match m.get(name) {
                        Some(x) => Ok(x.clone().mark(sensitive)),
                        None => Err(invalid(self, "")),
                    },
                    Kind::Object(m) => match m.get(name) {
                        Some(x) => Ok(x.clone().mark(sensitive)),
                        None if by_number => Err(invalid(
                            self,
                            ". An object only supports looking up attributes by name, not by numeric index",
                        )),
                        None => Err(invalid(self, "")),
                    },
                    _ => Err(invalid(self, "")),
                }
            }
            Type::Set(_) => Err(self.err(
                "Invalid index",
                "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.",
                span,
            )),
            Type::Dynamic => Ok(Value::dynamic().mark(sensitive)),
            _ => Err(self.err("Invalid index", "This value does not have any indices.", span)),
        }
    }

    // ---- literals -------------------------------------------------------------------------

    fn object(&mut self, items: &[crate::hcl::ast::ObjectItem<'_>]) -> R {
        let mut out = BTreeMap::new();
        let mut unknown_key = false;
        let mut sensitive = false;
        for item in items {
            let key = match &item.key {
                ObjectKey::Ident(id) => Value::string(id.name),
                ObjectKey::Expr(e) => match &e.kind {
                    // A bare name is text (`{ a = 1 }`).
                    ExprKind::Variable(id) => Value::string(id.name),
                    // A bare multi-step traversal (`{ local.x.y = 1 }`) could be either a
                    // reference or a dotted name: HCL refuses it (ObjectConsKeyExpr) unless it is
                    // parenthesised or quoted.
                    ExprKind::Traversal { source, ops }
                        if matches!(source.kind, ExprKind::Variable(_))
                            && ops.iter().all(|op| match op {
                                Op::Attr(_) | Op::LegacyIndex { .. } => true,
                                Op::Index { key, .. } => matches!(key.kind, ExprKind::Number(_)),
                                Op::AttrSplat { .. } | Op::FullSplat { .. } => false,
                            }) =>
                    {
                        return Err(self.err(
                            "Ambiguous attribute key",
                            "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.",
                            &e.span,
                        ));
                    }
                    // A bare keyword is a name too: `{ null = 1 }` has the key "null".
                    ExprKind::Null | ExprKind::Bool(_) => Value::string(&self.source.text()[e.span.clone()]),
                    _ => self.eval(e)?,
                },
            };
            let span = item.key.span();
            if key.is_null() {
                return Err(self.err("Null value as key", "Can't use a null value as a key.", span));
            }
            let key = match convert(&key, &Type::String) {
                Ok(k) => k,
                Err(m) => {
                    return Err(self.err("Incorrect key type", format!("Can't use this value as a key: {m}."), span))
                }
            };
            let value = self.eval(&item.value)?;
            self.spend(&value, &item.value.span)?;
            sensitive |= key.sensitive;
            match key.as_str() {
                Some(k) => {
                    out.insert(k.to_string(), value);
                }
                None => unknown_key = true,
            }
        }
        if unknown_key {
            return Ok(Value::dynamic().mark(sensitive));
        }
        Ok(Value::object(out).mark(sensitive))
    }

    // ---- templates ------------------------------------------------------------------------

    fn template(&mut self, t: &Template<'_>, span: &Span) -> R {
        let mut out = String::new();
        let mut known = true;
        let mut sensitive = false;
        self.template_parts(t, &mut out, &mut known, &mut sensitive).map_err(|mut d| {
            if d.range.is_none() {
                d.range = Some(self.source.range(span));
            }
            d
        })?;
        if !known {
            return Ok(Value::unknown(Type::String).mark(sensitive));
        }
        super::limits::spend(1, out.len()).map_err(|m| self.too_large(m, span))?;
        Ok(Value::string(out).mark(sensitive))
    }

    /// A template with one interpolation and nothing else yields that value as it is (HCL's
    /// "template wrap" rule); others are strings.
    pub fn template_value(&mut self, t: &Template<'_>, span: &Span) -> R {
        if let [Part::Interp { expr, .. }] = t.parts.as_slice() {
            return self.eval(expr);
        }
        self.template(t, span)
    }

    fn template_parts(
        &mut self,
        t: &Template<'_>,
        out: &mut String,
        known: &mut bool,
        sensitive: &mut bool,
    ) -> Result<(), Box<Diagnostic>> {
        for part in &t.parts {
            match part {
                Part::Literal { value, .. } => out.push_str(value),
                Part::Interp { expr, span } => {
                    let v = self.eval(expr)?;
                    *sensitive |= v.has_sensitive();
                    if v.is_null() {
                        return Err(self.err(
                            "Invalid template interpolation value",
                            "The expression result is null. Cannot include a null value in a string template.",
                            &expr.span,
                        ));
                    }
                    if !v.is_known() {
                        *known = false;
                        continue;
                    }
                    let _ = span;
                    // The mark is already on the result (`sensitive` above); convert the bare value.
                    let bare;
                    let v = if v.has_sensitive() {
                        bare = v.unmark_deep().0;
                        &bare
                    } else {
                        &v
                    };
                    if let Some(text) = v.as_str() {
                        out.push_str(text);
                        continue;
                    }
                    match convert(v, &Type::String) {
                        Ok(s) => out.push_str(s.as_str().unwrap_or("")),
                        Err(m) => {
                            return Err(self.err(
                                "Invalid template interpolation value",
                                format!("Cannot include the given value in a string template: {m}."),
                                &expr.span,
                            ));
                        }
                    }
                }
                Part::If { cond, then, otherwise, .. } => {
                    let c = self.eval(cond)?;
                    *sensitive |= c.sensitive;
                    // HCL turns `%{if}` into a conditional expression: its errors are a conditional's.
                    if c.is_null() {
                        return Err(self.err(
                            "Null condition",
                            "The condition value is null. Conditions must either be true or false.",
                            &cond.span,
                        ));
                    }
                    if !c.is_known() {
                        *known = false;
                        continue;
                    }
                    let b = match convert(&c, &Type::Bool) {
                        Ok(b) => b.as_bool().unwrap_or(false),
                        Err(_) => {
                            return Err(self.err(
                                "Incorrect condition type",
                                "The condition expression must be of type bool.",
                                &cond.span,
                            ))
                        }
                    };
                    if b {
                        self.template_parts(then, out, known, sensitive)?;
                    } else if let Some(o) = otherwise {
                        self.template_parts(o, out, known, sensitive)?;
                    }
                }
                Part::For { key_var, value_var, collection, body, .. } => {
                    let coll = self.eval(collection)?;
                    *sensitive |= coll.sensitive;
                    if coll.is_null() {
                        return Err(self.err(
                            "Iteration over null value",
                            "A null value cannot be used as the collection in a 'for' expression.",
                            &collection.span,
                        ));
                    }
                    if !coll.is_known() {
                        *known = false;
                        continue;
                    }
                    let pairs = match iter_pairs(&coll) {
                        Some(p) => p,
                        None => {
                            return Err(self.err(
                                "Iteration over non-iterable value",
                                format!(
                                    "A value of type {} cannot be used as the collection in a 'for' expression.",
                                    coll.ty().friendly_name()
                                ),
                                &collection.span,
                            ))
                        }
                    };
                    for (k, v) in pairs {
                        let mark = self.locals.len();
                        if let Some(kv) = key_var {
                            self.locals.push((kv.name.to_string(), k));
                        }
                        self.locals.push((value_var.name.to_string(), v));
                        let r = self.template_parts(body, out, known, sensitive);
                        self.locals.truncate(mark);
                        r?;
                        if out.len() > MAX_STRING {
                            return Err(self.err(
                                "Template result too long",
                                "This template produces a string longer than this tool supports.",
                                &collection.span,
                            ));
                        }
                    }
                }
            }
            if out.len() > MAX_STRING {
                return Err(Box::new(Diagnostic::error(
                    "Template result too long",
                    "This template produces a string longer than this tool supports.",
                )));
            }
        }
        Ok(())
    }

    // ---- operators ------------------------------------------------------------------------

    /// HCL evaluates both results (to unify their types) but reports only the chosen one's
    /// errors: an error in the other one (`var.x == null ? 0 : var.x.n`) is dropped, and its
    /// value taken as unknown for unification. With an unknown condition neither is reported.
    fn conditional(&mut self, cond: &Expr<'_>, then: &Expr<'_>, otherwise: &Expr<'_>) -> R {
        let (t, t_err) = match self.eval(then) {
            Ok(v) => (v, None),
            Err(d) => (self.recovered(then), Some(d)),
        };
        let (f, f_err) = match self.eval(otherwise) {
            Ok(v) => (v, None),
            Err(d) => (self.recovered(otherwise), Some(d)),
        };
        // HCL's ConditionalExpr: a literal `null` (null of unknown type) takes the other
        // result's type, whatever it is (`true ? null : ["a"]` is a tuple); a result of unknown
        // type leaves the type unknown; otherwise the two unify.
        let null_dynamic = |v: &Value| v.is_null() && v.ty() == Type::Dynamic && !v.sensitive;
        let ty = if null_dynamic(&t) {
            Some(f.ty())
        } else if null_dynamic(&f) {
            Some(t.ty())
        } else if t.ty() == Type::Dynamic || f.ty() == Type::Dynamic {
            Some(Type::Dynamic)
        } else {
            unify(&[t.ty(), f.ty()])
        };
        let c = self.eval(cond)?;
        let Some(ty) = ty else {
            return Err(self.err(
                "Inconsistent conditional result types",
                format!(
                    "The true and false result expressions must have consistent types. The 'true' value is {}, but the 'false' value is {}.",
                    t.ty().friendly_name(),
                    f.ty().friendly_name()
                ),
                &(then.span.start..otherwise.span.end),
            ));
        };
        if c.is_null() {
            return Err(self.err(
                "Null condition",
                "The condition value is null. Conditions must either be true or false.",
                &cond.span,
            ));
        }
        let cb = match convert(&c, &Type::Bool) {
            Ok(b) => b,
            Err(_) => {
                return Err(self.err(
                    "Incorrect condition type",
                    "The condition expression must be of type bool.",
                    &cond.span,
                ))
            }
        };
        if !cb.is_known() {
            return Ok(Value::unknown(ty).mark(c.sensitive));
        }
        let pick_true = cb.as_bool().unwrap_or(false);
        let (chosen, err, expr) = if pick_true { (t, t_err, then) } else { (f, f_err, otherwise) };
        if let Some(d) = err {
            return Err(d);
        }
        let v = convert(&chosen, &ty).map_err(|m| {
            self.err(
                "Inconsistent conditional result types",
                format!(
                    "The {} result value is not compatible with the result type: {m}.",
                    if pick_true { "true" } else { "false" }
                ),
                &expr.span,
            )
        })?;
        Ok(v.mark(c.sensitive))
    }

    /// The value HCL gives beside an error in `e`, which a conditional unifies with the other
    /// result: an object or tuple constructor keeps its shape, each failed element unknown of
    /// unknown type (`var.o == null ? null : { a = var.o.a }` is an object-typed null when
    /// `var.o` is null), anything else is unknown of unknown type.
    fn recovered(&mut self, e: &Expr<'_>) -> Value {
        match &e.kind {
            ExprKind::Paren(inner) => self.recovered(inner),
            ExprKind::Tuple(items) => {
                Value::tuple(items.iter().map(|x| self.eval(x).unwrap_or_else(|_| self.recovered(x))).collect())
            }
            ExprKind::Object(items) => {
                let mut out = BTreeMap::new();
                for item in items {
                    let key = match &item.key {
                        ObjectKey::Ident(id) => id.name.to_string(),
                        ObjectKey::Expr(k) => match &k.kind {
                            ExprKind::Variable(id) => id.name.to_string(),
                            ExprKind::Null | ExprKind::Bool(_) => self.source.text()[k.span.clone()].to_string(),
                            _ => match self.eval(k).ok().and_then(|v| convert(&v, &Type::String).ok()) {
                                Some(v) if v.as_str().is_some() && !v.sensitive => {
                                    v.as_str().unwrap_or_default().to_string()
                                }
                                _ => return Value::dynamic(),
                            },
                        },
                    };
                    let value = self.eval(&item.value).unwrap_or_else(|_| self.recovered(&item.value));
                    out.insert(key, value);
                }
                Value::object(out)
            }
            _ => Value::dynamic(),
        }
    }

    fn unary(&mut self, op: UnaryOp, e: &Expr<'_>) -> R {
        let v = self.eval(e)?;
        let (want, name) = match op {
            UnaryOp::Negate => (Type::Number, "number"),
            UnaryOp::Not => (Type::Bool, "bool"),
        };
        let _ = name;
        if v.is_null() {
            return Err(self.err("Operation failed", "Error during operation: argument must not be null.", &e.span));
        }
        let c = convert(&v, &want)
            .map_err(|m| self.err("Invalid operand", format!("Unsuitable value for unary operand: {m}."), &e.span))?;
        if !c.is_known() {
            return Ok(Value::unknown(want).mark(c.sensitive));
        }
        Ok(match (&c.kind, op) {
            (Kind::Number(n), UnaryOp::Negate) => Value::number(n.neg()),
            (Kind::Bool(b), UnaryOp::Not) => Value::bool(!b),
            _ => unreachable!("converted"),
        }
        .mark(c.sensitive))
    }

    fn binary(&mut self, op: BinaryOp, lhs: &Expr<'_>, rhs: &Expr<'_>) -> R {
        let l = self.eval(lhs)?;
        // Since Terraform 1.12, `||` and `&&` short-circuit: a known deciding left operand
        // gives the result without evaluating the right one (`x == null || length(x) > 0`).
        if matches!(op, BinaryOp::Or | BinaryOp::And) {
            let decisive = op == BinaryOp::Or;
            if let Ok(b) = convert(&l, &Type::Bool) {
                if b.as_bool() == Some(decisive) {
                    return Ok(Value::bool(decisive).mark(l.sensitive));
                }
            }
        }
        let r = self.eval(rhs)?;
        let sensitive = l.sensitive || r.sensitive;
        match op {
            BinaryOp::Eq | BinaryOp::NotEq => {
                // `equals` compares values only, never their marks.
                let eq = equals(&l, &r);
                let sens = l.has_sensitive() || r.has_sensitive();
                return Ok(match eq {
                    Some(b) => Value::bool(if op == BinaryOp::Eq { b } else { !b }),
                    None => Value::unknown(Type::Bool),
                }
                .mark(sens));
            }
            _ => {}
        }
        let (operand, result) = match op {
            BinaryOp::And | BinaryOp::Or => (Type::Bool, Type::Bool),
            BinaryOp::Lt | BinaryOp::LtEq | BinaryOp::Gt | BinaryOp::GtEq => (Type::Number, Type::Bool),
            _ => (Type::Number, Type::Number),
        };
        let conv = |me: &Self, v: &Value, e: &Expr<'_>, side: &str| -> R {
            let _ = side;
            convert(v, &operand)
                .map_err(|m| me.err("Invalid operand", format!("Unsuitable value for {side} operand: {m}."), &e.span))
        };
        let lc = conv(self, &l, lhs, "left")?;
        let rc = conv(self, &r, rhs, "right")?;
        if lc.is_null() || rc.is_null() {
            return Err(self.err(
                "Operation failed",
                "Error during operation: argument must not be null.",
                &(lhs.span.start..rhs.span.end),
            ));
        }
        // `&&` and `||` are not short-circuiting in HCL, but a known deciding side wins over
        // an unknown other side (true || unknown is true).
        if let (BinaryOp::Or | BinaryOp::And, true) = (op, !lc.is_known() || !rc.is_known()) {
            let decisive = op == BinaryOp::Or;
            if lc.as_bool() == Some(decisive) || rc.as_bool() == Some(decisive) {
                return Ok(Value::bool(decisive).mark(sensitive));
            }
            return Ok(Value::unknown(Type::Bool).mark(sensitive));
        }
        if !lc.is_known() || !rc.is_known() {
            return Ok(Value::unknown(result).mark(sensitive));
        }
        let failed = |me: &Self, msg: &str| {
            me.err("Operation failed", format!("Error during operation: {msg}."), &(lhs.span.start..rhs.span.end))
        };
        let v = match (&lc.kind, &rc.kind) {
            (Kind::Bool(a), Kind::Bool(b)) => Value::bool(if op == BinaryOp::And { *a && *b } else { *a || *b }),
            (Kind::Number(a), Kind::Number(b)) => match op {
                BinaryOp::Add => Value::number(
                    a.add(b).ok_or_else(|| failed(self, "can't compute the sum of positive and negative infinity"))?,
                ),
                BinaryOp::Sub => {
                    Value::number(a.sub(b).ok_or_else(|| failed(self, "can't subtract infinity from itself"))?)
                }
                BinaryOp::Mul => {
                    Value::number(a.mul(b).ok_or_else(|| failed(self, "can't multiply zero by infinity"))?)
                }
                BinaryOp::Div => Value::number(
                    a.div(b).ok_or_else(|| failed(self, "can't divide zero by zero or infinity by infinity"))?,
                ),
                BinaryOp::Mod => {
                    Value::number(a.rem(b).ok_or_else(|| failed(self, "can't use modulo with zero and infinity"))?)
                }
                BinaryOp::Lt => Value::bool(a.cmp_num(b).is_lt()),
                BinaryOp::LtEq => Value::bool(a.cmp_num(b).is_le()),
                BinaryOp::Gt => Value::bool(a.cmp_num(b).is_gt()),
                BinaryOp::GtEq => Value::bool(a.cmp_num(b).is_ge()),
                _ => unreachable!("handled above"),
            },
            _ => unreachable!("converted"),
        };
        Ok(v.mark(sensitive))
    }

    // ---- for expressions ------------------------------------------------------------------

    fn for_expr(&mut self, f: &ForExpr<'_>, span: &Span) -> R {
        let coll = self.eval(&f.collection)?;
        if coll.is_null() {
            return Err(self.err(
                "Iteration over null value",
                "A null value cannot be used as the collection in a 'for' expression.",
                &f.collection.span,
            ));
        }
        if !coll.is_known() {
            if coll.ty() != Type::Dynamic {
                self.for_condition_precheck(f)?;
            }
            return Ok(Value::dynamic().mark(coll.sensitive));
        }
        let Some(pairs) = iter_pairs(&coll) else {
            return Err(self.err(
                "Iteration over non-iterable value",
                format!(
                    "A value of type {} cannot be used as the collection in a 'for' expression.",
                    coll.ty().friendly_name()
                ),
                &f.collection.span,
            ));
        };
        self.for_condition_precheck(f)?;
        let sensitive = coll.sensitive;
        let mut tuple = Vec::new();
        let mut object: BTreeMap<String, Value> = BTreeMap::new();
        let mut groups: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut unknown = false;
        for (k, v) in pairs {
            let mark = self.locals.len();
            if let Some(kv) = &f.key_var {
                self.locals.push((kv.name.to_string(), k));
            }
            self.locals.push((f.value_var.name.to_string(), v));
            let r = self.for_item(f, &mut tuple, &mut object, &mut groups, &mut unknown);
            self.locals.truncate(mark);
            r?;
        }
        let _ = span;
        if unknown {
            return Ok(Value::dynamic().mark(sensitive));
        }
        let v = if f.key.is_none() {
            Value::tuple(tuple)
        } else if f.grouping {
            Value::object(crate::util::sort::btree_map(groups.into_iter().map(|(k, vs)| (k, Value::tuple(vs)))))
        } else {
            Value::object(object)
        };
        Ok(v.mark(sensitive))
    }

    /// HCL's early check of a `for`'s `if` clause, with its variables unknown: a condition that
    /// is null (or no bool) whatever they are is reported once, before any element.
    fn for_condition_precheck(&mut self, f: &ForExpr<'_>) -> Result<(), Box<Diagnostic>> {
        let Some(cond) = &f.cond else { return Ok(()) };
        let mark = self.locals.len();
        if let Some(kv) = &f.key_var {
            self.locals.push((kv.name.to_string(), Value::dynamic()));
        }
        self.locals.push((f.value_var.name.to_string(), Value::dynamic()));
        let c = self.eval(cond);
        self.locals.truncate(mark);
        let c = c?;
        if c.is_null() {
            return Err(self.err("Condition is null", "The value of the 'if' clause must not be null.", &cond.span));
        }
        convert(&c, &Type::Bool).map_err(|m| {
            self.err("Invalid 'for' condition", format!("The 'if' clause value is invalid: {m}."), &cond.span)
        })?;
        Ok(())
    }

    fn for_item(
        &mut self,
        f: &ForExpr<'_>,
        tuple: &mut Vec<Value>,
        object: &mut BTreeMap<String, Value>,
        groups: &mut BTreeMap<String, Vec<Value>>,
        unknown: &mut bool,
    ) -> Result<(), Box<Diagnostic>> {
        if let Some(cond) = &f.cond {
            let c = self.eval(cond)?;
            if c.is_null() {
                return Err(self.err(
                    "Invalid 'for' condition",
                    "The value of the 'if' clause must not be null.",
                    &cond.span,
                ));
            }
            let c = convert(&c, &Type::Bool).map_err(|m| {
                self.err("Invalid 'for' condition", format!("The 'if' clause value is invalid: {m}."), &cond.span)
            })?;
            if !c.is_known() {
                *unknown = true;
                return Ok(());
            }
            if c.as_bool() != Some(true) {
                // An item left out is work too: a billion of them is a hang (eval/limits.rs).
                return super::limits::spend(1, 0).map_err(|m| self.too_large(m, &cond.span));
            }
        }
        match &f.key {
            None => {
                let v = self.eval(&f.value)?;
                self.spend(&v, &f.value.span)?;
                tuple.push(v)
            }
            Some(key_expr) => {
                let k = self.eval(key_expr)?;
                if k.is_null() {
                    return Err(self.err(
                        "Invalid object key",
                        "Key expression in 'for' expression must not produce a null value.",
                        &key_expr.span,
                    ));
                }
                let k = convert(&k, &Type::String).map_err(|m| {
                    self.err(
                        "Invalid object key",
                        format!("The key expression produced an invalid result: {m}."),
                        &key_expr.span,
                    )
                })?;
                let v = self.eval(&f.value)?;
                self.spend(&v, &f.value.span)?;
                let Some(name) = k.as_str() else {
                    *unknown = true;
                    return Ok(());
                };
                if f.grouping {
                    groups.entry(name.to_string()).or_default().push(v);
                } else if object.contains_key(name) {
                    return Err(self.err(
                        "Duplicate object key",
                        format!("Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.", go_quote(name)),
                        &key_expr.span,
                    ));
                } else {
                    object.insert(name.to_string(), v);
                }
            }
        }
        Ok(())
    }

    // ---- function calls -------------------------------------------------------------------

    fn call(&mut self, name: &Ident<'_>, args: &[Expr<'_>], expand_final: bool, span: &Span) -> R {
        match name.name {
            "try" => return self.call_try(args, span),
            "can" => return self.call_can(args, span),
            "convert" if self.funcs.get("convert").is_some() => return self.call_convert(args, span),
            _ => {}
        }
        // Every built-in function is also `core::NAME`.
        let plain = name.name.strip_prefix("core::").unwrap_or(name.name);
        let Some(f) = self.funcs.get(plain) else {
            // Terraform's checkForUnknownFunctionDiags (internal/lang/eval.go): a namespaced
            // name is a provider function, whatever its first part.
            if let Some((namespace, func)) = name.name.rsplit_once("::") {
                let mut parts = namespace.split("::");
                let (first, provider) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                let detail = if first != "provider" {
                    format!("The function namespace {} is not valid. Provider function calls must use the \"provider::\" namespace prefix.", go_quote(first))
                } else if provider.is_empty() {
                    "The function call must include the provider name after the \"provider::\" prefix.".to_string()
                } else {
                    format!("There is no function named {}. Ensure that provider name {} is declared in this module's required_providers block, and that this provider offers a function named {}.", go_quote(name.name), go_quote(provider), go_quote(func))
                };
                return Err(self.err("Unknown provider function", detail, &name.span));
            }
            let mut detail = format!("There is no function named {}.", go_quote(name.name));
            if let Some(s) = crate::hcl::messages::suggest(name.name, sorted(self.funcs.names())) {
                detail.push_str(&format!(" Did you mean {}?", go_quote(s)));
            }
            return Err(self.err("Call to unknown function", detail, &name.span));
        };
        if self.template.is_some() {
            if let Some(refusal) = template_funcs::refused_in_template(self.template, plain) {
                self.check_arity(f, args, span)?;
                for a in args {
                    self.eval(a)?;
                }
                return Err(self.err(
                    "Error in function call",
                    format!("Call to function {} failed: {refusal}.", go_quote(name.name)),
                    &(name.span.start..name.span.end + 1),
                ));
            }
        }
        match plain {
            "templatestring" => return self.call_templatestring(f, name, args, span),
            "templatefile" => return self.call_templatefile(f, name, args, span),
            _ => {}
        }
        let mut values = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let v = self.eval(a)?;
            if expand_final && i + 1 == args.len() {
                if v.is_null() {
                    return Err(self.err(
                        "Invalid expanding argument value",
                        "The expanding argument (indicated by ...) must not be null.",
                        &start_range(a),
                    ));
                }
                if !v.is_known() {
                    return Ok(Value::dynamic());
                }
                match &v.kind {
                    Kind::List(_, items) | Kind::Set(_, items) | Kind::Tuple(items) => {
                        values.extend(items.iter().map(|x| x.clone().mark(v.sensitive)))
                    }
                    _ => {
                        return Err(self.err(
                            "Invalid expanding argument value",
                            "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                            &start_range(a),
                        ))
                    }
                }
            } else {
                values.push(v);
            }
        }
        let n_args = values.len();
        match call(f, &self.ctx, values) {
            Ok(v) => match super::limits::spend_value(&v) {
                Ok(()) => Ok(v),
                Err(m) => Err(self.err(
                    "Error in function call",
                    format!("Call to function {} failed: {m}.", go_quote(name.name)),
                    &(name.span.start..name.span.end + 1),
                )),
            },
            Err(CallError::Arity(summary, detail)) => Err(self.arity_err(f, args, n_args, span, summary, detail)),
            Err(CallError::Arg { index, detail }) => {
                let at =
                    args.get(index.min(args.len().saturating_sub(1))).map(start_range).unwrap_or_else(|| span.clone());
                Err(self.err("Invalid function argument", detail, &at))
            }
            Err(CallError::Failed(detail)) => {
                Err(self.err("Error in function call", detail, &(name.span.start..name.span.end + 1)))
            }
        }
    }

    /// HCL's argument-count error for a call of `f`, at the first extra argument or the
    /// closing parenthesis.
    fn arity_err(
        &self,
        f: &super::functions::Function,
        args: &[Expr<'_>],
        n_args: usize,
        span: &Span,
        summary: String,
        detail: String,
    ) -> Box<Diagnostic> {
        let at = match args.get(f.params.len()) {
            Some(extra) if n_args > f.params.len() => start_range(extra),
            _ => span.end.saturating_sub(1)..span.end,
        };
        self.err(&summary, detail, &at)
    }

    fn check_arity(
        &self,
        f: &super::functions::Function,
        args: &[Expr<'_>],
        span: &Span,
    ) -> Result<(), Box<Diagnostic>> {
        match super::functions::check_arity(f, args.len()) {
            Err(CallError::Arity(summary, detail)) => Err(self.arity_err(f, args, args.len(), span, summary, detail)),
            _ => Ok(()),
        }
    }

    /// `try(...)`: the first argument that evaluates without error; an unknown result defers.
    fn call_try(&mut self, args: &[Expr<'_>], span: &Span) -> R {
        if args.is_empty() {
            // Terraform's try has this as its Type error, which HCL reports at `try(`.
            return Err(self.err(
                "Error in function call",
                "Call to function \"try\" failed: at least one argument is required.",
                &(span.start..span.start + 4),
            ));
        }
        let mut errors = Vec::new();
        for a in args {
            match self.eval(a) {
                Ok(v) if !v.is_wholly_known() => return Ok(Value::dynamic().mark(v.sensitive)),
                Ok(v) => return Ok(v),
                Err(d) => errors.push(d),
            }
        }
        let mut detail = String::from("Call to function \"try\" failed: no expression succeeded:\n");
        for d in &errors {
            match &d.range {
                Some(r) => detail.push_str(&format!(
                    "- {} (at {}:{},{}-{})\n  {}\n",
                    d.summary, r.filename, r.start.line, r.start.column, r.end.column, d.detail
                )),
                None => detail.push_str(&format!("- {}\n  {}\n", d.summary, d.detail)),
            }
        }
        detail.push_str("\nAt least one expression must produce a successful result.");
        Err(self.err("Error in function call", detail, &(span.start..span.start + 4)))
    }

    /// `convert(value, type)` (Terraform 1.15): the second argument is a type constraint,
    /// decoded from the expression itself as Terraform's custom decoder does.
    fn call_convert(&mut self, args: &[Expr<'_>], span: &Span) -> R {
        if args.len() != 2 {
            return Err(match args.get(2) {
                Some(extra) => self.err(
                    "Too many function arguments",
                    "Function \"convert\" expects only 2 argument(s).",
                    &start_range(extra),
                ),
                None => self.err(
                    "Not enough function arguments",
                    format!(
                        "Function \"convert\" expects 2 argument(s). Missing value for {}.",
                        go_quote(["value", "type"][args.len()])
                    ),
                    &(span.end.saturating_sub(1)..span.end),
                ),
            });
        }
        let value = self.eval(&args[0])?;
        let mut default = |d: &Expr<'_>| self.eval(d).map_err(|d| d.detail.clone());
        let constraint = super::typeexpr::parse(&args[1], &mut default);
        let constraint = constraint.map_err(|m| self.err("Invalid type specification", m, &args[1].span))?;
        super::functions::convert_to_constraint(&value, &constraint).map_err(|m| {
            self.err(
                "Invalid function argument",
                format!("Invalid value for \"value\" parameter: {m}."),
                &start_range(&args[0]),
            )
        })
    }

    /// `can(expr)`: whether `expr` evaluates without error; unknown while it is unknown.
    fn call_can(&mut self, args: &[Expr<'_>], span: &Span) -> R {
        if args.len() != 1 {
            // HCL's ranges: the closing parenthesis for a missing argument, the first extra one.
            return Err(match args.get(1) {
                Some(extra) => self.err(
                    "Too many function arguments",
                    "Function \"can\" expects only 1 argument(s).",
                    &start_range(extra),
                ),
                None => self.err(
                    "Not enough function arguments",
                    "Function \"can\" expects 1 argument(s). Missing value for \"expression\".",
                    &(span.end.saturating_sub(1)..span.end),
                ),
            });
        }
        match self.eval(&args[0]) {
            Ok(v) if !v.is_wholly_known() => Ok(Value::unknown(Type::Bool)),
            Ok(_) => Ok(Value::bool(true)),
            Err(_) => Ok(Value::bool(false)),
        }
    }
}

fn sorted(names: impl Iterator<Item = &'static str>) -> Vec<&'static str> {
    let mut v: Vec<_> = names.collect();
    crate::util::sort::sort(&mut v);
    v
}

/// The (key, value) pairs a `for` iterates: index and element of a sequence, key and value of
/// a mapping, element and element of a set.
fn iter_pairs(v: &Value) -> Option<Vec<(Value, Value)>> {
    match &v.kind {
        Kind::List(_, items) | Kind::Tuple(items) => {
            Some(items.iter().enumerate().map(|(i, x)| (Value::int(i as i64), x.clone().mark(v.sensitive))).collect())
        }
        Kind::Set(_, items) => Some(items.iter().map(|x| (x.clone(), x.clone().mark(v.sensitive))).collect()),
        Kind::Map(_, m) | Kind::Object(m) => {
            Some(m.iter().map(|(k, x)| (Value::string(k.clone()), x.clone().mark(v.sensitive))).collect())
        }
        _ => None,
    }
}

/// cty's `Equals`: `None` when the answer depends on unknown values.
pub fn equals(a: &Value, b: &Value) -> Option<bool> {
    match (&a.kind, &b.kind) {
        (Kind::Unknown(_), _) | (_, Kind::Unknown(_)) => {
            // A known null against an unknown is unknown; different known types are false.
            if a.is_known() && !a.is_null() && b.ty() != Type::Dynamic && a.ty() != b.ty() {
                return Some(false);
            }
            if b.is_known() && !b.is_null() && a.ty() != Type::Dynamic && a.ty() != b.ty() {
                return Some(false);
            }
            None
        }
        (Kind::Null(_), Kind::Null(_)) => Some(true),
        (Kind::Null(_), _) | (_, Kind::Null(_)) => Some(false),
        _ if a.ty() != b.ty() => Some(false),
        (Kind::Number(x), Kind::Number(y)) => Some(x.cmp_num(y).is_eq()),
        (Kind::String(x), Kind::String(y)) => Some(x == y),
        (Kind::Bool(x), Kind::Bool(y)) => Some(x == y),
        (Kind::List(_, x) | Kind::Tuple(x) | Kind::Set(_, x), Kind::List(_, y) | Kind::Tuple(y) | Kind::Set(_, y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            let mut unknown = false;
            for (p, q) in x.iter().zip(y) {
                match equals(p, q) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    _ => {}
                }
            }
            if unknown {
                None
            } else {
                Some(true)
            }
        }
        (Kind::Map(_, x) | Kind::Object(x), Kind::Map(_, y) | Kind::Object(y)) => {
            if x.len() != y.len() || x.keys().ne(y.keys()) {
                return Some(false);
            }
            let mut unknown = false;
            for (p, q) in x.values().zip(y.values()) {
                match equals(p, q) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    _ => {}
                }
            }
            if unknown {
                None
            } else {
                Some(true)
            }
        }
        _ => Some(false),
    }
}

/// `<<-` heredocs, as HCL flushes them before evaluating: the source indentation common to
/// every line is removed from the literal text that starts each line. A line that starts with
/// an interpolation or directive counts as unindented; a blank line does not count. Values
/// interpolated later are never touched.
fn flush_heredoc<'s>(t: &Template<'s>) -> Template<'s> {
    // Pass 1: the smallest indentation, over the line starts in source order.
    let mut min = usize::MAX;
    let mut at_line_start = true;
    visit_line_starts(t, &mut at_line_start, &mut |line: Option<&str>| {
        let spaces = match line {
            // A literal at a line start: its leading whitespace, unless it is a blank line.
            Some(text) => {
                let trimmed = text.trim_start();
                if trimmed.is_empty() && text.ends_with('\n') {
                    return;
                }
                text.chars().count() - trimmed.chars().count()
            }
            None => 0,
        };
        min = min.min(spaces);
    });
    if min == 0 || min == usize::MAX {
        return t.clone();
    }
    let mut at_line_start = true;
    strip_template(t, min, &mut at_line_start)
}

/// Calls `f` for each line start of `t`: `Some(line)` for literal text (up to and including
/// its newline), `None` for an interpolation or directive.
fn visit_line_starts(t: &Template<'_>, at_line_start: &mut bool, f: &mut dyn FnMut(Option<&str>)) {
    for part in &t.parts {
        match part {
            Part::Literal { value, .. } => {
                for line in value.split_inclusive('\n') {
                    if *at_line_start {
                        f(Some(line));
                    }
                    *at_line_start = line.ends_with('\n');
                }
            }
            Part::Interp { .. } => {
                if *at_line_start {
                    f(None);
                }
                *at_line_start = false;
            }
            Part::If { then, otherwise, .. } => {
                if *at_line_start {
                    f(None);
                }
                *at_line_start = false;
                visit_line_starts(then, at_line_start, f);
                if let Some(o) = otherwise {
                    if *at_line_start {
                        f(None);
                    }
                    *at_line_start = false;
                    visit_line_starts(o, at_line_start, f);
                }
                if *at_line_start {
                    f(None);
                }
                *at_line_start = false;
            }
            Part::For { body, .. } => {
                if *at_line_start {
                    f(None);
                }
                *at_line_start = false;
                visit_line_starts(body, at_line_start, f);
                if *at_line_start {
                    f(None);
                }
                *at_line_start = false;
            }
        }
    }
}

/// `t` with `n` leading whitespace characters removed from every non-blank line start.
fn strip_template<'s>(t: &Template<'s>, n: usize, at_line_start: &mut bool) -> Template<'s> {
    let mut parts = Vec::with_capacity(t.parts.len());
    for part in &t.parts {
        parts.push(match part {
            Part::Literal { value, span } => {
                let mut out = String::with_capacity(value.len());
                for line in value.split_inclusive('\n') {
                    let blank = line.trim_start().is_empty() && line.ends_with('\n');
                    if *at_line_start && !blank {
                        let skip: usize = line.chars().take(n).map(char::len_utf8).sum();
                        out.push_str(&line[skip..]);
                    } else {
                        out.push_str(line);
                    }
                    *at_line_start = line.ends_with('\n');
                }
                Part::Literal { value: std::borrow::Cow::Owned(out), span: span.clone() }
            }
            Part::Interp { .. } => {
                *at_line_start = false;
                part.clone()
            }
            Part::If { cond, then, otherwise, span } => {
                *at_line_start = false;
                let then = strip_template(then, n, at_line_start);
                let otherwise = otherwise.as_ref().map(|o| {
                    *at_line_start = false;
                    strip_template(o, n, at_line_start)
                });
                *at_line_start = false;
                Part::If { cond: cond.clone(), then, otherwise, span: span.clone() }
            }
            Part::For { key_var, value_var, collection, body, span } => {
                *at_line_start = false;
                let body = strip_template(body, n, at_line_start);
                *at_line_start = false;
                Part::For {
                    key_var: key_var.clone(),
                    value_var: value_var.clone(),
                    collection: collection.clone(),
                    body,
                    span: span.clone(),
                }
            }
        });
    }
    Template { parts }
}

/// HCL's `StartRange`: where an expression begins, as function-argument errors point at it
/// (the opening bracket of a collection, the first part of a template).
fn start_range(e: &Expr<'_>) -> Span {
    match &e.kind {
        ExprKind::Tuple(_) | ExprKind::Object(_) | ExprKind::For(_) => e.span.start..e.span.start + 1,
        // A call's name and opening parenthesis; an operator's symbol; a binary operation and a
        // conditional start where their first operand does.
        ExprKind::Call { name, .. } => name.span.start..name.span.end + 1,
        ExprKind::Unary { .. } => e.span.start..e.span.start + 1,
        ExprKind::Binary { lhs, .. } => start_range(lhs),
        ExprKind::Conditional { cond, .. } => start_range(cond),
        ExprKind::Template(t) => match t.parts.first() {
            // An interpolation's part is its expression, `${` and `}` left out.
            Some(Part::Interp { expr, .. }) => start_range(expr),
            Some(Part::Literal { span, .. } | Part::If { span, .. } | Part::For { span, .. }) => span.clone(),
            None => e.span.clone(),
        },
        _ => e.span.clone(),
    }
}
