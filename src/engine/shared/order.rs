//! Resources by module instance, and which resources a reference reaches.
//!
//! The plan walks graph/'s plan graph (`plan_walk`): its order, the state `dependencies` it
//! records and forced create_before_destroy are the graph's. What is left here answers questions
//! the graph is not asked: the resources of every module instance a resource node plans
//! ([`resources`]), and the resources an expression reaches ([`reached`]: for outputs and
//! checks left out by a failure or by `-target`, and orphans of vanished module instances),
//! through local values, module input variables (the call's arguments) and module outputs,
//! transitively. A reference to a whole module (`depends_on = [module.m]`, or `module.m` in an
//! expression) reaches everything in the module and in the modules it calls, and whatever is
//! evaluated in a module reaches what the call's `depends_on`, `count` and `for_each` do
//! (`ModuleExpansionTransformer`).

use crate::addrs::Subject;
use crate::config::model::{Config, Module, Reference, Resource};
use crate::eval::module_overrides::ModuleOverrides;
use crate::eval::module_scope::ModuleKey;
use std::collections::{BTreeSet, HashSet};

/// A resource of one module instance.
pub struct Walkable<'c> {
    /// Module call names from the root.
    pub path: Vec<String>,
    /// The instance of each call on the path (`None` for a call without count/for_each).
    pub keys: Vec<Option<ModuleKey>>,
    /// The module instance's address in state terms (`""`, `module.a[0].module.b`).
    pub module_addr: String,
    pub resource: &'c Resource,
    /// Absolute resource address (`module.a[0].mock_resource.x`).
    pub address: String,
    /// The same without instance keys (`module.a.mock_resource.x`): what state
    /// `dependencies` and references name.
    pub config_address: String,
}

impl<'c> Walkable<'c> {
    /// This configuration resource in the module instance `keys` (one per call of its path).
    pub fn in_instance(&self, keys: &[Option<ModuleKey>]) -> Walkable<'c> {
        let module_addr = instance_addr(&self.path, keys);
        let r = self.resource;
        let local = format!("{}{}.{}", r.mode.prefix(), r.type_name, r.name);
        let address = if module_addr.is_empty() { local } else { format!("{module_addr}.{local}") };
        Walkable {
            path: self.path.clone(),
            keys: keys.to_vec(),
            module_addr,
            resource: self.resource,
            address,
            config_address: self.config_address.clone(),
        }
    }
}

/// Every resource of the configuration once, in the order of [`resources`], outside any module
/// instance (each key `None`): what the plan decides per configuration resource before the walk
/// expands the modules ([`Walkable::in_instance`] places one in an instance).
pub fn config_resources(config: &Config) -> Vec<Walkable<'_>> {
    fn module<'c>(m: &'c Module, path: &mut Vec<String>, out: &mut Vec<Walkable<'c>>) {
        for r in &m.resources {
            let local = format!("{}{}.{}", r.mode.prefix(), r.type_name, r.name);
            let config_address = absolute(path, &local);
            out.push(Walkable {
                path: path.clone(),
                keys: vec![None; path.len()],
                module_addr: module_addr(path),
                resource: r,
                address: config_address.clone(),
                config_address,
            });
        }
        for call in &m.module_calls {
            let Some(child) = call.module.as_deref() else { continue };
            path.push(call.name.clone());
            module(child, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    module(&config.root, &mut Vec::new(), &mut out);
    out
}

/// The module at `path` (call names), if loaded and not expanded with count/for_each.
pub fn module_at<'c>(config: &'c Config, path: &[String]) -> Option<&'c Module> {
    let mut m = &config.root;
    for name in path {
        let call = m.module_calls.iter().find(|c| &c.name == name)?;
        m = call.module.as_deref()?;
    }
    Some(m)
}

pub fn module_addr(path: &[String]) -> String {
    path.iter().map(|n| format!("module.{n}")).collect::<Vec<_>>().join(".")
}

fn absolute(path: &[String], resource: &str) -> String {
    if path.is_empty() {
        resource.to_string()
    } else {
        format!("{}.{resource}", module_addr(path))
    }
}

/// Every resource of every module instance, in configuration order, module by module (depth
/// first). `expand` gives the instances of a call with count/for_each (given the call's
/// module path and keys); `None` (not known) leaves that call out and names it in `unexpanded`.
/// Module instances `overrides` names are left out, with everything inside them (Terraform's
/// expander leaves overridden instances out of `ExpandModule`).
pub fn resources<'c>(
    config: &'c Config,
    overrides: &ModuleOverrides,
    expand: &mut Expand<'_>,
    unexpanded: &mut Vec<String>,
) -> Vec<Walkable<'c>> {
    let mut out = Vec::new();
    let mut walk = Collect { overrides, expand, unexpanded, out: &mut out };
    walk.module(&config.root, &mut Vec::new(), &mut Vec::new());
    out
}

/// What [`resources`] carries down the module tree.
struct Collect<'w, 'c, 'e> {
    overrides: &'w ModuleOverrides,
    expand: &'w mut Expand<'e>,
    unexpanded: &'w mut Vec<String>,
    out: &'w mut Vec<Walkable<'c>>,
}

/// The instances of an expanded module call: (call path, keys, call name) → keys.
pub type Expand<'e> = dyn FnMut(&[String], &[Option<ModuleKey>], &str) -> Option<Vec<ModuleKey>> + 'e;

/// `module.a[0].module.b` for call names and keys.
pub fn instance_addr(path: &[String], keys: &[Option<ModuleKey>]) -> String {
    path.iter()
        .zip(keys)
        .map(|(n, k)| format!("module.{n}{}", k.as_ref().map(ModuleKey::text).unwrap_or_default()))
        .collect::<Vec<_>>()
        .join(".")
}

impl<'c> Collect<'_, 'c, '_> {
    fn module(&mut self, m: &'c Module, path: &mut Vec<String>, keys: &mut Vec<Option<ModuleKey>>) {
        let module_inst = instance_addr(path, keys);
        for r in &m.resources {
            let local = format!("{}{}.{}", r.mode.prefix(), r.type_name, r.name);
            let address = if module_inst.is_empty() { local.clone() } else { format!("{module_inst}.{local}") };
            self.out.push(Walkable {
                path: path.clone(),
                keys: keys.clone(),
                module_addr: module_inst.clone(),
                resource: r,
                address,
                config_address: absolute(path, &local),
            });
        }
        for call in &m.module_calls {
            let Some(child) = call.module.as_deref() else { continue };
            let instances: Vec<Option<ModuleKey>> = if call.count.is_some() || call.for_each.is_some() {
                match (self.expand)(path, keys, &call.name) {
                    Some(list) => list.into_iter().map(Some).collect(),
                    None => {
                        path.push(call.name.clone());
                        self.unexpanded.push(module_addr(path));
                        path.pop();
                        continue;
                    }
                }
            } else {
                vec![None]
            };
            for k in instances {
                path.push(call.name.clone());
                keys.push(k);
                if self.overrides.is_empty() || self.overrides.outputs(&instance_addr(path, keys)).is_none() {
                    self.module(child, path, keys);
                }
                path.pop();
                keys.pop();
            }
        }
    }
}

/// A resource address without module instance keys (`module.a[0].x.y` → `module.a.x.y`).
pub fn config_addr(address: &str) -> String {
    let mut out = String::with_capacity(address.len());
    let mut depth = 0;
    let mut in_module_key = false;
    let mut rest = address;
    // Only keys right after a `module.NAME` step are dropped.
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("module.") {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            out.push_str("module.");
            out.push_str(&after[..end]);
            rest = &after[end..];
            if rest.starts_with('[') {
                in_module_key = true;
            }
            if in_module_key {
                // Skip the key, quotes respected.
                let mut quoted = false;
                let mut skip = 0;
                for (i, c) in rest.char_indices() {
                    match c {
                        '"' => quoted = !quoted,
                        '[' if !quoted => depth += 1,
                        ']' if !quoted => {
                            depth -= 1;
                            if depth == 0 {
                                skip = i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &rest[skip..];
                in_module_key = false;
            }
            if let Some(r) = rest.strip_prefix('.') {
                out.push('.');
                rest = r;
            }
        } else {
            out.push_str(rest);
            break;
        }
    }
    out
}

/// The absolute addresses of the resources `refs` (written in the module at `path`) reach.
///
/// Walked with a stack of its own, not by recursion: a chain of 10,000 local values each
/// reading the one before is one step per local, and the module's stack would not hold them
/// as calls (the evaluation of such a chain stops at eval::limits::MAX_NESTED with a ranged
/// diagnostic; this walk must reach it).
pub fn reached(config: &Config, path: &[String], refs: &[Reference]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen = HashSet::new();
    let mut todo = vec![Step::Refs(path.to_vec(), refs)];
    while let Some(step) = todo.pop() {
        match step {
            Step::Refs(path, refs) => walk_refs(config, &path, refs, &mut out, &mut seen, &mut todo),
            Step::Expansion(path) => expansion_refs(config, &path, &mut seen, &mut todo),
            Step::Whole(path) => whole_module(config, &path, &mut out, &mut seen, &mut todo),
        }
    }
    out
}

/// What is left to walk: references written in the module at a path, the expansion of the
/// module at a path, or the whole module at a path.
enum Step<'a> {
    Refs(Vec<String>, &'a [Reference]),
    Expansion(Vec<String>),
    Whole(Vec<String>),
}

type Seen = HashSet<(Vec<String>, String)>;

fn walk_refs<'a>(
    config: &'a Config,
    path: &[String],
    refs: &'a [Reference],
    out: &mut BTreeSet<String>,
    seen: &mut Seen,
    todo: &mut Vec<Step<'a>>,
) {
    let Some(module) = module_at(config, path) else { return };
    todo.push(Step::Expansion(path.to_vec()));
    for r in refs {
        match &r.subject {
            Subject::Resource(ra) | Subject::ResourceInstance(ra, _) => {
                out.insert(absolute(path, &ra.to_string()));
            }
            Subject::LocalValue(n) => {
                if seen.insert((path.to_vec(), format!("local.{n}"))) {
                    if let Some(l) = module.locals.iter().find(|l| &l.name == n) {
                        todo.push(Step::Refs(path.to_vec(), &l.expr.references));
                    }
                }
            }
            Subject::InputVariable(n) => {
                let Some((call_name, parent)) = path.split_last() else { continue };
                if !seen.insert((path.to_vec(), format!("var.{n}"))) {
                    continue;
                }
                let Some(pm) = module_at(config, parent) else { continue };
                if let Some(arg) = pm
                    .module_calls
                    .iter()
                    .find(|c| &c.name == call_name)
                    .and_then(|call| call.arguments.iter().find(|a| &a.name == n))
                {
                    todo.push(Step::Refs(parent.to_vec(), &arg.expr.references));
                }
            }
            Subject::ModuleCallOutput { call, output, .. } => output_refs(config, path, call, Some(output), seen, todo),
            Subject::ModuleCall(call) | Subject::ModuleCallInstance(call, _) => {
                let mut child = path.to_vec();
                child.push(call.clone());
                todo.push(Step::Whole(child));
            }
        }
    }
}

/// What the expansion of the module at `path` refers to: its call's `depends_on`, `count` and
/// `for_each`, in the calling module (whose own expansion comes along when that is walked).
fn expansion_refs<'a>(config: &'a Config, path: &[String], seen: &mut Seen, todo: &mut Vec<Step<'a>>) {
    let Some((call_name, parent)) = path.split_last() else { return };
    if !seen.insert((path.to_vec(), "(expand)".to_string())) {
        return;
    }
    let Some(call) = module_at(config, parent).and_then(|pm| pm.module_calls.iter().find(|c| &c.name == call_name))
    else {
        return;
    };
    todo.push(Step::Refs(parent.to_vec(), &call.references));
}

/// Everything the close node of the module at `path` waits for: its resources and what they,
/// its outputs, its locals and the calls it makes refer to, and the same in the modules it calls.
fn whole_module<'a>(
    config: &'a Config,
    path: &[String],
    out: &mut BTreeSet<String>,
    seen: &mut Seen,
    todo: &mut Vec<Step<'a>>,
) {
    if !seen.insert((path.to_vec(), "(close)".to_string())) {
        return;
    }
    let Some(module) = module_at(config, path) else { return };
    todo.push(Step::Expansion(path.to_vec()));
    for r in &module.resources {
        out.insert(absolute(path, &format!("{}{}.{}", r.mode.prefix(), r.type_name, r.name)));
        todo.push(Step::Refs(path.to_vec(), &r.references));
    }
    for o in &module.outputs {
        todo.push(Step::Refs(path.to_vec(), &o.references));
    }
    for l in &module.locals {
        todo.push(Step::Refs(path.to_vec(), &l.expr.references));
    }
    for call in &module.module_calls {
        for a in &call.arguments {
            todo.push(Step::Refs(path.to_vec(), &a.expr.references));
        }
        let mut child = path.to_vec();
        child.push(call.name.clone());
        todo.push(Step::Whole(child));
    }
}

fn output_refs<'a>(
    config: &'a Config,
    path: &[String],
    call: &str,
    output: Option<&String>,
    seen: &mut Seen,
    todo: &mut Vec<Step<'a>>,
) {
    let mut child_path = path.to_vec();
    child_path.push(call.to_string());
    let Some(child) = module_at(config, &child_path) else { return };
    for o in &child.outputs {
        if output.is_some_and(|n| n != &o.name) || !seen.insert((child_path.clone(), format!("output.{}", o.name))) {
            continue;
        }
        todo.push(Step::Refs(child_path.clone(), &o.value.references));
        todo.push(Step::Refs(child_path.clone(), &o.depends_on));
    }
}

/// The managed resources whose pending changes defer the read of data source `w` to the apply
/// (Terraform's `attachDataResourceDependsOnTransformer`, read by `forcePlanReadData`):
/// - a resource its `depends_on` names, itself only (not what it depends on);
/// - a managed resource its configuration refers to directly (not through a local value);
/// - for anything else its `depends_on` names (a module), every resource that reaches, with
///   what they depend on;
/// - for the `depends_on` of every module call it is inside, what that names and everything
///   that depends on in turn.
///
/// `closure` gives a resource's dependencies, transitively (configuration addresses).
pub fn data_depends_on(
    config: &Config,
    w: &Walkable<'_>,
    closure: &mut dyn FnMut(&str) -> BTreeSet<String>,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut with_ancestors =
        |out: &mut BTreeSet<String>, path: &[String], r: &Reference, only_itself: bool| match &r.subject {
            Subject::Resource(ra) | Subject::ResourceInstance(ra, _) => {
                let a = absolute(path, &ra.to_string());
                if !only_itself {
                    out.extend(closure(&a));
                }
                out.insert(a);
            }
            _ => {
                for a in reached(config, path, std::slice::from_ref(r)) {
                    out.extend(closure(&a));
                    out.insert(a);
                }
            }
        };
    for r in &w.resource.depends_on {
        with_ancestors(&mut out, &w.path, r, true);
    }
    for r in &w.resource.references {
        if let Subject::Resource(ra) | Subject::ResourceInstance(ra, _) = &r.subject {
            if ra.mode == crate::addrs::ResourceMode::Managed {
                out.insert(absolute(&w.path, &ra.to_string()));
            }
        }
    }
    for depth in (1..=w.path.len()).rev() {
        let (call_path, parent) = (&w.path[..depth], &w.path[..depth - 1]);
        let Some(call) =
            module_at(config, parent).and_then(|pm| pm.module_calls.iter().find(|c| c.name == call_path[depth - 1]))
        else {
            continue;
        };
        for r in &call.depends_on {
            with_ancestors(&mut out, parent, r, false);
        }
    }
    out.retain(|a| !is_data(a));
    out
}

/// Whether a configuration resource address names a data source (`module.m.data.x.y`).
fn is_data(address: &str) -> bool {
    let mut rest = address;
    while let Some(after) = rest.strip_prefix("module.") {
        rest = after.split_once('.').map_or("", |(_, r)| r);
    }
    rest.starts_with("data.")
}

/// The module part of a configuration resource address (`module.a.module.b` of
/// `module.a.module.b.x.y`, `""` at the root).
pub fn module_of(address: &str) -> &str {
    let mut end = 0;
    let mut rest = address;
    while let Some(after) = rest.strip_prefix("module.") {
        let Some((_, r)) = after.split_once('.') else { break };
        end = address.len() - r.len();
        rest = r;
    }
    address[..end].trim_end_matches('.')
}
