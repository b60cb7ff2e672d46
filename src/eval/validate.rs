//! The function errors of Terraform's validate walk, which `terraform plan` runs first: in every
//! module, root and local children alike, every `resource` and `data` block's arguments (and
//! `count` / `for_each`), every module call's `count` / `for_each` and arguments, and the
//! locals and outputs, each evaluated once whatever its expansion, with every input variable,
//! local, resource and instance key unknown (the walk's scope). So a `count = 0` resource whose
//! arguments read a missing file (`file("missing.txt")`) stops the plan, as in Terraform, even in
//! a child module.
//!
//! As in Terraform's graph walk, a block that depends (through its references, a module
//! call's arguments and its expansion) on a block with an error is not evaluated: only the
//! first errors along each chain are reported. A child module's blocks are reported once per
//! call, as Terraform reports them once per module in the configuration tree.
//!
//! Reported: function-call errors ("Invalid function argument", "Error in function call"):
//! with everything but `path.*` and `terraform.*` unknown, a function fails only on arguments
//! written as they are, where the plan would fail the same way; and a `for_each` whose value is
//! already known and unsuitable (`toset([1, 2])`, `null`, a list, a sensitive variable), or a
//! `count` (negative, fractional, null, not a number), as Terraform's validate walk refuses them
//! with unknowns allowed. The walk's other findings
//! are [`crate::config::static_refs`]'. Not modelled: provider blocks and `check`
//! blocks (the plan still reports what it evaluates there).

use super::expr::{Evaluator, Source};
use super::functions::{FuncContext, Registry};
use super::module_scope::Inputs;
use super::scope::{LookupError, Scope};
use super::{MapFilesystem, Type, Value};
use crate::addrs::Subject;
use crate::config::model::{Module, Reference};
use crate::config::Config;
use crate::diag::{CausedBy, Diagnostic, Diagnostics};
use crate::hcl::ast::{Body, Expr, Item};
use std::collections::BTreeMap;

/// The validate walk's scope: `path.*` and `terraform.*` known, everything else unknown (a
/// sensitive variable's unknown value sensitive, as Terraform's validate walk marks it).
struct WalkScope<'a> {
    cwd: Option<&'a str>,
    /// `path.module`: the module's folder relative to the root module's.
    module_dir: String,
    module: &'a Module,
}

impl Scope for WalkScope<'_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        let used = names.len().min(2);
        Ok(match (names[0], names.get(1).copied()) {
            ("path", Some("module")) => (Value::string(&self.module_dir), 2),
            ("path", Some("root")) => (Value::string("."), 2),
            ("path", Some("cwd")) => (Value::string(self.cwd.unwrap_or(".")), 2),
            ("terraform", Some("workspace")) => (Value::string("default"), 2),
            ("count", Some("index")) => (Value::unknown(Type::Number), 2),
            ("var", Some(name)) => {
                let sensitive = self.module.variables.iter().any(|v| v.name == name && v.sensitive);
                (Value::dynamic().mark(sensitive), 2)
            }
            _ => (Value::dynamic(), used),
        })
    }
}

/// A function error in a validate walk's evaluation: what stops the plan.
fn is_function_error(summary: &str) -> bool {
    matches!(summary, "Invalid function argument" | "Error in function call")
}

/// A node of the walk: the module's address and the object in it (`aws_instance.web`,
/// `local.x`, `var.x`, `output.x`, `module.net`), joined by a space.
type Node = String;

fn node_of(module: &str, name: &str) -> Node {
    format!("{module} {name}")
}

/// The walk's nodes, each found by its name (a child's variable may be entered twice: from the
/// call's argument and from its declaration; both count).
#[derive(Default)]
struct Nodes {
    index: BTreeMap<String, usize>,
    list: Vec<Walked>,
}

impl Nodes {
    fn add(&mut self, node: Node, walked: Walked) {
        match self.index.get(&node) {
            Some(&i) => {
                let w = &mut self.list[i];
                w.errors.extend(walked.errors);
                w.deps.extend(walked.deps);
            }
            None => {
                self.index.insert(node, self.list.len());
                self.list.push(walked);
            }
        }
    }
}

/// One node's findings and what it waits for.
#[derive(Default)]
struct Walked {
    errors: Vec<Diagnostic>,
    deps: Vec<Node>,
}

/// The function errors Terraform's validate walk reports for every module of `config`.
pub fn walk(files: &BTreeMap<String, String>, config: &Config) -> Diagnostics {
    let funcs = Registry::builtin();
    let file_source = MapFilesystem(files);
    let base_dir = if config.root.dir.is_empty() { "." } else { &config.root.dir };
    let mut nodes = Nodes::default();
    let mut modules = vec![(&config.root, None::<Node>)];
    while let Some((module, call_node)) = modules.pop() {
        let scope = WalkScope {
            cwd: config.cwd.as_deref(),
            module_dir: super::functions::filesystem::relative(base_dir, &module.dir),
            module,
        };
        let eval = |file: &crate::config::kept::SyntaxFile, exprs: &[&Expr<'_>]| {
            function_errors(&scope, &funcs, (&file_source, base_dir, config.cwd.as_deref()), file, exprs)
        };
        // A `count` or `for_each` already known here and unsuitable (a negative number, a
        // literal set of numbers, a null, a sensitive value): Terraform's validate walk
        // evaluates it with unknowns allowed (`evaluateCountExpressionValue`,
        // `ValidateResourceValue`) and refuses it.
        let repetition_error = |count: Option<&crate::config::model::Expr>,
                                for_each: Option<&crate::config::model::Expr>|
         -> Option<Diagnostic> {
            let e = count.or(for_each)?;
            let t = e.tree.as_ref()?;
            let source = Source::file(t.file().source());
            let ctx = FuncContext { planning: true, files: &file_source, base_dir, cwd: config.cwd.as_deref() };
            let v = Evaluator::new(&scope, &funcs, ctx, &source).eval(t.get()).ok()?;
            // Its snippet names the values read where Terraform's diagnostic carries the
            // expression: every for_each error, and count's conversion error.
            let (mut d, caused_by) = match count {
                Some(_) => {
                    let err = super::repetition::count(&v).err()?;
                    let caused_by = matches!(err, super::repetition::CountError::Type(_)).then_some(CausedBy::Other);
                    (super::repetition::count_error(&err)?, caused_by)
                }
                None => {
                    let err = super::repetition::for_each_at_validate(&v)?;
                    (super::repetition::for_each_error(&err, &v), Some(err.caused_by()))
                }
            };
            if let Some(caused_by) = caused_by {
                let no_variables = BTreeMap::new();
                let inputs = Inputs {
                    planning: true,
                    unset_variables_unknown: true,
                    ..Inputs::of(config, &no_variables, &file_source, &funcs)
                };
                d.values = Some(super::snippet_values::expression_values(&scope, &inputs, &e.source, caused_by));
            }
            Some(d.with_range(e.range.clone()))
        };
        let here = &module.address;
        let node = |name: String| node_of(here, &name);
        let walked = |errors: Vec<Diagnostic>, refs: &mut dyn Iterator<Item = &Reference>| {
            let mut deps: Vec<Node> = refs.flat_map(|r| targets(module, &r.subject)).collect();
            deps.extend(call_node.clone());
            Walked { errors, deps }
        };
        for r in &module.resources {
            let errors = match &r.body {
                Some(body) => {
                    let mut exprs = Vec::new();
                    body_exprs(body.get(), &mut exprs);
                    eval(body.file(), &exprs)
                }
                None => Vec::new(),
            };
            let mut errors = errors;
            errors.extend(repetition_error(r.count.as_ref(), r.for_each.as_ref()));
            let subject = r.address.strip_prefix(here.as_str()).unwrap_or(&r.address).trim_start_matches('.');
            nodes.add(node(subject.to_string()), walked(errors, &mut r.references.iter()));
        }
        for local in &module.locals {
            let errors = local.expr.tree.as_ref().map(|t| eval(t.file(), &[t.get()])).unwrap_or_default();
            nodes.add(node(format!("local.{}", local.name)), walked(errors, &mut local.expr.references.iter()));
        }
        for output in &module.outputs {
            let errors = output.value.tree.as_ref().map(|t| eval(t.file(), &[t.get()])).unwrap_or_default();
            nodes.add(node(format!("output.{}", output.name)), walked(errors, &mut output.value.references.iter()));
        }
        for var in &module.variables {
            // A child's variables wait for the call's arguments (below); the root's are given.
            nodes.add(
                node(format!("var.{}", var.name)),
                Walked { errors: Vec::new(), deps: call_node.iter().cloned().collect() },
            );
        }
        for call in &module.module_calls {
            let mut errors = Vec::new();
            for e in [&call.count, &call.for_each].into_iter().flatten() {
                if let Some(t) = &e.tree {
                    errors.extend(eval(t.file(), &[t.get()]));
                }
            }
            if errors.is_empty() {
                errors.extend(repetition_error(call.count.as_ref(), call.for_each.as_ref()));
            }
            nodes.add(node(format!("module.{}", call.name)), walked(errors, &mut call.references.iter()));
            let Some(child) = &call.module else { continue };
            let call_here = node(format!("module.{}", call.name));
            for arg in &call.arguments {
                let errors = arg.expr.tree.as_ref().map(|t| eval(t.file(), &[t.get()])).unwrap_or_default();
                let mut deps: Vec<Node> =
                    arg.expr.references.iter().flat_map(|r| targets(module, &r.subject)).collect();
                deps.push(call_here.clone());
                nodes.add(node_of(&child.address, &format!("var.{}", arg.name)), Walked { errors, deps });
            }
            modules.push((child, Some(call_here)));
        }
    }
    // Report the errors of the blocks that ran: those with no failed block upstream.
    let mut seen: Vec<u8> = vec![UNSEEN; nodes.list.len()];
    let mut out = Diagnostics::new();
    for walked in &nodes.list {
        if walked.errors.is_empty() || walked.deps.iter().any(|d| upstream_failed(d, &nodes, &mut seen)) {
            continue;
        }
        out.0.extend(walked.errors.iter().cloned());
    }
    out
}

const UNSEEN: u8 = 0;
const FINE: u8 = 1;
const FAILED: u8 = 2;

/// The function errors of evaluating `exprs` (of `file`) in the walk's scope, each once. Not
/// inlined: the walk calls it from several places.
#[inline(never)]
fn function_errors(
    scope: &WalkScope<'_>,
    funcs: &Registry,
    (files, base_dir, cwd): (&dyn super::Filesystem, &str, Option<&str>),
    file: &crate::config::kept::SyntaxFile,
    exprs: &[&Expr<'_>],
) -> Vec<Diagnostic> {
    let source = Source::file(file.source());
    let mut out: Vec<Diagnostic> = Vec::new();
    for e in exprs {
        let ctx = FuncContext { planning: true, files, base_dir, cwd };
        if let Err(d) = Evaluator::new(scope, funcs, ctx, &source).eval(e) {
            if is_function_error(&d.summary) && !out.iter().any(|x| x.range == d.range && x.detail == d.detail) {
                out.push(*d);
            }
        }
    }
    out
}

/// Whether `node` or anything it waits for has an error (memoized in `seen`; the validate
/// graph has no cycles by the time this runs, and a cycle counts as not failed).
fn upstream_failed(node: &str, nodes: &Nodes, seen: &mut Vec<u8>) -> bool {
    let Some(&i) = nodes.index.get(node) else { return false };
    if seen[i] != UNSEEN {
        return seen[i] == FAILED;
    }
    seen[i] = FINE;
    let w = &nodes.list[i];
    let failed = !w.errors.is_empty() || w.deps.iter().any(|d| upstream_failed(d, nodes, seen));
    seen[i] = if failed { FAILED } else { FINE };
    failed
}

/// The walk's nodes a reference in `module` waits for: a whole module call waits for its
/// outputs, an output of a call for that output.
fn targets(module: &Module, subject: &Subject) -> Vec<Node> {
    let here = |name: String| vec![node_of(&module.address, &name)];
    match subject.without_key() {
        Subject::ModuleCallOutput { call, output, .. } => match child_of(module, &call) {
            Some(child) => vec![node_of(&child.address, &format!("output.{output}"))],
            None => here(format!("module.{call}")),
        },
        Subject::ModuleCall(call) => {
            let mut out = here(format!("module.{call}"));
            if let Some(child) = child_of(module, &call) {
                out.extend(child.outputs.iter().map(|o| node_of(&child.address, &format!("output.{}", o.name))));
            }
            out
        }
        other => here(other.to_string()),
    }
}

fn child_of<'m>(module: &'m Module, call: &str) -> Option<&'m Module> {
    module.module_calls.iter().find(|c| c.name == call).and_then(|c| c.module.as_deref())
}

/// Every argument of a resource body, in nested blocks too, but not `lifecycle` (read by the
/// loader, not evaluated) nor `depends_on`.
fn body_exprs<'b>(body: &'b Body<'b>, out: &mut Vec<&'b Expr<'b>>) {
    for item in &body.items {
        match item {
            Item::Attr(a) if a.name.name != "depends_on" => out.push(&a.expr),
            Item::Attr(_) => {}
            Item::Block(b) if b.kind.name == "lifecycle" => {}
            Item::Block(b) => body_exprs(&b.body, out),
        }
    }
}
