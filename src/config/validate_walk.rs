//! What `terraform validate`'s walk finds while evaluating, read off the kept syntax trees
//! (native syntax; `.tf.json` files are not read here): `self` outside postconditions (a static
//! error too), `count.index` / `each.*` in blocks without `count` / `for_each`, outputs a called
//! module does not declare ("Unsupported attribute"), and a resource condition's "Unknown
//! variable"s (the walk evaluates conditions even after a static error, in an empty scope). Not
//! modelled: the walk skips whatever depends on a block with errors; these checks report every
//! block. [`super::static_refs`] reports the undeclared names and calls this pass.

use super::kept::SyntaxFile;
use super::model::Module;
use super::references::{parse_ref, Origin, Parsed, Step, StepKind, Trav, Walker};
use super::static_refs::{provider_in_use, Declared};
use crate::addrs::Subject;
use crate::dag::go_quote;
use crate::diag::Diagnostic;
use crate::hcl::ast::{Attribute, Block, Body, Expr, ExprKind, Item};
use std::ops::Range;

/// One evaluation of the validate walk: the expressions Terraform evaluates together, and what
/// their scope offers.
struct Eval<'t> {
    travs: Vec<Trav<'t>>,
    /// The expressions' spans (the model's references inside them belong to this evaluation).
    spans: Vec<Range<usize>>,
    /// `self` is there (resource postconditions).
    self_ok: bool,
    /// `count.*` / `each.*` are checked, against whether the block sets `count` / `for_each`.
    keys: Option<(bool, bool)>,
    /// Evaluated even after its references had errors (a resource's conditions, which the
    /// validate walk evaluates on its own): a static error leaves an empty scope, where every
    /// name is an "Unknown variable".
    anyway: bool,
    /// The top-level block's header, the snippet's context.
    context: String,
}

/// Walks expressions into one evaluation's traversals.
fn walk_exprs<'t>(text: &'t str, exprs: &[(&Expr<'t>, &[&str])]) -> (Vec<Trav<'t>>, Vec<Range<usize>>) {
    let mut travs = Vec::new();
    let mut spans = Vec::new();
    for (e, outer) in exprs {
        let mut w = Walker::new(Origin::File(text), outer);
        w.expr(e);
        travs.extend(w.out);
        spans.push(e.span.clone());
    }
    (travs, spans)
}

fn attr<'b, 't>(body: &'b Body<'t>, name: &str) -> Option<&'b Attribute<'t>> {
    body.items.iter().find_map(|i| match i {
        Item::Attr(a) if a.name.name == name => Some(a),
        _ => None,
    })
}

fn blocks<'b, 't>(body: &'b Body<'t>, kind: &'b str) -> impl Iterator<Item = &'b Block<'t>> + 'b {
    body.items.iter().filter_map(move |i| match i {
        Item::Block(b) if b.kind.name == kind => Some(b),
        _ => None,
    })
}

/// A resource body's expressions (nested blocks too, a `dynamic` block's iterator bound in its
/// content), without the meta-arguments and the blocks evaluated apart.
fn body_exprs<'b, 't>(
    body: &'b Body<'t>,
    outer: &[&'b str],
    skip: &[&str],
    out: &mut Vec<(&'b Expr<'t>, Vec<&'b str>)>,
) {
    for item in &body.items {
        match item {
            Item::Attr(a) if !skip.contains(&a.name.name) => out.push((&a.expr, outer.to_vec())),
            Item::Attr(_) => {}
            Item::Block(b)
                if ["lifecycle", "provisioner", "connection"].contains(&b.kind.name) && skip.contains(&"count") => {}
            Item::Block(b) if b.kind.name == "dynamic" => {
                let mut inner = outer.to_vec();
                let iterator = attr(&b.body, "iterator").and_then(|a| match &a.expr.kind {
                    ExprKind::Variable(name) => Some(name.name),
                    _ => None,
                });
                if let Some(name) = iterator.or_else(|| b.labels.first().map(|l| l.value.as_ref())) {
                    inner.push(name);
                }
                for a in ["for_each", "labels"].iter().filter_map(|n| attr(&b.body, n)) {
                    out.push((&a.expr, outer.to_vec()));
                }
                for c in blocks(&b.body, "content") {
                    body_exprs(&c.body, &inner, &[], out);
                }
            }
            Item::Block(b) => body_exprs(&b.body, outer, &[], out),
        }
    }
}

fn header(b: &Block<'_>) -> String {
    let mut out = b.kind.name.to_string();
    for l in &b.labels {
        out.push(' ');
        out.push_str(&crate::addrs::go_quote(&l.value));
    }
    out
}

/// The evaluations of one file of module `m`.
fn evaluations<'t>(d: &Declared<'_>, file: &'t SyntaxFile) -> Vec<Eval<'t>> {
    let m = d.module;
    let text = file.source().text.as_str();
    let mut out = Vec::new();
    let eval =
        |exprs: Vec<(&Expr<'t>, Vec<&str>)>, self_ok: bool, keys: Option<(bool, bool)>, anyway: bool, context: &str| {
            let refs: Vec<(&Expr<'t>, &[&str])> = exprs.iter().map(|(e, o)| (*e, o.as_slice())).collect();
            let (travs, spans) = walk_exprs(text, &refs);
            Eval { travs, spans, self_ok, keys, anyway, context: context.to_string() }
        };
    for item in &file.body().items {
        let Item::Block(b) = item else { continue };
        let context = header(b);
        match b.kind.name {
            "resource" | "data" => {
                let keys = Some((attr(&b.body, "count").is_some(), attr(&b.body, "for_each").is_some()));
                let mut body = Vec::new();
                body_exprs(&b.body, &[], &["count", "for_each", "provider", "depends_on"], &mut body);
                out.push(eval(body, false, keys, false, &context));
                for l in blocks(&b.body, "lifecycle") {
                    for (kind, self_ok) in [("precondition", false), ("postcondition", true)] {
                        for c in blocks(&l.body, kind) {
                            for a in ["condition", "error_message"].iter().filter_map(|n| attr(&c.body, n)) {
                                out.push(eval(vec![(&a.expr, Vec::new())], self_ok, keys, true, &context));
                            }
                        }
                    }
                }
            }
            // Each argument is its own evaluation; the validate walk checks no `count` or `each`
            // there (terraform validate 1.11.4 reports none).
            "module" => {
                let meta = ["source", "version", "count", "for_each", "depends_on", "providers"];
                for a in b.body.items.iter().filter_map(|i| if let Item::Attr(a) = i { Some(a) } else { None }) {
                    if !meta.contains(&a.name.name) {
                        out.push(eval(vec![(&a.expr, Vec::new())], false, None, false, &context));
                    }
                }
            }
            "locals" => {
                for a in b.body.items.iter().filter_map(|i| if let Item::Attr(a) = i { Some(a) } else { None }) {
                    out.push(eval(vec![(&a.expr, Vec::new())], false, Some((false, false)), false, &context));
                }
            }
            // The preconditions first; the value only when they evaluated without errors.
            "output" => {
                let before = out.len();
                for c in blocks(&b.body, "precondition") {
                    if let Some(a) = attr(&c.body, "condition") {
                        out.push(eval(vec![(&a.expr, Vec::new())], false, Some((false, false)), false, &context));
                    }
                }
                let mut conditions_ok = true;
                for e in &out[before..] {
                    conditions_ok &=
                        errors_of(d, e, file).is_empty() && !e.travs.iter().any(|t| named_value_undeclared(d, t, file));
                }
                if let (true, Some(a)) = (conditions_ok, attr(&b.body, "value")) {
                    out.push(eval(vec![(&a.expr, Vec::new())], false, Some((false, false)), false, &context));
                }
            }
            "provider" if provider_used(m, file, b) => {
                let mut body = Vec::new();
                body_exprs(&b.body, &[], &["alias", "version"], &mut body);
                out.push(eval(body, false, Some((false, false)), false, &context));
            }
            _ => {}
        }
    }
    out
}

/// Whether the validate walk keeps the provider block `b` of `file`.
fn provider_used(m: &Module, file: &SyntaxFile, b: &Block<'_>) -> bool {
    m.providers.iter().any(|p| {
        p.range.filename == file.source().name && p.range.start.byte as usize == b.span.start && provider_in_use(m, p)
    })
}

fn subject_of(t: &Trav<'_>, file: &SyntaxFile) -> Option<Subject> {
    match parse_ref(t, file.source()) {
        Ok(Parsed::Subject(s, _)) => Some(s),
        _ => None,
    }
}

fn named_value_undeclared(d: &Declared<'_>, t: &Trav<'_>, file: &SyntaxFile) -> bool {
    match subject_of(t, file) {
        Some(Subject::InputVariable(n)) => !d.variable(&n),
        Some(Subject::LocalValue(n)) => !d.local(&n),
        _ => false,
    }
}

/// Static errors Terraform finds before evaluating (the undeclared resources and module calls
/// are [`check_module`]'s to report; an invalid `self` is this pass's).
fn static_errors(d: &Declared<'_>, e: &Eval<'_>, file: &SyntaxFile) -> (bool, Vec<Diagnostic>) {
    let mut any = false;
    let mut own = Vec::new();
    for t in &e.travs {
        if t.root() == "self" && !e.self_ok {
            any = true;
            own.push(Diagnostic::error("Invalid \"self\" reference", "The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.").with_range(file.source().range(t.steps[0].span.clone())));
            continue;
        }
        let undeclared = match subject_of(t, file) {
            Some(Subject::Resource(a) | Subject::ResourceInstance(a, _)) => !d.resource(&a),
            Some(
                Subject::ModuleCall(c) | Subject::ModuleCallInstance(c, _) | Subject::ModuleCallOutput { call: c, .. },
            ) => !d.call(&c),
            _ => false,
        };
        any |= undeclared;
    }
    (any, own)
}

/// This pass's diagnostics for one evaluation.
fn errors_of(d: &Declared<'_>, e: &Eval<'_>, file: &SyntaxFile) -> Vec<Diagnostic> {
    let m = d.module;
    let range = |s: Range<usize>| file.source().range(s);
    let (statics, mut out) = static_errors(d, e, file);
    if statics {
        if e.anyway {
            for t in &e.travs {
                out.push(
                    Diagnostic::error(
                        "Unknown variable",
                        format!("There is no variable named {}.", go_quote(t.root())),
                    )
                    .with_range(range(t.steps[0].span.clone())),
                );
            }
        }
        return out;
    }
    let mut evaluated_ok = true;
    for t in &e.travs {
        evaluated_ok &= !named_value_undeclared(d, t, file);
        let (Some((counted, each)), Some(Step { kind: StepKind::Attr(name), span })) = (e.keys, t.steps.get(1)) else {
            continue;
        };
        let whole = range(t.steps[0].span.start..span.end);
        let d = match (t.root(), name.as_ref()) {
            ("count", "index") if !counted => Diagnostic::error("Reference to \"count\" in non-counted context", "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set."),
            ("each", "value") if !each => Diagnostic::error("each.value cannot be used in this context", "A reference to \"each.value\" has been used in a context in which it is unavailable, such as when the configuration no longer contains the value in its \"for_each\" expression. Remove this reference to each.value in your configuration to work around this error."),
            ("each", "key") if !each => Diagnostic::error("Reference to \"each\" in context without for_each", "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set."),
            _ => continue,
        };
        evaluated_ok = false;
        out.push(d.with_range(whole));
    }
    if evaluated_ok || e.anyway {
        out.extend(e.travs.iter().filter_map(|t| undeclared_output(m, t, file, &e.context)));
    }
    out
}

/// `module.m.nope` where the called module declares no output `nope`: HCL's "Unsupported
/// attribute" on the module's object, at the attribute step, with the object in the snippet.
fn undeclared_output(m: &Module, t: &Trav<'_>, file: &SyntaxFile, context: &str) -> Option<Diagnostic> {
    let Some(Subject::ModuleCallOutput { call, key, output }) = subject_of(t, file) else { return None };
    let c = m.module_calls.iter().find(|c| c.name == call)?;
    let child = c.module.as_deref()?;
    let repeated = c.count.is_some() || c.for_each.is_some();
    if repeated != key.is_some() || child.outputs.iter().any(|o| o.name == output) {
        return None;
    }
    // The attribute step from its dot, which ends the object before it.
    let at = if key.is_some() { 3 } else { 2 };
    let (object_end, step) = (t.steps.get(at - 1)?.span.end, t.steps.get(at)?);
    let range = file.source().range(object_end..step.span.end);
    let mut snippet = file.source().snippet(&range, Some(context.to_string()));
    let object = file.source().text.get(t.steps[0].span.start..object_end).unwrap_or("");
    snippet.values = vec![serde_json::json!({"traversal": object, "statement": "is a object"})];
    let mut d = Diagnostic::error(
        "Unsupported attribute",
        format!("This object does not have an attribute named {}.", go_quote(&output)),
    )
    .with_range(range);
    d.snippet = Some(snippet);
    Some(d)
}

/// This pass over module `m`, and the spans of evaluations with an invalid `self` (a static
/// error: their input variables and local values are not evaluated).
pub(super) fn evaluation_errors(d: &Declared<'_>) -> (Vec<Diagnostic>, Vec<(String, Range<usize>)>) {
    let mut out = Vec::new();
    let mut stopped = Vec::new();
    for file in &d.module.syntax {
        for e in evaluations(d, file) {
            let (statics, own) = static_errors(d, &e, file);
            if statics && !own.is_empty() {
                stopped.extend(e.spans.iter().map(|s| (file.source().name.clone(), s.clone())));
            }
            out.extend(errors_of(d, &e, file));
        }
    }
    (out, stopped)
}
