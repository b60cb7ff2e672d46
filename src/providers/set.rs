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
    /// One generic mock per source, sorted by source: a sorted `Vec`, as [`Keyed`] is.
    generic: Vec<(String, GenericProvider)>,
    /// For sources only the prior state names (objects of a provider the configuration no
    /// longer uses): a generic mock with no schemas, which refreshes and destroys them.
    other: GenericProvider,
    /// Configurations that write a `region`, by configuration address.
    configured: Keyed,
    /// Providers given for a source (a JS provider for `registry.terraform.io/hashicorp/aws`):
    /// they serve every configuration of that source instead of the mocks.
    given: Keyed,
    /// Providers given for one configuration address (a JS provider's `west` alias, which
    /// answers as it was configured): ahead of `given`.
    given_configs: Keyed,
    /// Resource or data source type → the source the configuration uses for it.
    type_sources: BTreeMap<String, String>,
}

/// Providers by key (a source or a configuration address), sorted by key: a sorted `Vec`, so
/// that the set needs no B-tree type of its own in the package.
#[derive(Default)]
struct Keyed(Vec<(String, Box<dyn Provider>)>);

impl Keyed {
    fn get(&self, key: &str) -> Option<&dyn Provider> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok().map(|i| self.0[i].1.as_ref())
    }

    /// Adds or replaces the provider of `key`.
    fn insert(&mut self, key: String, provider: Box<dyn Provider>) {
        match self.0.binary_search_by(|(k, _)| k.as_str().cmp(&key)) {
            Ok(i) => self.0[i].1 = provider,
            Err(i) => self.0.insert(i, (key, provider)),
        }
    }

    fn remove(&mut self, key: &str) {
        if let Ok(i) = self.0.binary_search_by(|(k, _)| k.as_str().cmp(key)) {
            self.0.remove(i);
        }
    }
}

impl ProviderSet {
    /// A set serving `sources` (the configuration's provider source addresses), the generic
    /// ones with `schemas`; `type_sources` tells which source each type of the configuration uses.
    pub fn new(options: MockOptions, schemas: GenericSchemas, type_sources: BTreeMap<String, String>) -> ProviderSet {
        let schemas = Arc::new(schemas);
        let mut generic: Vec<(String, GenericProvider)> = Vec::new();
        for source in type_sources.values() {
            if source == mock::SOURCE {
                continue;
            }
            if let Err(at) = generic.binary_search_by(|(s, _)| s.as_str().cmp(source)) {
                generic
                    .insert(at, (source.clone(), GenericProvider::new(source, Arc::clone(&schemas), options.clone())));
            }
        }
        let other = GenericProvider::new("", Arc::clone(&schemas), options.clone());
        ProviderSet {
            mock: MockProvider::new(options),
            generic,
            other,
            configured: Keyed::default(),
            given: Keyed::default(),
            given_configs: Keyed::default(),
            type_sources,
        }
    }

    /// The set with the `region` each configuration (by address) writes.
    pub fn with_regions(mut self, regions: &BTreeMap<String, String>) -> ProviderSet {
        for (address, region) in regions {
            let Some(config) = crate::addrs::AbsProviderConfig::parse(address) else { continue };
            if let Some(g) = self.generic(&config.provider) {
                let g = g.in_region(region);
                self.configured.insert(address.clone(), Box::new(g));
            }
        }
        self
    }

    /// The set with `provider` serving every configuration of its source (`provider.source()`,
    /// e.g. `registry.terraform.io/hashicorp/aws`).
    pub fn with_provider(mut self, provider: Box<dyn Provider>) -> ProviderSet {
        let source = provider.source().to_string();
        self.configured.0.retain(|(address, _)| {
            crate::addrs::AbsProviderConfig::parse(address).is_none_or(|c| c.provider != source)
        });
        self.given.insert(source, provider);
        self
    }

    /// The set with `provider` serving the configuration at `address` alone (ahead of one
    /// given for its whole source).
    pub fn with_config_provider(mut self, address: &str, provider: Box<dyn Provider>) -> ProviderSet {
        self.configured.remove(address);
        self.given_configs.insert(address.to_string(), provider);
        self
    }

    /// The provider of a source address.
    pub fn by_source(&self, source: &str) -> &dyn Provider {
        if let Some(p) = self.given.get(source) {
            return p;
        }
        if source == mock::SOURCE {
            return &self.mock;
        }
        match self.generic(source) {
            Some(g) => g,
            None => &self.other,
        }
    }

    fn generic(&self, source: &str) -> Option<&GenericProvider> {
        self.generic.binary_search_by(|(s, _)| s.as_str().cmp(source)).ok().map(|i| &self.generic[i].1)
    }

    fn by_type(&self, type_name: &str) -> &dyn Provider {
        match self.type_sources.get(type_name) {
            Some(s) => self.by_source(s),
            None if type_name.starts_with("mock_") => &self.mock,
            None => &self.other,
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
    fn plan_resource_change(
        &self,
        type_name: &str,
        prior: Option<&Value>,
        config: &Value,
    ) -> Result<PlannedChange, ProviderError> {
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
    fn import_resource_state(&self, type_name: &str, id: &str) -> Result<Value, ProviderError> {
        self.by_type(type_name).import_resource_state(type_name, id)
    }
    fn delay_ms(&self, op: Op, name: Option<&str>) -> u64 {
        self.mock.delay_ms(op, name)
    }
    fn for_config(&self, config_address: &str) -> Option<&dyn Provider> {
        if let Some(p) = self.given_configs.get(config_address) {
            return Some(p);
        }
        if let Some(g) = self.configured.get(config_address) {
            return Some(g);
        }
        let source = crate::addrs::AbsProviderConfig::parse(config_address)?.provider;
        Some(self.by_source(&source))
    }
    fn schema_document(&self) -> serde_json::Value {
        let mut all = serde_json::Map::new();
        let used_mock = self.type_sources.values().any(|s| s == mock::SOURCE) || self.generic.is_empty();
        let docs = used_mock
            .then(|| self.mock.schema_document())
            .into_iter()
            .chain(self.generic.iter().filter(|(s, _)| self.given.get(s).is_none()).map(|(_, g)| g.schema_document()))
            .chain(self.given.0.iter().map(|(_, p)| p.schema_document()));
        for doc in docs {
            if let Some(serde_json::Value::Object(m)) = doc.get("provider_schemas") {
                all.extend(m.clone());
            }
        }
        serde_json::json!({"format_version": "1.0", "provider_schemas": all})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> ProviderSet {
        let mut schemas = GenericSchemas::default();
        schemas.resources.insert("aws_vpc".into(), ResourceSchema::default());
        let sources: BTreeMap<String, String> =
            [("aws_vpc", "registry.terraform.io/hashicorp/aws"), ("mock_resource", mock::SOURCE)]
                .into_iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect();
        schemas.sources = sources.clone();
        ProviderSet::new(MockOptions::default(), schemas, sources)
    }

    #[test]
    fn configurations_route_by_source() {
        let s = set();
        let aws = s.for_config("module.a.provider[\"registry.terraform.io/hashicorp/aws\"].west").unwrap();
        assert_eq!(aws.source(), "registry.terraform.io/hashicorp/aws");
        assert!(aws.resource_schema("aws_vpc").is_some());
        assert_eq!(s.for_config("provider[\"registry.terraform.io/hashicorp/mock\"]").unwrap().source(), mock::SOURCE);
        assert!(
            s.resource_schema("mock_resource").unwrap().attributes.contains_key("force_new"),
            "by type: the mock's"
        );
        // A source only a prior state names: still refreshed and destroyed.
        let gone = s.for_config("provider[\"registry.terraform.io/hashicorp/google\"]").unwrap();
        let obj = Value::object(BTreeMap::new());
        assert_eq!(gone.read_resource("google_storage_bucket", &obj).unwrap(), Some(obj.clone()));
        let deleted = gone.apply_resource_change("google_storage_bucket", Some(&obj), None);
        assert!(deleted.error.is_none() && deleted.new_state.is_none());
        let doc = s.schema_document();
        let given = set().with_provider(Box::new(MockProvider::new(MockOptions { delay_ms: 7, ..Default::default() })));
        assert_eq!(
            given
                .for_config("provider[\"registry.terraform.io/hashicorp/mock\"].x")
                .unwrap()
                .delay_ms(Op::Create, None),
            7,
            "a given provider serves its source"
        );
        let west = "provider[\"registry.terraform.io/hashicorp/aws\"].west";
        let per_config = set()
            .with_regions(&[(west.to_string(), "us-west-2".to_string())].into_iter().collect())
            .with_config_provider(west, Box::new(MockProvider::new(MockOptions { delay_ms: 9, ..Default::default() })));
        assert_eq!(
            per_config.for_config(west).unwrap().delay_ms(Op::Create, None),
            9,
            "a configuration's own provider comes first"
        );
        assert_eq!(
            per_config.for_config("provider[\"registry.terraform.io/hashicorp/aws\"]").unwrap().source(),
            "registry.terraform.io/hashicorp/aws",
            "the others stay on the mocks"
        );
        assert!(
            doc["provider_schemas"]["registry.terraform.io/hashicorp/aws"]["resource_schemas"]["aws_vpc"].is_object()
        );
        assert!(doc["provider_schemas"][mock::SOURCE]["resource_schemas"]["mock_resource"].is_object());
    }
}
