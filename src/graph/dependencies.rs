//! Every resource a node transitively depends on, kept implicit (what
//! `AttachDependenciesTransformer` records, [`crate::graph::transform`]).
//!
//! Terraform calls `Ancestors` once per node, a full walk each time: O(V·(V+E)), one of the
//! quadratic steps of large plans (#35822: 14,160 resources). Materialising the lists is
//! quadratic in *size* too on chains of references (10,000 generated resources: 570 ms and
//! 700 MB of strings; 100,000 did not fit). So nothing is materialised here: a
//! [`DependencyIndex`] is the condensation of the graph at one point (strongly connected
//! components, the resource columns of each, the components each depends on), O(V + E) `u32`s,
//! shared by every node through an `Arc` — and each node's facts hold a [`Dependencies`]
//! handle (index + component) that reads its sorted list on demand, O(what it reaches).
//! [`DependencyIndex::restricted_lists`] computes lists over a subset of resources for all
//! nodes at once (destroy edges need only the resources that have destroyers).

use super::shared::{FastMap, SharedStr};
use super::TfGraph;
use crate::dag::NodeId;
use serde::{Serialize, Serializer};
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

const NONE: u32 = u32::MAX;

/// The resource-dependency structure of a graph at one moment: its strongly connected
/// components in dependencies-first order (Tarjan's pop order: every component a component
/// depends on has a smaller index), with, per component, the resource columns of its nodes
/// and the components it depends on. Columns are resource addresses in sorted order, so
/// sorted columns are sorted addresses.
#[derive(Debug, Default)]
pub struct DependencyIndex {
    /// Column → config resource address (`module.a.aws_instance.web`), sorted.
    names: Vec<SharedStr>,
    /// Node index → (component, own column or NONE).
    node: Vec<(u32, u32)>,
    /// Whether a component is a cycle (two or more nodes: each depends on all of them).
    cyclic: Vec<bool>,
    /// CSR per component: its nodes' distinct columns.
    cols_start: Vec<u32>,
    cols: Vec<u32>,
    /// CSR per component: the distinct components it has edges to.
    succ_start: Vec<u32>,
    succ: Vec<u32>,
}

impl DependencyIndex {
    /// The condensation of `g` as it is now. O((V + E) + R log R) for R resources.
    pub fn new(g: &TfGraph) -> Self {
        let dag = g.dag();
        let bound = dag.node_bound();
        // Each resource's address text once: the nodes of one resource (expand, instances,
        // destroyers) share their module path and address, so those copies key the texts.
        let mut text_of: FastMap<(usize, usize), u32> = FastMap::default();
        let mut texts: Vec<String> = Vec::new();
        let mut node_text: Vec<(NodeId, u32)> = Vec::new();
        for id in dag.node_ids() {
            let n = g.node(id);
            if n.resource_mode().is_none() {
                continue;
            }
            let key = (Arc::as_ptr(&n.module) as usize, n.addr.as_ptr() as usize);
            let t = *text_of.entry(key).or_insert_with(|| {
                texts.push(n.config_resource_address().expect("a resource"));
                texts.len() as u32 - 1
            });
            node_text.push((id, t));
        }
        // Columns: distinct texts in sorted order.
        let mut order: Vec<u32> = (0..texts.len() as u32).collect();
        crate::util::sort::sort_by(&mut order, |&a, &b| texts[a as usize].cmp(&texts[b as usize]));
        let mut column_of_text = vec![0u32; texts.len()];
        let mut names: Vec<SharedStr> = Vec::new();
        for &t in &order {
            if names.last().is_none_or(|last| **last != *texts[t as usize]) {
                names.push(std::mem::take(&mut texts[t as usize]).into());
            }
            column_of_text[t as usize] = names.len() as u32 - 1;
        }
        let mut node = vec![(NONE, NONE); bound];
        for (id, t) in node_text {
            node[id.index()].1 = column_of_text[t as usize];
        }
        let comps = dag.components();
        for (ci, c) in comps.iter().enumerate() {
            for &v in c {
                node[v.index()].0 = ci as u32;
            }
        }
        let mut ix = DependencyIndex { names, node, ..Default::default() };
        // A stamp per component / column dedupes without clearing between components.
        let mut seen_comp = vec![NONE; comps.len()];
        let mut seen_col = vec![NONE; ix.names.len()];
        ix.cols_start.push(0);
        ix.succ_start.push(0);
        for (ci, comp) in comps.iter().enumerate() {
            let me = ci as u32;
            ix.cyclic.push(comp.len() > 1);
            for &v in comp {
                let col = ix.node[v.index()].1;
                if col != NONE && seen_col[col as usize] != me {
                    seen_col[col as usize] = me;
                    ix.cols.push(col);
                }
                for t in dag.edges_from(v) {
                    let tc = ix.node[t.index()].0;
                    if tc != me && seen_comp[tc as usize] != me {
                        seen_comp[tc as usize] = me;
                        ix.succ.push(tc);
                    }
                }
            }
            ix.cols_start.push(ix.cols.len() as u32);
            ix.succ_start.push(ix.succ.len() as u32);
        }
        ix
    }

    fn comp_cols(&self, c: u32) -> &[u32] {
        &self.cols[self.cols_start[c as usize] as usize..self.cols_start[c as usize + 1] as usize]
    }

    fn comp_succ(&self, c: u32) -> &[u32] {
        &self.succ[self.succ_start[c as usize] as usize..self.succ_start[c as usize + 1] as usize]
    }

    /// The handle of node `id`'s dependencies.
    pub fn handle(self: &Arc<Self>, id: NodeId) -> Dependencies {
        let (comp, own) = self.node.get(id.index()).copied().unwrap_or((NONE, NONE));
        Dependencies(Some(Handle { index: Arc::clone(self), comp, own }))
    }

    /// The sorted columns a node of component `comp` with column `own` depends on: its own
    /// cycle's columns and those of every component reachable from it, minus `own`.
    /// O(what it reaches).
    fn columns_of(&self, comp: u32, own: u32) -> Vec<u32> {
        if comp == NONE {
            return Vec::new();
        }
        let mut out: Vec<u32> = if self.cyclic[comp as usize] { self.comp_cols(comp).to_vec() } else { Vec::new() };
        let mut seen: HashSet<u32> = HashSet::new();
        let mut stack: Vec<u32> = self.comp_succ(comp).to_vec();
        while let Some(c) = stack.pop() {
            if !seen.insert(c) {
                continue;
            }
            out.extend_from_slice(self.comp_cols(c));
            stack.extend(self.comp_succ(c).iter().filter(|s| !seen.contains(s)));
        }
        out.sort_unstable();
        out.dedup();
        out.retain(|&c| c != own);
        out
    }

    /// The column of a resource address.
    pub fn column(&self, address: &str) -> Option<u32> {
        self.names.binary_search_by(|n| n.as_str().cmp(address)).ok().map(|i| i as u32)
    }

    /// The address of a column.
    pub fn name(&self, column: u32) -> &str {
        &self.names[column as usize]
    }

    /// The address of a column, shared.
    pub fn shared_name(&self, column: u32) -> &SharedStr {
        &self.names[column as usize]
    }

    /// How many columns (resources) there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// For every component, the sorted columns it depends on among those `keep` selects (its
    /// own cycle's included; a node must still drop its own column): one pass, dependencies
    /// first, merging with a stamp array. Time and memory O(V + E + Σ list sizes), where the
    /// lists only hold kept columns.
    pub fn restricted_lists(&self, keep: impl Fn(u32) -> bool) -> RestrictedLists {
        let kept: Vec<bool> = (0..self.names.len() as u32).map(keep).collect();
        let n = self.cyclic.len();
        let mut start: Vec<u32> = Vec::with_capacity(n + 1);
        let mut all: Vec<u32> = Vec::new();
        let mut stamp = vec![NONE; self.names.len()];
        start.push(0);
        for ci in 0..n as u32 {
            let from = all.len();
            let mut add = |c: u32, all: &mut Vec<u32>| {
                if kept[c as usize] && stamp[c as usize] != ci {
                    stamp[c as usize] = ci;
                    all.push(c);
                }
            };
            if self.cyclic[ci as usize] {
                for &c in self.comp_cols(ci) {
                    add(c, &mut all);
                }
            }
            for &d in self.comp_succ(ci) {
                let (s, e) = (start[d as usize] as usize, start[d as usize + 1] as usize);
                for i in s..e {
                    let c = all[i];
                    add(c, &mut all);
                }
                for &c in self.comp_cols(d) {
                    add(c, &mut all);
                }
            }
            all[from..].sort_unstable();
            start.push(all.len() as u32);
        }
        RestrictedLists { start, all }
    }
}

/// Per-component sorted column lists from [`DependencyIndex::restricted_lists`].
pub struct RestrictedLists {
    start: Vec<u32>,
    all: Vec<u32>,
}

impl RestrictedLists {
    /// The kept columns a node with handle `h` depends on, sorted, its own excluded.
    pub fn of<'a>(&'a self, h: &Dependencies) -> impl Iterator<Item = u32> + 'a {
        let (comp, own) = h.0.as_ref().map(|h| (h.comp, h.own)).unwrap_or((NONE, NONE));
        let list: &[u32] = if comp == NONE {
            &[]
        } else {
            &self.all[self.start[comp as usize] as usize..self.start[comp as usize + 1] as usize]
        };
        list.iter().copied().filter(move |&c| c != own)
    }
}

#[derive(Clone)]
struct Handle {
    index: Arc<DependencyIndex>,
    comp: u32,
    own: u32,
}

/// A node's transitive resource dependencies (config addresses, sorted, its own excluded), as
/// `AttachDependenciesTransformer` found them. Kept implicit — a shared [`DependencyIndex`]
/// and the node's place in it — because the lists themselves are quadratic in size on long
/// reference chains; [`Dependencies::to_vec`] reads one on demand. Compares, prints and
/// serializes as that list of strings.
#[derive(Clone, Default)]
pub struct Dependencies(Option<Handle>);

impl Dependencies {
    /// The addresses, sorted. O(what the node reaches).
    pub fn to_vec(&self) -> Vec<SharedStr> {
        match &self.0 {
            Some(h) => {
                h.index.columns_of(h.comp, h.own).into_iter().map(|c| h.index.names[c as usize].clone()).collect()
            }
            None => Vec::new(),
        }
    }

    /// The shared index this handle reads from.
    pub fn index(&self) -> Option<&Arc<DependencyIndex>> {
        self.0.as_ref().map(|h| &h.index)
    }
}

impl fmt::Debug for Dependencies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_vec(), f)
    }
}

impl PartialEq for Dependencies {
    fn eq(&self, other: &Self) -> bool {
        self.to_vec() == other.to_vec()
    }
}

impl Eq for Dependencies {}

impl<S: AsRef<str>> PartialEq<[S]> for Dependencies {
    fn eq(&self, other: &[S]) -> bool {
        let v = self.to_vec();
        v.len() == other.len() && v.iter().zip(other).all(|(a, b)| a == b.as_ref())
    }
}

impl<S: AsRef<str>, const N: usize> PartialEq<[S; N]> for Dependencies {
    fn eq(&self, other: &[S; N]) -> bool {
        *self == other[..]
    }
}

impl<S: AsRef<str>> PartialEq<Vec<S>> for Dependencies {
    fn eq(&self, other: &Vec<S>) -> bool {
        *self == other[..]
    }
}

impl Serialize for Dependencies {
    fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
        self.to_vec().serialize(s)
    }
}

/// For each node `attach` selects, the sorted config addresses of the resources it
/// transitively depends on (its own excluded). Materialises every list: for tests and tools.
pub fn resource_ancestors(g: &TfGraph, attach: impl Fn(NodeId) -> bool) -> Vec<(NodeId, Vec<SharedStr>)> {
    let index = Arc::new(DependencyIndex::new(g));
    g.dag().node_ids().filter(|&id| attach(id)).map(|id| (id, index.handle(id).to_vec())).collect()
}
