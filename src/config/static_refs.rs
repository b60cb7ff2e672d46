//! References to names a module does not declare, as `terraform validate` reports them: the
//! static checks of `evaluate_valid.go` (resources, module calls) and the validate walk's
//! lookups of input variables and local values (`evaluate.go`), with their "Did you mean"
//! hints. Terraform evaluates each expression group once per module path; a group with a
//! static error is not evaluated, so its variable and local errors are not reported.

use super::model::{Config, Module, Reference};
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
    out
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
