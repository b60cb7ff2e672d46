//! Mermaid flowcharts of the full graph, after Terraform's `internal/dag/mermaid.go` (v1.16+,
//! `terraform graph -type=… -format=mermaid`).
//!
//! Layout as Terraform: `flowchart LR`, one node line per vertex sorted by name, then the edges,
//! then cycle styling. Deliberate differences, because Terraform's output cannot be reproduced
//! or misbehaves:
//! * Node ids are `n<k>`, `k` the vertex's position in byte-wise name order. Terraform uses
//!   pointer addresses, which change every run.
//! * Labels are the raw names through [`mermaid_label`]. Terraform first Go-escapes the name,
//!   so a provider label reads `provider[\&quot;registry…\&quot;]`.
//! * Node shapes and labels come from the same attribute closure as [`Graph::dot`]
//!   (`shape` = `diamond` → `{}`, `box`/`rect`/`rectangle` → `[]`, `ellipse`/`oval` → `()`,
//!   `circle` → `(())`, else `[]`); Terraform's code reads them from a map that is always empty.
//! * Cycle edges are styled with `linkStyle` (red, 2px): every edge between two members of the
//!   same cycle. Terraform appends `:::cycle` to edges that match its red DOT pairs, which
//!   Mermaid applies to the *target node*, and those pairs run against the real edges.

use super::{DotAttrs, DotOptions, Graph, NodeId};

/// Terraform's `MermaidEscapeLabel`: newlines become spaces, `"` becomes `&quot;`, and the result
/// is wrapped in double quotes.
pub fn mermaid_label(s: &str) -> String {
    format!("\"{}\"", s.replace('\n', " ").replace('"', "&quot;"))
}

impl<N, E> Graph<N, E> {
    /// A Mermaid `flowchart LR` of the whole graph (see the module docs for the format).
    ///
    /// # Arguments
    /// * `opts`: with `draw_cycles`, edges inside cycles are drawn red.
    /// * `node_attrs`: the same closure as [`Graph::dot`]; its `label` and `shape` are used. A
    ///   vertex with `None` still gets a plain node line (Mermaid needs every id it links).
    ///
    /// # Complexity
    /// O(V log V + E log E).
    ///
    /// # Example
    /// ```
    /// use tfgraph::dag::{DotOptions, Graph};
    /// let mut g: Graph<(), ()> = Graph::new();
    /// let [a, b] = ["a", "b"].map(|n| g.add(n, ()));
    /// g.connect(a, b, ());
    /// g.connect(b, a, ());
    /// assert_eq!(
    ///     g.mermaid(&DotOptions { draw_cycles: true }, |_, _| None),
    ///     "flowchart LR\nn0[\"a\"]\nn1[\"b\"]\nn0 --> n1\nn1 --> n0\n\
    ///      linkStyle 0,1 stroke:#ff0000,stroke-width:2px;\n"
    /// );
    /// ```
    pub fn mermaid(&self, opts: &DotOptions, node_attrs: impl Fn(NodeId, &N) -> Option<DotAttrs>) -> String {
        let rank = self.name_ranks();
        let mut ids: Vec<NodeId> = self.node_ids().collect();
        crate::util::sort::sort_by_key(&mut ids, |v| rank[v.index()]);
        let mut out = String::from("flowchart LR\n");
        for &v in &ids {
            let attrs = node_attrs(v, self.weight(v)).unwrap_or_default();
            let label = match attrs.get("label") {
                Some(l) if !l.trim().is_empty() => l.as_str(),
                _ => self.name(v),
            };
            let label = mermaid_label(label);
            let r = rank[v.index()];
            let line = match attrs.get("shape").map(|s| s.to_lowercase()).as_deref() {
                Some("diamond") => format!("n{r}{{{label}}}"),
                Some("ellipse" | "oval") => format!("n{r}({label})"),
                Some("circle") => format!("n{r}(({label}))"),
                _ => format!("n{r}[{label}]"),
            };
            out.push_str(&line);
            out.push('\n');
        }

        let mut comp = vec![u32::MAX; self.node_bound()];
        if opts.draw_cycles {
            for (c, cycle) in self.cycles().iter().enumerate() {
                for v in cycle {
                    comp[v.index()] = c as u32;
                }
            }
        }
        let mut edges: Vec<(u32, u32, bool)> = self
            .edges()
            .map(|(s, t, _)| {
                (rank[s.index()], rank[t.index()], comp[s.index()] != u32::MAX && comp[s.index()] == comp[t.index()])
            })
            .collect();
        crate::util::sort::sort(&mut edges);
        let mut red: Vec<String> = Vec::new();
        for (i, (s, t, in_cycle)) in edges.into_iter().enumerate() {
            out.push_str(&format!("n{s} --> n{t}\n"));
            if in_cycle {
                red.push(i.to_string());
            }
        }
        if !red.is_empty() {
            out.push_str(&format!("linkStyle {} stroke:#ff0000,stroke-width:2px;\n", red.join(",")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_shapes() {
        assert_eq!(mermaid_label("a\"b\nc"), "\"a&quot;b c\"");
        let mut g: Graph<&str, ()> = Graph::new();
        let p = g.add("provider[\"x\"]", "diamond");
        let r = g.add("aws_instance.web (expand)", "box");
        g.add("zz", "circle");
        g.connect(r, p, ());
        let out = g.mermaid(&DotOptions { draw_cycles: true }, |v, shape| {
            let label = if v == r { "aws_instance.web" } else { "" };
            Some(DotAttrs::from([("shape".into(), shape.to_string()), ("label".into(), label.into())]))
        });
        assert_eq!(
            out,
            "flowchart LR\nn0[\"aws_instance.web\"]\nn1{\"provider[&quot;x&quot;]\"}\nn2((\"zz\"))\nn0 --> n1\n"
        );
    }
}
