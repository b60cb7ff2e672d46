//! `AttachDependenciesTransformer` (`internal/terraform/transform_reference.go`): records on
//! every node that keeps dependencies (plan: resource expand nodes; apply: the instances being
//! created or updated) every *resource* it transitively depends on — config addresses, sorted,
//! itself excluded. Terraform stores this list as the new state `dependencies`, and destroy
//! ordering uses it for objects not yet in the state. The graph is unchanged.
//!
//! Terraform calls `Ancestors` once per node, a full walk each time: O(V·(V+E)), one of the
//! quadratic steps of large plans (#35822: 14,160 resources). Here the ancestor sets are
//! computed for all nodes at once, as bitsets over the distinct resources, in one pass over the
//! strongly connected components in dependency order (a node's set is the union of its
//! dependencies' sets and the dependencies themselves; a cycle shares one set): O((V + E) ·
//! R / 64) word operations for R resources. Columns are processed in blocks so that memory
//! stays under [`BLOCK_BYTES`] whatever the size; the output lists are as long as Terraform's.

use super::{BuildContext, Transform};
use crate::dag::NodeId;
use crate::diag::Diagnostics;
use crate::graph::facts::{config_resource, facts_mut};
use crate::graph::node::NodeKind;
use crate::graph::{Operation, TfGraph};
use std::collections::BTreeMap;

pub struct AttachDependenciesTransformer;

/// The most memory one block of ancestor bitsets may take.
pub const BLOCK_BYTES: usize = 32 << 20;

/// Whether the node keeps dependencies (Terraform `GraphNodeAttachDependencies`).
fn attaches(kind: &NodeKind, op: Operation) -> bool {
    match kind {
        NodeKind::ResourceExpand { .. } => op != Operation::Apply,
        NodeKind::ResourceInstance { .. } => true,
        _ => false,
    }
}

/// For each node `attach` selects, the sorted config addresses of the resources it
/// transitively depends on (its own excluded). See the module docs for the method.
pub fn resource_ancestors(g: &TfGraph, attach: impl Fn(NodeId) -> bool) -> Vec<(NodeId, Vec<String>)> {
    let dag = g.dag();
    let bound = dag.node_bound();
    // Resource columns, sorted by address so output comes out sorted.
    let mut columns: BTreeMap<String, u32> = BTreeMap::new();
    let mut col_of: Vec<u32> = vec![u32::MAX; bound];
    for id in dag.node_ids() {
        if let Some(r) = config_resource(g.node(id)) {
            columns.entry(r).or_insert(0);
        }
    }
    let names: Vec<String> = columns.keys().cloned().collect();
    for (i, v) in columns.values_mut().enumerate() {
        *v = i as u32;
    }
    for id in dag.node_ids() {
        if let Some(r) = config_resource(g.node(id)) {
            col_of[id.index()] = columns[&r];
        }
    }
    let targets: Vec<NodeId> = dag.node_ids().filter(|&id| attach(id)).collect();
    let mut out: Vec<(NodeId, Vec<String>)> = targets.iter().map(|&t| (t, Vec::new())).collect();
    if names.is_empty() || targets.is_empty() {
        return out;
    }
    let comps = dag.strongly_connected();
    let mut comp_of = vec![u32::MAX; bound];
    for (ci, c) in comps.iter().enumerate() {
        for &v in c {
            comp_of[v.index()] = ci as u32;
        }
    }
    let total_words = names.len().div_ceil(64);
    let words = (BLOCK_BYTES / 8 / comps.len().max(1)).clamp(1, total_words);
    let mut rows = vec![0u64; comps.len() * words];
    let mut start_word = 0;
    while start_word < total_words {
        let w = words.min(total_words - start_word);
        let lo = start_word * 64;
        let hi = lo + w * 64;
        rows.iter_mut().for_each(|x| *x = 0);
        let own = |v: NodeId, row: &mut [u64]| {
            let c = col_of[v.index()] as usize;
            if c != u32::MAX as usize && (lo..hi).contains(&c) {
                row[(c - lo) / 64] |= 1 << ((c - lo) % 64);
            }
        };
        for (ci, comp) in comps.iter().enumerate() {
            let (done, rest) = rows.split_at_mut(ci * words);
            let row = &mut rest[..w];
            for &v in comp {
                if comp.len() > 1 {
                    own(v, row);
                }
                for t in dag.edges_from(v) {
                    let tc = comp_of[t.index()] as usize;
                    if tc == ci {
                        continue;
                    }
                    let trow = &done[tc * words..tc * words + w];
                    for (a, b) in row.iter_mut().zip(trow) {
                        *a |= *b;
                    }
                    own(t, row);
                }
            }
        }
        for (t, list) in out.iter_mut() {
            let ci = comp_of[t.index()] as usize;
            let self_col = col_of[t.index()] as usize;
            for (wi, &word) in rows[ci * words..ci * words + w].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let c = lo + wi * 64 + b;
                    if c != self_col {
                        list.push(names[c].clone());
                    }
                }
            }
        }
        start_word += w;
    }
    out
}

impl Transform for AttachDependenciesTransformer {
    fn name(&self) -> &'static str {
        "AttachDependenciesTransformer"
    }

    fn transform(&self, g: &mut TfGraph, cx: &BuildContext) -> Diagnostics {
        let op = cx.options.operation;
        let found = resource_ancestors(g, |id| attaches(&g.node(id).kind, op));
        for (id, deps) in found {
            facts_mut(g, id).dependencies = Some(deps);
        }
        Diagnostics::new()
    }
}
