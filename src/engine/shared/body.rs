//! A resource block's body as the loader kept it (native syntax: its syntax tree; `.tf.json`:
//! found again in its file): its arguments and nested blocks (`dynamic` ones with their
//! `for_each`, iterator and `content`), evaluated in an instance's scope into an object of the
//! schema's type. Nested blocks become lists of objects (Terraform's `NestingList`), a block
//! type with no block the empty list.

use crate::config::kept::{Keeper, KeptBody, KeptExpr};
use crate::config::model::{Expr as ConfigExpr, Resource};
use crate::diag::{Diagnostic, Diagnostics, Pos, SourceFile, SourceRange};
use crate::eval::convert::convert;
use crate::eval::module_scope::{eval_config_expr, eval_kept, eval_text, Inputs};
use crate::eval::scope::{LookupError, Scope};
use crate::eval::{Kind, Value};
use crate::providers::ResourceSchema;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// Meta-arguments, which are not the provider's.
const META: &[&str] = &["count", "for_each", "provider", "depends_on"];
/// Meta-blocks of a resource, which are not the provider's either.
const META_BLOCKS: &[&str] = &["lifecycle", "provisioner", "connection"];

/// One argument as written: name, expression text, where it starts, and its syntax tree when
/// the loader kept it (native syntax).
#[derive(Clone, Debug)]
pub struct Argument {
    pub name: String,
    pub text: String,
    pub filename: String,
    pub start: Pos,
    pub range: SourceRange,
    pub tree: Option<KeptExpr>,
}

/// Arguments and nested blocks, in source order within each.
#[derive(Clone, Debug, Default)]
pub struct Body {
    pub attributes: Vec<Argument>,
    pub blocks: Vec<NestedBlock>,
}

/// A nested block (`ingress { ... }`) or a `dynamic "ingress"` generating them.
#[derive(Clone, Debug)]
pub struct NestedBlock {
    pub type_name: String,
    pub range: SourceRange,
    pub kind: BlockKind,
}

#[derive(Clone, Debug)]
pub enum BlockKind {
    Static(Body),
    Dynamic { for_each: Option<Argument>, iterator: String, content: Body },
}

impl Body {
    /// The argument named `name`, if written.
    pub fn attribute(&self, name: &str) -> Option<&Argument> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

impl std::ops::Deref for Body {
    type Target = [Argument];
    fn deref(&self) -> &[Argument] {
        &self.attributes
    }
}

/// The text of `filename` among `files` (paths relative to different roots match by suffix).
pub fn file_text<'f>(files: &'f BTreeMap<String, String>, filename: &str) -> Option<&'f String> {
    files.get(filename).or_else(|| {
        files
            .iter()
            .find(|(k, _)| k.ends_with(&format!("/{filename}")) || filename.ends_with(&format!("/{k}")))
            .map(|(_, v)| v)
    })
}

/// Every resource-like block of one file: (block kind, type, name) → body.
type FileBodies = HashMap<(String, String, String), Body>;

thread_local! {
    /// Parsed `.tf.json` files by (name, hash of the text): a plan and its apply ask for the
    /// bodies of one file's blocks many times (schemas, plan, each instance at apply), and a
    /// parse is the costly part. Cleared when it grows past [`CACHE_FILES`].
    static PARSED: RefCell<HashMap<(String, u64), Rc<FileBodies>>> = RefCell::new(HashMap::new());
}
const CACHE_FILES: usize = 256;

/// The bodies of every `resource`, `data` and `ephemeral` block of a `.tf.json` file.
fn file_bodies(filename: &str, text: &str) -> Rc<FileBodies> {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    let key = (filename.to_string(), h.finish());
    if let Some(found) = PARSED.with(|c| c.borrow().get(&key).cloned()) {
        return found;
    }
    let mut out = FileBodies::new();
    for kind in ["resource", "data", "ephemeral"] {
        for (type_name, name, body) in super::body_json::resource_bodies(filename, text, kind) {
            out.entry((kind.to_string(), type_name, name)).or_insert(body);
        }
    }
    let out = Rc::new(out);
    PARSED.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_FILES {
            c.clear();
        }
        c.insert(key, Rc::clone(&out));
    });
    out
}

fn kind_of(r: &Resource) -> &'static str {
    r.mode.block_type()
}

/// The bodies of several resources' blocks: from the trees the loader kept (native syntax), or
/// with each `.tf.json` file read once (hashed and, unless cached, parsed).
pub fn arguments_of(files: &BTreeMap<String, String>, resources: &[&Resource]) -> Vec<Option<Body>> {
    let mut by_file: BTreeMap<&str, Option<Rc<FileBodies>>> = BTreeMap::new();
    resources
        .iter()
        .map(|r| {
            if let Some(kept) = &r.body {
                return Some(kept_body(kept));
            }
            let filename = r.range.filename.as_str();
            if !filename.ends_with(".json") {
                return None;
            }
            let bodies = by_file
                .entry(filename)
                .or_insert_with(|| file_text(files, filename).map(|text| file_bodies(filename, text)));
            bodies.as_ref()?.get(&(kind_of(r).to_string(), r.type_name.clone(), r.name.clone())).cloned()
        })
        .collect()
}

/// The body of `r`'s block (`None` when its file is not among `files`).
pub fn arguments(files: &BTreeMap<String, String>, r: &Resource) -> Option<Body> {
    arguments_of(files, &[r]).pop().flatten()
}

/// The body of a provider configuration's (or any) block the loader kept, as for a resource.
pub fn kept_body(kept: &KeptBody) -> Body {
    let src = kept.file().source();
    kept.with(|body, k| body_of(body, k, src, true))
}

/// A native body of file `src`, each argument with its expression's tree.
fn body_of<'b>(body: &'b crate::hcl::ast::Body<'b>, keeper: Keeper<'b>, src: &SourceFile, top: bool) -> Body {
    let (text, filename) = (src.text.as_str(), src.name.as_str());
    let mut out = Body::default();
    let argument = |a: &'b crate::hcl::ast::Attribute<'b>| Argument {
        name: a.name.name.to_string(),
        text: text[a.expr.span.clone()].to_string(),
        filename: filename.to_string(),
        start: src.pos(a.expr.span.start),
        range: src.range(a.name.span.clone()),
        tree: Some(keeper.expr(&a.expr)),
    };
    for it in &body.items {
        match it {
            crate::hcl::ast::Item::Attr(a) => {
                if top && META.contains(&a.name.name) {
                    continue;
                }
                out.attributes.push(argument(a));
            }
            crate::hcl::ast::Item::Block(b) => {
                if top && META_BLOCKS.contains(&b.kind.name) {
                    continue;
                }
                let range = src.range(b.kind.span.clone());
                if b.kind.name == "dynamic" {
                    let Some(label) = b.labels.first() else { continue };
                    let mut for_each = None;
                    let mut iterator = label.value.to_string();
                    let mut content = Body::default();
                    for inner in &b.body.items {
                        match inner {
                            crate::hcl::ast::Item::Attr(a) if a.name.name == "for_each" => for_each = Some(argument(a)),
                            crate::hcl::ast::Item::Attr(a) if a.name.name == "iterator" => {
                                iterator = text[a.expr.span.clone()].trim().to_string()
                            }
                            crate::hcl::ast::Item::Block(c) if c.kind.name == "content" => {
                                content = body_of(&c.body, keeper, src, false)
                            }
                            _ => {}
                        }
                    }
                    out.blocks.push(NestedBlock {
                        type_name: label.value.to_string(),
                        range,
                        kind: BlockKind::Dynamic { for_each, iterator, content },
                    });
                } else {
                    out.blocks.push(NestedBlock {
                        type_name: b.kind.name.to_string(),
                        range,
                        kind: BlockKind::Static(body_of(&b.body, keeper, src, false)),
                    });
                }
            }
        }
    }
    out
}

/// A `dynamic` block's iterator (`ingress.key`, `ingress.value`) over the enclosing scope.
struct IteratorScope<'s> {
    parent: &'s dyn Scope,
    name: &'s str,
    key: Value,
    value: Value,
}

impl Scope for IteratorScope<'_> {
    fn lookup(&self, names: &[&str]) -> Result<(Value, usize), LookupError> {
        if names[0] == self.name {
            return match names.get(1).copied() {
                Some("key") => Ok((self.key.clone(), 2)),
                Some("value") => Ok((self.value.clone(), 2)),
                _ => Ok((
                    Value::object(crate::util::sort::btree_map([
                        ("key".to_string(), self.key.clone()),
                        ("value".to_string(), self.value.clone()),
                    ])),
                    1,
                )),
            };
        }
        self.parent.lookup(names)
    }
}

fn eval_argument(scope: &dyn Scope, inputs: &Inputs<'_>, a: &Argument) -> Result<Value, Box<Diagnostic>> {
    if let Some(tree) = &a.tree {
        return eval_kept(scope, inputs, tree);
    }
    if a.filename.ends_with(".json") {
        let e = ConfigExpr {
            source: a.text.clone(),
            range: SourceRange { filename: a.filename.clone(), start: a.start, end: a.range.end },
            references: Vec::new(),
            tree: None,
        };
        return eval_config_expr(scope, inputs, &e);
    }
    eval_text(scope, inputs, &a.filename, &a.text, a.start)
}

/// Evaluates the body into an object of the schema's type (unset attributes null, absent
/// block types empty lists).
pub fn evaluate(
    scope: &dyn Scope,
    inputs: &Inputs<'_>,
    body: &Body,
    schema: &ResourceSchema,
    diags: &mut Diagnostics,
) -> Value {
    let mut given: BTreeMap<String, Value> = BTreeMap::new();
    for a in &body.attributes {
        let Some(attr) = schema.attributes.get(&a.name) else {
            diags.push(
                Diagnostic::error(
                    "Unsupported argument",
                    format!("An argument named \"{}\" is not expected here.", a.name),
                )
                .with_range(a.range.clone()),
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
        match eval_argument(scope, inputs, a) {
            Ok(v) => match convert(&v, &attr.ty) {
                Ok(v) => {
                    given.insert(a.name.clone(), v);
                }
                Err(msg) => diags.push(
                    Diagnostic::error(
                        "Incorrect attribute value type",
                        format!("Inappropriate value for attribute \"{}\": {msg}.", a.name),
                    )
                    .with_range(a.range.clone()),
                ),
            },
            Err(d) => diags.push(*d),
        }
    }
    let mut blocks: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    // Block types generated by a `dynamic` block over a collection unknown until apply.
    let mut unknown: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for b in &body.blocks {
        let Some(inner) = schema.blocks.get(&b.type_name) else {
            diags.push(
                Diagnostic::error(
                    "Unsupported block type",
                    format!("Blocks of type \"{}\" are not expected here.", b.type_name),
                )
                .with_range(b.range.clone()),
            );
            continue;
        };
        let list = blocks.entry(b.type_name.clone()).or_default();
        match &b.kind {
            BlockKind::Static(body) => list.push(evaluate(scope, inputs, body, inner, diags)),
            BlockKind::Dynamic { for_each, iterator, content } => {
                let Some(fe) = for_each else {
                    diags.push(
                        Diagnostic::error(
                            "Missing required argument",
                            "The argument \"for_each\" is required, but no definition was found.",
                        )
                        .with_range(b.range.clone()),
                    );
                    continue;
                };
                let v = match eval_argument(scope, inputs, fe) {
                    Ok(v) => v,
                    Err(d) => {
                        diags.push(*d);
                        continue;
                    }
                };
                let items: Vec<(Value, Value)> = match &v.kind {
                    Kind::Map(_, m) | Kind::Object(m) => {
                        m.iter().map(|(k, x)| (Value::string(k.clone()), x.clone())).collect()
                    }
                    Kind::List(_, xs) | Kind::Tuple(xs) => {
                        xs.iter().enumerate().map(|(i, x)| (Value::int(i as i64), x.clone())).collect()
                    }
                    Kind::Set(_, xs) => xs.iter().map(|x| (x.clone(), x.clone())).collect(),
                    Kind::Null(_) => {
                        diags.push(
                            Diagnostic::error("Invalid dynamic for_each value", "Cannot use a null value in for_each.")
                                .with_range(fe.range.clone()),
                        );
                        continue;
                    }
                    Kind::Unknown(_) => {
                        // How many blocks is unknown until apply: the whole list is unknown.
                        unknown.insert(b.type_name.clone());
                        continue;
                    }
                    _ => {
                        diags.push(
                            Diagnostic::error(
                                "Invalid dynamic for_each value",
                                format!(
                                    "Cannot use a {} value in for_each. An iterable collection is required.",
                                    v.ty().friendly_name()
                                ),
                            )
                            .with_range(fe.range.clone()),
                        );
                        continue;
                    }
                };
                let list = blocks.entry(b.type_name.clone()).or_default();
                for (key, value) in items {
                    let it = IteratorScope { parent: scope, name: iterator, key, value };
                    list.push(evaluate(&it, inputs, content, inner, diags));
                }
            }
        }
    }
    let mut attrs: BTreeMap<String, Value> = crate::util::sort::btree_map(
        schema
            .attributes
            .iter()
            .map(|(k, a)| (k.clone(), given.remove(k).unwrap_or_else(|| Value::null(a.ty.clone())))),
    );
    for k in schema.blocks.keys() {
        let list = blocks.remove(k).unwrap_or_default();
        attrs.insert(k.clone(), if unknown.contains(k) { Value::dynamic() } else { Value::tuple(list) });
    }
    Value::object(attrs)
}

/// An attribute of an object value.
pub fn attr<'v>(v: &'v Value, name: &str) -> Option<&'v Value> {
    match &v.kind {
        Kind::Object(m) => m.get(name),
        _ => None,
    }
}
