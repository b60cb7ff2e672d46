//! The function errors of Terraform's validate walk, which `terraform plan` runs first: every
//! `resource` and `data` block's arguments (and `count` / `for_each`), and the root module's
//! locals and outputs, evaluated once whatever their expansion, with every input variable,
//! local, resource and instance key unknown (the walk's scope). So a `count = 0` resource whose
//! arguments read a missing file (`file("missing.txt")`) stops the plan, as in Terraform.
//!
//! Only function-call errors are reported ("Invalid function argument", "Error in function
//! call"): with everything but `path.*` and `terraform.*` unknown, a function fails only on
//! arguments written as they are, where the plan would fail the same way; the walk's other
//! findings are [`crate::config::static_refs`]'. Not modelled: child modules' blocks (their
//! `path.module` and inputs come from the call; the plan still reports what it evaluates).

use super::expr::{Evaluator, Source};
use super::functions::{FuncContext, Registry};
use super::scope::{LookupError, Scope};
use super::{MapFiles, Type, Value};
use crate::config::Config;
use crate::diag::Diagnostics;
use crate::hcl::ast::{Body, Item};
use std::collections::BTreeMap;

/// The validate walk's scope: `path.*` and `terraform.*` known, everything else unknown.
struct WalkScope<'a> {
    cwd: Option<&'a str>,
}

impl Scope for WalkScope<'_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        let used = names.len().min(2);
        Ok(match (names[0], names.get(1).copied()) {
            ("path", Some("module" | "root")) => (Value::string("."), 2),
            ("path", Some("cwd")) => (Value::string(self.cwd.unwrap_or(".")), 2),
            ("terraform", Some("workspace")) => (Value::string("default"), 2),
            ("count", Some("index")) => (Value::unknown(Type::Number), 2),
            _ => (Value::dynamic(), used),
        })
    }
}

/// A function error in a validate walk's evaluation: what stops the plan.
fn is_function_error(summary: &str) -> bool {
    matches!(summary, "Invalid function argument" | "Error in function call")
}

/// The function errors Terraform's validate walk reports for the root module of `config`.
pub fn walk(files: &BTreeMap<String, String>, config: &Config) -> Diagnostics {
    let funcs = Registry::builtin();
    let file_source = MapFiles(files);
    let base_dir = if config.root.dir.is_empty() { "." } else { &config.root.dir };
    let scope = WalkScope { cwd: config.cwd.as_deref() };
    let mut out = Diagnostics::new();
    let mut eval_all = |file: &crate::config::kept::SyntaxFile,
                        exprs: &mut dyn Iterator<Item = &crate::hcl::ast::Expr<'_>>| {
        let source = Source::file(file.source());
        for e in exprs {
            let ctx = FuncContext { planning: true, files: &file_source, base_dir, cwd: config.cwd.as_deref() };
            if let Err(d) = Evaluator::new(&scope, &funcs, ctx, &source).eval(e) {
                if is_function_error(&d.summary) && !out.iter().any(|x| x.range == d.range && x.detail == d.detail) {
                    out.push(*d);
                }
            }
        }
    };
    for r in &config.root.resources {
        let Some(body) = &r.body else { continue };
        let mut exprs = Vec::new();
        body_exprs(body.get(), &mut exprs);
        eval_all(body.file(), &mut exprs.into_iter());
    }
    for local in &config.root.locals {
        if let Some(tree) = &local.expr.tree {
            eval_all(tree.file(), &mut std::iter::once(tree.get()));
        }
    }
    for output in &config.root.outputs {
        if let Some(tree) = &output.value.tree {
            eval_all(tree.file(), &mut std::iter::once(tree.get()));
        }
    }
    out
}

/// Every argument of a resource body, in nested blocks too, but not `lifecycle` (read by the
/// loader, not evaluated) nor `depends_on`.
fn body_exprs<'b>(body: &'b Body<'b>, out: &mut Vec<&'b crate::hcl::ast::Expr<'b>>) {
    for item in &body.items {
        match item {
            Item::Attr(a) if a.name.name != "depends_on" => out.push(&a.expr),
            Item::Attr(_) => {}
            Item::Block(b) if b.kind.name == "lifecycle" => {}
            Item::Block(b) => body_exprs(&b.body, out),
        }
    }
}
