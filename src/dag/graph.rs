//! The graph container: an arena of named vertices with adjacency kept both ways.
//!
//! Mirrors `internal/dag/graph.go` at Terraform HEAD (`vertices`, `edgesFrom`, `edgesTo`), with
//! two changes for Rust and for size:
//!
//! * Vertices live in an arena and are addressed by [`NodeId`]. Identity is per node, not per
//!   name: two vertices may share a name, as two Go vertex values with equal `Name()` may.
//!   Removing a vertex leaves a tombstone, so every other [`NodeId`] stays valid; slots are never
//!   reused, so a stale id can never alias a newer vertex.
//! * Every edge carries a payload `E`, kept in the source's `edges_from` list. The graph layer
//!   stores *why* an edge exists there (which reference, which transformer).
//!
//! Why not `petgraph::StableGraph`: its edges are linked lists threaded through both endpoints,
//! so `remove_edge(u, v)` walks `v`'s whole incoming list. Terraform graphs have hubs (every
//! resource depends on its provider; `root` depends on everything), and transitive reduction
//! removes most hub edges, which turns into O(V²). Here each endpoint keeps an ordered list
//! ([`Adjacency`]: a vector, indexed once long), so connect, lookup and removal are O(1) for
//! hubs and a short scan otherwise, and iteration follows insertion order (deterministic,
//! independent of hash seeds).

use super::adjacency::Adjacency;

/// A vertex handle. Stable for the life of the graph, even across removals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The arena slot of this vertex, `< Graph::node_bound()`.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id of arena slot `index`. Only meaningful for slots the graph handed out.
    pub fn from_index(index: usize) -> Self {
        NodeId(u32::try_from(index).expect("more than u32::MAX vertices"))
    }
}

/// `NodeId` keys hash with the crate's fast hasher (ids are dense small integers: a multiply).
pub(crate) type IdBuild = crate::util::FastBuild;

pub(super) struct Vertex<N, E> {
    pub(super) name: String,
    pub(super) weight: N,
    /// Targets of edges leaving this vertex: what it depends on, with each edge's payload.
    pub(super) from: Adjacency<E>,
    /// Sources of edges arriving here: its dependents.
    pub(super) to: Adjacency<()>,
}

/// A directed graph of named vertices. An edge `a -> b` means "a depends on b".
///
/// `N` is the vertex weight (the graph layer's node kind), `E` the edge payload (its reason).
/// Every method taking a [`NodeId`] panics if that vertex was removed or never existed, except
/// [`Graph::contains`], [`Graph::remove`], [`Graph::remove_edge`] and [`Graph::replace`], which
/// mirror Terraform's tolerant versions.
pub struct Graph<N, E> {
    pub(super) slots: Vec<Option<Vertex<N, E>>>,
    pub(super) live: usize,
    pub(super) edges: usize,
}

impl<N, E> Default for Graph<N, E> {
    fn default() -> Self {
        Graph { slots: Vec::new(), live: 0, edges: 0 }
    }
}

impl<N, E> Graph<N, E> {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty graph with room for `nodes` vertices.
    pub fn with_capacity(nodes: usize) -> Self {
        Graph { slots: Vec::with_capacity(nodes), live: 0, edges: 0 }
    }

    /// Adds a vertex and returns its id. Names need not be unique. O(1).
    pub fn add(&mut self, name: impl Into<String>, weight: N) -> NodeId {
        let id = NodeId::from_index(self.slots.len());
        self.slots.push(Some(Vertex {
            name: name.into(),
            weight,
            from: Adjacency::default(),
            to: Adjacency::default(),
        }));
        self.live += 1;
        id
    }

    /// Removes a vertex and every edge touching it (Terraform `Remove`). Returns its name and
    /// weight, or `None` if it was not in the graph. O(degree).
    pub fn remove(&mut self, id: NodeId) -> Option<(String, N)> {
        let v = self.slots.get_mut(id.index())?.take()?;
        self.live -= 1;
        let self_loop = v.from.contains(id);
        for t in v.from.ids() {
            if t != id {
                self.vertex_mut(t).to.swap_remove(id);
            }
        }
        for s in v.to.ids() {
            if s != id {
                self.vertex_mut(s).from.swap_remove(id);
            }
        }
        self.edges -= v.from.len() + v.to.len() - usize::from(self_loop);
        Some((v.name, v.weight))
    }

    /// Whether `id` names a vertex that is still in the graph.
    pub fn contains(&self, id: NodeId) -> bool {
        matches!(self.slots.get(id.index()), Some(Some(_)))
    }

    /// Number of vertices.
    pub fn node_count(&self) -> usize {
        self.live
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.edges
    }

    /// One past the largest slot index ever handed out: the size for per-vertex side tables.
    pub fn node_bound(&self) -> usize {
        self.slots.len()
    }

    /// All vertices, in ascending id (insertion) order.
    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.slots.iter().enumerate().filter(|(_, s)| s.is_some()).map(|(i, _)| NodeId::from_index(i))
    }

    /// The vertex's name.
    pub fn name(&self, id: NodeId) -> &str {
        &self.vertex(id).name
    }

    /// Renames a vertex (its identity and edges stay).
    pub fn set_name(&mut self, id: NodeId, name: impl Into<String>) {
        self.vertex_mut(id).name = name.into();
    }

    /// The vertex's weight.
    pub fn weight(&self, id: NodeId) -> &N {
        &self.vertex(id).weight
    }

    /// The vertex's weight, mutably.
    pub fn weight_mut(&mut self, id: NodeId) -> &mut N {
        &mut self.vertex_mut(id).weight
    }

    /// The first vertex (lowest id) with this name. O(V): for tests and small graphs; the graph
    /// layer keeps its own address index.
    pub fn find(&self, name: &str) -> Option<NodeId> {
        self.node_ids().find(|&id| self.name(id) == name)
    }

    /// Adds the edge `from -> to` ("from depends on to") carrying `payload`. Idempotent like
    /// Terraform's `Connect`: if the edge exists, its payload is kept, `payload` is dropped and
    /// `false` is returned (use [`Graph::edge_mut`] to merge reasons). O(1).
    pub fn connect(&mut self, from: NodeId, to: NodeId, payload: E) -> bool {
        self.vertex(to); // both ends must exist
        let src = self.vertex_mut(from);
        if src.from.contains(to) {
            return false;
        }
        src.from.push(to, payload);
        self.vertex_mut(to).to.push(from, ());
        self.edges += 1;
        true
    }

    /// Removes the edge `from -> to` and returns its payload, or `None` if there was none. O(1).
    pub fn remove_edge(&mut self, from: NodeId, to: NodeId) -> Option<E> {
        if !self.contains(from) || !self.contains(to) {
            return None;
        }
        let payload = self.vertex_mut(from).from.swap_remove(to)?;
        self.vertex_mut(to).to.swap_remove(from);
        self.edges -= 1;
        Some(payload)
    }

    /// Whether the edge `from -> to` exists. O(1).
    pub fn has_edge(&self, from: NodeId, to: NodeId) -> bool {
        self.vertex(from).from.contains(to)
    }

    /// The payload of `from -> to`.
    pub fn edge(&self, from: NodeId, to: NodeId) -> Option<&E> {
        self.vertex(from).from.get(to)
    }

    /// The payload of `from -> to`, mutably.
    pub fn edge_mut(&mut self, from: NodeId, to: NodeId) -> Option<&mut E> {
        self.vertex_mut(from).from.get_mut(to)
    }

    /// What `id` depends on: the targets of its edges (Terraform `EdgesFrom`, formerly
    /// `DownEdges`), in insertion order as modified by removals.
    pub fn edges_from(&self, id: NodeId) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        self.vertex(id).from.ids()
    }

    /// Like [`Graph::edges_from`], with each edge's payload.
    pub fn edges_from_with_payload(&self, id: NodeId) -> impl ExactSizeIterator<Item = (NodeId, &E)> + '_ {
        self.vertex(id).from.iter()
    }

    /// What depends on `id`: the sources of edges into it (Terraform `EdgesTo`, formerly `UpEdges`).
    pub fn edges_to(&self, id: NodeId) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        self.vertex(id).to.ids()
    }

    /// Number of direct dependencies of `id`.
    pub fn out_degree(&self, id: NodeId) -> usize {
        self.vertex(id).from.len()
    }

    /// Number of direct dependents of `id`.
    pub fn in_degree(&self, id: NodeId) -> usize {
        self.vertex(id).to.len()
    }

    /// The `pos`-th dependency of `id` in [`Graph::edges_from`] order (for iterative algorithms
    /// that keep a cursor instead of a borrowed iterator).
    pub(crate) fn dependency_at(&self, id: NodeId, pos: usize) -> Option<NodeId> {
        self.vertex(id).from.get_index(pos).map(|(t, _)| t)
    }

    /// Every edge as `(from, to, payload)`: sources in id order, then each source's targets in
    /// [`Graph::edges_from`] order.
    pub fn edges(&self) -> impl Iterator<Item = (NodeId, NodeId, &E)> + '_ {
        self.node_ids().flat_map(move |s| self.edges_from_with_payload(s).map(move |(t, e)| (s, t, e)))
    }

    pub(super) fn vertex(&self, id: NodeId) -> &Vertex<N, E> {
        match self.slots.get(id.index()) {
            Some(Some(v)) => v,
            _ => panic!("{id:?} is not in the graph"),
        }
    }

    fn vertex_mut(&mut self, id: NodeId) -> &mut Vertex<N, E> {
        match self.slots.get_mut(id.index()) {
            Some(Some(v)) => v,
            _ => panic!("{id:?} is not in the graph"),
        }
    }
}

impl<N, E> std::fmt::Debug for Graph<N, E> {
    /// The Terraform `String()` text, so test failures print something readable.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g3() -> (Graph<(), &'static str>, [NodeId; 3]) {
        let mut g = Graph::new();
        let ids = [g.add("1", ()), g.add("2", ()), g.add("3", ())];
        (g, ids)
    }

    #[test]
    fn connect_is_idempotent_and_keeps_the_first_payload() {
        let (mut g, [a, b, _]) = g3();
        assert!(g.connect(a, b, "first"));
        assert!(!g.connect(a, b, "second"));
        assert_eq!(g.edge(a, b), Some(&"first"));
        assert_eq!(g.edge_count(), 1);
        assert_eq!(g.edges_to(b).collect::<Vec<_>>(), vec![a]);
    }

    #[test]
    fn remove_keeps_other_ids_and_counts() {
        let (mut g, [a, b, c]) = g3();
        g.connect(a, b, "ab");
        g.connect(b, c, "bc");
        g.connect(b, b, "self");
        assert_eq!(g.edge_count(), 3);
        assert_eq!(g.remove(b), Some(("2".to_string(), ())));
        assert_eq!(g.remove(b), None);
        assert_eq!((g.node_count(), g.edge_count(), g.node_bound()), (2, 0, 3));
        assert_eq!(g.name(c), "3");
        assert_eq!(g.edges_to(c).count(), 0);
        assert_eq!(g.edges_from(a).count(), 0);
        let d = g.add("4", ());
        assert_eq!(d.index(), 3, "slots are never reused");
    }

    #[test]
    fn remove_edge_returns_payload() {
        let (mut g, [a, b, c]) = g3();
        g.connect(a, b, "ab");
        assert_eq!(g.remove_edge(a, b), Some("ab"));
        assert_eq!(g.remove_edge(a, b), None);
        assert_eq!(g.remove_edge(a, c), None);
        assert_eq!(g.edge_count(), 0);
        assert_eq!(g.in_degree(b), 0);
    }

    #[test]
    #[should_panic(expected = "is not in the graph")]
    fn connect_to_removed_vertex_panics() {
        let (mut g, [a, b, _]) = g3();
        g.remove(b);
        g.connect(a, b, "x");
    }
}
