//! The dependencies a plan's refreshed state records for each configured managed object
//! (Terraform 1.15, `NodePlannableResourceInstance.managedResourceExecute`): a refresh merges
//! the configuration's dependencies into those the state stored, so an object planned for a
//! change keeps both until the apply writes the configuration's alone; an object with no
//! change gets the configuration's at once. Without a refresh the stored ones stay (unless
//! there is no change).
//!
//! Why it matters: the apply graph orders destroys by these. A reference the configuration
//! dropped, or one to an address a `moved` block renamed (`list[1]` moved to `single` still
//! leaves a dependency on `list`), keeps ordering destroys until the apply, so Terraform finds
//! the cycles such a stale dependency closes, and so must we.

use crate::addrs::InstanceKey;
use crate::engine::shared::plan::InstanceChange;
use crate::plans::Action;
use serde_json::Value as Json;
use std::collections::{BTreeSet, HashMap};

/// `prior`'s managed objects' `dependencies` as the refresh leaves them, for the planned
/// `changes`; `refreshed`: whether the plan refreshed (no `-refresh=false`).
pub fn apply(prior: &mut Json, changes: &[InstanceChange], refreshed: bool) {
    let planned: HashMap<(&str, &str, &str, Option<&InstanceKey>), &InstanceChange> = changes
        .iter()
        .filter(|c| {
            c.deposed.is_none()
                && c.mode == crate::addrs::ResourceMode::Managed
                && !matches!(c.action, Action::Delete | Action::Forget)
        })
        .map(|c| ((c.module.as_str(), c.type_name.as_str(), c.name.as_str(), c.key.as_ref()), c))
        .collect();
    let Some(resources) = prior.get_mut("resources").and_then(Json::as_array_mut) else { return };
    for r in resources.iter_mut() {
        if r.get("mode").and_then(Json::as_str) != Some("managed") {
            continue;
        }
        let s = |k: &str| r.get(k).and_then(Json::as_str).unwrap_or("").to_string();
        let (module, type_name, name) = (s("module"), s("type"), s("name"));
        let Some(instances) = r.get_mut("instances").and_then(Json::as_array_mut) else { continue };
        for i in instances.iter_mut().filter(|i| i.get("deposed").is_none()) {
            let key = match i.get("index_key") {
                Some(Json::Number(n)) => n.as_i64().map(InstanceKey::Int),
                Some(Json::String(k)) => Some(InstanceKey::Str(k.clone())),
                _ => None,
            };
            let Some(c) = planned.get(&(module.as_str(), type_name.as_str(), name.as_str(), key.as_ref())) else {
                continue;
            };
            let stored: Vec<String> = i
                .get("dependencies")
                .and_then(Json::as_array)
                .map(|a| a.iter().filter_map(|d| d.as_str().map(String::from)).collect())
                .unwrap_or_default();
            let deps: BTreeSet<String> = match (c.action, refreshed) {
                (Action::NoOp, _) => c.dependencies.iter().cloned().collect(),
                (_, true) => c.dependencies.iter().cloned().chain(stored).collect(),
                (_, false) => stored.into_iter().collect(),
            };
            if let Json::Object(m) = i {
                if deps.is_empty() {
                    m.remove("dependencies");
                } else {
                    m.insert("dependencies".into(), Json::from(deps.into_iter().collect::<Vec<_>>()));
                }
            }
        }
    }
}
