//! `templatestring` and `templatefile` (Terraform's `internal/lang/funcs/string.go` and
//! `filesystem.go`): a template read from elsewhere, evaluated with only the given `vars` in
//! scope. `templatestring` takes its first argument as an expression (it must be a plain
//! reference to a string), so both live in the evaluator rather than in the function registry.

use super::{start_range, Evaluator, Source, R};
use crate::dag::go_quote;
use crate::diag::{Diagnostic, Pos, SourceRange};
use crate::eval::convert::convert;
use crate::eval::functions::filesystem::{read_file, FILESYSTEM_FUNCTIONS};
use crate::eval::functions::{FuncContext, Function};
use crate::eval::scope::{LookupError, Scope};
use crate::eval::types::Type;
use crate::eval::value::{Kind, Value};
use crate::hcl::ast::{Expr, ExprKind, Ident, ObjectKey, Op, Part, Span, Template};
use std::collections::BTreeMap;

/// Which template function a template is being evaluated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TemplateCall {
    String,
    File,
}

/// Why `name` may not be called inside a template of `call`, if it may not.
pub(super) fn refused_in_template(call: Option<TemplateCall>, name: &str) -> Option<String> {
    match call? {
        _ if name == "templatefile" || name == "templatestring" => Some(format!("cannot recursively call {name} from inside another template function")),
        TemplateCall::String if FILESYSTEM_FUNCTIONS.contains(&name) => Some(format!(
            "cannot use filesystem access functions like {name} in templatestring templates; consider passing the function result as a template variable instead"
        )),
        _ => None,
    }
}

/// How a template function failed: on one of its arguments, or as a whole.
enum Failure {
    Arg(usize, String),
    Call(String),
}

/// The `vars` of a template call: its only names.
struct VarsScope<'v>(&'v BTreeMap<String, Value>);

impl Scope for VarsScope<'_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        match self.0.get(names[0]) {
            Some(v) => Ok((v.clone(), 1)),
            None => Err(LookupError {
                summary: "Unknown variable".into(),
                detail: format!("There is no variable named {}.", go_quote(names[0])),
                names: 1,
            }),
        }
    }
}

/// A range as HCL prints it in an error text: `file:1,3-4` or `file:1,3-2,1`.
fn hcl_range(r: &SourceRange) -> String {
    if r.start.line == r.end.line {
        format!("{}:{},{}-{}", r.filename, r.start.line, r.start.column, r.end.column)
    } else {
        format!("{}:{},{}-{},{}", r.filename, r.start.line, r.start.column, r.end.line, r.end.column)
    }
}

/// A diagnostic as HCL's `Diagnostic.Error()` prints it.
fn hcl_error(d: &Diagnostic) -> String {
    match &d.range {
        Some(r) => format!("{}: {}; {}", hcl_range(r), d.summary, d.detail),
        None => format!("{}; {}", d.summary, d.detail),
    }
}

/// HCL's `ValidIdentifier`: a letter or `_`, then letters, digits, `_` and `-`.
fn valid_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_alphabetic() || c == '_')
        && cs.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Terraform's `isValidTemplateStringExpr`: a reference, possibly indexed, attributed or
/// splatted, and nothing else.
fn is_reference(e: &Expr<'_>) -> bool {
    match &e.kind {
        ExprKind::Variable(_) => true,
        ExprKind::Traversal { source, .. } => is_reference(source),
        _ => false,
    }
}

/// The root names a template refers to, in source order, without those that its own `for`s
/// bind (HCL's `Variables`).
fn free_variables<'s>(t: &Template<'s>) -> Vec<Ident<'s>> {
    let mut out = Vec::new();
    let mut bound = Vec::new();
    template_vars(t, &mut bound, &mut out);
    out
}

fn template_vars<'s>(t: &Template<'s>, bound: &mut Vec<&'s str>, out: &mut Vec<Ident<'s>>) {
    for part in &t.parts {
        match part {
            Part::Literal { .. } => {}
            Part::Interp { expr, .. } => expr_vars(expr, bound, out),
            Part::If { cond, then, otherwise, .. } => {
                expr_vars(cond, bound, out);
                template_vars(then, bound, out);
                if let Some(o) = otherwise {
                    template_vars(o, bound, out);
                }
            }
            Part::For { key_var, value_var, collection, body, .. } => {
                expr_vars(collection, bound, out);
                let mark = bound.len();
                bound.extend(key_var.iter().map(|k| k.name));
                bound.push(value_var.name);
                template_vars(body, bound, out);
                bound.truncate(mark);
            }
        }
    }
}

fn expr_vars<'s>(e: &Expr<'s>, bound: &mut Vec<&'s str>, out: &mut Vec<Ident<'s>>) {
    match &e.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) => {}
        ExprKind::Template(t) => template_vars(t, bound, out),
        ExprKind::Heredoc(h) => template_vars(&h.template, bound, out),
        ExprKind::Tuple(items) => items.iter().for_each(|x| expr_vars(x, bound, out)),
        ExprKind::Object(items) => {
            for item in items {
                if let ObjectKey::Expr(k) = &item.key {
                    expr_vars(k, bound, out);
                }
                expr_vars(&item.value, bound, out);
            }
        }
        ExprKind::Variable(id) => {
            if !bound.contains(&id.name) {
                out.push(id.clone());
            }
        }
        ExprKind::Traversal { source, ops } => {
            expr_vars(source, bound, out);
            for op in ops {
                if let Op::Index { key, .. } = op {
                    expr_vars(key, bound, out);
                }
            }
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|x| expr_vars(x, bound, out)),
        ExprKind::Paren(x) | ExprKind::Unary { expr: x, .. } => expr_vars(x, bound, out),
        ExprKind::Conditional { cond, then, otherwise } => {
            expr_vars(cond, bound, out);
            expr_vars(then, bound, out);
            expr_vars(otherwise, bound, out);
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            expr_vars(lhs, bound, out);
            expr_vars(rhs, bound, out);
        }
        ExprKind::For(f) => {
            expr_vars(&f.collection, bound, out);
            let mark = bound.len();
            bound.extend(f.key_var.iter().map(|k| k.name));
            bound.push(f.value_var.name);
            for x in [f.key.as_ref(), Some(&f.value), f.cond.as_ref()].into_iter().flatten() {
                expr_vars(x, bound, out);
            }
            bound.truncate(mark);
        }
    }
}

impl Evaluator<'_> {
    fn template_failure(&self, f: &Function, name: &Ident<'_>, args: &[Expr<'_>], failure: Failure) -> Box<Diagnostic> {
        match failure {
            Failure::Arg(i, m) => {
                let at = args.get(i).map(start_range).unwrap_or_else(|| name.span.clone());
                self.err(
                    "Invalid function argument",
                    format!("Invalid value for {} parameter: {m}.", go_quote(f.params[i].name)),
                    &at,
                )
            }
            Failure::Call(m) => self.err(
                "Error in function call",
                format!("Call to function {} failed: {m}.", go_quote(name.name)),
                &(name.span.start..name.span.end + 1),
            ),
        }
    }

    /// `templatestring(ref, vars)`.
    pub(super) fn call_templatestring(&mut self, f: &Function, name: &Ident<'_>, args: &[Expr<'_>], span: &Span) -> R {
        self.check_arity(f, args, span)?;
        // `vars` is an ordinary argument; the template stays an expression until checked.
        let vars = self.eval(&args[1])?;
        self.templatestring(&args[0], vars).map_err(|failure| self.template_failure(f, name, args, failure))
    }

    fn templatestring(&mut self, template: &Expr<'_>, vars: Value) -> Result<Value, Failure> {
        if vars.is_null() {
            return Err(Failure::Arg(1, "argument must not be null".into()));
        }
        let (vars, vars_sensitive) = vars.unmark_deep();
        if !vars.is_known() {
            return Ok(Value::unknown(Type::String).mark(vars_sensitive));
        }
        let inline = |why: &str| {
            Err(Failure::Arg(0, format!("invalid template expression: templatestring is only for rendering templates retrieved dynamically from elsewhere{why}")))
        };
        let parts = match &template.kind {
            ExprKind::Template(t) => Some(&t.parts),
            ExprKind::Heredoc(h) => Some(&h.template.parts),
            _ => None,
        };
        match parts.map(Vec::as_slice) {
            Some([Part::Interp { .. }]) => {
                return inline("; to treat the inner expression as template syntax, write the reference expression directly without any template interpolation syntax")
            }
            Some([Part::Literal { .. }] | []) => {
                return inline(", and so does not support providing a literal template; consider using a template string expression instead")
            }
            Some(_) => return inline("; to render an inline template, consider using a plain template string expression"),
            None if !is_reference(template) => {
                return Err(Failure::Arg(0, "invalid template expression: must be a direct reference to a single string from elsewhere, containing valid Terraform template syntax".into()))
            }
            None => {}
        }
        let value = self
            .eval(template)
            .map_err(|d| Failure::Arg(0, format!("invalid template expression: {}", hcl_error(&d))))?;
        if !value.is_known() {
            return Ok(Value::unknown(Type::String).mark(vars_sensitive || value.sensitive));
        }
        if value.ty() != Type::String || value.is_null() {
            return Err(Failure::Arg(0, "invalid template value: a string is required".into()));
        }
        let (value, template_sensitive) = value.unmark_deep();
        let text = value.as_str().unwrap_or_default();
        let source = Source::new("<templatestring argument>", text, Pos { line: 1, column: 1, byte: 0 });
        let parsed = crate::hcl::parse_template(text).map_err(|e| {
            let d = Diagnostic::error(e.summary, e.detail.clone()).with_range(source.range(&e.span));
            Failure::Arg(0, format!("invalid template: {}", hcl_error(&d)))
        })?;
        let result = self.render(&parsed, &source, &vars, TemplateCall::String)?;
        let result =
            convert(&result, &Type::String).map_err(|m| Failure::Call(format!("invalid template result: {m}")))?;
        Ok(result.mark(template_sensitive || vars_sensitive))
    }

    /// `templatefile(path, vars)`.
    pub(super) fn call_templatefile(&mut self, f: &Function, name: &Ident<'_>, args: &[Expr<'_>], span: &Span) -> R {
        self.check_arity(f, args, span)?;
        let path = self.eval(&args[0])?;
        let vars = self.eval(&args[1])?;
        self.templatefile(path, vars).map_err(|failure| self.template_failure(f, name, args, failure))
    }

    fn templatefile(&mut self, path: Value, vars: Value) -> Result<Value, Failure> {
        let path = convert(&path, &Type::String).map_err(|m| Failure::Arg(0, m))?;
        for (i, v) in [&path, &vars].into_iter().enumerate() {
            if v.is_null() {
                return Err(Failure::Arg(i, "argument must not be null".into()));
            }
        }
        let (path, path_sensitive) = path.unmark_deep();
        let (vars, vars_sensitive) = vars.unmark_deep();
        let sensitive = path_sensitive || vars_sensitive;
        if !path.is_known() || !vars.is_known() {
            return Ok(Value::dynamic().mark(sensitive));
        }
        let path = path.as_str().unwrap_or_default();
        let bytes = read_file(&self.ctx, path, path_sensitive).map_err(|m| Failure::Arg(0, m))?;
        let text = std::str::from_utf8(bytes).map_err(|_| {
            let shown = if path_sensitive { "(sensitive value)".to_string() } else { go_quote(path) };
            Failure::Call(format!(
                "contents of {shown} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead"
            ))
        })?;
        let source = Source::new(path, text, Pos { line: 1, column: 1, byte: 0 });
        let parsed = crate::hcl::parse_template(text).map_err(|e| {
            let d = Diagnostic::error(e.summary, e.detail.clone()).with_range(source.range(&e.span));
            Failure::Call(hcl_error(&d))
        })?;
        let result = self.render(&parsed, &source, &vars, TemplateCall::File)?;
        Ok(result.mark(sensitive))
    }

    /// Terraform's `makeRenderTemplateFunc`: checks `vars`, then evaluates the template with
    /// only them in scope.
    fn render(
        &mut self,
        template: &Template<'_>,
        source: &Source<'_>,
        vars: &Value,
        call: TemplateCall,
    ) -> Result<Value, Failure> {
        let map: BTreeMap<String, Value> = match &vars.kind {
            Kind::Map(_, m) | Kind::Object(m) => m.clone(),
            _ => return Err(Failure::Arg(1, "invalid vars value: must be a map".into())),
        };
        if let Some(bad) = map.keys().find(|k| !valid_identifier(k)) {
            return Err(Failure::Arg(
                1,
                format!("invalid template variable name {}: must start with a letter, followed by zero or more letters, digits, and underscores", go_quote(bad)),
            ));
        }
        if let Some(missing) = free_variables(template).into_iter().find(|id| !map.contains_key(id.name)) {
            return Err(Failure::Arg(
                1,
                format!(
                    "vars map does not contain key {}, referenced at {}",
                    go_quote(missing.name),
                    hcl_range(&source.range(&missing.span))
                ),
            ));
        }
        let scope = VarsScope(&map);
        let ctx = FuncContext {
            planning: self.ctx.planning,
            files: self.ctx.files,
            base_dir: self.ctx.base_dir,
            cwd: self.ctx.cwd,
        };
        let mut inner = Evaluator::new(&scope, self.funcs, ctx, source);
        inner.template = Some(call);
        let whole = 0..source.text().len();
        let value = inner.template_value(template, &whole).map_err(|d| Failure::Call(hcl_error(&d)))?;
        if value.is_null() {
            let d = Diagnostic::error(
                "Template result is null",
                "The result of the template is null, which is not a valid result for a templatestring call.",
            )
            .with_range(source.range(&whole));
            return Err(Failure::Call(hcl_error(&d)));
        }
        Ok(value)
    }
}
