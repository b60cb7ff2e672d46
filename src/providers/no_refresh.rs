//! `plan -refresh=false`: a provider whose refresh finds every object as the prior state has
//! it, without asking; everything else goes to the provider underneath.

use super::{Applied, Op, PlannedChange, Provider, ProviderError, ResourceSchema};
use crate::eval::Value;

pub struct NoRefresh<'p>(pub &'p dyn Provider);

impl Provider for NoRefresh<'_> {
    fn source(&self) -> &str {
        self.0.source()
    }
    fn resource_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.0.resource_schema(type_name)
    }
    fn data_source_schema(&self, type_name: &str) -> Option<&ResourceSchema> {
        self.0.data_source_schema(type_name)
    }
    fn plan_resource_change(&self, type_name: &str, prior: Option<&Value>, config: &Value) -> Result<PlannedChange, ProviderError> {
        self.0.plan_resource_change(type_name, prior, config)
    }
    fn apply_resource_change(&self, type_name: &str, prior: Option<&Value>, planned: Option<&Value>) -> Applied {
        self.0.apply_resource_change(type_name, prior, planned)
    }
    fn read_resource(&self, _type_name: &str, prior: &Value) -> Result<Option<Value>, ProviderError> {
        Ok(Some(prior.clone()))
    }
    fn read_data_source(&self, type_name: &str, config: &Value) -> Result<Value, ProviderError> {
        self.0.read_data_source(type_name, config)
    }
    fn delay_ms(&self, op: Op, name: Option<&str>) -> u64 {
        self.0.delay_ms(op, name)
    }
}
