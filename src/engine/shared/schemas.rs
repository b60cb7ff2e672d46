//! The generic mock's schemas, derived from the configuration (there are no provider schemas
//! here): a type's arguments and nested blocks are those written in any of its blocks (of any
//! module, `dynamic` blocks' `content` included); its computed attributes are `id` and every
//! attribute the configuration reads from it (`aws_vpc.main.arn`, `aws_instance.web[*].private_ip`,
//! `data.aws_availability_zones.a.names[0]`) that some block of the type leaves unset. How a
//! read continues gives the computed value's shape: indexed, a list; traversed, an object.

use super::body::{self, BlockKind, Body};
use crate::addrs::ResourceMode;
use crate::config::model::{Config, Module};
use crate::eval::Type;
use crate::providers::generic::GenericSchemas;
use crate::providers::mock::{self, MockOptions};
use crate::providers::set::ProviderSet;
use crate::providers::{AttributeSchema, ResourceSchema};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// The providers serving `config`: the mock, and the generic mock with schemas derived from it.
pub fn providers(files: &BTreeMap<String, String>, config: &Config, options: MockOptions) -> ProviderSet {
    let (schemas, sources) = derive(files, config);
    ProviderSet::new(options, schemas, sources).with_regions(&provider_regions(config))
}

/// The `region` each provider configuration block writes as a literal string, by the
/// configuration's address (what the generic mock's ARNs and regions say).
pub fn provider_regions(config: &Config) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for m in every_module(config) {
        for pc in &m.providers {
            let Some(kept) = &pc.body else { continue };
            let text = &kept.file().source().text;
            let region = kept.get().items.iter().find_map(|it| match it {
                crate::hcl::ast::Item::Attr(a) if a.name.name == "region" => Some(text[a.expr.span.clone()].trim()),
                _ => None,
            });
            let literal =
                region.filter(|r| r.len() >= 2 && r.starts_with('"') && r.ends_with('"') && !r.contains("${"));
            if let Some(r) = literal {
                out.insert(pc.address.clone(), r[1..r.len() - 1].to_string());
            }
        }
    }
    out
}

/// The root module and every loaded module below it.
fn every_module(config: &Config) -> Vec<&Module> {
    fn collect<'c>(m: &'c Module, out: &mut Vec<&'c Module>) {
        out.push(m);
        for c in &m.module_calls {
            if let Some(child) = c.module.as_deref() {
                collect(child, out);
            }
        }
    }
    let mut out = Vec::new();
    collect(&config.root, &mut out);
    out
}

fn optional() -> AttributeSchema {
    AttributeSchema {
        ty: Type::Dynamic,
        optional: true,
        computed: false,
        required: false,
        sensitive: false,
        requires_replace: false,
    }
}

/// Merges what `body` writes into `schema`.
fn merge(schema: &mut ResourceSchema, body: &Body) {
    for a in &body.attributes {
        schema.attributes.entry(a.name.clone()).or_insert_with(optional);
    }
    for b in &body.blocks {
        let inner = schema.blocks.entry(b.type_name.clone()).or_default();
        let content = match &b.kind {
            BlockKind::Static(body) => body,
            BlockKind::Dynamic { content, .. } => content,
        };
        merge(inner, content);
    }
}

/// The generic types' schemas, and every configured type's provider source.
pub fn derive(files: &BTreeMap<String, String>, config: &Config) -> (GenericSchemas, BTreeMap<String, String>) {
    let mut schemas = GenericSchemas::default();
    let mut sources: BTreeMap<String, String> = BTreeMap::new();
    // The generic types seen (data?, type), and their resources (data?, type, name).
    let mut seen: BTreeSet<(bool, String)> = BTreeSet::new();
    let mut declared: HashSet<(bool, &str, &str)> = HashSet::new();
    let modules = every_module(config);
    let all: Vec<&crate::config::model::Resource> = modules.iter().flat_map(|m| m.resources.iter()).collect();
    let mut bodies = body::arguments_of(files, &all).into_iter();
    for m in &modules {
        for r in &m.resources {
            let written = bodies.next().flatten();
            let source = if r.provider.fqn.is_empty() {
                format!("registry.terraform.io/hashicorp/{}", r.provider.local_name)
            } else {
                r.provider.fqn.clone()
            };
            sources.entry(r.type_name.clone()).or_insert_with(|| source.clone());
            if source == mock::SOURCE || r.mode == ResourceMode::Ephemeral {
                continue;
            }
            let data = r.mode == ResourceMode::Data;
            declared.insert((data, r.type_name.as_str(), r.name.as_str()));
            let map = if data { &mut schemas.data_sources } else { &mut schemas.resources };
            let schema = map.entry(r.type_name.clone()).or_default();
            seen.insert((data, r.type_name.clone()));
            if let Some(b) = written {
                merge(schema, &b);
            }
        }
    }
    // What the configuration reads from each type.
    let mut reads: BTreeMap<(bool, String, String), Type> = BTreeMap::new();
    let types: HashSet<(bool, &str)> = declared.iter().map(|(d, t, _)| (*d, *t)).collect();
    // The loaded modules' own files (not the whole repository a root may sit in).
    let module_files: BTreeSet<&String> = crate::util::sort::btree_set(modules.iter().flat_map(|m| m.files.iter()));
    for text in module_files.into_iter().filter_map(|f| body::file_text(files, f)) {
        scan_for_iterators(
            text,
            &|data, t, n| types.contains(&(data, t)) && declared.contains(&(data, t, n)),
            &mut reads,
        );
        scan(text, &|data, t, n| types.contains(&(data, t)) && declared.contains(&(data, t, n)), &mut reads);
    }
    for (data, type_name) in &seen {
        let map = if *data { &mut schemas.data_sources } else { &mut schemas.resources };
        let Some(schema) = map.get_mut(type_name) else { continue };
        let mut computed: Vec<String> = vec!["id".into()];
        computed.extend(reads.keys().filter(|(d, t, _)| d == data && t == type_name).map(|(_, _, a)| a.clone()));
        for attr in computed {
            if let Some(block) = schema.blocks.get_mut(&attr) {
                // `aws_eks_cluster.this.vpc_config[0].cluster_security_group_id`: computed
                // inside a nested block.
                if let Some(shape) = reads.get(&(*data, type_name.clone(), attr.clone())) {
                    nested_reads(block, shape, &format!("{attr}."), type_name, &mut schemas.shapes);
                    // A block read is computed where an instance writes none.
                    schemas.shapes.insert((type_name.clone(), attr.clone()), shape.clone());
                }
                continue;
            }
            // Read and written: optional and computed, as a provider leaves what the
            // configuration sets alone and computes it where an expression gives null.
            let a = schema
                .attributes
                .entry(attr.clone())
                // `id` is a string in every provider (the plugin SDK makes it one).
                .or_insert_with(|| AttributeSchema {
                    optional: false,
                    ty: if attr == "id" { Type::String } else { Type::Dynamic },
                    ..optional()
                });
            a.computed = true;
            if let Some(shape) = reads.get(&(*data, type_name.clone(), attr.clone())).filter(|s| **s != Type::Dynamic) {
                schemas.shapes.insert((type_name.clone(), attr.clone()), shape.clone());
            }
        }
    }
    schemas.sources = sources.clone();
    (schemas, sources)
}

/// Attributes a read of a nested block reaches (`[0].x`, `.x`) that no block writes: computed.
fn nested_reads(
    schema: &mut ResourceSchema,
    shape: &Type,
    path: &str,
    type_name: &str,
    shapes: &mut BTreeMap<(String, String), Type>,
) {
    let keys = match shape {
        Type::List(e) => match &**e {
            Type::Object(m) => m,
            _ => return,
        },
        Type::Object(m) => m,
        _ => return,
    };
    for (k, sub) in keys {
        if let Some(inner) = schema.blocks.get_mut(k) {
            nested_reads(inner, sub, &format!("{path}{k}."), type_name, shapes);
            continue;
        }
        let a = schema.attributes.entry(k.clone()).or_insert_with(|| AttributeSchema { optional: false, ..optional() });
        a.computed = true;
        if *sub != Type::Dynamic {
            shapes.insert((type_name.to_string(), format!("{path}{k}")), sub.clone());
        }
    }
}

fn ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// An identifier at `i`: its end.
fn ident(b: &[u8], i: usize) -> Option<usize> {
    if i >= b.len() || !(b[i].is_ascii_alphabetic() || b[i] == b'_') {
        return None;
    }
    let mut j = i;
    while j < b.len() && ident_char(b[j]) {
        j += 1;
    }
    Some(j)
}

/// Past a bracketed index at `i` (`[0]`, `["k"]`, `[*]`, nested brackets), if there is one.
fn index(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let mut depth = 0;
    let mut j = i;
    while j < b.len() {
        match b[j] {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            b'\n' => return None,
            _ => {}
        }
        j += 1;
    }
    None
}

/// The shape of what follows an attribute read at `i`: `[..]` a list, `.key` an object.
fn shape(text: &str, i: usize, depth: usize) -> Type {
    let b = text.as_bytes();
    if depth > 3 {
        return Type::Dynamic;
    }
    if let Some(j) = index(b, i) {
        return Type::list(shape(text, j, depth + 1));
    }
    if b.get(i) == Some(&b'.') {
        if b.get(i + 1) == Some(&b'*') {
            return Type::list(shape(text, i + 2, depth + 1));
        }
        if let Some(j) = ident(b, i + 1) {
            return Type::Object(crate::util::sort::btree_map([(
                text[i + 1..j].to_string(),
                shape(text, j, depth + 1),
            )]));
        }
    }
    Type::Dynamic
}

/// Two reads of one attribute: lists of merged elements, objects with every key read.
fn merge_shapes(a: Type, b: Type) -> Type {
    match (a, b) {
        (Type::Dynamic, x) | (x, Type::Dynamic) => x,
        (Type::List(x), Type::List(y)) => Type::list(merge_shapes(*x, *y)),
        (Type::Object(mut x), Type::Object(y)) => {
            for (k, t) in y {
                let merged = match x.remove(&k) {
                    Some(old) => merge_shapes(old, t),
                    None => t,
                };
                x.insert(k, merged);
            }
            Type::Object(x)
        }
        (x, _) => x,
    }
}

/// A resource reference at `i` (`TYPE.NAME` or `data.TYPE.NAME`): (data?, type, name, end).
fn resource_at(text: &str, i: usize) -> Option<(bool, &str, &str, usize)> {
    let b = text.as_bytes();
    let mut j = ident(b, i)?;
    let mut data = false;
    let mut type_name = &text[i..j];
    if type_name == "data" && b.get(j) == Some(&b'.') {
        let k = ident(b, j + 1)?;
        data = true;
        type_name = &text[j + 1..k];
        j = k;
    }
    if b.get(j) != Some(&b'.') {
        return None;
    }
    let k = ident(b, j + 1)?;
    Some((data, type_name, &text[j + 1..k], k))
}

fn record(out: &mut BTreeMap<(bool, String, String), Type>, key: (bool, String, String), s: Type) {
    let merged = match out.remove(&key) {
        Some(old) => merge_shapes(old, s),
        None => s,
    };
    out.insert(key, merged);
}

/// `for k, v in TYPE.NAME : v.ATTR` (also over `values(...)`, `TYPE.NAME[*]`): the
/// attributes read through the iterator, up to the end of the `for` expression's brackets.
fn scan_for_iterators(
    text: &str,
    known: &dyn Fn(bool, &str, &str) -> bool,
    out: &mut BTreeMap<(bool, String, String), Type>,
) {
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(off) = text[from..].find("for ") {
        let at = from + off;
        from = at + 4;
        if at > 0 && (ident_char(b[at - 1]) || b[at - 1] == b'.') {
            continue;
        }
        // `for [k,] v in`
        let head_end = match text[from..].find(" in ") {
            Some(e) if e < 80 => from + e,
            _ => continue,
        };
        let vars: Vec<&str> = text[from..head_end].split(',').map(str::trim).collect();
        let Some(value_var) = vars.last().filter(|v| !v.is_empty() && v.bytes().all(ident_char)) else { continue };
        let mut p = head_end + 4;
        while b.get(p) == Some(&b' ') {
            p += 1;
        }
        let collection = p;
        // Past a call wrapping the collection (`values(`, `flatten(`).
        if let Some(e) = ident(b, p) {
            if b.get(e) == Some(&b'(') {
                p = e + 1;
            }
        }
        let Some((data, type_name, name, _)) = resource_at(text, p) else { continue };
        if !known(data, type_name, name) {
            continue;
        }
        // The body: up to where the enclosing bracket closes.
        let mut depth = 0i32;
        let mut end = collection;
        while end < b.len() {
            match b[end] {
                b'[' | b'{' | b'(' => depth += 1,
                b']' | b'}' | b')' => {
                    depth -= 1;
                    if depth < 0 {
                        break;
                    }
                }
                _ => {}
            }
            end += 1;
        }
        let body = &text[collection..end];
        let needle = format!("{value_var}.");
        let mut q = 0;
        while let Some(o) = body[q..].find(&needle) {
            let start = q + o;
            q = start + needle.len();
            let bb = body.as_bytes();
            if start > 0 && (ident_char(bb[start - 1]) || bb[start - 1] == b'.') {
                continue;
            }
            if let Some(e) = ident(bb, q) {
                let attr = body[q..e].to_string();
                record(out, (data, type_name.to_string(), attr), shape(body, e, 0));
            }
        }
    }
}

/// Every `TYPE.NAME[...].ATTR...` and `data.TYPE.NAME[...].ATTR...` in `text` for which
/// `known(data, type, name)`, with the shape its continuation gives.
fn scan(text: &str, known: &dyn Fn(bool, &str, &str) -> bool, out: &mut BTreeMap<(bool, String, String), Type>) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts =
            (b[i].is_ascii_alphabetic() || b[i] == b'_') && (i == 0 || !(ident_char(b[i - 1]) || b[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let Some(mut j) = ident(b, i) else {
            i += 1;
            continue;
        };
        let first = &text[i..j];
        let next = j;
        let mut data = false;
        let mut type_name = first;
        if first == "data" && b.get(j) == Some(&b'.') {
            if let Some(k) = ident(b, j + 1) {
                data = true;
                type_name = &text[j + 1..k];
                j = k;
            }
        }
        let name_end = if b.get(j) == Some(&b'.') { ident(b, j + 1) } else { None };
        let Some(k) = name_end else {
            i = next;
            continue;
        };
        let name = &text[j + 1..k];
        if !known(data, type_name, name) {
            i = next;
            continue;
        }
        // Past instance keys and splats, and out of a call taking the resource
        // (`one(data.x.y).attr`, `try(x.y[0], null)...` stops at its comma).
        let mut p = k;
        let mut closed = false;
        loop {
            if let Some(q) = index(b, p) {
                p = q;
            } else if b.get(p) == Some(&b'.') && b.get(p + 1) == Some(&b'*') {
                p += 2;
            } else if b.get(p) == Some(&b')') && !closed {
                closed = true;
                p += 1;
            } else {
                break;
            }
        }
        if b.get(p) == Some(&b'.') {
            if let Some(q) = ident(b, p + 1) {
                let attr = text[p + 1..q].to_string();
                let s = shape(text, q, 0);
                let key = (data, type_name.to_string(), attr);
                let merged = match out.remove(&key) {
                    Some(old) => merge_shapes(old, s),
                    None => s,
                };
                out.insert(key, merged);
                p = q;
            }
        }
        i = p.max(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn derived(files: &[(&str, &str)]) -> GenericSchemas {
        let files: BTreeMap<String, String> = files.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let loaded = crate::load(&files, &Default::default());
        derive(&files, &loaded.config).0
    }

    #[test]
    fn arguments_blocks_and_reads() {
        let s = derived(&[(
            "main.tf",
            r#"
resource "aws_vpc" "main" { cidr_block = "10.0.0.0/16" }
resource "aws_security_group" "sg" {
  vpc_id = aws_vpc.main.id
  ingress { from_port = 80 }
  dynamic "egress" {
    for_each = [1]
    content { to_port = egress.value }
  }
}
resource "aws_instance" "web" {
  count     = 2
  subnet_id = "x"
  tags      = { Name = aws_vpc.main.arn }
}
data "aws_availability_zones" "az" {}
output "ips" { value = aws_instance.web[*].private_ip }
output "first" { value = data.aws_availability_zones.az.names[0] }
output "tag" { value = aws_instance.web[0].tags_all.Name }
output "dns" { value = [for k, i in aws_instance.web : i.public_dns] }
output "vals" { value = { for v in values(aws_vpc.main) : v.owner_id => v.default_route_table_id } }
"#,
        )]);
        let vpc = &s.resources["aws_vpc"];
        assert!(vpc.attributes["cidr_block"].optional && !vpc.attributes["cidr_block"].computed);
        assert!(vpc.attributes["id"].computed && vpc.attributes["arn"].computed && !vpc.attributes["arn"].optional);
        let sg = &s.resources["aws_security_group"];
        assert!(sg.blocks["ingress"].attributes.contains_key("from_port"));
        assert!(sg.blocks["egress"].attributes.contains_key("to_port"));
        assert!(s.resources["aws_instance"].attributes["private_ip"].computed);
        assert_eq!(s.shapes[&("aws_availability_zones".to_string(), "names".to_string())], Type::list(Type::Dynamic));
        assert_eq!(
            s.shapes[&("aws_instance".to_string(), "tags_all".to_string())],
            Type::Object([("Name".to_string(), Type::Dynamic)].into_iter().collect())
        );
        assert!(s.data_sources["aws_availability_zones"].attributes["names"].computed);
        for (t, a) in [("aws_instance", "public_dns"), ("aws_vpc", "owner_id"), ("aws_vpc", "default_route_table_id")] {
            assert!(
                s.resources[t].attributes.get(a).is_some_and(|a| a.computed),
                "{t}.{a} read through a for expression"
            );
        }
    }
}
