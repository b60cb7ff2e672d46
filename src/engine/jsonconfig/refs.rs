//! The references of an expression as Terraform's `langrefs.ReferencesInExpr` returns them for
//! the plan JSON: each traversal HCL's `Variables()` finds (config::references' walk), read by
//! `addrs.ParseRef` into a subject and the traversal left after it. Unlike the loader's
//! references, these keep what never becomes a graph edge (`count.index`, `each.value`,
//! `path.module`, `terraform.workspace`, `self`), in order and with duplicates, as jsonconfig
//! and globalref see them. Invalid references are dropped, as both of those drop them.

use crate::addrs::{go_quote, InstanceKey, ResourceAddr, ResourceMode, Subject};
use crate::config::references::{IndexKey, Origin, StepKind, Trav, Walker};
use crate::hcl::ast::{Expr, ExprKind, ObjectKey, Part, Template};
use std::fmt;

/// What a reference names.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A resource, module call, module output, variable or local.
    Object(Subject),
    /// `count.NAME`, `each.NAME`, `path.NAME`, `terraform.NAME`.
    Count(String),
    Each(String),
    Path(String),
    Terraform(String),
    /// `self`.
    SelfRef,
    /// A resource followed by attribute steps: its no-key instance (`addrs.ResourceInstance`
    /// with `NoKey`), which prints as the resource but is a different subject to globalref.
    NoKeyInstance(ResourceAddr),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Object(s) => write!(f, "{s}"),
            Target::Count(n) => write!(f, "count.{n}"),
            Target::Each(n) => write!(f, "each.{n}"),
            Target::Path(n) => write!(f, "path.{n}"),
            Target::Terraform(n) => write!(f, "terraform.{n}"),
            Target::SelfRef => f.write_str("self"),
            Target::NoKeyInstance(r) => write!(f, "{r}"),
        }
    }
}

/// One step of the traversal after the subject.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Attr(String),
    Index(Key),
}

/// A literal index key.
#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    Int(i64),
    Str(String),
    /// A literal HCL accepts in a traversal but neither a string nor a whole number.
    Other,
}

/// `addrs.Reference`: the subject and the remaining traversal.
#[derive(Clone, Debug, PartialEq)]
pub struct Ref {
    pub target: Target,
    pub remaining: Vec<Step>,
}

impl Ref {
    /// jsonconfig's strings for this reference: the full traversal, then each shorter one down
    /// to the subject, then the subject without its instance key (`a.b[0].id`, `a.b[0]`, `a.b`;
    /// `module.m.out`, `module.m`).
    pub fn strings(&self) -> Vec<String> {
        let subject = self.target.to_string();
        let mut out = Vec::with_capacity(self.remaining.len() + 2);
        for n in (1..=self.remaining.len()).rev() {
            out.push(format!("{subject}{}", traversal_str(&self.remaining[..n])));
        }
        out.push(subject);
        match &self.target {
            Target::Object(Subject::ResourceInstance(r, _)) => out.push(r.to_string()),
            Target::Object(Subject::ModuleCallInstance(m, _)) => out.push(format!("module.{m}")),
            Target::Object(Subject::ModuleCallOutput { call, key, .. }) => {
                out.push(match key {
                    Some(k) => format!("module.{call}{k}"),
                    None => format!("module.{call}"),
                });
            }
            _ => {}
        }
        out
    }
}

/// jsonconfig's `traversalStr`: `.name`, `["key"]` (Go-quoted), `[0]`.
pub fn traversal_str(steps: &[Step]) -> String {
    let mut s = String::new();
    for st in steps {
        match st {
            Step::Attr(n) => {
                s.push('.');
                s.push_str(n);
            }
            Step::Index(Key::Int(i)) => s.push_str(&format!("[{i}]")),
            Step::Index(Key::Str(k)) => s.push_str(&format!("[{}]", go_quote(k))),
            Step::Index(Key::Other) => s.push_str("[]"),
        }
    }
    s
}

/// The references in an expression parsed from `src`, in HCL's `Variables()` order.
pub fn in_expr<'a>(src: &'a str, e: &Expr<'a>) -> Vec<Ref> {
    in_expr_bound(src, e, &[])
}

/// As [`in_expr`], with `bound` names (a dynamic block's iterator) not references.
pub fn in_expr_bound<'a>(src: &'a str, e: &Expr<'a>, bound: &[&str]) -> Vec<Ref> {
    let mut w = Walker::new(Origin::File(src), bound);
    w.expr(e);
    w.out.iter().filter_map(parse_ref).collect()
}

/// The references of a loaded expression: in the tree the loader kept, else (`.tf.json`) in
/// its source text parsed (empty when it does not parse).
pub fn in_config(e: &crate::config::model::Expr) -> Vec<Ref> {
    if let Some(tree) = &e.tree {
        return in_expr(&tree.file().source().text, tree.get());
    }
    match crate::hcl::parse_expr(&e.source) {
        Ok(parsed) => in_expr(&e.source, &parsed),
        Err(_) => Vec::new(),
    }
}

fn step(k: &StepKind<'_>) -> Step {
    match k {
        StepKind::Root(n) | StepKind::Attr(n) => Step::Attr(n.to_string()),
        StepKind::Index(IndexKey::Int(i)) => Step::Index(Key::Int(*i)),
        StepKind::Index(IndexKey::Str(s)) => Step::Index(Key::Str(s.to_string())),
        StepKind::Index(IndexKey::Invalid(_)) => Step::Index(Key::Other),
    }
}

fn attr_name<'s>(k: Option<&'s StepKind<'_>>) -> Option<&'s str> {
    match k {
        Some(StepKind::Attr(n)) => Some(n),
        _ => None,
    }
}

fn instance_key(k: &StepKind<'_>) -> Option<Option<InstanceKey>> {
    match k {
        StepKind::Index(IndexKey::Int(i)) => Some(Some(InstanceKey::Int(*i))),
        StepKind::Index(IndexKey::Str(s)) => Some(Some(InstanceKey::Str(s.to_string()))),
        StepKind::Index(IndexKey::Invalid(_)) => None,
        _ => Some(None),
    }
}

/// Terraform's `addrs.ParseRef` on a static traversal; `None` where it reports an error.
pub fn parse_ref(t: &Trav<'_>) -> Option<Ref> {
    let kinds: Vec<&StepKind<'_>> = t.steps.iter().map(|s| &s.kind).collect();
    let rest = |from: usize| kinds.get(from..).unwrap_or(&[]).iter().map(|k| step(k)).collect::<Vec<_>>();
    let single = |make: fn(String) -> Target| -> Option<Ref> {
        let name = attr_name(kinds.get(1).copied())?;
        Some(Ref { target: make(name.to_string()), remaining: rest(2) })
    };
    match t.root() {
        "count" => single(Target::Count),
        "each" => single(Target::Each),
        "path" => single(Target::Path),
        "terraform" => single(Target::Terraform),
        "var" => single(|n| Target::Object(Subject::InputVariable(n))),
        "local" => single(|n| Target::Object(Subject::LocalValue(n))),
        "self" => Some(Ref { target: Target::SelfRef, remaining: rest(1) }),
        "template" | "lazy" | "arg" => None,
        "module" => {
            let call = attr_name(kinds.get(1).copied())?.to_string();
            let mut i = 2;
            let mut key = None;
            if let Some(k @ StepKind::Index(_)) = kinds.get(2).copied() {
                key = instance_key(k)?;
                i = 3;
            }
            match kinds.get(i).copied() {
                None => Some(Ref {
                    target: Target::Object(match key {
                        Some(k) => Subject::ModuleCallInstance(call, k),
                        None => Subject::ModuleCall(call),
                    }),
                    remaining: Vec::new(),
                }),
                Some(StepKind::Attr(output)) => Some(Ref {
                    target: Target::Object(Subject::ModuleCallOutput { call, key, output: output.to_string() }),
                    remaining: rest(i + 1),
                }),
                Some(_) => None,
            }
        }
        root => {
            let (mode, at) = match root {
                "data" => (ResourceMode::Data, 1),
                "resource" => (ResourceMode::Managed, 1),
                "ephemeral" => (ResourceMode::Ephemeral, 1),
                _ => (ResourceMode::Managed, 0),
            };
            let type_name = match kinds.get(at)? {
                StepKind::Root(n) | StepKind::Attr(n) => n.to_string(),
                StepKind::Index(_) => return None,
            };
            let name = attr_name(kinds.get(at + 1).copied())?.to_string();
            let addr = ResourceAddr { mode, type_name, name };
            let after = at + 2;
            if after == kinds.len() {
                return Some(Ref { target: Target::Object(Subject::Resource(addr)), remaining: Vec::new() });
            }
            // A resource followed by more steps is its no-key instance unless an index follows.
            match instance_key(kinds[after])? {
                Some(k) => {
                    Some(Ref { target: Target::Object(Subject::ResourceInstance(addr, k)), remaining: rest(after + 1) })
                }
                None => Some(Ref { target: Target::NoKeyInstance(addr), remaining: rest(after) }),
            }
        }
    }
}

/// Whether the expression calls a function anywhere (HCL evaluates no call without a context:
/// such an expression has no constant value).
pub fn has_call(e: &Expr<'_>) -> bool {
    fn template(t: &Template<'_>) -> bool {
        t.parts.iter().any(|p| match p {
            Part::Literal { .. } => false,
            Part::Interp { expr, .. } => has_call(expr),
            Part::If { cond, then, otherwise, .. } => {
                has_call(cond) || template(then) || otherwise.as_ref().is_some_and(template)
            }
            Part::For { collection, body, .. } => has_call(collection) || template(body),
        })
    }
    match &e.kind {
        ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Variable(_) => false,
        ExprKind::Call { .. } => true,
        ExprKind::Template(t) => template(t),
        ExprKind::Heredoc(h) => template(&h.template),
        ExprKind::Tuple(items) => items.iter().any(has_call),
        ExprKind::Object(items) => {
            items.iter().any(|it| matches!(&it.key, ObjectKey::Expr(k) if has_call(k)) || has_call(&it.value))
        }
        ExprKind::Traversal { source, ops } => {
            has_call(source)
                || ops.iter().any(|op| matches!(op, crate::hcl::ast::Op::Index { key, .. } if has_call(key)))
        }
        ExprKind::Paren(x) | ExprKind::Unary { expr: x, .. } => has_call(x),
        ExprKind::Conditional { cond, then, otherwise } => has_call(cond) || has_call(then) || has_call(otherwise),
        ExprKind::Binary { lhs, rhs, .. } => has_call(lhs) || has_call(rhs),
        ExprKind::For(f) => {
            has_call(&f.collection)
                || f.key.as_ref().is_some_and(has_call)
                || has_call(&f.value)
                || f.cond.as_ref().is_some_and(has_call)
        }
    }
}
