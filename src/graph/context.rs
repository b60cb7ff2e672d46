//! [`BuildContext`]: what every transformer may read while building a graph — the
//! configuration flattened into an indexed module list, and the build options.
//!
//! Terraform walks `*configs.Config` trees and looks modules up by path
//! (`Config.Descendant`) again and again; here the tree is flattened once, in
//! [`Config::modules`] order (depth-first, root first), so nodes can point at their
//! configuration objects with plain indices ([`ConfigRef`]).

pub use super::config_ref::ConfigRef;
use super::shared::{FastMap, Interner, SharedStr};
pub use super::state_index::ModuleInstance;
use super::state_index::{ConfigResources, StateIndex};
use super::BuildOptions;
use crate::addrs::{module_instance_text, parse_module_instance, ModulePath};
use crate::config::{
    implied_fqn, Check, Config, Local, Module, ModuleCall, Output, ProviderConfig, Resource, Variable,
};
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::sync::Arc;

/// One module of the configuration with its place in the tree.
#[derive(Clone, Debug)]
pub struct ModuleEntry<'c> {
    pub module: &'c Module,
    /// The calling module's index and the index of the call in its `module_calls`.
    pub parent: Option<(u32, u32)>,
    /// The module's path, shared by every node of the module.
    pub path: Arc<ModulePath>,
}

/// A module call whose module is not loaded (registry, git, … sources): it still gets
/// expansion and close nodes, and an input node per argument.
#[derive(Clone, Debug)]
pub struct OpaqueCall {
    pub parent: u32,
    pub call: u32,
    /// The path the module would have.
    pub path: ModulePath,
}

/// Read-only context for the transformers of one build.
pub struct BuildContext<'c> {
    pub config: &'c Config,
    pub options: &'c BuildOptions,
    /// Every loaded module, root first, in [`Config::modules`] order.
    pub modules: Vec<ModuleEntry<'c>>,
    /// Module path → index into [`BuildContext::modules`].
    pub module_index: HashMap<ModulePath, u32>,
    /// Calls without a loaded module, in module order then call order.
    pub opaque_calls: Vec<OpaqueCall>,
    /// One shared copy of every string and module path the build puts in nodes and edges.
    pub names: Interner,
    /// Provider source addresses by (module index, local name), and state provider addresses
    /// parsed: asked for by every resource node, answered once each.
    provider_fqns: RefCell<FastMap<(u32, SharedStr), SharedStr>>,
    implied_fqns: RefCell<FastMap<SharedStr, SharedStr>>,
    parsed_providers: RefCell<FastMap<SharedStr, Option<ParsedProvider>>>,
    state_index: OnceCell<StateIndex<'c>>,
    config_resources: OnceCell<ConfigResources<'c>>,
    module_instances: RefCell<FastMap<String, Option<ModuleInstance>>>,
}

/// A provider configuration address split into module, source address and alias.
pub type ParsedProvider = (Arc<ModulePath>, SharedStr, Option<SharedStr>);

impl<'c> BuildContext<'c> {
    /// Flattens the configuration. O(modules + calls).
    pub fn new(config: &'c Config, options: &'c BuildOptions) -> Self {
        let mut modules: Vec<ModuleEntry<'c>> = Vec::new();
        let mut opaque_calls = Vec::new();
        // Depth-first, calls in order, as Config::modules().
        let names = Interner::default();
        let mut stack: Vec<(&'c Module, Option<(u32, u32)>)> = vec![(&config.root, None)];
        while let Some((m, parent)) = stack.pop() {
            let idx = modules.len() as u32;
            modules.push(ModuleEntry { module: m, parent, path: names.path(&m.path) });
            for (ci, call) in m.module_calls.iter().enumerate().rev() {
                match &call.module {
                    Some(child) => stack.push((child, Some((idx, ci as u32)))),
                    None => {
                        opaque_calls.push(OpaqueCall { parent: idx, call: ci as u32, path: m.path.child(&call.name) })
                    }
                }
            }
        }
        crate::util::sort::sort_by_key(&mut opaque_calls, |o| (o.parent, o.call));
        let module_index = modules.iter().enumerate().map(|(i, e)| (e.module.path.clone(), i as u32)).collect();
        BuildContext {
            config,
            options,
            modules,
            module_index,
            opaque_calls,
            names,
            provider_fqns: Default::default(),
            implied_fqns: Default::default(),
            parsed_providers: Default::default(),
            state_index: OnceCell::new(),
            config_resources: OnceCell::new(),
            module_instances: Default::default(),
        }
    }

    /// The module instance written `written` (the module part of an instance address), parsed
    /// once per spelling; `None` if it does not parse.
    pub fn module_instance(&self, written: &str) -> Option<ModuleInstance> {
        if let Some(m) = self.module_instances.borrow().get(written) {
            return m.clone();
        }
        let m = parse_module_instance(written).ok().map(|steps| {
            let path = self.names.path(&ModulePath(steps.iter().map(|(n, _)| n.clone()).collect()));
            ModuleInstance {
                text: self.str(&module_instance_text(&steps)),
                index: self.module_index.get(&*path).copied(),
                path,
            }
        });
        self.module_instances.borrow_mut().insert(written.to_string(), m.clone());
        m
    }

    /// The prior state by instance address, built on first use and shared by every step.
    pub fn state_index(&self) -> &StateIndex<'c> {
        self.state_index
            .get_or_init(|| StateIndex::new(self.options.state.as_ref(), |m| self.module_instance(m), |s| self.str(s)))
    }

    /// Resource blocks by module and address, built on first use and shared by every step.
    pub fn config_resources(&self) -> &ConfigResources<'c> {
        self.config_resources.get_or_init(|| ConfigResources::new(self.modules.iter().map(|e| e.module)))
    }

    /// [`BuildContext::provider_fqn`] of the module at `index` in `modules`, shared.
    pub fn provider_fqn_shared(&self, index: u32, local_name: &str) -> SharedStr {
        let module = self.module(index);
        let key = (index, self.str(local_name));
        if let Some(f) = self.provider_fqns.borrow().get(&key) {
            return f.clone();
        }
        let f = match module.required_providers.iter().find(|r| r.name == local_name) {
            Some(r) => self.str(&r.fqn),
            None => self.implied_fqn_shared(local_name),
        };
        self.provider_fqns.borrow_mut().insert(key, f.clone());
        f
    }

    /// [`implied_fqn`], shared.
    pub fn implied_fqn_shared(&self, local_name: &str) -> SharedStr {
        if let Some(f) = self.implied_fqns.borrow().get(local_name) {
            return f.clone();
        }
        let f = self.str(&implied_fqn(local_name));
        self.implied_fqns.borrow_mut().insert(self.str(local_name), f.clone());
        f
    }

    /// A provider address read from the state or plan input
    /// ([`AbsProviderConfig::parse`](crate::addrs::AbsProviderConfig::parse)), shared and parsed
    /// once per distinct address (every object of a state usually names the same few).
    pub fn parsed_provider_address(&self, addr: &SharedStr) -> Option<ParsedProvider> {
        if let Some(p) = self.parsed_providers.borrow().get(addr) {
            return p.clone();
        }
        let p = crate::addrs::AbsProviderConfig::parse(addr)
            .map(|p| (self.names.path(&p.module), self.str(&p.provider), p.alias.map(|a| self.str(&a))));
        self.parsed_providers.borrow_mut().insert(addr.clone(), p.clone());
        p
    }

    /// The shared copy of a string (see [`Interner`]).
    pub fn str(&self, s: &str) -> SharedStr {
        self.names.str(s)
    }

    /// The module at `index`.
    pub fn module(&self, index: u32) -> &'c Module {
        self.modules[index as usize].module
    }

    /// The module call that created module `index` (none for the root).
    pub fn call_of(&self, index: u32) -> Option<&'c ModuleCall> {
        let (p, c) = self.modules[index as usize].parent?;
        Some(&self.module(p).module_calls[c as usize])
    }

    pub fn resource(&self, module: u32, index: u32) -> &'c Resource {
        &self.module(module).resources[index as usize]
    }

    pub fn variable(&self, module: u32, index: u32) -> &'c Variable {
        &self.module(module).variables[index as usize]
    }

    pub fn local(&self, module: u32, index: u32) -> &'c Local {
        &self.module(module).locals[index as usize]
    }

    pub fn output(&self, module: u32, index: u32) -> &'c Output {
        &self.module(module).outputs[index as usize]
    }

    pub fn provider(&self, module: u32, index: u32) -> &'c ProviderConfig {
        &self.module(module).providers[index as usize]
    }

    pub fn module_call(&self, parent: u32, call: u32) -> &'c ModuleCall {
        &self.module(parent).module_calls[call as usize]
    }

    pub fn check(&self, module: u32, index: u32) -> &'c Check {
        &self.module(module).checks[index as usize]
    }

    /// The resource block a node's config link names, if it names one.
    pub fn resource_of(&self, config: &ConfigRef) -> Option<&'c Resource> {
        match *config {
            ConfigRef::Resource { module, index } => Some(self.resource(module, index)),
            ConfigRef::CheckData { module, check } => self.check(module, check).data.as_ref(),
            _ => None,
        }
    }

    /// The fully qualified provider address a module maps a local provider name to
    /// (`required_providers`, else `registry.terraform.io/hashicorp/<name>`; Terraform
    /// `Module.ProviderForLocalConfig`).
    pub fn provider_fqn(&self, module: &Module, local_name: &str) -> String {
        module
            .required_providers
            .iter()
            .find(|r| r.name == local_name)
            .map(|r| r.fqn.clone())
            .unwrap_or_else(|| implied_fqn(local_name))
    }
}

/// Every reference written in a module's own files: resources (and check data blocks), locals,
/// outputs, provider blocks, checks, and its module calls' arguments, count, for_each and
/// depends_on. O(references).
pub fn module_references(m: &Module) -> impl Iterator<Item = &crate::config::Reference> + '_ {
    let resources =
        m.resources.iter().chain(m.checks.iter().filter_map(|c| c.data.as_ref())).flat_map(|r| r.references.iter());
    let locals = m.locals.iter().flat_map(|l| l.expr.references.iter());
    let outputs = m.outputs.iter().flat_map(|o| o.references.iter());
    let providers = m.providers.iter().flat_map(|p| p.references.iter());
    let checks = m.checks.iter().flat_map(|c| c.references.iter());
    let calls = m
        .module_calls
        .iter()
        .flat_map(|c| c.references.iter().chain(c.arguments.iter().flat_map(|a| a.expr.references.iter())));
    let validations = m.variables.iter().flat_map(|v| {
        v.validations
            .iter()
            .flat_map(|r| r.condition.references.iter().chain(r.error_message.iter().flat_map(|e| e.references.iter())))
    });
    resources.chain(locals).chain(outputs).chain(providers).chain(checks).chain(calls).chain(validations)
}
