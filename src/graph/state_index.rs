//! The prior state indexed by instance address, and configuration resources indexed by
//! (module, address): built once per build ([`BuildContext::state_index`],
//! [`BuildContext::config_resources`]) and read by every state-driven step.
//!
//! Below the build context: it reads the state model, the configuration and addresses, never
//! the context or the transformers.
//!
//! [`BuildContext::state_index`]: super::context::BuildContext::state_index
//! [`BuildContext::config_resources`]: super::context::BuildContext::config_resources

use super::config_ref::ConfigRef;
use super::shared::{FastMap, SharedStr};
use crate::addrs::{InstanceAddr, InstanceKey, ModulePath, ResourceMode};
use crate::config::Module;
use crate::state::{State, StateObject};
use std::sync::Arc;

/// A module instance (`module.a[0]`) as the state-driven steps need it, worked out once per
/// distinct spelling ([`BuildContext::module_instance`]).
#[derive(Clone, Debug)]
pub struct ModuleInstance {
    /// As Terraform prints it: `module.a[0]`, empty for the root module.
    pub text: SharedStr,
    /// The module path without keys.
    pub path: Arc<ModulePath>,
    /// The module's index in [`BuildContext::modules`], when it is in the configuration.
    pub index: Option<u32>,
}

/// A resource's address inside its module: its absolute address without the module's
/// (`module.a.aws_instance.web` in `module.a` gives `aws_instance.web`).
pub fn local_address<'a>(module_address: &str, address: &'a str) -> &'a str {
    if module_address.is_empty() {
        return address;
    }
    address.strip_prefix(module_address).and_then(|rest| rest.strip_prefix('.')).unwrap_or(address)
}

/// One resource instance in the state: its address's parts (shared with the build), its
/// current object and its deposed objects.
pub struct StateInstance<'s> {
    pub module: ModuleInstance,
    /// The resource address inside its module: `aws_instance.web`.
    pub local: SharedStr,
    pub mode: ResourceMode,
    pub key: Option<InstanceKey>,
    pub current: Option<&'s StateObject>,
    pub deposed: Vec<&'s StateObject>,
}

/// The state's objects by instance address (`module.a[0].aws_instance.web[1]`), in state
/// order. Objects whose address does not parse are skipped (the JSON reader reports them).
#[derive(Default)]
pub struct StateIndex<'s> {
    pub instances: Vec<(String, StateInstance<'s>)>,
    /// Instance address → index into `instances`, keyed by the hash of the address (the
    /// addresses live once, in `instances`).
    by_addr: FastMap<u64, Vec<u32>>,
}

fn addr_hash(s: &str) -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = super::shared::FastBuild::default().build_hasher();
    h.write(s.as_bytes());
    h.finish()
}

impl<'s> StateIndex<'s> {
    /// O(objects). Prefer the build's copy,
    /// [`BuildContext::state_index`](super::context::BuildContext::state_index), which passes
    /// its module instance parser and string interner.
    pub fn new(
        state: Option<&'s State>,
        module_instance: impl Fn(&str) -> Option<ModuleInstance>,
        str: impl Fn(&str) -> SharedStr,
    ) -> Self {
        let mut ix = StateIndex::default();
        let Some(state) = state else { return ix };
        for o in &state.resources {
            let text = object_address(o);
            let i = match ix.position(&text) {
                Some(i) => i,
                None => {
                    let Ok(a) = InstanceAddr::scan(&text) else { continue };
                    let Some(module) = module_instance(a.module) else { continue };
                    let inst = StateInstance {
                        module,
                        local: str(a.resource),
                        mode: a.mode,
                        key: a.key,
                        current: None,
                        deposed: Vec::new(),
                    };
                    let i = ix.instances.len();
                    ix.by_addr.entry(addr_hash(&text)).or_default().push(i as u32);
                    ix.instances.push((text, inst));
                    i
                }
            };
            let inst = &mut ix.instances[i].1;
            match o.deposed {
                Some(_) => inst.deposed.push(o),
                None => inst.current = Some(o),
            }
        }
        ix
    }

    fn position(&self, addr: &str) -> Option<usize> {
        self.by_addr.get(&addr_hash(addr))?.iter().map(|&i| i as usize).find(|&i| self.instances[i].0 == addr)
    }

    pub fn get(&self, addr: &str) -> Option<&StateInstance<'s>> {
        self.position(addr).map(|i| &self.instances[i].1)
    }
}

/// `module.a[0].aws_instance.web[1]` of a state object.
pub fn object_address(o: &StateObject) -> String {
    let mut s = String::with_capacity(o.module.len() + o.resource.len() + o.key.as_ref().map_or(0, String::len) + 1);
    if !o.module.is_empty() {
        s.push_str(&o.module);
        s.push('.');
    }
    s.push_str(&o.resource);
    if let Some(k) = &o.key {
        s.push_str(k);
    }
    s
}

/// Resource blocks by (module, address inside the module).
pub struct ConfigResources<'c> {
    /// Per module (index in the build's module list): local address → resource index.
    resources: Vec<FastMap<&'c str, u32>>,
}

impl<'c> ConfigResources<'c> {
    /// O(resources), over the build's modules in order. Prefer the build's copy,
    /// [`BuildContext::config_resources`](super::context::BuildContext::config_resources).
    pub fn new(modules: impl Iterator<Item = &'c Module>) -> Self {
        let mut resources = Vec::new();
        for m in modules {
            let mut map = FastMap::default();
            for (ri, r) in m.resources.iter().enumerate() {
                // The last block of an address wins (a duplicate is a load error anyway).
                map.insert(local_address(&m.address, &r.address), ri as u32);
            }
            resources.push(map);
        }
        ConfigResources { resources }
    }

    /// The block at `addr` in the module at `module` in the build's module list (see
    /// [`ModuleInstance::index`]).
    pub fn get(&self, module: Option<u32>, addr: &str) -> Option<ConfigRef> {
        let mi = module?;
        let ri = *self.resources.get(mi as usize)?.get(addr)?;
        Some(ConfigRef::Resource { module: mi, index: ri })
    }
}
