//! Reachability: ancestors, descendants and Terraform's frontier walk, all iterative.
//!
//! Terraform names directions from the dependency's point of view: `Ancestors(v)` is everything
//! `v` transitively depends on (following `edgesFrom`), `Descendants(v)` everything that
//! transitively depends on `v` (following `edgesTo`). Kept here, with [`Direction`] naming the
//! edge side explicitly.

use super::{Graph, NodeId, NodeSet};

/// Which edges a traversal follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Towards what a vertex depends on (`edges_from`; Terraform's "down").
    Dependencies,
    /// Towards what depends on a vertex (`edges_to`; Terraform's "up").
    Dependents,
}

/// The frontier discipline of [`Graph::walk`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkOrder {
    /// The frontier is a stack.
    DepthFirst,
    /// The frontier is a queue.
    BreadthFirst,
}

/// What a [`Graph::walk`] callback wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkControl {
    /// Go on, adding this vertex's neighbours to the frontier.
    Continue,
    /// Do not add this vertex's neighbours (Terraform `errStopWalkBranch`).
    SkipBranch,
    /// End the walk (Terraform `errStopWalk`).
    Stop,
}

impl<N, E> Graph<N, E> {
    /// Everything the `starts` transitively depend on (Terraform `Ancestors`). A start vertex is
    /// included only if it depends on itself through a cycle.
    ///
    /// # Complexity
    /// O(V/64 + reached vertices and their edges).
    pub fn ancestors(&self, starts: &[NodeId]) -> NodeSet {
        self.reach(starts, Direction::Dependencies)
    }

    /// Everything that transitively depends on the `starts` (Terraform `Descendants`).
    /// Same rules and cost as [`Graph::ancestors`].
    pub fn descendants(&self, starts: &[NodeId]) -> NodeSet {
        self.reach(starts, Direction::Dependents)
    }

    /// Everything reachable from the `starts` in one or more steps along `dir`.
    pub fn reach(&self, starts: &[NodeId], dir: Direction) -> NodeSet {
        let mut seen = NodeSet::with_bound(self.node_bound());
        let mut stack: Vec<NodeId> = Vec::new();
        for &s in starts {
            stack.extend(self.neighbours(s, dir));
        }
        while let Some(v) = stack.pop() {
            if seen.insert(v) {
                match dir {
                    Direction::Dependencies => stack.extend(self.edges_from(v).filter(|&w| !seen.contains(w))),
                    Direction::Dependents => stack.extend(self.edges_to(v).filter(|&w| !seen.contains(w))),
                }
            }
        }
        seen
    }

    /// The first vertices along each path from `v` (not `v` itself) for which `matches` is true;
    /// the search does not continue past a match (Terraform `FirstAncestorsWith` for
    /// [`Direction::Dependencies`], `FirstDescendantsWith` for [`Direction::Dependents`]).
    pub fn first_reached_with(&self, v: NodeId, dir: Direction, mut matches: impl FnMut(NodeId) -> bool) -> NodeSet {
        let mut found = NodeSet::with_bound(self.node_bound());
        let starts: Vec<NodeId> = self.neighbours(v, dir).collect();
        self.walk(&starts, dir, WalkOrder::DepthFirst, |w, _| {
            if matches(w) {
                found.insert(w);
                WalkControl::SkipBranch
            } else {
                WalkControl::Continue
            }
        });
        found
    }

    /// Whether any vertex reachable from `v` (not `v` itself) along `dir` matches (Terraform
    /// `MatchAncestor` / `MatchDescendant`). Stops at the first match.
    pub fn any_reached(&self, v: NodeId, dir: Direction, mut matches: impl FnMut(NodeId) -> bool) -> bool {
        let mut hit = false;
        let starts: Vec<NodeId> = self.neighbours(v, dir).collect();
        self.walk(&starts, dir, WalkOrder::DepthFirst, |w, _| {
            hit = matches(w);
            if hit {
                WalkControl::Stop
            } else {
                WalkControl::Continue
            }
        });
        hit
    }

    /// Terraform's frontier walk (`AcyclicGraph.walk` in `dag.go`) from the `starts`, calling
    /// `visit(vertex, depth)` once per reached vertex (starts at depth 0).
    ///
    /// Terraform only sorts the frontier by name in tests; here it is always sorted: the starts
    /// and each vertex's newly added neighbours are appended in byte-wise name order, so the visit
    /// sequence equals Terraform's test-mode sequence and never depends on insertion order.
    ///
    /// # Complexity
    /// O(V + E log d) for the reached part (d = largest degree), no recursion.
    pub fn walk(
        &self,
        starts: &[NodeId],
        dir: Direction,
        order: WalkOrder,
        mut visit: impl FnMut(NodeId, usize) -> WalkControl,
    ) {
        let by_name = |a: &(NodeId, usize), b: &(NodeId, usize)| self.name(a.0).cmp(self.name(b.0));
        let mut frontier: std::collections::VecDeque<(NodeId, usize)> = {
            let mut f: Vec<(NodeId, usize)> = starts.iter().map(|&s| (s, 0)).collect();
            crate::util::sort::sort_by(&mut f, by_name);
            f.into()
        };
        let mut seen = NodeSet::with_bound(self.node_bound());
        let mut next: Vec<(NodeId, usize)> = Vec::new();
        loop {
            let popped = match order {
                WalkOrder::DepthFirst => frontier.pop_back(),
                WalkOrder::BreadthFirst => frontier.pop_front(),
            };
            let Some((v, depth)) = popped else { return };
            if !seen.insert(v) {
                continue;
            }
            match visit(v, depth) {
                WalkControl::Stop => return,
                WalkControl::SkipBranch => continue,
                WalkControl::Continue => {}
            }
            next.clear();
            next.extend(self.neighbours(v, dir).map(|w| (w, depth + 1)));
            crate::util::sort::sort_by(&mut next, by_name);
            frontier.extend(next.iter().copied());
        }
    }

    pub(crate) fn neighbours(&self, v: NodeId, dir: Direction) -> Box<dyn Iterator<Item = NodeId> + '_> {
        match dir {
            Direction::Dependencies => Box::new(self.edges_from(v)),
            Direction::Dependents => Box::new(self.edges_to(v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dag_test.go` `TestAcyclicGraphAncestors` / `TestAcyclicGraphDescendants`: chain
    /// 0 -> 1 -> 2 -> 3 -> 4 -> 5.
    #[test]
    fn terraform_ancestors_and_descendants() {
        let mut g: Graph<(), ()> = Graph::new();
        let v: Vec<NodeId> = (0..6).map(|i| g.add(i.to_string(), ())).collect();
        for w in v.windows(2) {
            g.connect(w[0], w[1], ());
        }
        let names = |s: NodeSet| s.iter().map(|i| g.name(i).to_string()).collect::<Vec<_>>();
        assert_eq!(names(g.ancestors(&[v[2]])), ["3", "4", "5"]);
        assert_eq!(names(g.descendants(&[v[2]])), ["0", "1"]);
        assert_eq!(names(g.ancestors(&[v[0], v[3]])), ["1", "2", "3", "4", "5"]);
    }

    /// `TestAcyclicGraphFindDescendants` / `TestAcyclicGraphFindAncestors`.
    #[test]
    fn terraform_first_with_and_match() {
        let mut g: Graph<(), ()> = Graph::new();
        let v: Vec<NodeId> = (0..7).map(|i| g.add(i.to_string(), ())).collect();
        for (a, b) in [(0, 1), (1, 2), (2, 6), (3, 4), (4, 5), (5, 6)] {
            g.connect(v[a], v[b], ());
        }
        let odd = |i: NodeId| i.index() % 2 == 1;
        let first = g.first_reached_with(v[6], Direction::Dependents, odd);
        assert_eq!(first.iter().collect::<Vec<_>>(), vec![v[1], v[5]]);
        assert!(g.any_reached(v[6], Direction::Dependents, |i| i == v[1]));
        assert!(!g.any_reached(v[6], Direction::Dependents, |i| i == v[6]));
        assert!(!g.any_reached(v[6], Direction::Dependencies, |_| true));
        assert!(g.any_reached(v[0], Direction::Dependencies, |i| i == v[6]));
        let first = g.first_reached_with(v[0], Direction::Dependencies, |i| i == v[2] || i == v[6]);
        assert_eq!(first.iter().collect::<Vec<_>>(), vec![v[2]]);
    }
}
