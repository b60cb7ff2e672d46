//! The plan's `relevant_attributes` (Terraform's `relevantResourceAttrsForPlan` over
//! `internal/lang/globalref`): the resource attributes that every changing resource instance
//! and root output reads, directly or through variables, locals, module outputs and
//! count/for_each, each path cut to what the resource's schema can index.
//!
//! Terraform sorts the list with a comparator that indexes the unsorted slice
//! (`jsonplan.marshalRelevantAttrs`), so its order is not deterministic across runs; this one is
//! sorted by address and path.

use super::plan::{InstanceChange, OutputChange};
use crate::addrs::{module_instance_text, parse_module_instance, InstanceKey, ResourceAddr, ResourceMode, Subject};
use crate::config::model::{Config, Module, Resource};
use crate::engine::jsonconfig;
use crate::eval::Type;
use crate::hcl::ast::Item;
use crate::plans::Action;
use crate::providers::{Provider, ResourceSchema};
use jsonconfig::refs::{self, Key, Ref, Step, Target};
use jsonconfig::sources::Sources;
use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, OnceLock};

type ModInst = Vec<(String, Option<InstanceKey>)>;

/// Where a reference is resolved: a module instance, or a resource instance for
/// `count.*` / `each.*`.
#[derive(Clone, Debug)]
enum Container {
    Module(ModInst),
    Resource(ModInst, ResourceAddr, Option<InstanceKey>),
}

impl Container {
    fn module(&self) -> &ModInst {
        match self {
            Container::Module(m) | Container::Resource(m, ..) => m,
        }
    }
}

#[derive(Clone, Debug)]
struct GlobalRef {
    container: Container,
    local: Ref,
}

impl GlobalRef {
    /// `absoluteRef`: only count/each references keep their resource.
    fn new(container: &Container, local: Ref) -> GlobalRef {
        let container = match local.target {
            Target::Count(_) | Target::Each(_) => container.clone(),
            _ => Container::Module(container.module().clone()),
        };
        GlobalRef { container, local }
    }

    /// `addrKey`: the container, the subject's kind and the reference as written.
    fn key(&self) -> String {
        let c = match &self.container {
            Container::Module(m) => module_instance_text(m),
            Container::Resource(m, r, k) => {
                format!("{}{r}{}", module_instance_text(m), k.as_ref().map(|k| k.to_string()).unwrap_or_default())
            }
        };
        let kind = match &self.local.target {
            Target::NoKeyInstance(_) | Target::Object(Subject::ResourceInstance(..)) => "instance",
            _ => "",
        };
        format!("{c}({kind}){}{}", self.local.target, refs::traversal_str(&self.local.remaining))
    }
}

/// A plan's relevant attributes, worked out when its JSON first asks for them: most plans are
/// applied without being shown, and the analysis was about a tenth of a large plan in Node.
#[derive(Clone, Debug, Default)]
pub struct Relevant {
    /// What the analysis reads besides the plan: the configuration it was made from (a copy:
    /// the plan outlives the caller's) and the changed outputs of module instances.
    from: Option<Arc<(Config, Vec<(String, String)>)>>,
    done: OnceLock<Vec<Json>>,
}

impl Relevant {
    /// `module_outputs` as [`attributes`] takes them.
    pub fn new(config: &Config, module_outputs: Vec<(String, String)>) -> Relevant {
        Relevant { from: Some(Arc::new((config.clone(), module_outputs))), done: OnceLock::new() }
    }

    /// The entries for `changes` and `outputs` (the plan's: they are fixed once it is made),
    /// with the plan's `provider` (its schemas cut each path).
    pub fn get(&self, provider: &dyn Provider, changes: &[InstanceChange], outputs: &[OutputChange]) -> &[Json] {
        self.done.get_or_init(|| match &self.from {
            Some(from) => attributes(&from.0, &Sources::new(&from.0), provider, changes, outputs, &from.1),
            None => Vec::new(),
        })
    }
}

/// The relevant attributes of a plan: `{resource, attribute}` entries.
///
/// `module_outputs`: the changed outputs of module instances below the root, as
/// (module instance address, name).
pub fn attributes(
    config: &Config,
    sources: &Sources<'_>,
    provider: &dyn Provider,
    changes: &[InstanceChange],
    outputs: &[OutputChange],
    module_outputs: &[(String, String)],
) -> Vec<Json> {
    let a = Analyzer::new(config, sources, provider);
    let mut start = Vec::new();
    for c in changes.iter().filter(|c| c.action != Action::NoOp) {
        let Ok(module) = parse_module_instance(&c.module) else { continue };
        let addr = ResourceAddr { mode: c.mode, type_name: c.type_name.clone(), name: c.name.clone() };
        start.extend(a.resource_refs(&module, &addr, c.key.clone(), &[]));
    }
    for o in outputs.iter().filter(|o| o.action != Action::NoOp) {
        if let Some(out) = config.root.outputs.iter().find(|x| x.name == o.name) {
            start.extend(
                refs::in_config(&out.value).into_iter().map(|r| GlobalRef::new(&Container::Module(Vec::new()), r)),
            );
        }
    }
    for (module, name) in module_outputs {
        let Ok(inst) = parse_module_instance(module) else { continue };
        let out = a.module(&inst).and_then(|m| m.outputs.iter().find(|o| &o.name == name));
        if let Some(o) = out {
            start.extend(at(&inst, refs::in_config(&o.value)));
        }
    }
    let mut found: BTreeMap<String, (String, Json)> = BTreeMap::new();
    let mut visited: HashSet<String> = HashSet::new();
    let mut pending: Vec<GlobalRef> = Vec::new();
    let mut queued: HashSet<String> = HashSet::new();
    let note = |r: &GlobalRef, found: &mut BTreeMap<String, (String, Json)>| {
        if let Some(v) = a.validate(r) {
            if let Some(attr) = resource_attr(&v) {
                found.insert(v.key(), attr);
            }
        }
    };
    for r in start {
        note(&r, &mut found);
        if queued.insert(r.key()) {
            pending.push(r);
        }
    }
    while let Some(r) = pending.pop() {
        let key = r.key();
        queued.remove(&key);
        visited.insert(key);
        for n in a.meta_references(&r) {
            note(&n, &mut found);
            let k = n.key();
            if !visited.contains(&k) && queued.insert(k) {
                pending.push(n);
            }
        }
    }
    let mut out: Vec<(String, Json)> = found.into_values().collect();
    crate::util::sort::sort_by(&mut out, |x, y| (&x.0, x.1.to_string()).cmp(&(&y.0, y.1.to_string())));
    out.into_iter().map(|(resource, attribute)| json!({"resource": resource, "attribute": attribute})).collect()
}

/// `Reference.ResourceAttr`: the resource instance and the path as jsonplan encodes it.
fn resource_attr(r: &GlobalRef) -> Option<(String, Json)> {
    let (addr, key) = match &r.local.target {
        Target::Object(Subject::Resource(a)) | Target::NoKeyInstance(a) => (a, None),
        Target::Object(Subject::ResourceInstance(a, k)) => (a, Some(k)),
        _ => return None,
    };
    let module = module_instance_text(r.container.module());
    let key = key.map(|k| k.to_string()).unwrap_or_default();
    let address = if module.is_empty() { format!("{addr}{key}") } else { format!("{module}.{addr}{key}") };
    let path: Vec<Json> = r
        .local
        .remaining
        .iter()
        .map(|s| match s {
            Step::Attr(n) | Step::Index(Key::Str(n)) => json!(n),
            Step::Index(Key::Int(i)) => json!(i),
            Step::Index(Key::Other) => Json::Null,
        })
        .collect();
    Some((address, Json::Array(path)))
}

struct Analyzer<'c, 's, 'a> {
    config: &'c Config,
    sources: &'s Sources<'a>,
    provider: &'s dyn Provider,
    /// (module path text, mode, type, name) → the resource block's configuration.
    resources: HashMap<(String, ResourceMode, &'c str, &'c str), &'c Resource>,
}

impl<'c, 's, 'a> Analyzer<'c, 's, 'a> {
    fn new(config: &'c Config, sources: &'s Sources<'a>, provider: &'s dyn Provider) -> Self {
        let mut resources = HashMap::new();
        for m in config.modules() {
            for r in &m.resources {
                resources.insert((m.address.clone(), r.mode, r.type_name.as_str(), r.name.as_str()), r);
            }
        }
        Analyzer { config, sources, provider, resources }
    }

    /// `DescendantForInstance`: the module a module instance runs (keys do not matter).
    fn module(&self, inst: &[(String, Option<InstanceKey>)]) -> Option<&'c Module> {
        let mut m = &self.config.root;
        for (name, _) in inst {
            m = m.module_calls.iter().find(|c| &c.name == name)?.module.as_deref()?;
        }
        Some(m)
    }

    fn resource(&self, inst: &ModInst, addr: &ResourceAddr) -> Option<&'c Resource> {
        let m = self.module(inst)?;
        self.resources.get(&(m.address.clone(), addr.mode, addr.type_name.as_str(), addr.name.as_str())).copied()
    }

    fn schema(&self, addr: &ResourceAddr) -> Option<&'s ResourceSchema> {
        match addr.mode {
            ResourceMode::Data => self.provider.data_source_schema(&addr.type_name),
            _ => self.provider.resource_schema(&addr.type_name),
        }
    }

    /// `validateRef`: a reference to a resource the configuration declares, its path cut to
    /// what the schema can index (`walkBlock`).
    fn validate(&self, r: &GlobalRef) -> Option<GlobalRef> {
        let addr = match &r.local.target {
            Target::Object(Subject::Resource(a) | Subject::ResourceInstance(a, _)) | Target::NoKeyInstance(a) => a,
            _ => return None,
        };
        self.resource(r.container.module(), addr)?;
        let schema = self.schema(addr)?;
        let mut v = r.clone();
        v.local.remaining = walk_block(schema, &r.local.remaining);
        Some(v)
    }

    /// `MetaReferences`: the references inside the object `r` names.
    fn meta_references(&self, r: &GlobalRef) -> Vec<GlobalRef> {
        let module = r.container.module();
        match &r.local.target {
            Target::Object(Subject::InputVariable(name)) => {
                let Some(((call, _), caller)) = module.split_last() else { return Vec::new() };
                let caller = caller.to_vec();
                let Some(m) = self.module(&caller) else { return Vec::new() };
                let arg = m
                    .module_calls
                    .iter()
                    .find(|c| &c.name == call)
                    .and_then(|c| c.arguments.iter().find(|a| &a.name == name));
                arg.map(|a| at(&caller, refs::in_config(&a.expr))).unwrap_or_default()
            }
            Target::Object(Subject::LocalValue(name)) => {
                let local = self.module(module).and_then(|m| m.locals.iter().find(|l| &l.name == name));
                local.map(|l| at(module, refs::in_config(&l.expr))).unwrap_or_default()
            }
            Target::Object(Subject::ModuleCallOutput { call, key, output }) => {
                self.output_refs(module, call, key.clone(), Some(output))
            }
            Target::Object(Subject::ModuleCallInstance(call, key)) => {
                self.output_refs(module, call, Some(key.clone()), None)
            }
            Target::Object(Subject::ModuleCall(call)) => self.output_refs(module, call, None, None),
            Target::Count(_) | Target::Each(_) => match &r.container {
                Container::Resource(m, addr, _) => {
                    let rep = self.resource(m, addr).and_then(|res| res.count.as_ref().or(res.for_each.as_ref()));
                    rep.map(|e| at(m, refs::in_config(e))).unwrap_or_default()
                }
                Container::Module(_) => Vec::new(),
            },
            Target::Object(Subject::ResourceInstance(addr, key)) => {
                self.resource_refs(module, addr, Some(key.clone()), &r.local.remaining)
            }
            Target::Object(Subject::Resource(addr)) | Target::NoKeyInstance(addr) => {
                self.resource_refs(module, addr, None, &r.local.remaining)
            }
            Target::Path(_) | Target::Terraform(_) | Target::SelfRef => Vec::new(),
        }
    }

    /// `metaReferencesOutputValue` for one output, or every output of the called module.
    fn output_refs(
        &self,
        caller: &ModInst,
        call: &str,
        key: Option<InstanceKey>,
        output: Option<&str>,
    ) -> Vec<GlobalRef> {
        let mut callee = caller.clone();
        callee.push((call.to_string(), key));
        let Some(m) = self.module(&callee) else { return Vec::new() };
        m.outputs
            .iter()
            .filter(|o| output.is_none_or(|n| o.name == n))
            .flat_map(|o| at(&callee, refs::in_config(&o.value)))
            .collect()
    }

    /// `metaReferencesResourceInstance`: the references of the resource's body, narrowed to the
    /// attribute or nested blocks `remaining` starts with.
    fn resource_refs(
        &self,
        module: &ModInst,
        addr: &ResourceAddr,
        key: Option<InstanceKey>,
        remaining: &[Step],
    ) -> Vec<GlobalRef> {
        let Some(res) = self.resource(module, addr) else { return Vec::new() };
        let Some(schema) = self.schema(addr) else { return Vec::new() };
        let Some((file, block)) = self.sources.resource_block(res) else { return Vec::new() };
        let first = match remaining.first() {
            None => None,
            Some(Step::Attr(n) | Step::Index(Key::Str(n))) => Some(n.clone()),
            Some(Step::Index(Key::Int(i))) => Some(i.to_string()),
            Some(Step::Index(Key::Other)) => return Vec::new(),
        };
        let mut found = Vec::new();
        for item in &block.body.items {
            match item {
                Item::Attr(a)
                    if schema.attributes.contains_key(a.name.name)
                        && first.as_deref().is_none_or(|f| f == a.name.name) =>
                {
                    found.extend(refs::in_expr(file.text, &a.expr));
                }
                Item::Block(b) if !matches!(b.kind.name, "lifecycle" | "connection" | "provisioner") => {
                    // No block schemas here: a nested block is narrowed to by its type name.
                    let ty = if b.kind.name == "dynamic" {
                        b.labels.first().map(|l| l.value.as_ref()).unwrap_or("")
                    } else {
                        b.kind.name
                    };
                    if first.as_deref().is_none_or(|f| f == ty) {
                        block_refs(file.text, &b.body, &mut found, &[]);
                    }
                }
                _ => {}
            }
        }
        let container = Container::Resource(module.clone(), addr.clone(), key);
        found.into_iter().map(|r| GlobalRef::new(&container, r)).collect()
    }
}

/// Every reference in a nested block's body (a dynamic block's iterator is not one).
fn block_refs<'a>(src: &'a str, body: &crate::hcl::ast::Body<'a>, out: &mut Vec<Ref>, bound: &[&str]) {
    for item in &body.items {
        match item {
            Item::Attr(a) => out.extend(refs::in_expr_bound(src, &a.expr, bound)),
            Item::Block(b) if b.kind.name == "dynamic" => {
                // The iterator is named by the `iterator` argument, else by the block's label.
                let named = b.body.items.iter().find_map(|i| match i {
                    Item::Attr(a) if a.name.name == "iterator" => src.get(a.expr.span.clone()),
                    _ => None,
                });
                let iterator: &str = named.or_else(|| b.labels.first().map(|l| l.value.as_ref())).unwrap_or("");
                let mut inner: Vec<&str> = bound.to_vec();
                inner.push(iterator);
                block_refs(src, &b.body, out, &inner);
            }
            Item::Block(b) => block_refs(src, &b.body, out, bound),
        }
    }
}

fn at(module: &ModInst, refs: Vec<Ref>) -> Vec<GlobalRef> {
    let c = Container::Module(module.clone());
    refs.into_iter().map(|r| GlobalRef::new(&c, r)).collect()
}

/// `walkBlock`: the steps of `path` that name an attribute of the schema and then elements of
/// its type.
fn walk_block(schema: &ResourceSchema, path: &[Step]) -> Vec<Step> {
    let Some((first, rest)) = path.split_first() else { return Vec::new() };
    let name = match first {
        Step::Attr(n) | Step::Index(Key::Str(n)) => n.clone(),
        Step::Index(Key::Int(i)) => i.to_string(),
        Step::Index(Key::Other) => return Vec::new(),
    };
    let Some(attr) = schema.attributes.get(&name) else { return Vec::new() };
    let mut out = vec![Step::Attr(name)];
    walk_type(&attr.ty, rest, &mut out);
    out
}

fn walk_type(t: &Type, path: &[Step], out: &mut Vec<Step>) {
    let Some((first, rest)) = path.split_first() else { return };
    let int_index = || match first {
        Step::Index(Key::Int(i)) => Some(*i),
        Step::Index(Key::Str(s)) | Step::Attr(s) => s.parse::<i64>().ok(),
        Step::Index(Key::Other) => None,
    };
    let str_index = || match first {
        Step::Index(Key::Str(s)) | Step::Attr(s) => Some(s.clone()),
        Step::Index(Key::Int(i)) => Some(i.to_string()),
        Step::Index(Key::Other) => None,
    };
    match t {
        Type::List(e) => {
            if let Some(i) = int_index() {
                out.push(Step::Index(Key::Int(i)));
                walk_type(e, rest, out);
            }
        }
        Type::Map(e) => {
            if let Some(k) = str_index() {
                out.push(Step::Index(Key::Str(k)));
                walk_type(e, rest, out);
            }
        }
        Type::Object(attrs) => {
            if let Some((k, at)) = str_index().and_then(|k| attrs.get(&k).map(|t| (k, t))) {
                out.push(Step::Attr(k));
                walk_type(at, rest, out);
            }
        }
        Type::Tuple(items) => {
            if let Some((i, et)) =
                int_index().and_then(|i| usize::try_from(i).ok().and_then(|u| items.get(u)).map(|t| (i, t)))
            {
                out.push(Step::Index(Key::Int(i)));
                walk_type(et, rest, out);
            }
        }
        _ => {}
    }
}
