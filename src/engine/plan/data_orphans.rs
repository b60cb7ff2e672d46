//! Data source objects the plan drops from its refreshed state: those of a data resource no
//! longer configured (in any module instance), and those whose key its count or for_each no
//! longer yields. Terraform plans no change for them (`NodePlannableResourceInstanceOrphan`
//! on a data resource removes the object from the refresh state), so they are neither in the
//! plan JSON's `prior_state` nor in the state the apply starts from. Nor are the objects of
//! data sources whose read the plan defers to the apply.

use crate::addrs::{InstanceKey, ResourceMode};
use crate::engine::shared::plan::InstanceChange;
use serde_json::Value as Json;
use std::collections::HashSet;

/// A data resource in a module instance: (module instance, type, name).
pub type DataResource = (String, String, String);

/// `prior` without the orphaned data objects. `expanded`: the data resources whose instances
/// the walk knew; `planned`: the data instances it read (those it deferred to the apply are
/// dropped as well: Terraform's refreshed state holds no object for them).
pub fn drop(
    prior: &Json,
    configured: &HashSet<DataResource>,
    expanded: &HashSet<DataResource>,
    planned: &[&InstanceChange],
) -> Json {
    let kept: HashSet<(String, String, String, Option<InstanceKey>)> = planned
        .iter()
        .filter(|c| c.mode == ResourceMode::Data)
        .map(|c| (c.module.clone(), c.type_name.clone(), c.name.clone(), c.key.clone()))
        .collect();
    let mut out = prior.clone();
    let Some(resources) = out.get_mut("resources").and_then(Json::as_array_mut) else { return out };
    for r in resources.iter_mut() {
        if r.get("mode").and_then(Json::as_str) != Some("data") {
            continue;
        }
        let s = |k: &str| r.get(k).and_then(Json::as_str).unwrap_or("").to_string();
        let res = (s("module"), s("type"), s("name"));
        let gone = !configured.contains(&res);
        let known = expanded.contains(&res);
        if let Some(instances) = r.get_mut("instances").and_then(Json::as_array_mut) {
            instances.retain(|i| {
                let key = match i.get("index_key") {
                    Some(Json::Number(n)) => n.as_i64().map(InstanceKey::Int),
                    Some(Json::String(k)) => Some(InstanceKey::Str(k.clone())),
                    _ => None,
                };
                !gone && (!known || kept.contains(&(res.0.clone(), res.1.clone(), res.2.clone(), key)))
            });
        }
    }
    resources.retain(|r| {
        r.get("mode").and_then(Json::as_str) != Some("data")
            || r.get("instances").and_then(Json::as_array).is_some_and(|a| !a.is_empty())
    });
    out
}
