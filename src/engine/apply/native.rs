//! The apply natively: the apply walk (`walk`) on a virtual clock with the built-in mocks.
//! The result is the state v4 Terraform writes, the provider operations grouped in waves, and
//! the events. The package runs the same walk on real timers and JS promises
//! (`bindings/engine`).

use super::walk::ApplyHost;
use crate::engine::shared::clock::VirtualClock;
use futures_util::future::LocalBoxFuture;

/// The native host: virtual time.
pub struct VirtualHost<'c> {
    clock: &'c VirtualClock,
}

impl<'c> VirtualHost<'c> {
    pub fn new(clock: &'c VirtualClock) -> Self {
        VirtualHost { clock }
    }
}

impl ApplyHost for VirtualHost<'_> {
    fn now(&self) -> f64 {
        self.clock.now() as f64
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        Box::pin(self.clock.sleep(ms))
    }
}

/// The apply on a virtual clock with options of its own, for the engine's unit tests; everything
/// else applies through the engine's session (`engine::session`).
#[cfg(test)]
pub(crate) mod testing {
    use super::VirtualHost;
    use crate::config::model::Config;
    use crate::engine::apply::events::ApplyResult;
    use crate::engine::apply::nodes::ApplyNodes;
    use crate::engine::shared::clock::VirtualClock;
    use crate::engine::shared::plan::Plan;
    use crate::providers::Provider;
    use crate::walk::CancelToken;
    use serde_json::Value as Json;
    use std::collections::BTreeMap;

    /// Options of [`apply`].
    #[derive(Clone, Debug)]
    pub struct ApplyOptions {
        pub variables: BTreeMap<String, Json>,
        /// Terraform's `-parallelism` (10 by default).
        pub parallelism: usize,
        /// The lineage of a new state (a prior state keeps its own).
        pub lineage: String,
    }

    impl Default for ApplyOptions {
        fn default() -> Self {
            ApplyOptions {
                variables: BTreeMap::new(),
                parallelism: 10,
                lineage: "00000000-0000-0000-0000-000000000000".into(),
            }
        }
    }

    /// Applies `plan` (made from `config` and the prior state `prior`) with `provider`: its apply
    /// graph walked on a virtual clock (`apply_walk`), each provider operation answered at once and
    /// taking the provider's delay (`delay_ms`) of virtual time. For the engine's own tests:
    /// everything else applies through the engine's session (`engine::session`).
    pub fn apply(
        files: &BTreeMap<String, String>,
        config: &Config,
        plan: &Plan,
        prior: Option<&Json>,
        provider: &dyn Provider,
        options: &ApplyOptions,
    ) -> ApplyResult {
        let s = ApplyNodes::new(files, config, plan, prior, provider, &options.variables, options.lineage.clone());
        let clock = VirtualClock::default();
        clock.run(crate::engine::apply::walk::run(
            s,
            config,
            provider,
            &VirtualHost::new(&clock),
            options.parallelism,
            CancelToken::new(),
        ))
    }
}
