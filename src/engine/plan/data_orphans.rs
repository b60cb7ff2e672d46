//! Data source objects the plan's nodes take out of its refreshed state: an orphan node of a
//! data resource gone from the configuration, a resource node's keys its count or for_each no
//! longer yields and its objects in module instances no longer expanded (Terraform's
//! `NodePlannableResourceInstanceOrphan.dataResourceExecute` removes each from the refresh
//! state, planning no change), and the objects of reads deferred to the apply (a placeholder
//! until then, which `RemovePlannedResourceInstanceObjects` drops after the walk). They are
//! neither in the plan JSON's `prior_state` nor in the state the apply starts from. The nodes
//! record them as they run; this writes the state without them.

use crate::addrs::InstanceKey;
use serde_json::Value as Json;
use std::collections::HashSet;

/// A data source object: (module instance, type, name, key).
pub type DataObject = (String, String, String, Option<InstanceKey>);

/// The object `key` of the prior entry `entry` (module instance, mode, type, name).
pub fn object(entry: &(String, String, String, String), key: &Option<InstanceKey>) -> DataObject {
    (entry.0.clone(), entry.2.clone(), entry.3.clone(), key.clone())
}

/// Takes the data objects `dropped` out of `state` (state v4 JSON), in place.
pub fn drop(state: &mut Json, dropped: &[DataObject]) {
    if dropped.is_empty() {
        return;
    }
    let dropped: HashSet<&DataObject> = dropped.iter().collect();
    let Some(resources) = state.get_mut("resources").and_then(Json::as_array_mut) else { return };
    for r in resources.iter_mut() {
        if r.get("mode").and_then(Json::as_str) != Some("data") {
            continue;
        }
        let s = |k: &str| r.get(k).and_then(Json::as_str).unwrap_or("").to_string();
        let (module, type_name, name) = (s("module"), s("type"), s("name"));
        if let Some(instances) = r.get_mut("instances").and_then(Json::as_array_mut) {
            instances.retain(|i| {
                let key = match i.get("index_key") {
                    Some(Json::Number(n)) => n.as_i64().map(InstanceKey::Int),
                    Some(Json::String(k)) => Some(InstanceKey::Str(k.clone())),
                    _ => None,
                };
                !dropped.contains(&(module.clone(), type_name.clone(), name.clone(), key))
            });
        }
    }
    resources.retain(|r| {
        r.get("mode").and_then(Json::as_str) != Some("data")
            || r.get("instances").and_then(Json::as_array).is_some_and(|a| !a.is_empty())
    });
}
