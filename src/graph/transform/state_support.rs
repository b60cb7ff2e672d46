//! Shared by the state-driven transformers: the prior state indexed by instance address, and
//! configuration resources indexed by (module path, address). Each is built once per build
//! ([`BuildContext::state_index`], [`BuildContext::config_resources`]) and read by every step
//! that needs it.

use super::config::local_address;
use super::BuildContext;
use crate::addrs::{InstanceKey, ResourceMode};
use crate::graph::context::ModuleInstance;
use crate::graph::shared::SharedStr;
use crate::graph::facts::AttachedState;
use crate::graph::instance_addr::InstanceAddr;
use crate::graph::node::ConfigRef;
use crate::graph::shared::FastMap;
use crate::graph::state::StateObject;

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

impl StateInstance<'_> {
    /// The key as Terraform prints it (`[0]`, `["a"]`).
    pub fn key_text(&self) -> Option<String> {
        self.key.as_ref().map(|k| k.to_string())
    }
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
    let mut h = crate::graph::shared::FastBuild::default().build_hasher();
    h.write(s.as_bytes());
    h.finish()
}

impl<'s> StateIndex<'s> {
    /// O(objects). Prefer the build's copy, [`BuildContext::state_index`].
    pub fn new(cx: &BuildContext<'s>) -> Self {
        let mut ix = StateIndex::default();
        let Some(state) = cx.options.state.as_ref() else { return ix };
        for o in &state.resources {
            let text = object_address(o);
            let i = match ix.position(&text) {
                Some(i) => i,
                None => {
                    let Ok(a) = InstanceAddr::scan(&text) else { continue };
                    let Some(module) = cx.module_instance(a.module) else { continue };
                    let inst = StateInstance {
                        module,
                        local: cx.str(a.resource),
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

/// What attach-state records for a current object.
pub fn attached(o: &StateObject) -> AttachedState {
    AttachedState { dependencies: o.dependencies.clone(), create_before_destroy: o.create_before_destroy, provider: o.provider.clone() }
}

/// Resource blocks by (module, address inside the module).
pub struct ConfigResources<'c> {
    /// Per module (index in the build's module list): local address → resource index.
    resources: Vec<FastMap<&'c str, u32>>,
}

impl<'c> ConfigResources<'c> {
    /// O(resources). Prefer the build's copy, [`BuildContext::config_resources`].
    pub fn new(cx: &BuildContext<'c>) -> Self {
        let mut resources = Vec::with_capacity(cx.modules.len());
        for entry in &cx.modules {
            let m: &'c crate::config::Module = entry.module;
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
    /// [`BuildContext::module_index`], [`ModuleInstance::index`]).
    pub fn get(&self, module: Option<u32>, addr: &str) -> Option<ConfigRef> {
        let mi = module?;
        let ri = *self.resources.get(mi as usize)?.get(addr)?;
        Some(ConfigRef::Resource { module: mi, index: ri })
    }
}

/// Whether the configuration's `lifecycle` sets create_before_destroy on the node's block.
pub fn config_cbd(cx: &BuildContext, n: &crate::graph::Node) -> bool {
    n.config.as_ref().and_then(|c| cx.resource_of(c)).and_then(|r| r.lifecycle.create_before_destroy).unwrap_or(false)
}
