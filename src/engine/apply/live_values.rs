//! The resource values an apply operation's configuration reads, built from the working state
//! when a reference asks for them and kept until the resource's objects change.
//!
//! Building every reachable resource's value up front for each operation (and deep-copying
//! each one into a fresh map) cost most of a large apply: a resource inside a module with
//! count reaches the same resource in every instance of the module, so each operation copied
//! objects in proportion to the whole configuration. Here an operation copies only what its
//! expressions look up, and a value is rebuilt only after an object of its resource changed.

use super::objects::{resource_id, Obj, Objects, ResourceId};
use crate::addrs::InstanceKey;
use crate::engine::shared;
use crate::eval::scope::ResourceSource;
use crate::eval::Value;
use shared::order::Walkable;
use shared::plan::InstanceChange;
use shared::scope::ResourceKey;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;

/// Orphans the plan deletes, by instance: references no longer read them.
#[derive(Default)]
pub struct Hidden(HashSet<(ResourceId, Option<InstanceKey>)>);

impl Hidden {
    pub fn new<'c>(changes: impl Iterator<Item = &'c InstanceChange>) -> Hidden {
        Hidden(changes.map(|c| (resource_id(&c.module, c.mode, &c.type_name, &c.name), c.key.clone())).collect())
    }

    fn hides(&self, id: &ResourceId, o: &Obj) -> bool {
        // Cloning the key for the lookup is cheap next to the value a read clones anyway.
        !self.0.is_empty() && self.0.contains(&(id.clone(), o.key.clone()))
    }
}

/// How references see walkable `w` in the working state: its single object, a tuple for
/// `count`, an object for `for_each`; current objects only, orphans the plan deletes left out.
pub fn resource_value(objs: &Objects, hidden: &Hidden, w: &Walkable<'_>) -> Value {
    let r = w.resource;
    let id = resource_id(&w.module_addr, r.mode, &r.type_name, &r.name);
    let list: Vec<&Obj> =
        objs.of_id(&id).into_iter().filter(|o| o.deposed.is_none() && !hidden.hides(&id, o)).collect();
    if r.count.is_some() {
        // Indexes up to the last with an object; one without (left out by -target) is unknown,
        // as Terraform's evaluator fills the holes.
        let mut l: Vec<(usize, &Obj)> = list
            .into_iter()
            .filter_map(|o| {
                if let Some(InstanceKey::Int(i)) = o.key {
                    usize::try_from(i).ok().map(|i| (i, o))
                } else {
                    None
                }
            })
            .collect();
        crate::util::sort::sort_by(&mut l, |a, b| a.0.cmp(&b.0));
        let mut out = Vec::with_capacity(l.len());
        for (i, o) in l {
            // A key no count reaches (a hand-edited state) is not worth gigabytes of holes.
            if i > out.len() + (1 << 20) {
                break;
            }
            out.resize_with(i, Value::dynamic);
            out.push(o.value.clone());
        }
        Value::tuple(out)
    } else if r.for_each.is_some() {
        Value::object(crate::util::sort::btree_map(list.into_iter().filter_map(|o| {
            if let Some(InstanceKey::Str(k)) = &o.key {
                Some((k.clone(), o.value.clone()))
            } else {
                None
            }
        })))
    } else {
        list.into_iter().find(|o| o.key.is_none()).map(|o| o.value.clone()).unwrap_or_else(Value::dynamic)
    }
}

/// The state key references use for walkable `w`.
pub fn resource_key(w: &Walkable<'_>) -> ResourceKey {
    let r = w.resource;
    (w.module_addr.clone(), r.mode.as_str().into(), r.type_name.clone(), r.name.clone())
}

/// What stays the same through an apply walk: which walkable a reference names, which
/// configuration resources each one's configuration reaches, and the value cache.
pub struct Reads {
    by_key: HashMap<ResourceKey, usize>,
    /// Per walkable, its configuration resource (an index into `reaches`).
    config_of: Vec<usize>,
    /// Per configuration resource, the configuration resources its evaluation reads.
    reaches: Vec<HashSet<usize>>,
    ids: Vec<ResourceId>,
    hidden: Hidden,
    /// Per walkable: its value and the change tick it was built at.
    cache: RefCell<Vec<Option<(u64, Rc<Value>)>>>,
}

impl Reads {
    /// `deps`: by configuration address, the configuration addresses a resource's evaluation reads.
    pub fn new(walkables: &[Walkable<'_>], deps: &HashMap<String, BTreeSet<String>>, hidden: Hidden) -> Reads {
        let mut config_ids: HashMap<&str, usize> = HashMap::new();
        let config_of: Vec<usize> = walkables
            .iter()
            .map(|w| {
                let n = config_ids.len();
                *config_ids.entry(w.config_address.as_str()).or_insert(n)
            })
            .collect();
        let mut reaches = vec![HashSet::new(); config_ids.len()];
        for (w, &c) in walkables.iter().zip(&config_of) {
            if let Some(addrs) = deps.get(&w.config_address) {
                reaches[c].extend(addrs.iter().filter_map(|a| config_ids.get(a.as_str()).copied()));
            }
        }
        Reads {
            by_key: walkables.iter().enumerate().map(|(i, w)| (resource_key(w), i)).collect(),
            config_of,
            reaches,
            ids: walkables
                .iter()
                .map(|w| resource_id(&w.module_addr, w.resource.mode, &w.resource.type_name, &w.resource.name))
                .collect(),
            hidden,
            cache: RefCell::new(vec![None; walkables.len()]),
        }
    }

    /// The values walkable `reader`'s configuration sees.
    pub fn for_reader<'s>(&'s self, objs: &'s Objects, walkables: &'s [Walkable<'s>], reader: usize) -> LiveValues<'s> {
        LiveValues { reads: self, objs, walkables, reader }
    }

    fn value(&self, objs: &Objects, walkables: &[Walkable<'_>], j: usize) -> Rc<Value> {
        let tick = objs.changed_at(&self.ids[j]);
        if let Some((at, v)) = &self.cache.borrow()[j] {
            if *at == tick {
                return v.clone();
            }
        }
        let v = Rc::new(resource_value(objs, &self.hidden, &walkables[j]));
        self.cache.borrow_mut()[j] = Some((tick, v.clone()));
        v
    }
}

/// One operation's view of the working state: a resource its configuration reaches reads as
/// its current value; any other as unknown (the walk visits in dependency order, so only
/// unrelated readers could ask).
pub struct LiveValues<'s> {
    reads: &'s Reads,
    objs: &'s Objects,
    walkables: &'s [Walkable<'s>],
    reader: usize,
}

impl ResourceSource for LiveValues<'_> {
    fn resource(&self, module: &str, mode: &str, type_name: &str, name: &str) -> Option<Rc<Value>> {
        let key = (module.to_string(), mode.to_string(), type_name.to_string(), name.to_string());
        let reads = self.reads;
        let Some(&j) = reads.by_key.get(&key) else { return Some(Rc::new(Value::dynamic())) };
        if !reads.reaches[reads.config_of[self.reader]].contains(&reads.config_of[j]) {
            return Some(Rc::new(Value::dynamic()));
        }
        Some(reads.value(self.objs, self.walkables, j))
    }
}
