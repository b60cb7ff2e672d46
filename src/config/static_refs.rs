//! References to names a module does not declare, as `terraform validate` reports them: the
//! static checks of `evaluate_valid.go` (resources, module calls) and the validate walk's
//! lookups of input variables and local values (`evaluate.go`), with their "Did you mean"
//! hints. Terraform evaluates each expression group once per module path; a group with a
//! static error is not evaluated, so its variable and local errors are not reported.
//! Provider blocks count when a resource uses them (the validate walk prunes the others).
//! What the walk finds while evaluating (`self`, `count`, `each` out of place, undeclared
//! module outputs) is [`super::validate_walk`]'s.

use super::model::{Config, Module, ProviderConfig, Reference, Resource};
use crate::addrs::{ResourceAddr, ResourceMode, Subject};
use crate::dag::go_quote;
use crate::diag::{Diagnostic, Diagnostics, SourceRange};
use crate::hcl::messages::suggest;
use crate::util::FastSet;
use std::ops::Range;

/// Every undeclared reference in `config`, each module in the tree checked once per call path.
/// Identical diagnostics (a child module called twice) are reported once.
pub fn check(config: &Config) -> Diagnostics {
    let mut out = Diagnostics::new();
    let mut seen = FastSet::default();
    let mut stack = vec![&config.root];
    while let Some(m) = stack.pop() {
        for d in check_module(&Declared::of(m)) {
            let key = (d.summary.clone(), d.detail.clone(), d.range.clone());
            if seen.insert(key) {
                out.push(d);
            }
        }
        stack.extend(m.module_calls.iter().rev().filter_map(|c| c.module.as_deref()));
    }
    out
}

/// A module with the names it declares, indexed once: a module of thousands of blocks
/// referring to each other is checked in linear time.
pub(super) struct Declared<'m> {
    pub(super) module: &'m Module,
    resources: FastSet<(ResourceMode, &'m str, &'m str)>,
    variables: FastSet<&'m str>,
    locals: FastSet<&'m str>,
    calls: FastSet<&'m str>,
}

impl<'m> Declared<'m> {
    fn of(m: &'m Module) -> Self {
        let scoped = m.checks.iter().filter_map(|c| c.data.as_ref());
        Declared {
            module: m,
            resources: m
                .resources
                .iter()
                .chain(scoped)
                .map(|r| (r.mode, r.type_name.as_str(), r.name.as_str()))
                .collect(),
            variables: m.variables.iter().map(|v| v.name.as_str()).collect(),
            locals: m.locals.iter().map(|l| l.name.as_str()).collect(),
            calls: m.module_calls.iter().map(|c| c.name.as_str()).collect(),
        }
    }

    pub(super) fn resource(&self, a: &ResourceAddr) -> bool {
        self.resources.contains(&(a.mode, a.type_name.as_str(), a.name.as_str()))
    }

    pub(super) fn call(&self, name: &str) -> bool {
        self.calls.contains(name)
    }

    pub(super) fn variable(&self, name: &str) -> bool {
        self.variables.contains(name)
    }

    pub(super) fn local(&self, name: &str) -> bool {
        self.locals.contains(name)
    }
}

fn check_module(d: &Declared<'_>) -> Vec<Diagnostic> {
    let m = d.module;
    let (evaluated, stopped) = super::validate_walk::evaluation_errors(d);
    let mut out = Vec::new();
    for v in &m.variables {
        for c in &v.validations {
            group(d, c.condition.references.iter().chain(c.error_message.iter().flat_map(|e| &e.references)), &mut out);
        }
    }
    for l in &m.locals {
        group(d, &l.expr.references, &mut out);
    }
    for r in &m.resources {
        by_context(d, &r.references, &mut out);
    }
    for c in &m.module_calls {
        by_context(d, &c.references, &mut out);
    }
    for o in &m.outputs {
        by_context(d, &o.references, &mut out);
    }
    for c in &m.checks {
        group(d, &c.references, &mut out);
    }
    // A provider block is one evaluation, when a resource uses it.
    for p in m.providers.iter().filter(|p| provider_in_use(m, p)) {
        group(d, &p.references, &mut out);
    }
    if !stopped.is_empty() {
        out.retain(|d| !stopped_here(d, &stopped));
    }
    out.extend(evaluated);
    out
}

/// A variable or local error inside an evaluation an invalid `self` stopped first.
fn stopped_here(d: &Diagnostic, stopped: &[(String, Range<usize>)]) -> bool {
    let Some(r) = &d.range else { return false };
    let named =
        d.summary == "Reference to undeclared input variable" || d.summary == "Reference to undeclared local value";
    named
        && stopped
            .iter()
            .any(|(f, s)| *f == r.filename && s.start <= r.start.byte as usize && r.end.byte as usize <= s.end)
}

/// Whether the validate walk keeps provider block `p` of module `m`: a resource of `m` uses it,
/// a module call passes it, or (a default configuration) a resource of a descendant inherits it.
pub(super) fn provider_in_use(m: &Module, p: &ProviderConfig) -> bool {
    let name = match &p.alias {
        Some(a) => format!("{}.{a}", p.name),
        None => p.name.clone(),
    };
    let uses = |r: &Resource| r.provider.local_name == p.name && r.provider.alias == p.alias;
    if m.resources.iter().chain(m.checks.iter().filter_map(|c| c.data.as_ref())).any(uses)
        || m.module_calls.iter().any(|c| c.providers.iter().any(|pp| pp.in_parent == name))
    {
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

/// A block's references split as Terraform evaluates them: `count` and `for_each` on their
/// own, each condition on its own, the rest of the body together. `depends_on` is never
/// evaluated.
fn by_context(d: &Declared<'_>, refs: &[Reference], out: &mut Vec<Diagnostic>) {
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
        group(d, g, out);
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
fn group<'r>(d: &Declared<'_>, refs: impl IntoIterator<Item = &'r Reference>, out: &mut Vec<Diagnostic>) {
    let refs: Vec<&Reference> = refs.into_iter().collect();
    let statics: Vec<Diagnostic> = refs.iter().filter_map(|r| static_error(d, r)).collect();
    if !statics.is_empty() {
        out.extend(statics);
        return;
    }
    out.extend(refs.iter().filter_map(|r| named_value_error(d, r)));
}

fn static_error(d: &Declared<'_>, r: &Reference) -> Option<Diagnostic> {
    match &r.subject {
        Subject::Resource(a) | Subject::ResourceInstance(a, _) => undeclared_resource(d, a, r.range.clone()),
        Subject::ModuleCall(call) | Subject::ModuleCallInstance(call, _) | Subject::ModuleCallOutput { call, .. } => {
            undeclared_module(d, call, r.range.clone())
        }
        _ => None,
    }
}

fn module_display(m: &Module) -> &str {
    if m.address.is_empty() {
        "the root module"
    } else {
        &m.address
    }
}

fn undeclared_resource(d: &Declared<'_>, a: &ResourceAddr, range: SourceRange) -> Option<Diagnostic> {
    if d.resource(a) {
        return None;
    }
    let (article, adjective) = match a.mode {
        ResourceMode::Managed => ("A", "managed"),
        ResourceMode::Data => ("A", "data"),
        ResourceMode::Ephemeral => ("An", "ephemeral"),
    };
    // Leaving out `data.` is a common slip.
    let data = ResourceAddr { mode: ResourceMode::Data, ..a.clone() };
    let hint = if a.mode == ResourceMode::Managed && d.resource(&data) {
        format!("\n\nDid you mean the data resource {data}?")
    } else {
        String::new()
    };
    let detail = format!(
        "{article} {adjective} resource {} {} has not been declared in {}.{hint}",
        go_quote(&a.type_name),
        go_quote(&a.name),
        module_display(d.module)
    );
    Some(Diagnostic::error("Reference to undeclared resource", detail).with_range(range))
}

fn undeclared_module(d: &Declared<'_>, call: &str, range: SourceRange) -> Option<Diagnostic> {
    if d.calls.contains(call) {
        return None;
    }
    let m = d.module;
    let mut names: Vec<&str> = m.module_calls.iter().map(|c| c.name.as_str()).collect();
    names.sort_unstable();
    let hint = suggest(call, names).map(|s| format!(" Did you mean {}?", go_quote(s))).unwrap_or_default();
    let detail = format!("No module call named {} is declared in {}.{hint}", go_quote(call), module_display(m));
    Some(Diagnostic::error("Reference to undeclared module", detail).with_range(range))
}

fn named_value_error(d: &Declared<'_>, r: &Reference) -> Option<Diagnostic> {
    match &r.subject {
        Subject::InputVariable(name) if !d.variables.contains(name.as_str()) => Some(
            Diagnostic::error("Reference to undeclared input variable", variable_detail(d.module, name))
                .with_range(r.range.clone()),
        ),
        Subject::LocalValue(name) if !d.locals.contains(name.as_str()) => Some(
            Diagnostic::error("Reference to undeclared local value", local_detail(d.module, name))
                .with_range(r.range.clone()),
        ),
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
