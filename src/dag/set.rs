//! [`NodeSet`]: a bitset of vertices, the answer type of reachability queries.
//!
//! Terraform returns a hashed `VertexSet`; ids here are dense, so one bit per arena slot is
//! smaller (12.5 KB for 100,000 vertices) and iterates in id order, which keeps results
//! deterministic.

use super::NodeId;

/// A set of [`NodeId`]s sized to a graph's [`node_bound`](super::Graph::node_bound).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct NodeSet {
    words: Vec<u64>,
    len: usize,
}

impl NodeSet {
    /// An empty set able to hold ids below `bound`.
    pub fn with_bound(bound: usize) -> Self {
        NodeSet { words: vec![0; bound.div_ceil(64)], len: 0 }
    }

    /// Adds `id`; returns whether it was new. Grows if `id` is past the bound.
    pub fn insert(&mut self, id: NodeId) -> bool {
        let (w, bit) = (id.index() / 64, 1u64 << (id.index() % 64));
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        let new = self.words[w] & bit == 0;
        self.words[w] |= bit;
        self.len += usize::from(new);
        new
    }

    /// Removes `id`; returns whether it was present.
    pub fn remove(&mut self, id: NodeId) -> bool {
        let (w, bit) = (id.index() / 64, 1u64 << (id.index() % 64));
        let present = self.words.get(w).is_some_and(|x| x & bit != 0);
        if present {
            self.words[w] &= !bit;
            self.len -= 1;
        }
        present
    }

    /// Whether `id` is in the set.
    pub fn contains(&self, id: NodeId) -> bool {
        self.words.get(id.index() / 64).is_some_and(|w| w & (1u64 << (id.index() % 64)) != 0)
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Members in ascending id order.
    pub fn iter(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut rest = w;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(NodeId::from_index(wi * 64 + b))
            })
        })
    }
}

impl FromIterator<NodeId> for NodeSet {
    fn from_iter<T: IntoIterator<Item = NodeId>>(iter: T) -> Self {
        let mut s = NodeSet::default();
        for id in iter {
            s.insert(id);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iter() {
        let ids = [0, 63, 64, 130].map(NodeId::from_index);
        let mut s = NodeSet::with_bound(10);
        for id in ids {
            assert!(s.insert(id));
        }
        assert!(!s.insert(ids[1]));
        assert_eq!(s.len(), 4);
        assert_eq!(s.iter().collect::<Vec<_>>(), ids.to_vec());
        assert!(s.remove(ids[2]));
        assert!(!s.remove(ids[2]));
        assert!(!s.remove(NodeId::from_index(10_000)));
        assert!(!s.contains(ids[2]) && s.contains(ids[3]));
        assert_eq!(s.len(), 3);
    }
}
