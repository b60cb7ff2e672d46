//! `PruneProviderTransformer` (`internal/terraform/transform_provider.go`): removes proxies
//! nobody resolved through, and provider configurations that nothing uses (no incoming
//! edges), such as a `required_providers` entry or an implied default whose resources all use
//! other configurations.

use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::node::NodeKind;
use crate::graph::TfGraph;

pub struct PruneProviderTransformer;

impl Transform for PruneProviderTransformer {
    fn name(&self) -> &'static str {
        "PruneProviderTransformer"
    }

    fn transform(&self, g: &mut TfGraph, _cx: &BuildContext) -> Diagnostics {
        let ids: Vec<_> = g.ids().collect();
        for id in ids {
            if !g.contains(id) {
                continue;
            }
            match g.node(id).kind {
                NodeKind::ProviderProxy { .. } => {
                    g.remove(id);
                }
                NodeKind::Provider { .. } if g.dag().in_degree(id) == 0 => {
                    g.remove(id);
                }
                _ => {}
            }
        }
        Diagnostics::new()
    }
}
