//! The apply walk's working state: the objects (current and deposed) by resource instance.
//! Slots keep insertion order and leave a hole when an object goes, and two indexes find an
//! instance's or a resource's objects without scanning them all: each operation looks its
//! object up, so a scan made a large apply quadratic.

use crate::addrs::{InstanceKey, ResourceMode};
use crate::eval::Value;
use std::collections::HashMap;

/// One object of the working state.
#[derive(Clone, Debug)]
pub struct Obj {
    pub module: String,
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
    pub key: Option<InstanceKey>,
    pub deposed: Option<String>,
    pub value: Value,
    pub deps: Vec<String>,
    pub cbd: bool,
    pub tainted: bool,
    pub schema_version: u64,
    pub provider: String,
}

impl Obj {
    /// The state's resource key (module, `managed`/`data`, type, name).
    pub fn resource_key(&self) -> crate::engine::scope::ResourceKey {
        let mode = if self.mode == ResourceMode::Data { "data" } else { "managed" };
        (self.module.clone(), mode.into(), self.type_name.clone(), self.name.clone())
    }
}

/// A resource: module instance, mode, type, name.
pub type ResourceId = (String, ResourceMode, String, String);

fn resource_id(module: &str, mode: ResourceMode, type_name: &str, name: &str) -> ResourceId {
    (module.to_string(), mode, type_name.to_string(), name.to_string())
}

#[derive(Default)]
pub struct Objects {
    slots: Vec<Option<Obj>>,
    /// Slots by resource, then by instance key, in insertion order.
    index: HashMap<ResourceId, HashMap<Option<InstanceKey>, Vec<usize>>>,
}

impl Objects {
    pub fn push(&mut self, o: Obj) -> usize {
        let i = self.slots.len();
        self.index.entry(resource_id(&o.module, o.mode, &o.type_name, &o.name)).or_default().entry(o.key.clone()).or_default().push(i);
        self.slots.push(Some(o));
        i
    }

    /// The first object of the instance for which `pred` holds.
    pub fn find(&self, module: &str, mode: ResourceMode, type_name: &str, name: &str, key: &Option<InstanceKey>, pred: impl Fn(&Obj) -> bool) -> Option<usize> {
        let slots = self.index.get(&resource_id(module, mode, type_name, name))?.get(key)?;
        slots.iter().copied().find(|&i| self.slots[i].as_ref().is_some_and(&pred))
    }

    pub fn get(&self, i: usize) -> &Obj {
        self.slots[i].as_ref().expect("a live object")
    }

    pub fn get_mut(&mut self, i: usize) -> &mut Obj {
        self.slots[i].as_mut().expect("a live object")
    }

    pub fn remove(&mut self, i: usize) {
        if let Some(o) = self.slots[i].take() {
            if let Some(keys) = self.index.get_mut(&resource_id(&o.module, o.mode, &o.type_name, &o.name)) {
                if let Some(list) = keys.get_mut(&o.key) {
                    list.retain(|&j| j != i);
                }
            }
        }
    }

    /// Removes every object of the instance for which `pred` holds.
    pub fn remove_where(&mut self, module: &str, mode: ResourceMode, type_name: &str, name: &str, key: &Option<InstanceKey>, pred: impl Fn(&Obj) -> bool) {
        while let Some(i) = self.find(module, mode, type_name, name, key, &pred) {
            self.remove(i);
        }
    }

    /// Every object, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &Obj> {
        self.slots.iter().flatten()
    }

    /// The objects of one resource, in insertion order.
    pub fn of_resource(&self, module: &str, mode: ResourceMode, type_name: &str, name: &str) -> Vec<&Obj> {
        let Some(keys) = self.index.get(&resource_id(module, mode, type_name, name)) else { return Vec::new() };
        let mut slots: Vec<usize> = keys.values().flatten().copied().collect();
        slots.sort_unstable();
        slots.into_iter().filter_map(|i| self.slots[i].as_ref()).collect()
    }
}
