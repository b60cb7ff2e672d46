//! DOT for full operation graphs (`terraform graph -type=plan|apply|…`): Terraform's
//! `Graph.Dot` through `marshal.go` and `dot.go`, byte for byte.
//!
//! ```text
//! digraph {                                (one tab per level, shown here as 4 spaces)
//!     compound = "true"
//!     newrank = "true"
//!     subgraph "root" {
//!         "[root] <name>" [<attrs>]        one per vertex that has DOT attributes, sorted by name
//!         "[root] <from>" -> "[root] <to>" every edge, lines sorted as strings
//!     }
//! }
//! ```
//!
//! Names are escaped as by Go's `strconv.Quote` (without the outer quotes), attribute values
//! are quoted the same way, and attributes are sorted and joined by `, `. Vertices without
//! attributes (Terraform: not a `GraphNodeDotter`) get no node line, but their edges are still
//! written. With [`DotOptions::draw_cycles`], consecutive members of each cycle in Tarjan pop
//! order are joined by red edges (`[color = "red", penwidth = "2.0"]`) that replace a plain edge
//! with the same ends (v1.11+), skipping members without a node line.
//!
//! Terraform quirk kept for fidelity: the replacement is keyed by `from|to` names, escaped for
//! red edges and raw for plain ones, so when a name contains `"` or `\` the plain edge is
//! written next to its red twin.

use super::{go_escape, go_quote, Graph, NodeId};
use std::collections::{BTreeMap, HashMap};

/// DOT attributes of one vertex (`label`, `shape`, …); a map, so keys are unique.
pub type DotAttrs = BTreeMap<String, String>;

/// Options of [`Graph::dot`] and [`Graph::mermaid`] (Terraform's `DotOpts`; `Verbose` is the
/// node closure's business and `MaxDepth` has no effect without subgraphs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DotOptions {
    /// Highlight cycles (`-draw-cycles`).
    pub draw_cycles: bool,
}

const RED: &str = r#" [color = "red", penwidth = "2.0"]"#;

impl<N, E> Graph<N, E> {
    /// Terraform's DOT text for this graph.
    ///
    /// # Arguments
    /// * `opts`: [`DotOptions`].
    /// * `node_attrs`: a vertex's DOT attributes, or `None` to omit its node line (Terraform's
    ///   `GraphNodeDotter.DotNode` returning nil, or a vertex that is not a dotter).
    ///
    /// # Complexity
    /// O(V log V + E log E) string comparisons.
    ///
    /// # Example
    /// ```
    /// use tfgraph::dag::{DotAttrs, DotOptions, Graph};
    /// let mut g: Graph<(), ()> = Graph::new();
    /// let [a, b] = ["a", "b"].map(|n| g.add(n, ()));
    /// g.connect(a, b, ());
    /// let dot = g.dot(&DotOptions::default(), |id, _| {
    ///     (id == a).then(|| DotAttrs::from([("shape".into(), "box".into())]))
    /// });
    /// assert_eq!(
    ///     dot,
    ///     "digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n\
    ///      \t\t\"[root] a\" [shape = \"box\"]\n\t\t\"[root] a\" -> \"[root] b\"\n\t}\n}\n"
    /// );
    /// ```
    pub fn dot(&self, opts: &DotOptions, node_attrs: impl Fn(NodeId, &N) -> Option<DotAttrs>) -> String {
        let mut escaped: HashMap<NodeId, String> = HashMap::with_capacity(self.node_count());
        for v in self.node_ids() {
            escaped.insert(v, go_escape(self.name(v)));
        }
        let mut ids: Vec<NodeId> = self.node_ids().collect();
        crate::util::sort::sort_by(&mut ids, |a, b| escaped[a].cmp(&escaped[b]).then(a.cmp(b)));

        let mut out = String::from("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n");
        let mut drawn = vec![false; self.node_bound()];
        for &v in &ids {
            let Some(attrs) = node_attrs(v, self.weight(v)) else {
                continue;
            };
            drawn[v.index()] = true;
            out.push_str(&format!("\t\t\"[root] {}\"", escaped[&v]));
            push_attrs(&mut out, &attrs);
            out.push('\n');
        }

        let edge_line = |s: NodeId, t: NodeId| format!("\"[root] {}\" -> \"[root] {}\"", escaped[&s], escaped[&t]);
        let mut lines: HashMap<String, String> = HashMap::new();
        if opts.draw_cycles {
            for cycle in self.cycles() {
                let pop: Vec<NodeId> = cycle.into_iter().rev().collect();
                for (i, &src) in pop.iter().enumerate() {
                    let tgt = pop[(i + 1) % pop.len()];
                    if !drawn[src.index()] || !drawn[tgt.index()] {
                        continue;
                    }
                    let key = format!("{}|{}", escaped[&src], escaped[&tgt]);
                    lines.insert(key, edge_line(src, tgt) + RED);
                }
            }
        }
        for (s, t, _) in self.edges() {
            let key = format!("{}|{}", self.name(s), self.name(t));
            lines.entry(key).or_insert_with(|| edge_line(s, t));
        }
        let mut lines: Vec<String> = lines.into_values().collect();
        crate::util::sort::sort(&mut lines);
        for line in lines {
            out.push_str("\t\t");
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("\t}\n}\n");
        out
    }
}

/// ` [k = "v", …]` with entries sorted as strings, or nothing for no attributes (`writeAttrs`).
fn push_attrs(out: &mut String, attrs: &DotAttrs) {
    if attrs.is_empty() {
        return;
    }
    let mut parts: Vec<String> = attrs.iter().map(|(k, v)| format!("{k} = {}", go_quote(v))).collect();
    crate::util::sort::sort(&mut parts);
    out.push_str(" [");
    out.push_str(&parts.join(", "));
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_plain(_: NodeId, _: &()) -> Option<DotAttrs> {
        Some(DotAttrs::new())
    }

    /// `graph_dot_test.go` "empty".
    #[test]
    fn empty_graph() {
        let g: Graph<(), ()> = Graph::new();
        assert_eq!(
            g.dot(&DotOptions::default(), all_plain),
            "digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n\t}\n}\n"
        );
    }

    #[test]
    fn quirk_quoted_names_keep_plain_edge_beside_red() {
        let mut g: Graph<(), ()> = Graph::new();
        let [a, b] = ["p[\"a\"]", "b"].map(|n| g.add(n, ()));
        g.connect(a, b, ());
        g.connect(b, a, ());
        let dot = g.dot(&DotOptions { draw_cycles: true }, all_plain);
        let edges: Vec<&str> = dot.lines().filter(|l| l.contains("->")).collect();
        assert_eq!(
            edges,
            [
                "\t\t\"[root] b\" -> \"[root] p[\\\"a\\\"]\"",
                "\t\t\"[root] b\" -> \"[root] p[\\\"a\\\"]\" [color = \"red\", penwidth = \"2.0\"]",
                "\t\t\"[root] p[\\\"a\\\"]\" -> \"[root] b\"",
                "\t\t\"[root] p[\\\"a\\\"]\" -> \"[root] b\" [color = \"red\", penwidth = \"2.0\"]",
            ]
        );
    }

    #[test]
    fn attrs_are_quoted_and_sorted() {
        let mut g: Graph<(), ()> = Graph::new();
        g.add("x", ());
        let dot = g.dot(&DotOptions::default(), |_, _| {
            Some(DotAttrs::from([("shape".into(), "note".into()), ("label".into(), "say \"hi\"".into())]))
        });
        assert!(dot.contains("\t\t\"[root] x\" [label = \"say \\\"hi\\\"\", shape = \"note\"]\n"), "{dot}");
    }
}
