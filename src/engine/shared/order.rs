//! Resources by module instance, and their addresses.
//!
//! Nothing here orders anything: the plan walks graph/'s plan graph and the apply its apply
//! graph, and what a node waits for or reaches is the graph's answer (its ancestors). What is
//! left is bookkeeping: the configuration's resources ([`config_resources`]), the resources of
//! every module instance ([`resources`]), and module and resource addresses.

use crate::config::model::{Config, Module, Resource};
use crate::eval::module_overrides::ModuleOverrides;
use crate::eval::module_scope::ModuleKey;

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
    let mut out = Vec::new();
    let overrides = ModuleOverrides::default();
    let mut walk = Collect { overrides: &overrides, expand: None, unexpanded: &mut Vec::new(), out: &mut out };
    walk.module(&config.root, &mut Vec::new(), &mut Vec::new());
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
    let mut walk = Collect { overrides, expand: Some(expand), unexpanded, out: &mut out };
    walk.module(&config.root, &mut Vec::new(), &mut Vec::new());
    out
}

/// What [`resources`] carries down the module tree.
struct Collect<'w, 'c, 'e> {
    overrides: &'w ModuleOverrides,
    /// `None`: every call once, unexpanded (each key `None`).
    expand: Option<&'w mut Expand<'e>>,
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
            let expand = self.expand.as_mut().filter(|_| call.count.is_some() || call.for_each.is_some());
            let instances: Vec<Option<ModuleKey>> = if let Some(expand) = expand {
                match expand(path, keys, &call.name) {
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
