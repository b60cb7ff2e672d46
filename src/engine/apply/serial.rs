//! The state serial as Terraform's local state manager advances it (`statemgr.Filesystem`).
//! The apply writes the state after each object it writes and once more at the end; a write
//! adds one to the serial unless what it writes equals the snapshot the manager read. With a
//! state file, that snapshot is the file as it was before the apply. With none, the first write
//! adds one and is read back, so every later write is compared with what the first wrote: an
//! apply from nothing whose one operation leaves the final state as that write left it ends at
//! serial 1. What a write holds besides the objects (outputs evaluated so far, the prior check
//! results, resources recorded with no instance yet) is `state_write::Moment::Written`'s.
//!
//! Comparing whole states after every write would make a large apply quadratic, so the objects
//! that differ from the snapshot are kept as a set, updated per written instance; the whole
//! state is built and compared only when that set is empty.

use super::objects::{Obj, Objects};
use super::state_write::{instance_json, Configured};
use crate::addrs::{InstanceKey, ResourceMode};
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashMap, HashSet};

/// An instance: module, mode (`managed` / `data`), type, name, index key (as state JSON).
type InstanceId = (String, String, String, String, Json);

/// The objects of one instance by deposed key (`None`: current), as state JSON.
type InstanceObjects = BTreeMap<Option<String>, Json>;

/// The snapshot writes are compared with.
struct Snapshot {
    objects: HashMap<InstanceId, InstanceObjects>,
    /// `resources`, `outputs` and `check_results`, what `statefile.StatesMarshalEqual` compares.
    whole: [Json; 3],
}

pub(super) struct Serial {
    pub value: u64,
    snapshot: Option<Snapshot>,
    /// Instances whose objects differ from the snapshot's.
    differing: HashSet<InstanceId>,
}

fn key_json(key: &Option<InstanceKey>) -> Json {
    match key {
        Some(InstanceKey::Int(i)) => Json::from(*i),
        Some(InstanceKey::Str(s)) => Json::from(s.as_str()),
        None => Json::Null,
    }
}

fn instance_id(o: &Obj) -> InstanceId {
    (o.module.clone(), o.mode.as_str().into(), o.type_name.clone(), o.name.clone(), key_json(&o.key))
}

/// What statefile equality compares of a state document.
fn whole(state: &Json) -> [Json; 3] {
    let field = |k: &str| state.get(k).cloned().unwrap_or(Json::Null);
    let resources = field("resources");
    [if resources.is_null() { Json::Array(Vec::new()) } else { resources }, field("outputs"), field("check_results")]
}

/// The objects of a state document by instance.
fn objects_of(state: &Json) -> HashMap<InstanceId, InstanceObjects> {
    let mut out: HashMap<InstanceId, InstanceObjects> = HashMap::new();
    for r in state.get("resources").and_then(Json::as_array).into_iter().flatten() {
        let s = |k: &str| r.get(k).and_then(Json::as_str).unwrap_or("").to_string();
        for i in r.get("instances").and_then(Json::as_array).into_iter().flatten() {
            let id = (s("module"), s("mode"), s("type"), s("name"), i.get("index_key").cloned().unwrap_or(Json::Null));
            let deposed = i.get("deposed").and_then(Json::as_str).map(String::from);
            out.entry(id).or_default().insert(deposed, i.clone());
        }
    }
    out
}

impl Serial {
    /// The serial of an apply starting from `prior` (the state file as read; `None`: no file),
    /// whose working state starts as `objs`.
    pub fn new(prior: Option<&Json>, objs: &Objects, conf: &Configured) -> Serial {
        let value = prior.and_then(|p| p.get("serial")).and_then(Json::as_u64).unwrap_or(0);
        let mut serial = Serial {
            value,
            snapshot: prior.map(|p| Snapshot { objects: objects_of(p), whole: whole(p) }),
            differing: HashSet::new(),
        };
        serial.compare_all(objs, conf);
        serial
    }

    /// A stand-in while the serial is out being written.
    pub fn placeholder() -> Serial {
        Serial { value: 0, snapshot: None, differing: HashSet::new() }
    }

    /// Compares every instance of the working state and of the snapshot.
    fn compare_all(&mut self, objs: &Objects, conf: &Configured) {
        self.differing.clear();
        let Some(snapshot) = &self.snapshot else {
            return;
        };
        let mut now: HashMap<InstanceId, InstanceObjects> = HashMap::new();
        for o in objs.iter() {
            now.entry(instance_id(o)).or_default().insert(o.deposed.clone(), instance_json(o, conf));
        }
        for (id, list) in &now {
            if snapshot.objects.get(id) != Some(list) {
                self.differing.insert(id.clone());
            }
        }
        for id in snapshot.objects.keys() {
            if !now.contains_key(id) {
                self.differing.insert(id.clone());
            }
        }
    }

    /// Notes that the objects of one instance were written.
    #[allow(clippy::too_many_arguments)] // an instance's address parts, given apart as the apply nodes hold them
    pub fn touched(
        &mut self,
        objs: &Objects,
        conf: &Configured,
        module: &str,
        mode: ResourceMode,
        type_name: &str,
        name: &str,
        key: &Option<InstanceKey>,
    ) {
        let Some(snapshot) = &self.snapshot else {
            return;
        };
        let id: InstanceId = (module.into(), mode.as_str().into(), type_name.into(), name.into(), key_json(key));
        let mut now = objs.of_instance(module, mode, type_name, name, key);
        // An instance the snapshot lacks differs by having objects: no JSON to make (every
        // create of an apply from nothing).
        let same = match snapshot.objects.get(&id) {
            Some(then) => {
                *then == now.map(|o| (o.deposed.clone(), instance_json(o, conf))).collect::<InstanceObjects>()
            }
            None => now.next().is_none(),
        };
        if same {
            self.differing.remove(&id);
        } else {
            self.differing.insert(id);
        }
    }

    /// A state write: `state` builds the document written (only when its objects all equal the
    /// snapshot's, or when there is no snapshot yet). `objs` and `conf` compare every instance
    /// again once the first write has become the snapshot.
    pub fn write(&mut self, objs: &Objects, conf: &Configured, state: impl FnOnce() -> Json) {
        match &self.snapshot {
            None => {
                let written = state();
                self.value += 1;
                self.snapshot = Some(Snapshot { objects: objects_of(&written), whole: whole(&written) });
                self.compare_all(objs, conf);
            }
            Some(snapshot) => {
                if !self.differing.is_empty() || whole(&state()) != snapshot.whole {
                    self.value += 1;
                }
            }
        }
    }
}
