//! A resource block's arguments, found again in its file (the loader keeps references, not
//! bodies) and evaluated in an instance's scope into an object of the schema's type.

use crate::config::model::Resource;
use crate::diag::{Diagnostic, Diagnostics, SourceFile};
use crate::eval::convert::convert;
use crate::eval::module_scope::{eval_text, Inputs};
use crate::eval::scope::Scope;
use crate::eval::{Kind, Value};
use crate::providers::ResourceSchema;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

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
    let text = file_of(files, &r.range.filename)?;
    let key = (kind_of(r).to_string(), r.type_name.clone(), r.name.clone());
    let found = |blocks: &Blocks| blocks.get(&key).cloned().unwrap_or_default();
    let cached = CACHE.with(|c| c.borrow().as_ref().and_then(|m| m.get(&(text.as_ptr() as usize, text.len())).cloned()));
    if let Some(blocks) = cached {
        return Some(found(&blocks));
    }
    let blocks = Rc::new(blocks_of(&r.range.filename, text));
    CACHE.with(|c| {
        if let Some(m) = c.borrow_mut().as_mut() {
            m.insert((text.as_ptr() as usize, text.len()), blocks.clone());
        }
    });
    Some(found(&blocks))
}

/// The arguments of each resource's block, each file parsed once.
pub fn arguments_of(files: &BTreeMap<String, String>, resources: &[&Resource]) -> Vec<Option<Vec<Argument>>> {
    with_parse_cache(|| resources.iter().map(|r| arguments(files, r)).collect())
}

/// Runs `f` with each file's blocks parsed once by [`arguments`] (a walk asks for each
/// resource's block, and parsing the whole file each time made it quadratic in the file's
/// size). Files are known by their text's address, which `f`'s borrowed files keep fixed;
/// the cache ends with `f`.
pub fn with_parse_cache<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            if self.0 {
                CACHE.with(|c| *c.borrow_mut() = None);
            }
        }
    }
    let outer = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let fresh = c.is_none();
        if fresh {
            *c = Some(HashMap::new());
        }
        fresh
    });
    let _reset = Reset(outer);
    f()
}

/// Parsed files by their text's (address, length), while [`with_parse_cache`] runs.
type ParseCache = HashMap<(usize, usize), Rc<Blocks>>;

thread_local! {
    static CACHE: RefCell<Option<ParseCache>> = const { RefCell::new(None) };
}

/// The file a resource block is in: its range's name, or a path ending in it.
fn file_of<'f>(files: &'f BTreeMap<String, String>, filename: &str) -> Option<&'f String> {
    files.get(filename).or_else(|| files.iter().find(|(k, _)| k.ends_with(&format!("/{filename}")) || filename.ends_with(&format!("/{k}"))).map(|(_, v)| v))
}

fn kind_of(r: &Resource) -> &'static str {
    match r.mode {
        crate::addrs::ResourceMode::Managed => "resource",
        crate::addrs::ResourceMode::Data => "data",
        crate::addrs::ResourceMode::Ephemeral => "ephemeral",
    }
}

/// (block kind, type, name) → the first such block's arguments.
type Blocks = HashMap<(String, String, String), Vec<Argument>>;

/// Every labelled block of a file.
fn blocks_of(filename: &str, text: &str) -> Blocks {
    let parsed = crate::hcl::parse_body(text);
    let src = SourceFile::new(filename.to_string(), text.to_string());
    let mut blocks = Blocks::new();
    for item in &parsed.body.items {
        let crate::hcl::ast::Item::Block(b) = item else { continue };
        if b.labels.len() != 2 {
            continue;
        }
        let key = (b.kind.name.to_string(), b.labels[0].value.to_string(), b.labels[1].value.to_string());
        if blocks.contains_key(&key) {
            continue;
        }
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
        blocks.insert(key, args);
    }
    blocks
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
