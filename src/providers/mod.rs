//! Providers (Terraform's `providers.Interface`, the part a plan and an apply use): a
//! [`Provider`] trait over values and schemas, and the providers behind it:
//!
//! | module | what |
//! | --- | --- |
//! | `mock` | the built-in `mock` provider (`hashicorp/mock`), value for value the oracle's `provider/mock_provider.py` (see `tests/fixtures/engine/README.md`) |
//! | `generic` | the generic mock serving every other source: any arguments and blocks, echoed, with computed attributes plausible at apply |
//! | `knobs` | seeded jitter and transient rate-limit errors retried with backoff, shared by both |
//! | `set` | the providers of one configuration, one per source, behind one [`Provider`] |
//!
//! Providers see only values ([`Value`], with unknowns) and schemas: no graph, no state file,
//! no resource addresses (a provider configuration's address only chooses one of a set; an
//! instance's address only tells the mocks which failure to inject).

pub mod answered;
pub mod generic;
pub mod knobs;
pub mod mock;
pub mod plan_valid;
pub mod set;
pub mod wire;

use crate::eval::{Type, Value};
use std::collections::BTreeMap;

/// One attribute of a resource type's schema (the mock providers need no nested blocks).
#[derive(Clone, Debug, PartialEq)]
pub struct AttributeSchema {
    pub ty: Type,
    pub optional: bool,
    pub computed: bool,
    pub required: bool,
    pub sensitive: bool,
    /// A change of this attribute replaces the object (`RequiresReplace`).
    pub requires_replace: bool,
}

/// A resource type's or data source's schema (or a nested block's).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceSchema {
    pub version: u64,
    pub attributes: BTreeMap<String, AttributeSchema>,
    /// Nested block types (`ingress { ... }`), each a list of objects of its own schema.
    pub blocks: BTreeMap<String, ResourceSchema>,
}

impl ResourceSchema {
    /// The object type of the resource's values (what configuration is converted to).
    pub fn object_type(&self) -> Type {
        // Nested blocks are lists of objects; dynamic, since their objects' types come from
        // whatever each block writes.
        let blocks = self.blocks.keys().map(|k| (k.clone(), Type::Dynamic));
        Type::Object(crate::util::sort::btree_map(
            self.attributes.iter().map(|(k, a)| (k.clone(), a.ty.clone())).chain(blocks),
        ))
    }
}

/// A provider operation, as the fixtures' `ops.json` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    Create,
    Update,
    Delete,
    /// Refresh (`ReadResource`).
    Read,
    /// `ReadDataSource`.
    ReadData,
    /// `ImportResourceState` (an `import` block, during the plan).
    Import,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Create => "create",
            Op::Update => "update",
            Op::Delete => "delete",
            Op::Read => "read",
            Op::ReadData => "read_data",
            Op::Import => "import",
        }
    }
}

/// An error diagnostic a provider returns (Terraform shows it as `Error: SUMMARY`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderError {
    pub summary: String,
    pub detail: String,
}

/// What `PlanResourceChange` answers.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannedChange {
    /// The planned new state (unknown where computed at apply).
    pub planned: Value,
    /// Attribute paths whose change forces replacement (top-level attribute names here).
    pub requires_replace: Vec<String>,
}

/// What `ApplyResourceChange` answers: the new object (`None`: no object, as after a delete
/// or a failed create) and an error, both possibly present (a failed update returns the prior
/// object and an error).
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    pub new_state: Option<Value>,
    pub error: Option<ProviderError>,
}

/// A provider, as the engine drives it. Values are objects of the schema's type.
pub trait Provider {
    /// The provider's source address (`registry.terraform.io/hashicorp/mock`).
    fn source(&self) -> &str;
    /// The schema of a managed resource type (`None`: unsupported type).
    fn resource_schema(&self, type_name: &str) -> Option<&ResourceSchema>;
    /// The schema of a data source.
    fn data_source_schema(&self, type_name: &str) -> Option<&ResourceSchema>;
    /// Plans a create (`prior` is `None`) or an update of an object to `config` (already of the
    /// schema's type, with null for unset and computed attributes).
    fn plan_resource_change(
        &self,
        type_name: &str,
        prior: Option<&Value>,
        config: &Value,
    ) -> Result<PlannedChange, ProviderError>;
    /// Applies a planned change: `planned` `None` deletes.
    fn apply_resource_change(&self, type_name: &str, prior: Option<&Value>, planned: Option<&Value>) -> Applied;
    /// Refresh: the object as it exists now (`None`: it is gone).
    fn read_resource(&self, type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError>;
    /// Reads a data source from its (wholly known) configuration.
    fn read_data_source(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError>;
    /// `ImportResourceState`: the object `id` names, as far as the provider knows it (a
    /// refresh reads it next). By default the type cannot be imported.
    fn import_resource_state(&self, type_name: &str, id: &str) -> Result<Value, ProviderError> {
        let _ = id;
        Err(cannot_import(type_name))
    }
    /// How long the operation takes (milliseconds) for an object with this `name` attribute:
    /// metadata the walk honours to reproduce the oracle's timing (0 when instant).
    fn delay_ms(&self, _op: Op, _name: Option<&str>) -> u64 {
        0
    }
    /// The failure injected into `op` on the resource instance at `address` (the mocks'
    /// `failAddresses`), asked before each apply-time request: the one place a provider is told
    /// an address, since a mock object may have no `name` to be failed by. `None` for real ones.
    fn injected_failure(&self, _op: Op, _address: &str) -> Option<ProviderError> {
        None
    }
    /// The resource instance the next request is about (`module.a.aws_instance.web[0]`), told
    /// before each plan, read and apply request: the test framework's overrides are by address.
    /// Providers themselves ignore it.
    fn at_instance(&self, _address: &str) {}
    /// The provider serving the configuration at `config_address`
    /// (`provider["registry.terraform.io/hashicorp/aws"].west`) when this one stands for
    /// several (a [`set::ProviderSet`]); `None`: this one serves it.
    fn for_config(&self, _config_address: &str) -> Option<&dyn Provider> {
        None
    }
    /// Whether the engine checks this provider's plans ([`plan_valid`]): the built-in mocks
    /// plan valid objects by construction, a provider written elsewhere (in JS) may not.
    fn checks_plans(&self) -> bool {
        false
    }
    /// `terraform providers schema -json` for what this provider serves (the plan renderer
    /// reads it).
    fn schema_document(&self) -> serde_json::Value {
        serde_json::json!({"format_version": "1.0", "provider_schemas": {}})
    }
}

/// The error of a provider that cannot import objects of a type.
pub fn cannot_import(type_name: &str) -> ProviderError {
    ProviderError {
        summary: format!("{type_name} does not support resource import"),
        detail: format!("This provider has not implemented import for {type_name}."),
    }
}

/// What the mocks import: an object of the schema's type whose `id` is `id`, everything else
/// null (the oracle's mock, extended by scripts/engine-oracle.py, answers the same).
pub fn imported_object(schema: &ResourceSchema, id: &str) -> Value {
    let attrs = schema
        .attributes
        .iter()
        .map(|(k, a)| (k.clone(), if k == "id" { Value::string(id.to_string()) } else { Value::null(a.ty.clone()) }));
    let blocks = schema.blocks.keys().map(|k| (k.clone(), Value::null(Type::Dynamic)));
    Value::object(crate::util::sort::btree_map(attrs.chain(blocks)))
}

/// The provider serving `config_address`: `provider` itself, or the one of its set.
pub fn route<'p>(provider: &'p dyn Provider, config_address: &str) -> &'p dyn Provider {
    provider.for_config(config_address).unwrap_or(provider)
}

/// `terraform providers schema -json`'s block for a schema (attributes and nested blocks).
pub fn block_json(s: &ResourceSchema) -> serde_json::Value {
    use serde_json::json;
    let attrs: serde_json::Map<String, serde_json::Value> =
        crate::util::sort::json_map(s.attributes.iter().map(|(k, a)| {
            let mut m = serde_json::Map::new();
            m.insert("type".into(), crate::eval::value_json::type_json(&a.ty));
            m.insert("description_kind".into(), json!("markdown"));
            for (flag, on) in [
                ("required", a.required),
                ("optional", a.optional),
                ("computed", a.computed),
                ("sensitive", a.sensitive),
            ] {
                if on {
                    m.insert(flag.into(), json!(true));
                }
            }
            (k.clone(), serde_json::Value::Object(m))
        }));
    let mut block = serde_json::Map::new();
    block.insert("attributes".into(), serde_json::Value::Object(attrs));
    if !s.blocks.is_empty() {
        let types: serde_json::Map<String, serde_json::Value> = crate::util::sort::json_map(
            s.blocks.iter().map(|(k, b)| (k.clone(), json!({"nesting_mode": "list", "block": block_json(b)}))),
        );
        block.insert("block_types".into(), serde_json::Value::Object(types));
    }
    block.insert("description_kind".into(), json!("plain"));
    serde_json::Value::Object(block)
}
