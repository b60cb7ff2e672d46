//! The static-instances view: resource instance nodes wherever count/for_each are known
//! without evaluating anything.
//!
//! Terraform's plan graph has one `(expand)` node per resource block; its instances exist only
//! inside the walk (`DynamicExpand`), once count/for_each are evaluated. So the plan graph's
//! `String()` never shows `aws_instance.web[0]`, and [`build`](super::build) keeps it that way.
//! This view is separate: [`expand_static_instances`] returns a copy of a built graph with
//! instance nodes added for every resource whose expansion is a literal:
//!
//! * no count or for_each: one instance, `aws_instance.web`;
//! * `count = 3`: `aws_instance.web[0]` … `[2]`;
//! * `for_each` of a literal list/set of strings (`["a", "b"]`, `toset([...])`) or a literal
//!   object/map (its keys): `aws_instance.web["a"]` …
//!
//! Shape (Terraform's apply graph, where instances are static nodes): each instance depends on
//! its `(expand)` node ([`Why::InstanceOfResource`]); an edge into an expanded resource's
//! `(expand)` node is moved to its instances — to the one instance a reference names with a
//! literal key (`aws_instance.web[0].id`), otherwise to all of them, as a whole-resource
//! reference matches every instance. Resources whose count/for_each depend on anything, and
//! resources inside a module called with count or for_each (their instances would be per
//! module instance, `module.m[0].…`), stay `(expand)` only: the walk expands them.

use super::context::BuildContext;
use super::node::{ConfigRef, Node, NodeKind};
use super::{BuildOptions, TfGraph, Why};
use crate::addrs::InstanceKey;
use crate::config::{Config, Expr, Resource};
use crate::dag::NodeId;
use crate::hcl::ast::{Expr as Expression, ExprKind, ObjectKey};
use crate::hcl::parse_expr;
use std::collections::HashMap;

/// The instance keys of a resource, if its count/for_each is a literal (`Some(vec![None])` for
/// a single instance). `None` when the walk has to evaluate it.
pub fn static_keys(resource: &Resource) -> Option<Vec<Option<InstanceKey>>> {
    match (&resource.count, &resource.for_each) {
        (None, None) => Some(vec![None]),
        (Some(c), None) => static_count(c).map(|n| (0..n).map(|i| Some(InstanceKey::Int(i))).collect()),
        (None, Some(f)) => static_for_each(f).map(|ks| ks.into_iter().map(|k| Some(InstanceKey::Str(k))).collect()),
        (Some(_), Some(_)) => None,
    }
}

fn unparen<'e, 's>(e: &'e Expression<'s>) -> &'e Expression<'s> {
    match &e.kind {
        ExprKind::Paren(p) => unparen(p),
        _ => e,
    }
}

/// `f` on the expression's syntax tree: the one kept from loading, else (`.tf.json`, whose
/// literals read the same in native syntax) its text parsed.
fn with_tree<R>(e: &Expr, f: impl FnOnce(&Expression<'_>) -> Option<R>) -> Option<R> {
    match &e.tree {
        Some(kept) => f(kept.get()),
        None => f(&parse_expr(e.source.trim()).ok()?),
    }
}

pub(crate) fn static_count(e: &Expr) -> Option<i64> {
    with_tree(e, |parsed| match &unparen(parsed).kind {
        ExprKind::Number(n) => n.int.filter(|&n| (0..=100_000).contains(&n)),
        _ => None,
    })
}

/// A quoted string without interpolations.
fn string(e: &Expression) -> Option<String> {
    match &unparen(e).kind {
        ExprKind::Template(t) => t.literal().map(|s| s.into_owned()),
        _ => None,
    }
}

fn string_list(e: &Expression) -> Option<Vec<String>> {
    match &unparen(e).kind {
        ExprKind::Tuple(items) => items.iter().map(string).collect(),
        _ => None,
    }
}

pub(crate) fn static_for_each(e: &Expr) -> Option<Vec<String>> {
    let mut keys = with_tree(e, for_each_keys)?;
    crate::util::sort::sort(&mut keys);
    keys.dedup();
    Some(keys)
}

fn for_each_keys(parsed: &Expression<'_>) -> Option<Vec<String>> {
    Some(match &unparen(parsed).kind {
        ExprKind::Tuple(_) => string_list(parsed)?,
        ExprKind::Call { name, args, expand_final: false } if name.name == "toset" && args.len() == 1 => {
            string_list(&args[0])?
        }
        ExprKind::Object(items) => items
            .iter()
            .map(|it| match &it.key {
                ObjectKey::Ident(i) => Some(i.name.to_string()),
                ObjectKey::Expr(x) => string(x),
            })
            .collect::<Option<Vec<_>>>()?,
        _ => return None,
    })
}

/// The literal instance key a traversal starts with after `subject`, if any:
/// `aws_instance.web[0].id` with subject `aws_instance.web` gives `[0]`.
fn literal_key(traversal: &str, subject: &str) -> Option<String> {
    let rest = traversal.strip_prefix(subject)?;
    let end = rest.strip_prefix('[')?.find(']')? + 1;
    Some(rest[..=end].to_string())
}

/// Whether every module call on the way to `module` has neither count nor for_each, so the
/// module has exactly one instance and its resources' instance addresses carry no module keys.
fn single_module_instance(cx: &BuildContext<'_>, module: &crate::addrs::ModulePath) -> bool {
    let mut path = module.clone();
    while !path.is_root() {
        let Some(&m) = cx.module_index.get(&path) else { return false };
        match cx.call_of(m) {
            Some(c) if c.count.is_none() && c.for_each.is_none() => {}
            _ => return false,
        }
        path.0.pop();
    }
    true
}

/// A copy of `graph` (built from `config`) with static resource instances added; see the
/// module docs. O(V + E + instances).
pub fn expand_static_instances(graph: &TfGraph, config: &Config) -> TfGraph {
    let options = BuildOptions::default();
    let cx = BuildContext::new(config, &options);
    let mut g = graph.clone();
    let expands: Vec<NodeId> = g
        .ids()
        .filter(|&id| matches!(g.node(id).kind, NodeKind::ResourceExpand { .. } | NodeKind::ResourceValidate { .. }))
        .collect();
    for e in expands {
        let n = g.node(e).clone();
        let Some(resource) = n.config.as_ref().and_then(|c| cx.resource_of(c)) else { continue };
        if !matches!(n.config, Some(ConfigRef::Resource { .. } | ConfigRef::CheckData { .. })) {
            continue;
        }
        if !single_module_instance(&cx, &n.module) {
            continue; // instances would be per module instance: the walk expands them
        }
        let Some(keys) = static_keys(resource) else { continue };
        let mode = n.resource_mode().expect("resource node");
        let mut instances: HashMap<String, NodeId> = HashMap::new();
        for k in keys {
            let text = k.as_ref().map(InstanceKey::to_string);
            let mut inst = Node::new(
                NodeKind::ResourceInstance { mode, key: k },
                n.module.clone(),
                n.addr.clone(),
                n.range.clone(),
            );
            inst.config = n.config;
            inst.resolved_provider = n.resolved_provider.clone();
            let id = g.add(inst);
            g.connect(id, e, Why::InstanceOfResource);
            instances.insert(text.unwrap_or_default(), id);
        }
        let dependents: Vec<NodeId> = g.dag().edges_to(e).filter(|d| !instances.values().any(|i| i == d)).collect();
        for d in dependents {
            let edge = g.remove_edge(d, e).expect("listed edge");
            // A reference with a literal key reaches that instance only.
            let keyed: Option<Vec<String>> = edge
                .why
                .iter()
                .map(|w| match w {
                    Why::Reference { traversal, .. } => literal_key(traversal, &n.addr),
                    _ => None,
                })
                .collect();
            let targets: Vec<NodeId> = match keyed {
                Some(ks) if ks.iter().all(|k| instances.contains_key(k)) => ks.iter().map(|k| instances[k]).collect(),
                _ => instances.values().copied().collect(),
            };
            for t in targets {
                for w in &edge.why {
                    g.connect(d, t, w.clone());
                }
            }
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(s: &str) -> Expr {
        Expr {
            source: s.into(),
            range: crate::diag::SourceFile::new("x", "").range(0..0),
            references: Vec::new(),
            tree: None,
        }
    }

    #[test]
    fn literal_expansions_are_recognised() {
        assert_eq!(static_count(&expr("3")), Some(3));
        assert_eq!(static_count(&expr("(2)")), Some(2));
        assert_eq!(static_count(&expr("var.n")), None);
        assert_eq!(static_for_each(&expr("toset([\"b\", \"a\", \"a\"])")), Some(vec!["a".into(), "b".into()]));
        assert_eq!(static_for_each(&expr("[\"x\"]")), Some(vec!["x".into()]));
        assert_eq!(static_for_each(&expr("{ k = var.x, \"j\" = 1 }")), Some(vec!["j".into(), "k".into()]));
        assert_eq!(static_for_each(&expr("{ (local.k) = 1 }")), None);
        assert_eq!(static_for_each(&expr("toset(var.list)")), None);
        assert_eq!(static_for_each(&expr("[\"${var.x}\"]")), None);
    }

    #[test]
    fn loaded_expansions_are_read_from_the_kept_tree() {
        let files = std::collections::BTreeMap::from([(
            "main.tf".to_string(),
            "resource \"a\" \"c\" {\n  count = (2)\n}\nresource \"a\" \"f\" {\n  for_each = toset([\"y\", \"x\"])\n}\n"
                .to_string(),
        )]);
        let loaded = crate::config::load(&files, &Default::default());
        let [c, f] = &loaded.config.root.resources[..] else { panic!("two resources") };
        assert!(c.count.as_ref().is_some_and(|e| e.tree.is_some()));
        assert_eq!(static_keys(c), Some(vec![Some(InstanceKey::Int(0)), Some(InstanceKey::Int(1))]));
        assert_eq!(static_keys(f), Some(vec![Some(InstanceKey::Str("x".into())), Some(InstanceKey::Str("y".into()))]));
    }

    #[test]
    fn literal_keys_in_traversals() {
        assert_eq!(literal_key("aws_instance.web[0].id", "aws_instance.web"), Some("[0]".into()));
        assert_eq!(literal_key("aws_instance.web[\"a\"]", "aws_instance.web"), Some("[\"a\"]".into()));
        assert_eq!(literal_key("aws_instance.web.id", "aws_instance.web"), None);
    }
}
