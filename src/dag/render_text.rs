//! Terraform's `Graph.String()` and `StringWithNodeTypes()` (`internal/dag/graph.go`): the
//! canonical text every Terraform graph test compares against.
//!
//! Layout: vertex names sorted byte-wise (Go `sort.Strings`), one per line; under each, its
//! direct dependencies sorted the same way, indented two spaces; every line ends in `\n`.
//! One deliberate difference: when two vertices share a name, Go's name→vertex map prints the
//! dependencies of whichever it stored last under both lines; here each line shows its own
//! vertex's dependencies (ties ordered by id).

use super::{Graph, NodeId};
use std::fmt;

impl<N, E> Graph<N, E> {
    /// Terraform's `StringWithNodeTypes()`: the [`Display`](fmt::Display) layout with
    /// `" - <type>"` after every name, where `type_label` gives the type text (Terraform prints
    /// the Go type, e.g. `*terraform.nodeExpandPlannableResource`).
    ///
    /// # Complexity
    /// O(V log V + E log d) string comparisons (d = largest out-degree).
    pub fn string_with_types(&self, type_label: impl Fn(NodeId, &N) -> String) -> String {
        let mut out = String::new();
        self.write_text(&mut out, |id| format!(" - {}", type_label(id, self.weight(id))))
            .expect("writing to a String cannot fail");
        out
    }

    fn write_text(&self, out: &mut impl fmt::Write, suffix: impl Fn(NodeId) -> String) -> fmt::Result {
        let by_name = |a: &NodeId, b: &NodeId| self.name(*a).cmp(self.name(*b)).then(a.cmp(b));
        let mut ids: Vec<NodeId> = self.node_ids().collect();
        crate::util::sort::sort_by(&mut ids, by_name);
        let mut deps: Vec<NodeId> = Vec::new();
        for id in ids {
            writeln!(out, "{}{}", self.name(id), suffix(id))?;
            deps.clear();
            deps.extend(self.edges_from(id));
            crate::util::sort::sort_by(&mut deps, by_name);
            for &d in &deps {
                writeln!(out, "  {}{}", self.name(d), suffix(d))?;
            }
        }
        Ok(())
    }
}

impl<N, E> fmt::Display for Graph<N, E> {
    /// Terraform's `Graph.String()`.
    ///
    /// # Example
    /// ```
    /// use tfgraph::dag::Graph;
    /// let mut g: Graph<(), ()> = Graph::new();
    /// let [a, b, c] = ["1", "2", "3"].map(|n| g.add(n, ()));
    /// g.connect(a, c, ());
    /// assert_eq!(g.to_string(), "1\n  3\n2\n3\n");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_text(f, |_| String::new())
    }
}

#[cfg(test)]
mod tests {
    use crate::dag::Graph;

    /// `graph_test.go`: `TestGraph_empty`, `_basic`, `_remove`, `_removeEdges`, `_replace`,
    /// `_replaceSelf` (expected strings copied from its constants).
    #[test]
    fn terraform_string_cases() {
        let new3 = || {
            let mut g: Graph<(), ()> = Graph::new();
            let ids = ["1", "2", "3"].map(|n| g.add(n, ()));
            (g, ids)
        };
        let (g, _) = new3();
        assert_eq!(g.to_string().trim(), "1\n2\n3");

        let (mut g, [a, _, c]) = new3();
        g.connect(a, c, ());
        assert_eq!(g.to_string().trim(), "1\n  3\n2\n3");
        g.remove(c);
        assert_eq!(g.to_string().trim(), "1\n2");

        let (mut g, [a, b, c]) = new3();
        g.connect(a, c, ());
        g.connect(a, b, ());
        g.connect(b, c, ());
        g.remove_edge(a, b);
        g.remove_edge(a, c);
        assert_eq!(g.to_string().trim(), "1\n2\n  3\n3");
        assert_eq!((g.out_degree(a), g.in_degree(c)), (0, 1));

        let (mut g, [a, b, c]) = new3();
        g.connect(a, b, ());
        g.connect(b, c, ());
        let r = g.add("42", ());
        g.replace(b, r);
        assert_eq!(g.to_string().trim(), "1\n  42\n3\n42\n  3");

        let (mut g, [a, b, c]) = new3();
        g.connect(a, b, ());
        g.connect(b, c, ());
        g.replace(b, b);
        assert_eq!(g.to_string().trim(), "1\n  2\n2\n  3\n3");
    }

    #[test]
    fn sorting_is_bytewise_and_types_are_appended() {
        let mut g: Graph<&str, ()> = Graph::new();
        let [root, upper, lower, quoted] = [
            ("root", "*terraform.nodeCloseModule"),
            ("Zed", "*T"),
            ("aws_instance.web (expand)", "*terraform.nodeExpandPlannableResource"),
            ("provider[\"registry.terraform.io/hashicorp/aws\"]", "*terraform.NodeApplyableProvider"),
        ]
        .map(|(n, t)| g.add(n, t));
        g.connect(root, lower, ());
        g.connect(root, upper, ());
        g.connect(lower, quoted, ());
        assert_eq!(
            g.string_with_types(|_, t| t.to_string()),
            "Zed - *T\n\
             aws_instance.web (expand) - *terraform.nodeExpandPlannableResource\n  \
             provider[\"registry.terraform.io/hashicorp/aws\"] - *terraform.NodeApplyableProvider\n\
             provider[\"registry.terraform.io/hashicorp/aws\"] - *terraform.NodeApplyableProvider\n\
             root - *terraform.nodeCloseModule\n  \
             Zed - *T\n  \
             aws_instance.web (expand) - *terraform.nodeExpandPlannableResource\n"
        );
    }
}
