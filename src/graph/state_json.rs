//! Terraform state v4 JSON (`terraform.tfstate`, `internal/states/statefile/version4.go`) to
//! the [`State`] graph building reads.
//!
//! Read: `version` (must be 4), root `outputs` (names only), and every resource's `module`,
//! `mode`, `type`, `name`, `each`, `provider` and `instances[]` with `index_key`, `status`,
//! `deposed`, `dependencies`, `create_before_destroy`. Attributes, private data and identities
//! are ignored: graphs do not need them. Malformed input gives Terraform's diagnostics
//! (`Unsupported state file format`, `Invalid resource instance metadata in state`, …) and
//! the offending resource or instance is skipped; nothing panics.

use super::instance_addr::{parse_module_instance, InstanceAddr};
use super::node::parse_provider_address;
use super::shared::{FastSet, Interner, SharedStr};
use super::state::{State, StateObject};
use crate::addrs::{InstanceKey, ResourceAddr, ResourceMode};
use crate::diag::{Diagnostic, Diagnostics};
use serde_json::Value;
use std::collections::HashSet;

const UNSUPPORTED: &str = "Unsupported state file format";
const BAD_INSTANCE: &str = "Invalid resource instance metadata in state";

/// Parses state JSON text. See [`state_from_value`].
pub fn parse_state(text: &str) -> (State, Diagnostics) {
    match serde_json::from_str::<Value>(text) {
        Ok(v) => state_from_value(&v),
        Err(e) => {
            let mut d = Diagnostics::new();
            let detail = if e.is_syntax() || e.is_eof() {
                format!("The state file could not be parsed as JSON: syntax error at line {} column {}.", e.line(), e.column())
            } else {
                "The state file could not be parsed as JSON.".to_string()
            };
            d.push(Diagnostic::error(UNSUPPORTED, detail));
            (State::default(), d)
        }
    }
}

/// Converts a parsed state v4 object into a [`State`], with diagnostics for what cannot be
/// read. An unsupported `version` gives an empty state and one error.
///
/// # Complexity
/// O(size of the JSON).
pub fn state_from_value(v: &Value) -> (State, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut state = State::default();
    let Some(obj) = v.as_object() else {
        diags.push(Diagnostic::error(UNSUPPORTED, "The state file could not be parsed as JSON: the top level must be an object."));
        return (state, diags);
    };
    match obj.get("version") {
        None => {
            diags.push(Diagnostic::error(
                UNSUPPORTED,
                "The state file does not have a \"version\" attribute, which is required to identify the format version.",
            ));
            return (state, diags);
        }
        Some(Value::Number(n)) if n.as_u64() == Some(4) => {}
        Some(Value::Number(n)) if n.as_u64() == Some(0) => {
            diags.push(Diagnostic::error(UNSUPPORTED, "The state file uses JSON syntax but has a version number of zero. There was never a JSON-based state format zero, so this state file is invalid and cannot be processed."));
            return (state, diags);
        }
        Some(Value::Number(n)) if n.as_u64().is_some_and(|n| n < 4) => {
            diags.push(Diagnostic::error(
                UNSUPPORTED,
                format!("The state file uses format version {n}, which tfgraph does not read. Terraform upgrades it to version 4 when it next writes the state (`terraform state pull` with Terraform 0.12 or later shows the upgraded state)."),
            ));
            return (state, diags);
        }
        Some(Value::Number(n)) if n.as_u64().is_some() => {
            diags.push(Diagnostic::error(
                UNSUPPORTED,
                format!("The state file uses format version {n}, which is not supported by Terraform 1.15. This state file may have been created by a newer version of Terraform."),
            ));
            return (state, diags);
        }
        Some(other) => {
            diags.push(Diagnostic::error(
                UNSUPPORTED,
                format!("The version in the state file is {other}. A positive whole number is required."),
            ));
            return (state, diags);
        }
    }
    if let Some(outputs) = obj.get("outputs").and_then(Value::as_object) {
        state.outputs = outputs.keys().cloned().collect();
        state.outputs.sort();
    }
    let resources = match obj.get("resources") {
        None | Some(Value::Null) => return (state, diags),
        Some(Value::Array(a)) => a,
        Some(_) => {
            diags.push(Diagnostic::error(UNSUPPORTED, "The state file's \"resources\" must be an array."));
            return (state, diags);
        }
    };
    let mut read = Reader::default();
    for r in resources {
        read.resource(r, &mut state, &mut diags);
    }
    (state, diags)
}

fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// What reading one state remembers across resources: the instances seen (duplicates are
/// errors), and one shared copy of each provider and dependency address (a state repeats
/// them for every object), each checked once.
#[derive(Default)]
struct Reader {
    seen: HashSet<(String, Option<String>)>,
    names: Interner,
    valid_providers: FastSet<SharedStr>,
    valid_dependencies: FastSet<SharedStr>,
}

impl Reader {
    fn resource(&mut self, r: &Value, state: &mut State, diags: &mut Diagnostics) {
        read_resource(r, state, self, diags)
    }
}

fn read_resource(r: &Value, state: &mut State, read: &mut Reader, diags: &mut Diagnostics) {
    let type_name = str_field(r, "type").unwrap_or_default();
    let name = str_field(r, "name").unwrap_or_default();
    let mode_text = str_field(r, "mode").unwrap_or_default();
    let mode = match mode_text {
        "managed" => ResourceMode::Managed,
        "data" => ResourceMode::Data,
        _ => {
            diags.push(Diagnostic::error(
                "Invalid resource mode in state",
                format!("State contains a resource with mode {mode_text:?} ({type_name:?} {name:?}) which is not supported."),
            ));
            return;
        }
    };
    let module_text = str_field(r, "module").unwrap_or_default();
    let module = match parse_module_instance(module_text) {
        Ok(m) => m,
        Err(e) => {
            diags.push(Diagnostic::error(
                "Invalid module instance address in state",
                format!("State contains an invalid module instance address {module_text:?}: {e}."),
            ));
            return;
        }
    };
    if type_name.is_empty() || name.is_empty() {
        diags.push(Diagnostic::error(
            "Invalid resource in state",
            format!("State contains a resource with type {type_name:?} and name {name:?}; both are required."),
        ));
        return;
    }
    let provider = read.names.str(str_field(r, "provider").unwrap_or_default());
    if !read.valid_providers.contains(&provider) && parse_provider_address(&provider).is_none() {
        diags.push(Diagnostic::error(
            "Invalid provider config address in state",
            format!("State contains an invalid provider config address {provider:?} for {type_name}.{name}."),
        ));
        return;
    }
    read.valid_providers.insert(provider.clone());
    let resource = ResourceAddr { mode, type_name: type_name.into(), name: name.into() };
    let base = InstanceAddr { module: module.clone(), resource: resource.clone(), key: None };
    let each = str_field(r, "each");
    let Some(instances) = r.get("instances").and_then(Value::as_array) else { return };
    for inst in instances {
        let key = match inst.get("index_key") {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) if n.as_i64().is_some() && each != Some("map") => Some(InstanceKey::Int(n.as_i64().unwrap_or(0))),
            Some(Value::String(s)) if each != Some("list") => Some(InstanceKey::Str(s.clone())),
            Some(other) => {
                diags.push(Diagnostic::error(
                    BAD_INSTANCE,
                    format!("Resource {base} has an instance with the invalid instance key {other}."),
                ));
                continue;
            }
        };
        let addr = InstanceAddr { key: key.clone(), ..base.clone() };
        if let Some(status) = str_field(inst, "status") {
            if status != "tainted" {
                diags.push(Diagnostic::error(BAD_INSTANCE, format!("Instance {addr} has invalid status {status:?}.")));
                continue;
            }
        }
        let deposed = match inst.get("deposed") {
            None | Some(Value::Null) => None,
            Some(Value::String(dk)) if dk.is_empty() => None,
            Some(Value::String(dk)) if dk.len() == 8 && dk.bytes().all(|b| b.is_ascii_hexdigit()) => Some(dk.clone()),
            Some(other) => {
                let dk = other.as_str().map(str::to_string).unwrap_or_else(|| other.to_string());
                diags.push(Diagnostic::error(
                    BAD_INSTANCE,
                    format!("Instance {addr} has an object with deposed key {dk:?}, which is not correctly formatted."),
                ));
                continue;
            }
        };
        if !read.seen.insert((addr.to_string(), deposed.clone())) {
            let detail = match &deposed {
                Some(dk) => format!("Instance {addr} deposed object {dk:?} appears multiple times in the state file."),
                None => format!("Instance {addr} appears multiple times in the state file."),
            };
            diags.push(Diagnostic::error("Duplicate resource instance in state", detail));
            continue;
        }
        let mut dependencies: Vec<SharedStr> = Vec::new();
        if let Some(deps) = inst.get("dependencies").and_then(Value::as_array) {
            for d in deps {
                let text = d.as_str().unwrap_or_default();
                if let Some(known) = read.valid_dependencies.get(text) {
                    dependencies.push(known.clone());
                    continue;
                }
                match InstanceAddr::parse_config_resource(text) {
                    Ok(_) => {
                        let shared = read.names.str(text);
                        read.valid_dependencies.insert(shared.clone());
                        dependencies.push(shared);
                    }
                    Err(e) => diags.push(Diagnostic::error(
                        BAD_INSTANCE,
                        format!("Instance {addr} has invalid dependency {text:?}: {e}."),
                    )),
                }
            }
        }
        dependencies.sort();
        dependencies.dedup();
        state.resources.push(StateObject {
            module: addr.module_instance(),
            resource: resource.to_string(),
            key: addr.key_text(),
            provider: provider.clone(),
            dependencies: dependencies.into(),
            create_before_destroy: inst.get("create_before_destroy").and_then(Value::as_bool).unwrap_or(false),
            deposed,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_real_state() {
        let (s, d) = parse_state(
            r#"{"version":4,"terraform_version":"1.15.0","serial":3,"lineage":"x","outputs":{"b":{"value":1,"type":"number"}},
            "resources":[{"module":"module.a[0]","mode":"managed","type":"aws_instance","name":"web","each":"list",
              "provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
              "instances":[{"index_key":1,"schema_version":0,"attributes":{"id":"i"},"dependencies":["module.a.aws_vpc.v"],"create_before_destroy":true},
                           {"index_key":1,"deposed":"0a1b2c3d","attributes":{}}]}]}"#,
        );
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(s.outputs, ["b"]);
        assert_eq!(s.resources.len(), 2);
        assert_eq!(s.resources[0].module, "module.a[0]");
        assert_eq!(s.resources[0].key.as_deref(), Some("[1]"));
        assert!(s.resources[0].create_before_destroy);
        assert_eq!(s.resources[1].deposed.as_deref(), Some("0a1b2c3d"));
    }

    #[test]
    fn malformed_states_give_terraform_diagnostics() {
        let cases = [
            ("{}", "does not have a \"version\""),
            ("{\"version\":5}", "format version 5, which is not supported by Terraform 1.15"),
            ("{\"version\":3}", "format version 3, which tfgraph does not read"),
            ("{\"version\":\"4\"}", "A positive whole number is required"),
            ("[", "syntax error"),
            (r#"{"version":4,"resources":[{"mode":"weird","type":"a","name":"b","provider":"provider[\"x\"]"}]}"#, "mode \"weird\""),
            (r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","each":"list","provider":"provider[\"x\"]","instances":[{"index_key":"k"}]}]}"#, "invalid instance key \"k\""),
            (r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]","instances":[{"deposed":"xyz"}]}]}"#, "deposed key \"xyz\""),
            (r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]","instances":[{},{}]}]}"#, "appears multiple times"),
            (r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]","instances":[{"dependencies":["a.b[0]"]}]}]}"#, "invalid dependency \"a.b[0]\""),
            (r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"nope","instances":[{}]}]}"#, "invalid provider config address"),
            (r#"{"version":4,"resources":[{"module":"mod.x","mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]"}]}"#, "invalid module instance address"),
            (r#"{"version":4,"resources":[{"mode":"managed","type":"a","name":"b","provider":"provider[\"x\"]","instances":[{"status":"gone"}]}]}"#, "invalid status \"gone\""),
        ];
        for (text, want) in cases {
            let (_, d) = parse_state(text);
            assert!(d.has_errors(), "{text}");
            let all: Vec<String> = d.iter().map(|d| format!("{}: {}", d.summary, d.detail)).collect();
            assert!(all.iter().any(|s| s.contains(want)), "{text}: {all:?}");
        }
    }
}
