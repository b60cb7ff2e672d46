//! The providers of one configuration behind one [`Provider`]: the built-in mock for
//! `hashicorp/mock`, a [`GenericProvider`] for every other source. The engine asks the set for
//! the provider of a configuration address ([`Provider::for_config`]); a question by type name
//! alone (a schema for the plan JSON, an operation from an older caller) goes to the provider
//! whose source the configuration gives that type.

use super::generic::{GenericProvider, GenericSchemas};
use super::mock::{self, MockOptions, MockProvider};
use super::{Applied, Op, PlannedChange, Provider, ProviderError, ResourceSchema};
use crate::eval::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

pub struct ProviderSet {
    mock: MockProvider,
    generic: BTreeMap<String, GenericProvider>,
    /// Resource or data source type → the source the configuration uses for it.
    type_sources: BTreeMap<String, String>,
}

impl ProviderSet {
    /// A set serving `sources` (the configuration's provider source addresses), the generic
    /// ones with `schemas`; `type_sources` tells which source each type of the configuration uses.
    pub fn new(options: MockOptions, schemas: GenericSchemas, type_sources: BTreeMap<String, String>) -> ProviderSet {
        let schemas = Arc::new(schemas);
        let mut generic = BTreeMap::new();
        for source in type_sources.values() {
            if source != mock::SOURCE && !generic.contains_key(source) {
                generic.insert(source.clone(), GenericProvider::new(source, Arc::clone(&schemas), options.clone()));
            }
        }
        ProviderSet { mock: MockProvider::new(options), generic, type_sources }
    }

    /// The provider of a source address (a generic one made for a source the set has not met
    /// would have no schemas: such a source gets the first generic provider's, or the mock).
    pub fn by_source(&self, source: &str) -> &dyn Provider {
        if source == mock::SOURCE {
            return &self.mock;
        }
        match self.generic.get(source) {
            Some(g) => g,
            None => self.generic.values().next().map(|g| g as &dyn Provider).unwrap_or(&self.mock),
        }
    }

    fn by_type(&self, type_name: &str) -> &dyn Provider {
        match self.type_sources.get(type_name) {
            Some(s) => self.by_source(s),
            None if type_name.starts_with("mock_") => &self.mock,
            None => self.by_source(""),
        }
    }
}

impl Provider for ProviderSet {
    fn source(&self) -> &str {
        self.mock.source()
    }
    fn resource_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.by_type(type_name).resource_schema(type_name)
    }
    fn data_source_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.by_type(type_name).data_source_schema(type_name)
    }
    fn plan_resource_change(&self, type_name: &str, prior: Option<&Value>, config: &Value) -> Result<PlannedChange, ProviderError> {
        self.by_type(type_name).plan_resource_change(type_name, prior, config)
    }
    fn apply_resource_change(&self, type_name: &str, prior: Option<&Value>, planned: Option<&Value>) -> Applied {
        self.by_type(type_name).apply_resource_change(type_name, prior, planned)
    }
    fn read_resource(&self, type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError> {
        self.by_type(type_name).read_resource(type_name, prior)
    }
    fn read_data_source(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError> {
        self.by_type(type_name).read_data_source(type_name, config)
    }
    fn delay_ms(&self, op: Op, name: Option<&str>) -> u64 {
        self.mock.delay_ms(op, name)
    }
    fn for_config(&self, config_address: &str) -> Option<&dyn Provider> {
        let source = crate::addrs::AbsProviderConfig::parse(config_address)?.provider;
        Some(self.by_source(&source))
    }
    fn schema_document(&self) -> serde_json::Value {
        let mut all = serde_json::Map::new();
        let used_mock = self.type_sources.values().any(|s| s == mock::SOURCE) || self.generic.is_empty();
        let docs = used_mock.then(|| self.mock.schema_document()).into_iter().chain(self.generic.values().map(|g| g.schema_document()));
        for doc in docs {
            if let Some(serde_json::Value::Object(m)) = doc.get("provider_schemas") {
                all.extend(m.clone());
            }
        }
        serde_json::json!({"format_version": "1.0", "provider_schemas": all})
    }
}
