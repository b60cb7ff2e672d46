//! The resource-only graph that `terraform graph` prints by default since v1.7
//! (`internal/command/graph.go`, `resourceOnlyGraph` and, since v1.16, `resourceOnlyGraphMermaid`).
//!
//! The graph layer reduces its plan graph to resources and hands the result here as a list of
//! [`ResourceNode`]s plus edges between them. Nodes are sorted by module, then data resources
//! before managed ones, then type, then name; each non-root module becomes one
//! `cluster_<module>` subgraph (one level, even for nested modules) whose nodes are labelled
//! with their module-relative address; edges follow the node order for both ends (Terraform
//! scans the sorted list twice). An empty graph prints two comment lines.

use super::go_quote;
use super::render_mermaid::mermaid_label;

/// One resource of the resource-only graph (Terraform `addrs.ConfigResource`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceNode {
    /// The module path as Terraform prints it (`module.a.module.b`); empty for the root module.
    pub module: String,
    /// Data resources sort before managed ones within a module.
    pub data: bool,
    /// Resource type (`aws_instance`), the second sort key.
    pub type_name: String,
    /// Resource name (`web`), the third sort key.
    pub name: String,
    /// The full address, used as the node id (`module.a.aws_instance.web`).
    pub id: String,
    /// The module-relative address, used as the label (`aws_instance.web`, `data.x.y`).
    pub label: String,
}

impl ResourceNode {
    /// A node with Terraform's `ConfigResource.String()` id and `Resource.String()` label.
    pub fn new(module: &str, data: bool, type_name: &str, name: &str) -> Self {
        let label = if data { format!("data.{type_name}.{name}") } else { format!("{type_name}.{name}") };
        let id = if module.is_empty() { label.clone() } else { format!("{module}.{label}") };
        ResourceNode { module: module.into(), data, type_name: type_name.into(), name: name.into(), id, label }
    }
}

/// Positions of `nodes` in Terraform's order, and the edges `(from, to)` (indices into `nodes`)
/// sorted by that order, duplicates dropped.
fn sorted(nodes: &[ResourceNode], edges: &[(usize, usize)]) -> (Vec<usize>, Vec<(usize, usize)>) {
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    // Ties keep their input order, so an unstable sort gives the stable one's result.
    crate::util::sort::sort_by(&mut order, |&i, &j| {
        let (a, b) = (&nodes[i], &nodes[j]);
        a.module
            .cmp(&b.module)
            .then(b.data.cmp(&a.data))
            .then(a.type_name.cmp(&b.type_name))
            .then(a.name.cmp(&b.name))
            .then(i.cmp(&j))
    });
    let mut rank = vec![0; nodes.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let mut by_rank: Vec<(usize, usize)> = edges.iter().map(|&(s, t)| (rank[s], rank[t])).collect();
    crate::util::sort::sort(&mut by_rank);
    by_rank.dedup();
    (order.clone(), by_rank.into_iter().map(|(s, t)| (order[s], order[t])).collect())
}

/// Terraform's default `terraform graph` DOT (v1.7+).
///
/// # Arguments
/// * `nodes`: the resources.
/// * `edges`: `(from, to)` indices into `nodes`; `from` depends on `to`.
///
/// # Complexity
/// O(V log V + E log E). (Terraform's double scan is O(V²).)
///
/// # Example
/// ```
/// use tfgraph::dag::{resource_dot, ResourceNode};
/// let nodes = [ResourceNode::new("", false, "foo", "baz"), ResourceNode::new("", false, "foo", "bar")];
/// assert_eq!(
///     resource_dot(&nodes, &[(0, 1)]),
///     "digraph G {\n  rankdir = \"RL\";\n  node [shape = rect, fontname = \"sans-serif\"];\n  \
///      \"foo.bar\" [label=\"foo.bar\"];\n  \"foo.baz\" [label=\"foo.baz\"];\n  \
///      \"foo.baz\" -> \"foo.bar\";\n}\n"
/// );
/// ```
pub fn resource_dot(nodes: &[ResourceNode], edges: &[(usize, usize)]) -> String {
    let mut out = String::from("digraph G {\n  rankdir = \"RL\";\n  node [shape = rect, fontname = \"sans-serif\"];\n");
    if nodes.is_empty() {
        out.push_str("  /* This configuration does not contain any resources.         */\n");
        out.push_str("  /* For a more detailed graph, try: terraform graph -type=plan */\n");
    }
    let (order, edges) = sorted(nodes, edges);
    let mut current = "";
    for &i in &order {
        let n = &nodes[i];
        if n.module != current {
            if !current.is_empty() {
                out.push_str("  }\n");
            }
            current = &n.module;
            out.push_str(&format!("  subgraph \"cluster_{current}\" {{\n"));
            out.push_str(&format!("    label = {}\n    fontname = \"sans-serif\"\n", go_quote(current)));
        }
        let indent = if current.is_empty() { "  " } else { "    " };
        out.push_str(&format!("{indent}{} [label={}];\n", go_quote(&n.id), go_quote(&n.label)));
    }
    if !current.is_empty() {
        out.push_str("  }\n");
    }
    for (s, t) in edges {
        out.push_str(&format!("  {} -> {};\n", go_quote(&nodes[s].id), go_quote(&nodes[t].id)));
    }
    out.push_str("}\n");
    out
}

/// Terraform's `terraform graph -format=mermaid` for the resource-only graph (v1.16+): the same
/// order and clusters as [`resource_dot`], as a Mermaid `flowchart LR` with the full addresses as
/// node ids (Terraform writes them unquoted, as here).
pub fn resource_mermaid(nodes: &[ResourceNode], edges: &[(usize, usize)]) -> String {
    let mut out = String::from("flowchart LR\n");
    if nodes.is_empty() {
        out.push_str("  %% This configuration does not contain any resources.\n");
        out.push_str("  %% For a more detailed graph, try: terraform graph -type=plan\n");
        return out;
    }
    let (order, edges) = sorted(nodes, edges);
    let mut current = "";
    for &i in &order {
        let n = &nodes[i];
        if n.module != current {
            if !current.is_empty() {
                out.push_str("  end\n");
            }
            current = &n.module;
            out.push_str(&format!("  subgraph {current}\n"));
        }
        let indent = if current.is_empty() { "  " } else { "    " };
        out.push_str(&format!("{indent}{}[{}]\n", n.id, mermaid_label(&n.label)));
    }
    if !current.is_empty() {
        out.push_str("  end\n");
    }
    for (s, t) in edges {
        out.push_str(&format!("  {} --> {}\n", nodes[s].id, nodes[t].id));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_graphs_print_hints() {
        assert_eq!(
            resource_dot(&[], &[]),
            "digraph G {\n  rankdir = \"RL\";\n  node [shape = rect, fontname = \"sans-serif\"];\n\
             \x20 /* This configuration does not contain any resources.         */\n\
             \x20 /* For a more detailed graph, try: terraform graph -type=plan */\n}\n"
        );
        assert_eq!(
            resource_mermaid(&[], &[]),
            "flowchart LR\n  %% This configuration does not contain any resources.\n\
             \x20 %% For a more detailed graph, try: terraform graph -type=plan\n"
        );
    }

    #[test]
    fn data_before_managed_then_type_then_name() {
        let nodes = [
            ResourceNode::new("", false, "b", "a"),
            ResourceNode::new("", false, "a", "z"),
            ResourceNode::new("", true, "z", "z"),
            ResourceNode::new("", false, "a", "b"),
        ];
        let dot = resource_dot(&nodes, &[(0, 1), (0, 1), (0, 2), (3, 2)]);
        let body: Vec<&str> = dot.lines().skip(3).collect();
        assert_eq!(
            body,
            [
                "  \"data.z.z\" [label=\"data.z.z\"];",
                "  \"a.b\" [label=\"a.b\"];",
                "  \"a.z\" [label=\"a.z\"];",
                "  \"b.a\" [label=\"b.a\"];",
                "  \"a.b\" -> \"data.z.z\";",
                "  \"b.a\" -> \"data.z.z\";",
                "  \"b.a\" -> \"a.z\";",
                "}",
            ]
        );
    }
}
