//! References to names a module does not declare, as `terraform validate` reports them: the
//! static checks of `evaluate_valid.go` (resources, module calls) and the validate walk's
//! lookups of input variables and local values (`evaluate.go`), with their "Did you mean"
//! hints. Terraform evaluates each expression group once per module path; a group with a
//! static error is not evaluated, so its variable and local errors are not reported.
//! Provider blocks count when a resource uses them (the validate walk prunes the others).
//!
//! Then, off the kept syntax trees (native syntax; `.tf.json` files are not read here), what
//! the walk finds while evaluating: `self` outside postconditions (a static error too),
//! `count.index` / `each.*` in blocks without `count` / `for_each`, outputs a called module
//! does not declare ("Unsupported attribute"), and a resource condition's "Unknown variable"s
//! (the walk evaluates conditions even after a static error, in an empty scope). Not modelled:
//! the walk skips whatever depends on a block with errors; these checks report every block.

use super::kept::SyntaxFile;
use super::model::{Config, Module, ProviderConfig, Reference, Resource};
use super::references::{parse_ref, Origin, Parsed, Step, StepKind, Trav, Walker};
use crate::hcl::ast::{Attribute, Block, Body, Expr, ExprKind, Item};
use std::ops::Range;
use crate::addrs::{ResourceAddr, ResourceMode, Subject};
use crate::dag::go_quote;
use crate::diag::{Diagnostic, Diagnostics, SourceRange};
use crate::hcl::messages::suggest;

/// Every undeclared reference in `config`, each module in the tree checked once per call path.
/// Identical diagnostics (a child module called twice) are reported once.
pub fn check(config: &Config) -> Diagnostics {
    let mut out = Diagnostics::new();
    let mut stack = vec![&config.root];
    while let Some(m) = stack.pop() {
        for d in check_module(m) {
            if !out.iter().any(|o| same(o, &d)) {
                out.push(d);
            }
        }
        stack.extend(m.module_calls.iter().rev().filter_map(|c| c.module.as_deref()));
    }
    out
}

fn same(a: &Diagnostic, b: &Diagnostic) -> bool {
    a.summary == b.summary && a.detail == b.detail && a.range == b.range
}

fn check_module(m: &Module) -> Vec<Diagnostic> {
    let (evaluated, stopped) = evaluation_errors(m);
    let stopped = &stopped;
    let mut out = Vec::new();
    for v in &m.variables {
        for c in &v.validations {
            group(m, c.condition.references.iter().chain(c.error_message.iter().flat_map(|e| &e.references)), &mut out);
        }
    }
    for l in &m.locals {
        group(m, &l.expr.references, &mut out);
    }
    for r in &m.resources {
        by_context(m, &r.references, &mut out);
    }
    for c in &m.module_calls {
        by_context(m, &c.references, &mut out);
    }
    for o in &m.outputs {
        by_context(m, &o.references, &mut out);
    }
    for c in &m.checks {
        group(m, &c.references, &mut out);
    }
    // A provider block is one evaluation, when a resource uses it.
    for p in m.providers.iter().filter(|p| provider_in_use(m, p)) {
        group(m, &p.references, &mut out);
    }
    out.retain(|d| !stopped_here(d, stopped));
    out.extend(evaluated);
    out
}

/// A variable or local error inside an evaluation an invalid `self` stopped first.
fn stopped_here(d: &Diagnostic, stopped: &[(String, Range<usize>)]) -> bool {
    let Some(r) = &d.range else { return false };
    let named = d.summary == "Reference to undeclared input variable" || d.summary == "Reference to undeclared local value";
    named && stopped.iter().any(|(f, s)| *f == r.filename && s.start <= r.start.byte as usize && r.end.byte as usize <= s.end)
}

/// A block's references split as Terraform evaluates them: `count` and `for_each` on their
/// own, each condition on its own, the rest of the body together. `depends_on` is never
/// evaluated.
fn by_context(m: &Module, refs: &[Reference], out: &mut Vec<Diagnostic>) {
    let mut groups: Vec<(&str, Vec<&Reference>)> = Vec::new();
    for r in refs {
        let key = evaluation_group(&r.context);
        if key == "depends_on" {
            continue;
        }
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    for (_, g) in groups {
        group(m, g, out);
    }
}

fn evaluation_group(context: &str) -> &str {
    let first = context.split(['.', '[']).next().unwrap_or("");
    match first {
        "count" | "for_each" | "depends_on" => first,
        "lifecycle" | "precondition" | "postcondition" => context,
        _ => "",
    }
}

/// One evaluation: static errors first; variables and locals only when there are none.
fn group<'r>(m: &Module, refs: impl IntoIterator<Item = &'r Reference>, out: &mut Vec<Diagnostic>) {
    let refs: Vec<&Reference> = refs.into_iter().collect();
    let statics: Vec<Diagnostic> = refs.iter().filter_map(|r| static_error(m, r)).collect();
    if !statics.is_empty() {
        out.extend(statics);
        return;
    }
    out.extend(refs.iter().filter_map(|r| named_value_error(m, r)));
}

fn static_error(m: &Module, r: &Reference) -> Option<Diagnostic> {
    match &r.subject {
        Subject::Resource(a) | Subject::ResourceInstance(a, _) => undeclared_resource(m, a, r.range.clone()),
        Subject::ModuleCall(call) | Subject::ModuleCallInstance(call, _) | Subject::ModuleCallOutput { call, .. } => {
            undeclared_module(m, call, r.range.clone())
        }
        _ => None,
    }
}

fn declares(m: &Module, a: &ResourceAddr) -> bool {
    let scoped = m.checks.iter().filter_map(|c| c.data.as_ref());
    m.resources.iter().chain(scoped).any(|r| r.mode == a.mode && r.type_name == a.type_name && r.name == a.name)
}

fn module_display(m: &Module) -> &str {
    if m.address.is_empty() {
        "the root module"
    } else {
        &m.address
    }
}

fn undeclared_resource(m: &Module, a: &ResourceAddr, range: SourceRange) -> Option<Diagnostic> {
    if declares(m, a) {
        return None;
    }
    let (article, adjective) = match a.mode {
        ResourceMode::Managed => ("A", "managed"),
        ResourceMode::Data => ("A", "data"),
        ResourceMode::Ephemeral => ("An", "ephemeral"),
    };
    // Leaving out `data.` is a common slip.
    let data = ResourceAddr { mode: ResourceMode::Data, ..a.clone() };
    let hint = if a.mode == ResourceMode::Managed && declares(m, &data) {
        format!("\n\nDid you mean the data resource {data}?")
    } else {
        String::new()
    };
    let detail = format!(
        "{article} {adjective} resource {} {} has not been declared in {}.{hint}",
        go_quote(&a.type_name),
        go_quote(&a.name),
        module_display(m)
    );
    Some(Diagnostic::error("Reference to undeclared resource", detail).with_range(range))
}

fn undeclared_module(m: &Module, call: &str, range: SourceRange) -> Option<Diagnostic> {
    if m.module_calls.iter().any(|c| c.name == call) {
        return None;
    }
    let mut names: Vec<&str> = m.module_calls.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    let hint = suggest(call, names).map(|s| format!(" Did you mean {}?", go_quote(s))).unwrap_or_default();
    let detail = format!("No module call named {} is declared in {}.{hint}", go_quote(call), module_display(m));
    Some(Diagnostic::error("Reference to undeclared module", detail).with_range(range))
}

fn named_value_error(m: &Module, r: &Reference) -> Option<Diagnostic> {
    match &r.subject {
        Subject::InputVariable(name) if !m.variables.iter().any(|v| &v.name == name) => {
            Some(Diagnostic::error("Reference to undeclared input variable", variable_detail(m, name)).with_range(r.range.clone()))
        }
        Subject::LocalValue(name) if !m.locals.iter().any(|l| &l.name == name) => {
            Some(Diagnostic::error("Reference to undeclared local value", local_detail(m, name)).with_range(r.range.clone()))
        }
        _ => None,
    }
}

/// The detail of "Reference to undeclared input variable" in module `m` (also the evaluator's).
pub fn variable_detail(m: &Module, name: &str) -> String {
    let mut names: Vec<&str> = m.variables.iter().map(|v| v.name.as_str()).collect();
    names.sort_unstable();
    let hint = match suggest(name, names) {
        Some(s) => format!(" Did you mean {}?", go_quote(s)),
        None => format!(" This variable can be declared with a variable {} {{}} block.", go_quote(name)),
    };
    format!("An input variable with the name {} has not been declared.{hint}", go_quote(name))
}

/// The detail of "Reference to undeclared local value" in module `m` (also the evaluator's).
pub fn local_detail(m: &Module, name: &str) -> String {
    let mut names: Vec<&str> = m.locals.iter().map(|l| l.name.as_str()).collect();
    names.sort_unstable();
    let hint = suggest(name, names).map(|s| format!(" Did you mean {}?", go_quote(s))).unwrap_or_default();
    format!("A local value with the name {} has not been declared.{hint}", go_quote(name))
}

// ---------------------------------------------------------------------------------------------
// What the validate walk finds while evaluating, read off the kept syntax trees (native syntax
// only): `self`, `count.index`, `each.*` where no block gives them, and outputs a called module
// does not declare.

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
fn body_exprs<'b, 't>(body: &'b Body<'t>, outer: &[&'b str], skip: &[&str], out: &mut Vec<(&'b Expr<'t>, Vec<&'b str>)>) {
    for item in &body.items {
        match item {
            Item::Attr(a) if !skip.contains(&a.name.name) => out.push((&a.expr, outer.to_vec())),
            Item::Attr(_) => {}
            Item::Block(b) if ["lifecycle", "provisioner", "connection"].contains(&b.kind.name) && skip.contains(&"count") => {}
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
        out.push_str(&crate::addrs::quote(&l.value));
    }
    out
}

/// The evaluations of one file of module `m`.
fn evaluations<'t>(m: &Module, file: &'t SyntaxFile) -> Vec<Eval<'t>> {
    let text = file.source().text.as_str();
    let mut out = Vec::new();
    let eval = |exprs: Vec<(&Expr<'t>, Vec<&str>)>, self_ok: bool, keys: Option<(bool, bool)>, anyway: bool, context: &str| {
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
                    conditions_ok &= errors_of(m, e, file).is_empty() && !e.travs.iter().any(|t| named_value_undeclared(m, t, file));
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
    m.providers.iter().any(|p| p.range.filename == file.source().name && p.range.start.byte as usize == b.span.start && provider_in_use(m, p))
}

fn provider_in_use(m: &Module, p: &ProviderConfig) -> bool {
    let name = match &p.alias {
        Some(a) => format!("{}.{a}", p.name),
        None => p.name.clone(),
    };
    let uses = |r: &Resource| r.provider.local_name == p.name && r.provider.alias == p.alias;
    if m.resources.iter().chain(m.checks.iter().filter_map(|c| c.data.as_ref())).any(uses) || m.module_calls.iter().any(|c| c.providers.iter().any(|pp| pp.in_parent == name)) {
        return true;
    }
    p.alias.is_none() && {
        let mut stack: Vec<&Module> = m.module_calls.iter().filter_map(|c| c.module.as_deref()).collect();
        let mut found = false;
        while let Some(c) = stack.pop() {
            found |= c.resources.iter().any(|r| r.provider.fqn == p.fqn && r.provider.alias.is_none());
            stack.extend(c.module_calls.iter().filter_map(|c| c.module.as_deref()));
        }
        found
    }
}

fn subject_of(t: &Trav<'_>, file: &SyntaxFile) -> Option<Subject> {
    match parse_ref(t, file.source()) {
        Ok(Parsed::Subject(s, _)) => Some(s),
        _ => None,
    }
}

fn named_value_undeclared(m: &Module, t: &Trav<'_>, file: &SyntaxFile) -> bool {
    match subject_of(t, file) {
        Some(Subject::InputVariable(n)) => !m.variables.iter().any(|v| v.name == n),
        Some(Subject::LocalValue(n)) => !m.locals.iter().any(|l| l.name == n),
        _ => false,
    }
}

/// Static errors Terraform finds before evaluating (the undeclared resources and module calls
/// are [`check_module`]'s to report; an invalid `self` is this pass's).
fn static_errors(m: &Module, e: &Eval<'_>, file: &SyntaxFile) -> (bool, Vec<Diagnostic>) {
    let mut any = false;
    let mut own = Vec::new();
    for t in &e.travs {
        if t.root() == "self" && !e.self_ok {
            any = true;
            own.push(Diagnostic::error("Invalid \"self\" reference", "The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.").with_range(file.source().range(t.steps[0].span.clone())));
            continue;
        }
        let undeclared = match subject_of(t, file) {
            Some(Subject::Resource(a) | Subject::ResourceInstance(a, _)) => !declares(m, &a),
            Some(Subject::ModuleCall(c) | Subject::ModuleCallInstance(c, _) | Subject::ModuleCallOutput { call: c, .. }) => !m.module_calls.iter().any(|x| x.name == c),
            _ => false,
        };
        any |= undeclared;
    }
    (any, own)
}

/// This pass's diagnostics for one evaluation.
fn errors_of(m: &Module, e: &Eval<'_>, file: &SyntaxFile) -> Vec<Diagnostic> {
    let range = |s: Range<usize>| file.source().range(s);
    let (statics, mut out) = static_errors(m, e, file);
    if statics {
        if e.anyway {
            for t in &e.travs {
                out.push(Diagnostic::error("Unknown variable", format!("There is no variable named {}.", go_quote(t.root()))).with_range(range(t.steps[0].span.clone())));
            }
        }
        return out;
    }
    let mut evaluated_ok = true;
    for t in &e.travs {
        evaluated_ok &= !named_value_undeclared(m, t, file);
        let (Some((counted, each)), Some(Step { kind: StepKind::Attr(name), span })) = (e.keys, t.steps.get(1)) else { continue };
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
    let mut d = Diagnostic::error("Unsupported attribute", format!("This object does not have an attribute named {}.", go_quote(&output))).with_range(range);
    d.snippet = Some(snippet);
    Some(d)
}

/// This pass over module `m`, and the spans of evaluations with an invalid `self` (a static
/// error: their input variables and local values are not evaluated).
fn evaluation_errors(m: &Module) -> (Vec<Diagnostic>, Vec<(String, Range<usize>)>) {
    let mut out = Vec::new();
    let mut stopped = Vec::new();
    for file in &m.syntax {
        for e in evaluations(m, file) {
            let (statics, own) = static_errors(m, &e, file);
            if statics && !own.is_empty() {
                stopped.extend(e.spans.iter().map(|s| (file.source().name.clone(), s.clone())));
            }
            out.extend(errors_of(m, &e, file));
        }
    }
    (out, stopped)
}
