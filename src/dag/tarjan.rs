//! Strongly connected components: Tarjan's algorithm without recursion.
//!
//! Mirrors `StronglyConnected` in `internal/dag/tarjan.go` (same output shape: components in
//! completion order, each listed in stack-pop order, most recently discovered vertex first and
//! the component's root last). Two differences, both for size: the DFS keeps its own stack of
//! `(vertex, next edge)` cursors, so a 1,000,000-vertex chain cannot overflow the call stack,
//! and "is it on the stack" is a bit per vertex, where Go scans the whole stack (quadratic on
//! long chains).

use super::{Graph, NodeId};

/// Strongly connected components in one flat list (see [`Graph::components`]): component `i`
/// is `members[start[i]..start[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Components {
    pub members: Vec<NodeId>,
    pub start: Vec<u32>,
}

impl Components {
    /// How many components.
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Component `i`, in pop order.
    pub fn get(&self, i: usize) -> &[NodeId] {
        &self.members[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// Every component in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[NodeId]> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
}

impl<N, E> Graph<N, E> {
    /// Every strongly connected component, singletons included.
    ///
    /// # Returns
    /// Components in the order Tarjan completes them: every component comes after the components
    /// it depends on (a reverse topological order of the condensation). Each component lists its vertices
    /// in stack-pop order: the root, where the DFS entered the component, is last.
    /// Roots are tried in id order and edges in [`Graph::edges_from`] order.
    ///
    /// # Complexity
    /// O(V + E) time, O(V) extra memory, no recursion.
    ///
    /// # Example
    /// ```
    /// use tfgraph::dag::Graph;
    /// let mut g: Graph<(), ()> = Graph::new();
    /// let [a, b, c] = ["a", "b", "c"].map(|n| g.add(n, ()));
    /// g.connect(a, b, ());
    /// g.connect(b, a, ());
    /// g.connect(b, c, ());
    /// assert_eq!(g.strongly_connected(), vec![vec![c], vec![b, a]]);
    /// ```
    pub fn strongly_connected(&self) -> Vec<Vec<NodeId>> {
        let mut out = Vec::new();
        self.tarjan(|scc| out.push(scc.to_vec()));
        out
    }

    /// [`Graph::strongly_connected`] as one flat list: the same components in the same order,
    /// without a vector per component (on an acyclic graph, one per vertex).
    pub fn components(&self) -> Components {
        let mut c = Components { members: Vec::with_capacity(self.node_count()), start: vec![0] };
        self.tarjan(|scc| {
            c.members.extend_from_slice(scc);
            c.start.push(c.members.len() as u32);
        });
        c
    }

    /// Runs Tarjan and hands each component (pop order) to `emit`, without collecting them.
    pub(crate) fn tarjan(&self, mut emit: impl FnMut(&[NodeId])) {
        tarjan_with(
            self.node_bound(),
            self.node_ids(),
            NodeId::index,
            |v, pos| self.dependency_at(v, pos),
            |scc| emit(scc),
        );
    }
}

/// The crate's one Tarjan: strongly connected components of any graph whose vertices map to
/// `0..bound` (`index_of`) and whose `pos`-th successor of `v` is `successor(v, pos)` (`None`
/// past the last). Roots are tried in the order given; each component is handed to `emit` in
/// stack-pop order (the root, where the search entered the component, last), components in
/// completion order (every component after those it reaches). Iterative: no recursion, O(V + E)
/// time, O(bound) extra memory. [`Graph`]'s components and the walker's cycle report use it.
pub(crate) fn tarjan_with<T: Copy + PartialEq>(
    bound: usize,
    roots: impl IntoIterator<Item = T>,
    index_of: impl Fn(T) -> usize,
    mut successor: impl FnMut(T, usize) -> Option<T>,
    mut emit: impl FnMut(&mut [T]),
) {
    const UNSEEN: u32 = 0;
    // `index` is the DFS discovery number (1-based; 0 = unseen); `low` the smallest index
    // reachable through the DFS subtree and back edges into the stack.
    let mut index = vec![UNSEEN; bound];
    let mut low = vec![0u32; bound];
    let mut on_stack = vec![false; bound];
    let mut stack: Vec<T> = Vec::new();
    let mut calls: Vec<(T, usize)> = Vec::new();
    let mut next = 1u32;

    for root in roots {
        if index[index_of(root)] != UNSEEN {
            continue;
        }
        macro_rules! visit {
            ($v:expr) => {{
                let v: T = $v;
                let i = index_of(v);
                index[i] = next;
                low[i] = next;
                next += 1;
                on_stack[i] = true;
                stack.push(v);
            }};
        }
        visit!(root);
        calls.push((root, 0));
        while let Some(&mut (v, ref mut pos)) = calls.last_mut() {
            let vi = index_of(v);
            if let Some(w) = successor(v, *pos) {
                *pos += 1;
                let wi = index_of(w);
                if index[wi] == UNSEEN {
                    visit!(w);
                    calls.push((w, 0));
                } else if on_stack[wi] {
                    low[vi] = low[vi].min(index[wi]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                let pi = index_of(parent);
                low[pi] = low[pi].min(low[vi]);
            }
            if low[vi] == index[vi] {
                let start = stack.iter().rposition(|&x| x == v).expect("root is on the stack");
                let scc = &mut stack[start..];
                scc.reverse(); // pop order
                for &x in scc.iter() {
                    on_stack[index_of(x)] = false;
                }
                emit(scc);
                stack.truncate(start);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dag::Graph;

    /// `tarjan_test.go`'s helper: each component's names sorted and comma-joined, lines sorted.
    fn scc_str(g: &Graph<(), ()>) -> String {
        let mut lines: Vec<String> = g
            .strongly_connected()
            .iter()
            .map(|c| {
                let mut n: Vec<&str> = c.iter().map(|&i| g.name(i)).collect();
                crate::util::sort::sort(&mut n);
                n.join(",")
            })
            .collect();
        crate::util::sort::sort(&mut lines);
        lines.join("\n")
    }

    /// `TestGraphStronglyConnected`, `_two`, `_three`.
    #[test]
    fn terraform_tarjan_cases() {
        let mut g: Graph<(), ()> = Graph::new();
        let [v1, v2] = ["1", "2"].map(|n| g.add(n, ()));
        g.connect(v1, v2, ());
        g.connect(v2, v1, ());
        assert_eq!(scc_str(&g), "1,2");
        g.add("3", ());
        assert_eq!(scc_str(&g), "1,2\n3");
        let [v4, v5, v6] = ["4", "5", "6"].map(|n| g.add(n, ()));
        g.connect(v4, v5, ());
        g.connect(v5, v6, ());
        g.connect(v6, v4, ());
        assert_eq!(scc_str(&g), "1,2\n3\n4,5,6");
    }

    #[test]
    fn pop_order_is_reverse_discovery() {
        let mut g: Graph<(), ()> = Graph::new();
        let [a, b, c] = ["a", "b", "c"].map(|n| g.add(n, ()));
        g.connect(a, b, ());
        g.connect(b, c, ());
        g.connect(c, a, ());
        assert_eq!(g.strongly_connected(), vec![vec![c, b, a]]);
    }
}
