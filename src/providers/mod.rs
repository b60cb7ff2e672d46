//! Providers (Terraform's `providers.Interface`, the part a plan and an apply use): a
//! [`Provider`] trait over values and schemas, and the built-in `mock` provider
//! ([`mock::MockProvider`]), which behaves value for value as the oracle's
//! `provider/mock_provider.py` (see `tests/fixtures/engine/README.md`).
//!
//! Providers see only values ([`Value`], with unknowns) and schemas: no graph, no state file,
//! no addresses.

pub mod answered;
pub mod mock;
pub mod no_refresh;
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

/// A resource type's or data source's schema.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceSchema {
    pub version: u64,
    pub attributes: BTreeMap<String, AttributeSchema>,
}

impl ResourceSchema {
    /// The object type of the resource's values (what configuration is converted to).
    pub fn object_type(&self) -> Type {
        Type::Object(self.attributes.iter().map(|(k, a)| (k.clone(), a.ty.clone())).collect())
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
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Create => "create",
            Op::Update => "update",
            Op::Delete => "delete",
            Op::Read => "read",
            Op::ReadData => "read_data",
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
    fn plan_resource_change(&self, type_name: &str, prior: Option<&Value>, config: &Value) -> Result<PlannedChange, ProviderError>;
    /// Applies a planned change: `planned` `None` deletes.
    fn apply_resource_change(&self, type_name: &str, prior: Option<&Value>, planned: Option<&Value>) -> Applied;
    /// Refresh: the object as it exists now (`None`: it is gone).
    fn read_resource(&self, type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError>;
    /// Reads a data source from its (wholly known) configuration.
    fn read_data_source(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError>;
    /// How long the operation takes (milliseconds) for an object with this `name` attribute:
    /// metadata the walk honours to reproduce the oracle's timing (0 when instant).
    fn delay_ms(&self, _op: Op, _name: Option<&str>) -> u64 {
        0
    }
}
