//! Shared by the state-driven transformers: the prior state indexed by instance address, and
//! configuration resources indexed by (module path, address).

use super::BuildContext;
use crate::addrs::ModulePath;
use crate::graph::facts::AttachedState;
use crate::graph::instance_addr::InstanceAddr;
use crate::graph::node::ConfigRef;
use crate::graph::state::StateObject;
use std::collections::HashMap;

/// One resource instance in the state: its current object and its deposed objects.
#[derive(Default)]
pub struct StateInstance<'s> {
    pub addr: Option<InstanceAddr>,
    pub current: Option<&'s StateObject>,
    pub deposed: Vec<&'s StateObject>,
}

/// The state's objects by instance address (`module.a[0].aws_instance.web[1]`), in state
/// order. Objects whose address does not parse are skipped (the JSON reader reports them).
#[derive(Default)]
pub struct StateIndex<'s> {
    pub instances: Vec<(String, StateInstance<'s>)>,
    by_addr: HashMap<String, usize>,
}

impl<'s> StateIndex<'s> {
    /// O(objects).
    pub fn new(cx: &'s BuildContext) -> Self {
        let mut ix = StateIndex::default();
        let Some(state) = cx.options.state.as_ref() else { return ix };
        for o in &state.resources {
            let text = object_address(o);
            let Ok(addr) = InstanceAddr::parse(&text) else { continue };
            let i = *ix.by_addr.entry(text.clone()).or_insert_with(|| {
                ix.instances.push((text.clone(), StateInstance { addr: Some(addr), ..Default::default() }));
                ix.instances.len() - 1
            });
            let inst = &mut ix.instances[i].1;
            match o.deposed {
                Some(_) => inst.deposed.push(o),
                None => inst.current = Some(o),
            }
        }
        ix
    }

    pub fn get(&self, addr: &str) -> Option<&StateInstance<'s>> {
        self.by_addr.get(addr).map(|&i| &self.instances[i].1)
    }
}

/// `module.a[0].aws_instance.web[1]` of a state object.
pub fn object_address(o: &StateObject) -> String {
    let mut s = String::new();
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

/// Resource blocks by (module path, address inside the module).
pub struct ConfigResources {
    map: HashMap<(ModulePath, String), ConfigRef>,
}

impl ConfigResources {
    /// O(resources).
    pub fn new(cx: &BuildContext) -> Self {
        let mut map = HashMap::new();
        for (mi, entry) in cx.modules.iter().enumerate() {
            let m = entry.module;
            for (ri, r) in m.resources.iter().enumerate() {
                let local = r.address.strip_prefix(&format!("{}.", m.address)).unwrap_or(&r.address).to_string();
                map.insert((m.path.clone(), local), ConfigRef::Resource { module: mi as u32, index: ri as u32 });
            }
        }
        ConfigResources { map }
    }

    pub fn get(&self, module: &ModulePath, addr: &str) -> Option<ConfigRef> {
        self.map.get(&(module.clone(), addr.to_string())).copied()
    }
}

/// Whether the configuration's `lifecycle` sets create_before_destroy on the node's block.
pub fn config_cbd(cx: &BuildContext, n: &crate::graph::Node) -> bool {
    n.config.as_ref().and_then(|c| cx.resource_of(c)).and_then(|r| r.lifecycle.create_before_destroy).unwrap_or(false)
}
