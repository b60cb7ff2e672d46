//! The `provider_config` part of the plan JSON's `configuration`
//! (`jsonconfig.marshalProviderConfigs`): every provider configuration of the module tree,
//! flattened into one map keyed `name`, `name.alias` or `module.a:name`, where a configuration
//! a module inherits or is passed stands for the one it comes from and is left out; and the
//! resources' `provider_config_key`s pointed at those (`normalizeModuleProviderKeys`).

use super::config_json::expressions;
use super::sources::Sources;
use crate::config::model::Module;
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeMap;

/// `opaqueProviderKey`: `mock`, `module.a:mock.alias`.
pub fn opaque_key(provider: &str, module: &str) -> String {
    if module.is_empty() {
        provider.to_string()
    } else {
        format!("{module}:{provider}")
    }
}

/// A `provider_config` entry, and the entry it stands for (`parentKey`: an inherited or passed
/// configuration, left out of the output).
pub struct ProviderEntry {
    pub json: Json,
    full_name: String,
    pub parent_key: String,
}

fn entry(
    name: &str,
    full_name: &str,
    alias: Option<&str>,
    module: &str,
    version: &str,
    expressions: Option<Map<String, Json>>,
) -> ProviderEntry {
    let mut m = Map::new();
    m.insert("name".into(), json!(name));
    m.insert("full_name".into(), json!(full_name));
    if let Some(a) = alias {
        m.insert("alias".into(), json!(a));
    }
    if !version.is_empty() {
        m.insert("version_constraint".into(), json!(version));
    }
    if !module.is_empty() {
        m.insert("module_address".into(), json!(module));
    }
    if let Some(e) = expressions.filter(|e| !e.is_empty()) {
        m.insert("expressions".into(), Json::Object(e));
    }
    ProviderEntry { json: Json::Object(m), full_name: full_name.to_string(), parent_key: String::new() }
}

/// `findSourceProviderKey`: up the chain of passed or inherited entries to the one that is
/// configured where it is.
fn source_key(start: &str, full_name: &str, m: &BTreeMap<String, ProviderEntry>) -> String {
    let mut found = String::new();
    let mut key = start.to_string();
    while !key.is_empty() {
        match m.get(&key) {
            Some(p) if p.full_name == full_name => {
                found = key.clone();
                key = p.parent_key.clone();
            }
            _ => break,
        }
        if key == found {
            break;
        }
    }
    found
}

/// The provider source addresses a module requires, with their version constraints
/// (`ProviderRequirementsShallow`): required_providers, provider blocks, resources.
fn requirements(m: &Module) -> BTreeMap<String, (String, Vec<String>)> {
    let mut reqs: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    let type_of = |fqn: &str| fqn.rsplit('/').next().unwrap_or(fqn).to_string();
    for rp in &m.required_providers {
        let e = reqs.entry(rp.fqn.clone()).or_insert_with(|| (type_of(&rp.fqn), Vec::new()));
        e.1.extend(rp.version.iter().cloned());
    }
    for p in &m.providers {
        reqs.entry(p.fqn.clone()).or_insert_with(|| (type_of(&p.fqn), Vec::new()));
    }
    for r in &m.resources {
        reqs.entry(r.provider.fqn.clone()).or_insert_with(|| (type_of(&r.provider.fqn), Vec::new()));
    }
    reqs
}

pub fn provider_configs(
    sources: &Sources<'_>,
    m: &Module,
    parent: Option<&Module>,
    out: &mut BTreeMap<String, ProviderEntry>,
) {
    let reqs = requirements(m);
    let version = |fqn: &str| reqs.get(fqn).map(|(_, v)| super::version_constraints::canonical(v)).unwrap_or_default();
    for pc in &m.providers {
        let local = match &pc.alias {
            Some(a) => format!("{}.{a}", pc.name),
            None => pc.name.clone(),
        };
        // No provider schema here: every argument but the meta-arguments.
        let exprs = sources
            .provider_block(pc)
            .map(|(f, b)| expressions(f.text, &b.body, &|n| !matches!(n, "alias" | "version"), &["dynamic"]));
        out.insert(
            opaque_key(&local, &m.address),
            entry(&pc.name, &pc.fqn, pc.alias.as_deref(), &m.address, &version(&pc.fqn), exprs),
        );
    }
    let parent_key = |name: &str, fqn: &str, out: &BTreeMap<String, ProviderEntry>| {
        parent.map(|p| source_key(&opaque_key(name, &p.address), fqn, out)).unwrap_or_default()
    };
    for rp in &m.required_providers {
        for alias in &rp.configuration_aliases {
            let key = opaque_key(alias, &m.address);
            out.entry(key).or_insert_with(|| entry(&rp.name, &rp.fqn, None, &m.address, &version(&rp.fqn), None));
        }
        let key = opaque_key(&rp.name, &m.address);
        if !out.contains_key(&key) {
            let mut e = entry(&rp.name, &rp.fqn, None, &m.address, &version(&rp.fqn), None);
            e.parent_key = parent_key(&rp.name, &rp.fqn, out);
            out.insert(key, e);
        }
    }
    for (fqn, (type_name, _)) in &reqs {
        let key = opaque_key(type_name, &m.address);
        if !out.contains_key(&key) {
            let mut e = entry(type_name, fqn, None, &m.address, "", None);
            e.parent_key = parent_key(type_name, fqn, out);
            out.insert(key, e);
        }
    }
    for call in &m.module_calls {
        let Some(child) = &call.module else { continue };
        for pp in &call.providers {
            let local = pp.in_child.split('.').next().unwrap_or(&pp.in_child);
            let fqn = child
                .required_providers
                .iter()
                .find(|r| r.name == local)
                .map(|r| r.fqn.clone())
                .unwrap_or_else(|| format!("registry.terraform.io/hashicorp/{local}"));
            let mut e = entry(&pp.in_child, &fqn, None, &child.address, "", None);
            e.parent_key = source_key(&opaque_key(&pp.in_parent, &m.address), &fqn, out);
            out.insert(opaque_key(&pp.in_child, &child.address), e);
        }
        provider_configs(sources, child, Some(m), out);
    }
}

/// `normalizeModuleProviderKeys`: a module's resources name the configuration they really use.
pub fn normalize_keys(module: &mut Json, pcs: &BTreeMap<String, ProviderEntry>) {
    if let Some(Json::Array(rs)) = module.get_mut("resources") {
        for r in rs {
            let key = r["provider_config_key"].as_str().unwrap_or("").to_string();
            if let Some(p) = pcs.get(&key) {
                if pcs.contains_key(&p.parent_key) {
                    r["provider_config_key"] = json!(p.parent_key);
                }
            }
        }
    }
    if let Some(Json::Object(calls)) = module.get_mut("module_calls") {
        for c in calls.values_mut() {
            if let Some(m) = c.get_mut("module") {
                normalize_keys(m, pcs);
            }
        }
    }
}
