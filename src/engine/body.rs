//! A resource block's arguments, found again in its file (the loader keeps references, not
//! bodies) and evaluated in an instance's scope into an object of the schema's type.

use crate::config::model::Resource;
use crate::diag::{Diagnostic, Diagnostics, SourceFile};
use crate::eval::convert::convert;
use crate::eval::module_scope::{eval_text, Inputs};
use crate::eval::scope::Scope;
use crate::eval::{Kind, Value};
use crate::providers::ResourceSchema;
use std::collections::BTreeMap;

/// Meta-arguments, which are not the provider's.
const META: &[&str] = &["count", "for_each", "provider", "depends_on"];

/// One argument as written: name, expression text, where it starts.
#[derive(Clone, Debug)]
pub struct Argument {
    pub name: String,
    pub text: String,
    pub filename: String,
    pub start: crate::diag::Pos,
    pub range: crate::diag::SourceRange,
}

/// The arguments of `r`'s block (`None` when its file is not among `files`).
pub fn arguments(files: &BTreeMap<String, String>, r: &Resource) -> Option<Vec<Argument>> {
    arguments_of(files, &[r]).pop().flatten()
}

/// The file a resource block is in: its range's name, or a path ending in it.
fn file_of<'f>(files: &'f BTreeMap<String, String>, filename: &str) -> Option<&'f String> {
    files.get(filename).or_else(|| files.iter().find(|(k, _)| k.ends_with(&format!("/{filename}")) || filename.ends_with(&format!("/{k}"))).map(|(_, v)| v))
}

/// The arguments of each resource's block, parsing each file once (a walk over a thousand
/// resources in one file would otherwise parse it a thousand times).
pub fn arguments_of(files: &BTreeMap<String, String>, resources: &[&Resource]) -> Vec<Option<Vec<Argument>>> {
    let mut out: Vec<Option<Vec<Argument>>> = (0..resources.len()).map(|_| None).collect();
    let mut by_file: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, r) in resources.iter().enumerate() {
        by_file.entry(r.range.filename.as_str()).or_default().push(i);
    }
    for (filename, wanted) in by_file {
        let Some(text) = file_of(files, filename) else { continue };
        let parsed = crate::hcl::parse_body(text);
        let src = SourceFile::new(filename.to_string(), text.clone());
        let kind_of = |r: &Resource| match r.mode {
            crate::addrs::ResourceMode::Managed => "resource",
            crate::addrs::ResourceMode::Data => "data",
            crate::addrs::ResourceMode::Ephemeral => "ephemeral",
        };
        let mut lookup: std::collections::HashMap<(&str, &str, &str), Vec<usize>> = std::collections::HashMap::new();
        for &i in &wanted {
            let r = resources[i];
            lookup.entry((kind_of(r), r.type_name.as_str(), r.name.as_str())).or_default().push(i);
        }
        for item in &parsed.body.items {
            let crate::hcl::ast::Item::Block(b) = item else { continue };
            if b.labels.len() != 2 {
                continue;
            }
            // The first block of that kind, type and name (as a linear search finds it).
            let Some(ids) = lookup.remove(&(b.kind.name, b.labels[0].value.as_ref(), b.labels[1].value.as_ref())) else { continue };
            let mut args = Vec::new();
            for it in &b.body.items {
                if let crate::hcl::ast::Item::Attr(a) = it {
                    if META.contains(&a.name.name) {
                        continue;
                    }
                    args.push(Argument {
                        name: a.name.name.to_string(),
                        text: text[a.expr.span.clone()].to_string(),
                        filename: filename.to_string(),
                        start: src.pos(a.expr.span.start),
                        range: src.range(a.name.span.clone()),
                    });
                }
            }
            for i in ids {
                out[i] = Some(args.clone());
            }
        }
    }
    out
}

/// Evaluates the arguments into an object of the schema's type (unset attributes null).
pub fn evaluate(scope: &dyn Scope, inputs: &Inputs<'_>, args: &[Argument], schema: &ResourceSchema, diags: &mut Diagnostics) -> Value {
    let mut given: BTreeMap<String, Value> = BTreeMap::new();
    for a in args {
        let Some(attr) = schema.attributes.get(&a.name) else {
            diags.push(
                Diagnostic::error("Unsupported argument", format!("An argument named \"{}\" is not expected here.", a.name)).with_range(a.range.clone()),
            );
            continue;
        };
        if attr.computed && !attr.optional {
            diags.push(
                Diagnostic::error("Invalid Configuration for Read-Only Attribute", "Cannot set value for this attribute as the provider has marked it as read-only. Remove the configuration line setting the value.\n\nRefer to the provider documentation or contact the provider developers for additional information about configurable and read-only attributes that are supported.")
                    .with_range(a.range.clone()),
            );
            continue;
        }
        match eval_text(scope, inputs, &a.filename, &a.text, a.start) {
            Ok(v) => match convert(&v, &attr.ty) {
                Ok(v) => {
                    given.insert(a.name.clone(), v);
                }
                Err(msg) => diags.push(Diagnostic::error("Incorrect attribute value type", format!("Inappropriate value for attribute \"{}\": {msg}.", a.name)).with_range(a.range.clone())),
            },
            Err(d) => diags.push(*d),
        }
    }
    let attrs = schema
        .attributes
        .iter()
        .map(|(k, a)| (k.clone(), given.remove(k).unwrap_or_else(|| Value::null(a.ty.clone()))))
        .collect();
    Value::object(attrs)
}

/// An attribute of an object value.
pub fn attr<'v>(v: &'v Value, name: &str) -> Option<&'v Value> {
    match &v.kind {
        Kind::Object(m) => m.get(name),
        _ => None,
    }
}
