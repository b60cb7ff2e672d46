//! The state synthesizer: a state and a changes map for a configuration, as if everything in
//! it had been applied and were now to be deleted.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::collections::BTreeMap;
use tfgraph::config::Config;
use tfgraph::graph::{build, BuildOptions, NodeKind};

/// A state v4 document for `config`: one instance of every resource and data source (key `0`
/// under count, `"k"` under for_each, likewise for module calls), its provider the one the
/// plan graph resolved, its `dependencies` the ones the plan graph's
/// `AttachDependenciesTransformer` computed. Also returns a changes map deleting every object.
pub fn synthesize_state(config: &Config) -> (Value, Value) {
    let plan = build(config, &BuildOptions::default());
    let g = &plan.graph;
    // Module path → the keys of the calls on it.
    let mut module_keys: BTreeMap<String, String> = BTreeMap::new();
    for m in config.modules() {
        for c in &m.module_calls {
            let key = if c.count.is_some() {
                "[0]"
            } else if c.for_each.is_some() {
                "[\"k\"]"
            } else {
                ""
            };
            let path =
                if m.path.is_root() { format!("module.{}", c.name) } else { format!("{}.module.{}", m.path, c.name) };
            module_keys.insert(path, key.to_string());
        }
    }
    let mut resources = Vec::new();
    let mut changes = serde_json::Map::new();
    for id in g.ids() {
        let n = g.node(id);
        let NodeKind::ResourceExpand { mode } = n.kind else { continue };
        let mode = match mode {
            tfgraph::addrs::ResourceMode::Managed => "managed",
            tfgraph::addrs::ResourceMode::Data => "data",
            tfgraph::addrs::ResourceMode::Ephemeral => continue,
        };
        let Some(res) = n.config.and_then(|c| match c {
            tfgraph::graph::ConfigRef::Resource { module, index } => {
                config.modules().get(module as usize).map(|m| &m.resources[index as usize])
            }
            _ => None,
        }) else {
            continue;
        };
        // module.a[0].module.b
        let mut module = String::new();
        let mut prefix = String::new();
        for name in &n.module.0 {
            prefix = if prefix.is_empty() { format!("module.{name}") } else { format!("{prefix}.module.{name}") };
            if !module.is_empty() {
                module.push('.');
            }
            module.push_str(&format!("module.{name}{}", module_keys.get(&prefix).cloned().unwrap_or_default()));
        }
        let provider = n.resolved_provider.as_deref().map(str::to_string).unwrap_or_else(|| {
            let local = res.type_name.split('_').next().unwrap_or("x");
            format!("provider[\"registry.terraform.io/hashicorp/{local}\"]")
        });
        let deps = n.facts.as_ref().and_then(|f| f.dependencies.clone()).unwrap_or_default();
        let mut inst = json!({"schema_version": 0, "attributes": {"id": n.address()}, "dependencies": deps});
        let mut r = json!({"mode": mode, "type": res.type_name, "name": res.name, "provider": provider});
        let mut key = String::new();
        if res.count.is_some() {
            inst["index_key"] = json!(0);
            r["each"] = json!("list");
            key = "[0]".into();
        } else if res.for_each.is_some() {
            inst["index_key"] = json!("k");
            r["each"] = json!("map");
            key = "[\"k\"]".into();
        }
        r["instances"] = json!([inst]);
        if !module.is_empty() {
            r["module"] = json!(module);
        }
        let local = n.addr.clone();
        let addr = if module.is_empty() { format!("{local}{key}") } else { format!("{module}.{local}{key}") };
        if mode == "managed" {
            changes.insert(addr, json!(["delete"]));
        }
        resources.push(r);
    }
    let state = json!({"version": 4, "terraform_version": "1.15.0", "serial": 1, "lineage": "synthesized", "outputs": {}, "resources": resources});
    (state, Value::Object(changes))
}
