//! `checkTransformer` (`internal/terraform/transform_check.go`): a `check.c (expand)` node per
//! `check` block (none when destroying), and for plan a `check.c (report)` node that the
//! expansion and the check's scoped data source wait for (it registers the checkable objects
//! before anything evaluates them; validate and destroy have no report nodes). The expansion
//! refers to its assertions' references and to its scoped data source.

use super::{BuildContext, Transform};
use crate::diag::Diagnostics;
use crate::graph::node::{ConfigRef, Node, NodeKind};
use crate::graph::{TfGraph, Why};

pub struct CheckTransformer {
    /// Destroy walks: checks are not evaluated.
    pub skip: bool,
    /// Plan only: a report node per check, which its scoped data source waits for.
    pub report_nodes: bool,
}

impl Transform for CheckTransformer {
    fn name(&self) -> &'static str {
        "checkTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        if self.skip {
            return Diagnostics::new();
        }
        // The scoped data sources ConfigTransformer added, by (module, check).
        let data: std::collections::HashMap<(u32, u32), _> = g
            .ids()
            .filter_map(|id| match g.node(id).config {
                Some(ConfigRef::CheckData { module, check }) => Some(((module, check), id)),
                _ => None,
            })
            .collect();
        for (mi, entry) in cx.modules.iter().enumerate() {
            for (ci, c) in entry.module.checks.iter().enumerate() {
                let config = ConfigRef::Check { module: mi as u32, index: ci as u32 };
                let addr = cx.str(&format!("check.{}", c.name));
                let expand = g.add(
                    Node::new(NodeKind::CheckExpand, entry.path.clone(), addr.clone(), Some(cx.names.span(&c.range)))
                        .with_config(config),
                );
                if self.report_nodes {
                    let report = g.add(
                        Node::new(NodeKind::CheckReport, entry.path.clone(), addr, Some(cx.names.span(&c.range)))
                            .with_config(config),
                    );
                    g.connect(expand, report, Why::CheckReport);
                    if let Some(&d) = data.get(&(mi as u32, ci as u32)) {
                        g.connect(d, report, Why::CheckReport);
                    }
                }
            }
        }
        Diagnostics::new()
    }
}
