//! One vertex's edges in one direction: neighbour ids with their payloads.
//!
//! Terraform graphs are mostly low-degree (a resource has a few dependencies and dependents)
//! with a few hubs (every resource depends on its provider; `root` and close nodes depend on
//! many). A hashed map per vertex (what this replaced: two `IndexMap`s per vertex) costs two
//! allocations per map and a hash per lookup, for lists that are usually shorter than a cache
//! line. Here the entries are one vector, searched linearly while short; past
//! [`INDEX_FROM`] entries a position index makes lookups O(1) for the hubs.
//!
//! The order is exactly an `IndexMap`'s: insertion order, and removal moves the last entry
//! into the hole (`swap_remove`). Every iteration order of the graph depends on it, and so do
//! outputs that follow edge order (cycle texts, walks), so it must not change.

use super::graph::{IdBuild, NodeId};
use std::collections::HashMap;

/// Above this many entries, lookups go through a position index.
const INDEX_FROM: usize = 12;

pub(super) struct Adjacency<E> {
    entries: Vec<(NodeId, E)>,
    /// Position of every id in `entries`, kept once `entries` grew past [`INDEX_FROM`]. Boxed:
    /// few vertices have one, and every vertex has two of these fields (8 bytes instead of 32).
    #[allow(clippy::box_collection)]
    index: Option<Box<HashMap<NodeId, u32, IdBuild>>>,
}

impl<E> Default for Adjacency<E> {
    fn default() -> Self {
        Adjacency { entries: Vec::new(), index: None }
    }
}

impl<E: Clone> Clone for Adjacency<E> {
    fn clone(&self) -> Self {
        Adjacency { entries: self.entries.clone(), index: self.index.clone() }
    }
}

impl<E> Adjacency<E> {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Where `id` is in the entries. O(1) with an index, else a scan of at most
    /// [`INDEX_FROM`] ids.
    fn position(&self, id: NodeId) -> Option<usize> {
        match &self.index {
            Some(ix) => ix.get(&id).map(|&p| p as usize),
            None => self.entries.iter().position(|(t, _)| *t == id),
        }
    }

    pub fn contains(&self, id: NodeId) -> bool {
        self.position(id).is_some()
    }

    pub fn get(&self, id: NodeId) -> Option<&E> {
        self.position(id).map(|p| &self.entries[p].1)
    }

    pub fn get_mut(&mut self, id: NodeId) -> Option<&mut E> {
        self.position(id).map(|p| &mut self.entries[p].1)
    }

    /// The entry at `pos`, in iteration order.
    pub fn get_index(&self, pos: usize) -> Option<(NodeId, &E)> {
        self.entries.get(pos).map(|(t, e)| (*t, e))
    }

    /// Appends `id`, which must not be present.
    pub fn push(&mut self, id: NodeId, payload: E) {
        debug_assert!(!self.contains(id));
        let pos = self.entries.len();
        self.entries.push((id, payload));
        match &mut self.index {
            Some(ix) => {
                ix.insert(id, pos as u32);
            }
            None if self.entries.len() > INDEX_FROM => {
                let mut ix: HashMap<NodeId, u32, IdBuild> =
                    HashMap::with_capacity_and_hasher(self.entries.len() * 2, IdBuild::default());
                ix.extend(self.entries.iter().enumerate().map(|(p, (t, _))| (*t, p as u32)));
                self.index = Some(Box::new(ix));
            }
            None => {}
        }
    }

    /// Removes `id`, moving the last entry into its place (`IndexMap::swap_remove`).
    pub fn swap_remove(&mut self, id: NodeId) -> Option<E> {
        let pos = self.position(id)?;
        let (_, payload) = self.entries.swap_remove(pos);
        if let Some(ix) = &mut self.index {
            ix.remove(&id);
            if let Some((moved, _)) = self.entries.get(pos) {
                ix.insert(*moved, pos as u32);
            }
        }
        Some(payload)
    }

    pub fn ids(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        self.entries.iter().map(|(t, _)| *t)
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = (NodeId, &E)> + '_ {
        self.entries.iter().map(|(t, e)| (*t, e))
    }

    /// The entries with every id mapped through `remap` (ids stay distinct), order kept.
    pub fn remapped(self, remap: impl Fn(NodeId) -> NodeId) -> Self {
        let entries: Vec<(NodeId, E)> = self.entries.into_iter().map(|(t, e)| (remap(t), e)).collect();
        let index =
            self.index.map(|_| Box::new(entries.iter().enumerate().map(|(p, (t, _))| (*t, p as u32)).collect()));
        Adjacency { entries, index }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use indexmap::IndexMap;

    /// Same answers and the same order as an `IndexMap` under any mix of pushes and removals,
    /// on both sides of the index threshold.
    #[test]
    fn behaves_like_an_index_map() {
        let mut a: Adjacency<u32> = Adjacency::default();
        let mut m: IndexMap<NodeId, u32> = IndexMap::new();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for step in 0..5000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let id = NodeId::from_index((x % 40) as usize);
            if x % 3 == 0 {
                assert_eq!(a.swap_remove(id), m.swap_remove(&id));
            } else if !m.contains_key(&id) {
                a.push(id, step);
                m.insert(id, step);
            }
            assert_eq!(a.len(), m.len());
            assert_eq!(a.get(id), m.get(&id));
            assert!(a.iter().map(|(t, &e)| (t, e)).eq(m.iter().map(|(&t, &e)| (t, e))));
        }
    }
}
