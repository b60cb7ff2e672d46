//! Which resources a resource depends on, and the order the walks visit resources in.
//!
//! A resource depends on every resource its references reach, through local values, module
//! input variables (the call's arguments) and module outputs, transitively: Terraform records
//! that set as the state's `dependencies` (`AttachDependenciesTransformer` keeps every resource
//! ancestor). Cycles are refused before by the validate graph.

use crate::addrs::Subject;
use crate::config::model::{Config, Module, Reference, Resource};
use std::collections::{BTreeSet, HashSet};

/// A resource of a module reachable through module calls without count/for_each.
pub struct Walkable<'c> {
    /// Module call names from the root.
    pub path: Vec<String>,
    /// The module's address in state terms (`""`, `module.a.module.b`).
    pub module_addr: String,
    pub resource: &'c Resource,
    /// Absolute resource address (`module.a.mock_resource.x`).
    pub address: String,
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

/// Every walkable resource, in configuration order, module by module (depth first).
/// Module calls with count/for_each are returned in `expanded` (not walked yet).
pub fn resources<'c>(config: &'c Config, expanded: &mut Vec<String>) -> Vec<Walkable<'c>> {
    let mut out = Vec::new();
    collect(&config.root, &mut Vec::new(), &mut out, expanded);
    out
}

fn collect<'c>(m: &'c Module, path: &mut Vec<String>, out: &mut Vec<Walkable<'c>>, expanded: &mut Vec<String>) {
    for r in &m.resources {
        let local = format!("{}{}.{}", r.mode.prefix(), r.type_name, r.name);
        out.push(Walkable { path: path.clone(), module_addr: module_addr(path), resource: r, address: absolute(path, &local) });
    }
    for call in &m.module_calls {
        path.push(call.name.clone());
        if call.count.is_some() || call.for_each.is_some() {
            expanded.push(module_addr(path));
        } else if let Some(child) = call.module.as_deref() {
            collect(child, path, out, expanded);
        }
        path.pop();
    }
}

/// The absolute addresses of the resources `refs` (written in the module at `path`) reach.
pub fn reached(config: &Config, path: &[String], refs: &[Reference]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen = HashSet::new();
    walk_refs(config, path, refs, &mut out, &mut seen);
    out
}

fn walk_refs(config: &Config, path: &[String], refs: &[Reference], out: &mut BTreeSet<String>, seen: &mut HashSet<(Vec<String>, String)>) {
    let Some(module) = module_at(config, path) else { return };
    for r in refs {
        match &r.subject {
            Subject::Resource(ra) | Subject::ResourceInstance(ra, _) => {
                out.insert(absolute(path, &ra.to_string()));
            }
            Subject::LocalValue(n) => {
                if seen.insert((path.to_vec(), format!("local.{n}"))) {
                    if let Some(l) = module.locals.iter().find(|l| &l.name == n) {
                        walk_refs(config, path, &l.expr.references, out, seen);
                    }
                }
            }
            Subject::InputVariable(n) => {
                let Some((call_name, parent)) = path.split_last() else { continue };
                if !seen.insert((path.to_vec(), format!("var.{n}"))) {
                    continue;
                }
                let Some(pm) = module_at(config, parent) else { continue };
                if let Some(call) = pm.module_calls.iter().find(|c| &c.name == call_name) {
                    if let Some(arg) = call.arguments.iter().find(|a| &a.name == n) {
                        walk_refs(config, parent, &arg.expr.references, out, seen);
                    }
                    walk_refs(config, parent, &call.depends_on, out, seen);
                }
            }
            Subject::ModuleCallOutput { call, output, .. } => output_refs(config, path, call, Some(output), out, seen),
            Subject::ModuleCall(call) | Subject::ModuleCallInstance(call, _) => output_refs(config, path, call, None, out, seen),
        }
    }
}

fn output_refs(config: &Config, path: &[String], call: &str, output: Option<&String>, out: &mut BTreeSet<String>, seen: &mut HashSet<(Vec<String>, String)>) {
    let mut child_path = path.to_vec();
    child_path.push(call.to_string());
    let Some(child) = module_at(config, &child_path) else { return };
    for o in &child.outputs {
        if output.is_some_and(|n| n != &o.name) || !seen.insert((child_path.clone(), format!("output.{}", o.name))) {
            continue;
        }
        walk_refs(config, &child_path, &o.value.references, out, seen);
        walk_refs(config, &child_path, &o.depends_on, out, seen);
    }
}

/// A dependency order of `deps` (indices into the same list): every resource after the ones it
/// depends on, otherwise in the given order. Dependencies outside the list are ignored; a
/// cycle (refused earlier) falls back to the given order for its members.
pub fn walk_order(deps: &[Vec<usize>]) -> Vec<usize> {
    let mut state = vec![0u8; deps.len()];
    let mut out = Vec::with_capacity(deps.len());
    fn visit(i: usize, deps: &[Vec<usize>], state: &mut [u8], out: &mut Vec<usize>) {
        if state[i] != 0 {
            return;
        }
        state[i] = 1;
        for &d in &deps[i] {
            visit(d, deps, state, out);
        }
        state[i] = 2;
        out.push(i);
    }
    for i in 0..deps.len() {
        visit(i, deps, &mut state, &mut out);
    }
    out
}
