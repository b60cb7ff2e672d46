//! The apply walk's working state: the objects (current and deposed) by resource instance.
//! Slots keep insertion order and leave a hole when an object goes, and two indexes find an
//! instance's or a resource's objects without scanning them all: each operation looks its
//! object up, so a scan made a large apply quadratic. Each resource records when its objects
//! last changed, so a value built from them can be kept until then (`live_values.rs`).

use crate::addrs::{InstanceKey, ResourceMode};
use crate::engine::shared;
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
    pub fn resource_key(&self) -> shared::scope::ResourceKey {
        let mode = self.mode.as_str();
        (self.module.clone(), mode.into(), self.type_name.clone(), self.name.clone())
    }
}

/// A resource: module instance, mode, type, name.
pub type ResourceId = (String, ResourceMode, String, String);

pub fn resource_id(module: &str, mode: ResourceMode, type_name: &str, name: &str) -> ResourceId {
    (module.to_string(), mode, type_name.to_string(), name.to_string())
}

/// One resource's slots by instance key, in insertion order, and the tick of its last change.
#[derive(Default)]
struct ResourceSlots {
    changed: u64,
    keys: HashMap<Option<InstanceKey>, Vec<usize>>,
    /// How many of its objects are live.
    live: usize,
}

#[derive(Default)]
pub struct Objects {
    slots: Vec<Option<Obj>>,
    index: HashMap<ResourceId, ResourceSlots>,
    /// Counts every change, so a resource's `changed` never repeats.
    ticks: u64,
}

impl Objects {
    pub fn push(&mut self, o: Obj) -> usize {
        let i = self.slots.len();
        self.ticks += 1;
        let r = self.index.entry(resource_id(&o.module, o.mode, &o.type_name, &o.name)).or_default();
        r.changed = self.ticks;
        r.live += 1;
        r.keys.entry(o.key.clone()).or_default().push(i);
        self.slots.push(Some(o));
        i
    }

    /// When the objects of a resource last changed (0: never had any); a later change gives a
    /// larger number.
    pub fn changed_at(&self, id: &ResourceId) -> u64 {
        self.index.get(id).map_or(0, |r| r.changed)
    }

    fn touch(&mut self, id: &ResourceId) {
        self.ticks += 1;
        if let Some(r) = self.index.get_mut(id) {
            r.changed = self.ticks;
        }
    }

    /// The first object of the instance for which `pred` holds.
    pub fn find(
        &self,
        module: &str,
        mode: ResourceMode,
        type_name: &str,
        name: &str,
        key: &Option<InstanceKey>,
        pred: impl Fn(&Obj) -> bool,
    ) -> Option<usize> {
        let slots = self.index.get(&resource_id(module, mode, type_name, name))?.keys.get(key)?;
        slots.iter().copied().find(|&i| self.slots[i].as_ref().is_some_and(&pred))
    }

    pub fn get(&self, i: usize) -> &Obj {
        self.slots[i].as_ref().expect("a live object")
    }

    /// The object to change in place (its resource counts as changed).
    pub fn get_mut(&mut self, i: usize) -> &mut Obj {
        let o = self.slots[i].as_ref().expect("a live object");
        self.touch(&resource_id(&o.module, o.mode, &o.type_name, &o.name));
        self.slots[i].as_mut().expect("a live object")
    }

    pub fn remove(&mut self, i: usize) {
        if let Some(o) = self.slots[i].take() {
            let id = resource_id(&o.module, o.mode, &o.type_name, &o.name);
            self.touch(&id);
            if let Some(r) = self.index.get_mut(&id) {
                r.live -= 1;
                if let Some(list) = r.keys.get_mut(&o.key) {
                    list.retain(|&j| j != i);
                }
            }
        }
    }

    /// Removes every object of the instance for which `pred` holds.
    pub fn remove_where(
        &mut self,
        module: &str,
        mode: ResourceMode,
        type_name: &str,
        name: &str,
        key: &Option<InstanceKey>,
        pred: impl Fn(&Obj) -> bool,
    ) {
        while let Some(i) = self.find(module, mode, type_name, name, key, &pred) {
            self.remove(i);
        }
    }

    /// Whether a resource has no object.
    pub fn none_of(&self, id: &ResourceId) -> bool {
        self.index.get(id).is_none_or(|r| r.live == 0)
    }

    /// The objects of one instance (current and deposed).
    pub fn of_instance(
        &self,
        module: &str,
        mode: ResourceMode,
        type_name: &str,
        name: &str,
        key: &Option<InstanceKey>,
    ) -> impl Iterator<Item = &Obj> {
        let slots = self.index.get(&resource_id(module, mode, type_name, name)).and_then(|r| r.keys.get(key));
        slots.into_iter().flatten().filter_map(|&i| self.slots[i].as_ref())
    }

    /// Every object, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &Obj> {
        self.slots.iter().flatten()
    }

    /// The objects of one resource, in insertion order.
    pub fn of_id(&self, id: &ResourceId) -> Vec<&Obj> {
        let Some(r) = self.index.get(id) else { return Vec::new() };
        let mut slots: Vec<usize> = r.keys.values().flatten().copied().collect();
        slots.sort_unstable();
        slots.into_iter().filter_map(|i| self.slots[i].as_ref()).collect()
    }
}
