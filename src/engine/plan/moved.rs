//! `moved` blocks: the prior state's objects renamed before the plan (Terraform's
//! `refactoring.ApplyMoves`), without provider operations. Each moved object remembers its
//! previous address (`previous_address`, "has moved to"); an object moved to an address the
//! configuration does not declare is destroyed ("delete_because_no_move_target").

use crate::addrs::{InstanceAddr, InstanceKey, ResourceMode};
use crate::config::model::Config;
use serde_json::{json, Value as Json};
use std::collections::HashMap;

/// The prior state after the root module's moves, and new instance address → previous one.
pub fn apply_moves(config: &Config, prior: Option<&Json>) -> (Option<Json>, HashMap<String, String>) {
    let mut moved = HashMap::new();
    let Some(mut state) = prior.cloned() else { return (None, moved) };
    for m in &config.root.moved {
        let (Ok(from), Ok(to)) = (InstanceAddr::parse(&m.from), InstanceAddr::parse(&m.to)) else { continue };
        if !from.module.is_empty() || !to.module.is_empty() || from.resource.mode != ResourceMode::Managed {
            continue;
        }
        let Some(resources) = state.get_mut("resources").and_then(Json::as_array_mut) else { break };
        let find = |rs: &[Json], a: &InstanceAddr| {
            rs.iter().position(|r| {
                r.get("module").is_none()
                    && r["mode"] == "managed"
                    && r["type"].as_str() == Some(a.resource.type_name.as_str())
                    && r["name"].as_str() == Some(a.resource.name.as_str())
            })
        };
        let Some(fi) = find(resources, &from) else { continue };
        let key_json = |k: &Option<InstanceKey>| match k {
            Some(InstanceKey::Int(i)) => json!(i),
            Some(InstanceKey::Str(s)) => json!(s),
            None => Json::Null,
        };
        let key_of = |i: &Json| match i.get("index_key") {
            Some(Json::Number(n)) => n.as_i64().map(InstanceKey::Int),
            Some(Json::String(s)) => Some(InstanceKey::Str(s.clone())),
            _ => None,
        };
        let base = |a: &InstanceAddr| a.resource.to_string();
        let whole = from.key.is_none() && to.key.is_none();
        // The objects to move, with their new keys.
        let taken: Vec<Json> = {
            let instances = resources[fi]["instances"].as_array_mut().map(std::mem::take).unwrap_or_default();
            let (take, keep): (Vec<Json>, Vec<Json>) =
                instances.into_iter().partition(|i| whole || key_of(i) == from.key);
            resources[fi]["instances"] = Json::Array(keep);
            take
        };
        if taken.is_empty() {
            continue;
        }
        let target = match find(resources, &to) {
            Some(ti)
                if resources[ti]["instances"]
                    .as_array()
                    .is_some_and(|a| a.iter().any(|i| whole || key_of(i) == to.key)) =>
            {
                // The target already exists: Terraform leaves the move undone.
                let back = resources[fi]["instances"].as_array_mut().map(|a| {
                    a.extend(taken.clone());
                });
                let _ = back;
                continue;
            }
            Some(ti) => ti,
            None => {
                let mut r = resources[fi].clone();
                r["name"] = json!(to.resource.name);
                r["type"] = json!(to.resource.type_name);
                r["instances"] = json!([]);
                resources.push(r);
                resources.len() - 1
            }
        };
        for mut i in taken {
            let old_key = key_of(&i);
            let new_key = if whole { old_key.clone() } else { to.key.clone() };
            match &new_key {
                None => {
                    if let Some(o) = i.as_object_mut() {
                        o.remove("index_key");
                    }
                }
                k => i["index_key"] = key_json(k),
            }
            let fmt = |a: &str, k: &Option<InstanceKey>| {
                format!("{a}{}", k.as_ref().map(|k| k.to_string()).unwrap_or_default())
            };
            moved.insert(fmt(&base(&to), &new_key), fmt(&base(&from), &old_key));
            if let Some(a) = resources[target]["instances"].as_array_mut() {
                a.push(i);
            }
        }
        resources.retain(|r| r["instances"].as_array().is_some_and(|a| !a.is_empty()));
    }
    (Some(state), moved)
}
