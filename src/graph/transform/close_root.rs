//! `CloseRootModuleTransformer` (`internal/terraform/transform_root.go`): the root module's
//! close node, named `root`, depending on every node that nothing else depends on. It is the
//! graph's single sink: the walk ends there.

use super::{BuildContext, Transform};
use crate::addrs::ModulePath;
use crate::diag::Diagnostics;
use crate::graph::node::{Node, NodeKind};
use crate::graph::{TfGraph, Why};

pub struct CloseRootModuleTransformer;

impl Transform for CloseRootModuleTransformer {
    fn name(&self) -> &'static str {
        "CloseRootModuleTransformer"
    }

    fn transform(&self, g: &mut TfGraph, _cx: &BuildContext) -> Diagnostics {
        let tops: Vec<_> = g.ids().filter(|&id| g.dag().in_degree(id) == 0).collect();
        let root = g.add(Node::new(NodeKind::Root, ModulePath::root(), "", None));
        for v in tops {
            g.connect(root, v, Why::RootClose);
        }
        Diagnostics::new()
    }
}
