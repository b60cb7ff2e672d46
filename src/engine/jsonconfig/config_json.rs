//! The plan JSON's `configuration` section, as `terraform show -json` writes it
//! (`internal/command/jsonconfig/config.go` and `expression.go`): provider configurations
//! flattened across modules (config_providers.rs), then each module's outputs, resources (managed, then data, each
//! sorted by address), module calls and variables, every expression as its constant value or
//! its references.
//!
//! Where Terraform reads a provider schema and tfgraph has none (provider blocks, provisioners,
//! nested blocks of resource types the provider does not describe), every attribute written
//! counts and nested blocks are lists, the common nesting.

use super::config_providers::{normalize_keys, opaque_key, provider_configs, ProviderEntry};
use super::refs::{self, has_call};
use super::sources::Sources;
use crate::config::model::{Config, Module, ModuleCall, Resource, Variable};
use crate::eval::convert::convert;
use crate::eval::module_scope::{eval_config_expr, Inputs};
use crate::eval::scope::EmptyScope;
use crate::eval::value_json::value;
use crate::hcl::ast::{Body, Expr, Item};
use crate::providers::Provider;
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeMap;

/// Resource arguments that are Terraform's, not the provider's.
const META_ATTRS: &[&str] = &["count", "for_each", "provider", "depends_on"];
const META_BLOCKS: &[&str] = &["lifecycle", "connection", "provisioner", "dynamic"];

/// `configuration` for `config`.
pub fn configuration(config: &Config, sources: &Sources<'_>, provider: &dyn Provider, inputs: &Inputs<'_>) -> Json {
    let m = Marshal { sources, provider, inputs };
    let mut pcs: BTreeMap<String, ProviderEntry> = BTreeMap::new();
    provider_configs(sources, &config.root, None, &mut pcs);
    let mut root = m.module(&config.root);
    normalize_keys(&mut root, &pcs);
    let mut out = Map::new();
    let kept: Map<String, Json> =
        crate::util::sort::json_map(pcs.into_iter().filter(|(_, p)| p.parent_key.is_empty()).map(|(k, p)| (k, p.json)));
    if !kept.is_empty() {
        out.insert("provider_config".into(), Json::Object(kept));
    }
    out.insert("root_module".into(), root);
    Json::Object(out)
}

/// jsonconfig's `expression`: `constant_value` when the expression has no references and no
/// function calls and evaluates to a known value (HCL evaluates it with no context), else
/// `references` (empty: `{}`).
pub fn expression(src: &str, e: &Expr<'_>) -> Json {
    let mut out = Map::new();
    let found = refs::in_expr(src, e);
    if found.is_empty() && !has_call(e) {
        if let Some(v) = constant(src, e) {
            out.insert("constant_value".into(), v);
        }
    }
    if !found.is_empty() {
        out.insert("references".into(), json!(found.iter().flat_map(|r| r.strings()).collect::<Vec<_>>()));
    }
    Json::Object(out)
}

/// A loaded expression: its tree as the loader kept it, else (`.tf.json`) its source text
/// parsed; `{}` when that does not parse.
pub fn expression_of(e: &crate::config::model::Expr) -> Json {
    if let Some(tree) = &e.tree {
        return expression(&tree.file().source().text, tree.get());
    }
    match crate::hcl::parse_expr(&e.source) {
        Ok(parsed) => expression(&e.source, &parsed),
        Err(_) => json!({}),
    }
}

fn constant(src: &str, e: &Expr<'_>) -> Option<Json> {
    let funcs = crate::eval::functions::Registry::builtin();
    let none = BTreeMap::new();
    let files = crate::eval::MapFilesystem(&none);
    let ctx = crate::eval::functions::FuncContext { planning: true, files: &files, base_dir: ".", cwd: None };
    let source = crate::eval::expr::Source::new("", src, crate::diag::Pos { line: 1, column: 1, byte: 0 });
    let v = crate::eval::expr::Evaluator::new(&EmptyScope, &funcs, ctx, &source).eval(e).ok()?;
    v.is_wholly_known().then(|| value(&v))
}

/// A body's arguments as expressions, nested blocks as lists of bodies; `keep` filters the
/// top level's attribute names.
pub fn expressions(src: &str, body: &Body<'_>, keep: &dyn Fn(&str) -> bool, skip_blocks: &[&str]) -> Map<String, Json> {
    let mut out = Map::new();
    let mut blocks: BTreeMap<&str, Vec<Json>> = BTreeMap::new();
    for item in &body.items {
        match item {
            Item::Attr(a) if keep(a.name.name) => {
                out.insert(a.name.name.to_string(), expression(src, &a.expr));
            }
            Item::Block(b) if !skip_blocks.contains(&b.kind.name) => {
                blocks.entry(b.kind.name).or_default().push(Json::Object(expressions(
                    src,
                    &b.body,
                    &|_| true,
                    &["dynamic"],
                )));
            }
            _ => {}
        }
    }
    for (k, v) in blocks {
        out.insert(k.to_string(), Json::Array(v));
    }
    out
}

struct Marshal<'s, 'a> {
    sources: &'s Sources<'a>,
    provider: &'s dyn Provider,
    inputs: &'s Inputs<'s>,
}

impl Marshal<'_, '_> {
    fn module(&self, m: &Module) -> Json {
        let mut out = Map::new();
        let outputs: BTreeMap<&str, Json> = crate::util::sort::btree_map(m.outputs.iter().map(|o| {
            let mut e = Map::new();
            if o.sensitive {
                e.insert("sensitive".into(), json!(true));
            }
            e.insert("expression".into(), expression_of(&o.value));
            if !o.depends_on.is_empty() {
                e.insert(
                    "depends_on".into(),
                    json!(o.depends_on.iter().map(|r| r.subject.to_string()).collect::<Vec<_>>()),
                );
            }
            if let Some(d) = o.description.as_ref().filter(|d| !d.is_empty()) {
                e.insert("description".into(), json!(d));
            }
            (o.name.as_str(), Json::Object(e))
        }));
        if !outputs.is_empty() {
            out.insert("outputs".into(), json!(outputs));
        }
        let mut resources = Vec::new();
        for mode in [crate::addrs::ResourceMode::Managed, crate::addrs::ResourceMode::Data] {
            let mut rs: Vec<(String, Json)> = m
                .resources
                .iter()
                .filter(|r| r.mode == mode)
                .map(|r| (local_address(r), self.resource(m, r)))
                .collect();
            crate::util::sort::sort_by(&mut rs, |a, b| a.0.cmp(&b.0));
            resources.extend(rs.into_iter().map(|(_, j)| j));
        }
        if !resources.is_empty() {
            out.insert("resources".into(), Json::Array(resources));
        }
        let calls: BTreeMap<&str, Json> =
            crate::util::sort::btree_map(m.module_calls.iter().map(|c| (c.name.as_str(), self.module_call(c))));
        if !calls.is_empty() {
            out.insert("module_calls".into(), json!(calls));
        }
        if !m.variables.is_empty() {
            let vars: BTreeMap<&str, Json> =
                crate::util::sort::btree_map(m.variables.iter().map(|v| (v.name.as_str(), self.variable(v))));
            out.insert("variables".into(), json!(vars));
        }
        Json::Object(out)
    }

    fn resource(&self, m: &Module, r: &Resource) -> Json {
        let mut out = Map::new();
        out.insert("address".into(), json!(local_address(r)));
        out.insert("mode".into(), json!(if r.mode == crate::addrs::ResourceMode::Data { "data" } else { "managed" }));
        out.insert("type".into(), json!(r.type_name));
        out.insert("name".into(), json!(r.name));
        let local = match &r.provider.alias {
            Some(a) => format!("{}.{a}", r.provider.local_name),
            None => r.provider.local_name.clone(),
        };
        out.insert("provider_config_key".into(), json!(opaque_key(&local, &m.address)));
        let schema = match r.mode {
            crate::addrs::ResourceMode::Data => self.provider.data_source_schema(&r.type_name),
            _ => self.provider.resource_schema(&r.type_name),
        };
        let block = self.sources.resource_block(r);
        if let Some((file, b)) = block {
            let keep = |n: &str| !META_ATTRS.contains(&n) && schema.is_none_or(|s| s.attributes.contains_key(n));
            let exprs = expressions(file.text, &b.body, &keep, META_BLOCKS);
            if !exprs.is_empty() {
                out.insert("expressions".into(), Json::Object(exprs));
            }
            let provisioners: Vec<Json> = b
                .body
                .items
                .iter()
                .filter_map(|it| match it {
                    Item::Block(p) if p.kind.name == "provisioner" && r.mode == crate::addrs::ResourceMode::Managed => {
                        let mut e = Map::new();
                        e.insert(
                            "type".into(),
                            json!(p.labels.first().map(|l| l.value.to_string()).unwrap_or_default()),
                        );
                        let exprs = expressions(
                            file.text,
                            &p.body,
                            &|n| !matches!(n, "when" | "on_failure"),
                            &["connection", "dynamic"],
                        );
                        if !exprs.is_empty() {
                            e.insert("expressions".into(), Json::Object(exprs));
                        }
                        Some(Json::Object(e))
                    }
                    _ => None,
                })
                .collect();
            if !provisioners.is_empty() {
                out.insert("provisioners".into(), Json::Array(provisioners));
            }
        }
        out.insert("schema_version".into(), json!(schema.map(|s| s.version).unwrap_or(0)));
        repetition(&mut out, r.count.as_ref(), r.for_each.as_ref());
        if !r.depends_on.is_empty() {
            out.insert(
                "depends_on".into(),
                json!(r.depends_on.iter().map(|d| d.subject.to_string()).collect::<Vec<_>>()),
            );
        }
        Json::Object(out)
    }

    fn module_call(&self, c: &ModuleCall) -> Json {
        let Some(child) = &c.module else { return json!({"module": {}}) };
        let mut out = Map::new();
        out.insert("source".into(), json!(c.source));
        let exprs: Map<String, Json> = crate::util::sort::json_map(
            c.arguments
                .iter()
                .filter(|a| child.variables.iter().any(|v| v.name == a.name))
                .map(|a| (a.name.clone(), expression_of(&a.expr))),
        );
        if !exprs.is_empty() {
            out.insert("expressions".into(), Json::Object(exprs));
        }
        repetition(&mut out, c.count.as_ref(), c.for_each.as_ref());
        out.insert("module".into(), self.module(child));
        if let Some(v) = c.version.as_ref().filter(|v| !v.trim().is_empty()) {
            out.insert("version_constraint".into(), json!(v.split(',').map(str::trim).collect::<Vec<_>>().join(",")));
        }
        if !c.depends_on.is_empty() {
            out.insert(
                "depends_on".into(),
                json!(c.depends_on.iter().map(|d| d.subject.to_string()).collect::<Vec<_>>()),
            );
        }
        Json::Object(out)
    }

    /// `default` is the default converted to the type constraint (optional attributes' defaults
    /// applied), as the loader stores it.
    fn variable(&self, v: &Variable) -> Json {
        let mut out = Map::new();
        if let Some(d) = &v.default {
            if let Some(j) = self.default_value(v, d) {
                out.insert("default".into(), j);
            }
        }
        if let Some(d) = v.description.as_ref().filter(|d| !d.is_empty()) {
            out.insert("description".into(), json!(d));
        }
        if v.sensitive {
            out.insert("sensitive".into(), json!(true));
        }
        Json::Object(out)
    }

    fn default_value(&self, v: &Variable, d: &crate::config::model::Expr) -> Option<Json> {
        let raw = eval_config_expr(&EmptyScope, self.inputs, d).ok()?;
        let converted = match &v.type_expr {
            None => raw,
            Some(t) => {
                let c = crate::eval::module_scope::parse_constraint(t, v.type_tree.as_ref(), self.inputs).ok()?;
                convert(&c.apply_defaults(&raw), &c.ty()).ok()?
            }
        };
        converted.is_wholly_known().then(|| value(&converted))
    }
}

/// `count_expression` or `for_each_expression`, when not empty.
fn repetition(
    out: &mut Map<String, Json>,
    count: Option<&crate::config::model::Expr>,
    for_each: Option<&crate::config::model::Expr>,
) {
    let nonempty = |e: &crate::config::model::Expr| {
        Some(expression_of(e)).filter(|j| j.as_object().is_some_and(|m| !m.is_empty()))
    };
    if let Some(j) = count.and_then(nonempty) {
        out.insert("count_expression".into(), j);
    } else if let Some(j) = for_each.and_then(nonempty) {
        out.insert("for_each_expression".into(), j);
    }
}

/// The resource's address in its module (`mock_resource.a`, `data.mock_data.d`).
fn local_address(r: &Resource) -> String {
    match r.mode {
        crate::addrs::ResourceMode::Data => format!("data.{}.{}", r.type_name, r.name),
        crate::addrs::ResourceMode::Ephemeral => format!("ephemeral.{}.{}", r.type_name, r.name),
        crate::addrs::ResourceMode::Managed => format!("{}.{}", r.type_name, r.name),
    }
}
