#![cfg(not(target_arch = "wasm32"))]
//! Terraform's own expectations for `internal/dag` behaviour and DOT text, reproduced exactly.
//! Each test names the Go test it comes from; expected strings are copied from it.

use tfgraph::dag::{
    resource_dot, Direction, DotAttrs, DotOptions, Graph, NodeId, ResourceNode, WalkControl, WalkOrder,
};

#[track_caller]
fn assert_text(got: &str, want: &str) {
    if got != want {
        panic!("text differs\n--- want\n{want}\n--- got\n{got}\n---");
    }
}

/// A graph whose vertices are named `names`, with `edges` given by name.
fn named(names: &[&str], edges: &[(&str, &str)]) -> Graph<(), ()> {
    let mut g = Graph::new();
    for n in names {
        g.add(*n, ());
    }
    for (a, b) in edges {
        let (a, b) = (g.find(a).unwrap(), g.find(b).unwrap());
        g.connect(a, b, ());
    }
    g
}

fn every_node_drawn(_: NodeId, _: &()) -> Option<DotAttrs> {
    Some(DotAttrs::new())
}

/// `internal/terraform/graph_dot_test.go` `TestGraphDot` "three-level".
#[test]
fn graph_dot_three_level() {
    let g = named(
        &["root", "foo", "bar", "baz", "qux"],
        &[("foo", "root"), ("bar", "root"), ("baz", "foo"), ("qux", "bar")],
    );
    assert_text(
        &g.dot(&DotOptions::default(), every_node_drawn),
        r#"digraph {
	compound = "true"
	newrank = "true"
	subgraph "root" {
		"[root] bar"
		"[root] baz"
		"[root] foo"
		"[root] qux"
		"[root] root"
		"[root] bar" -> "[root] root"
		"[root] baz" -> "[root] foo"
		"[root] foo" -> "[root] root"
		"[root] qux" -> "[root] bar"
	}
}
"#,
    );
}

/// `TestGraphDot` "cycle": red edges run against the real ones and replace plain twins.
#[test]
fn graph_dot_cycle() {
    let g = named(&["root", "A", "B", "C"], &[("A", "root"), ("A", "C"), ("B", "A"), ("C", "B")]);
    assert_text(
        &g.dot(&DotOptions { draw_cycles: true }, every_node_drawn),
        r#"digraph {
	compound = "true"
	newrank = "true"
	subgraph "root" {
		"[root] A"
		"[root] B"
		"[root] C"
		"[root] root"
		"[root] A" -> "[root] B" [color = "red", penwidth = "2.0"]
		"[root] A" -> "[root] C"
		"[root] A" -> "[root] root"
		"[root] B" -> "[root] A"
		"[root] B" -> "[root] C" [color = "red", penwidth = "2.0"]
		"[root] C" -> "[root] A" [color = "red", penwidth = "2.0"]
		"[root] C" -> "[root] B"
	}
}
"#,
    );
}

/// `internal/command/graph_test.go` `TestGraph_cyclic` "plan with -draw-cycles option" (HEAD):
/// the `graph-cyclic` plan graph, with DOT nodes only for the provider and the resources.
#[test]
fn command_graph_cyclic_draw_cycles() {
    let provider = r#"provider["registry.terraform.io/hashicorp/test"]"#;
    let close = format!("{provider} (close)");
    let g = named(
        &[
            "local.test1 (expand)",
            "local.test2 (expand)",
            provider,
            &close,
            "root",
            "test_instance.bar (expand)",
            "test_instance.foo (expand)",
        ],
        &[
            ("local.test1 (expand)", "local.test2 (expand)"),
            ("local.test2 (expand)", "local.test1 (expand)"),
            (&close, provider),
            (&close, "test_instance.bar (expand)"),
            (&close, "test_instance.foo (expand)"),
            ("root", &close),
            ("test_instance.bar (expand)", provider),
            ("test_instance.bar (expand)", "test_instance.foo (expand)"),
            ("test_instance.foo (expand)", provider),
            ("test_instance.foo (expand)", "test_instance.bar (expand)"),
        ],
    );
    let attrs = |id: NodeId, _: &()| {
        let name = g.name(id);
        let (label, shape) = match name {
            n if n == provider => (n, "diamond"),
            n if n.starts_with("test_instance.") => (n.trim_end_matches(" (expand)"), "box"),
            _ => return None,
        };
        Some(DotAttrs::from([("label".to_string(), label.to_string()), ("shape".to_string(), shape.to_string())]))
    };
    assert_text(
        &g.dot(&DotOptions { draw_cycles: true }, attrs),
        r#"digraph {
	compound = "true"
	newrank = "true"
	subgraph "root" {
		"[root] provider[\"registry.terraform.io/hashicorp/test\"]" [label = "provider[\"registry.terraform.io/hashicorp/test\"]", shape = "diamond"]
		"[root] test_instance.bar (expand)" [label = "test_instance.bar", shape = "box"]
		"[root] test_instance.foo (expand)" [label = "test_instance.foo", shape = "box"]
		"[root] local.test1 (expand)" -> "[root] local.test2 (expand)"
		"[root] local.test2 (expand)" -> "[root] local.test1 (expand)"
		"[root] provider[\"registry.terraform.io/hashicorp/test\"] (close)" -> "[root] provider[\"registry.terraform.io/hashicorp/test\"]"
		"[root] provider[\"registry.terraform.io/hashicorp/test\"] (close)" -> "[root] test_instance.bar (expand)"
		"[root] provider[\"registry.terraform.io/hashicorp/test\"] (close)" -> "[root] test_instance.foo (expand)"
		"[root] root" -> "[root] provider[\"registry.terraform.io/hashicorp/test\"] (close)"
		"[root] test_instance.bar (expand)" -> "[root] provider[\"registry.terraform.io/hashicorp/test\"]"
		"[root] test_instance.bar (expand)" -> "[root] test_instance.foo (expand)" [color = "red", penwidth = "2.0"]
		"[root] test_instance.foo (expand)" -> "[root] provider[\"registry.terraform.io/hashicorp/test\"]"
		"[root] test_instance.foo (expand)" -> "[root] test_instance.bar (expand)" [color = "red", penwidth = "2.0"]
	}
}
"#,
    );
    // The same graph fails validation with one diagnostic per cycle, as the CLI test expects
    // ("Error: Cycle:\n  test_instance." and "Error: Cycle:\n  local.").
    let shown: Vec<String> = g.validate().iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "Error: Cycle:\n  local.test1 (expand)\n  local.test2 (expand)",
            "Error: Cycle:\n  test_instance.bar (expand)\n  test_instance.foo (expand)",
        ]
    );
}

/// `internal/command/graph_test.go` `TestGraph_resourcesOnly` (`graph-interesting`, v1.7+).
#[test]
fn command_graph_resources_only() {
    let nodes = [
        ResourceNode::new("module.child", false, "foo", "bleep"),
        ResourceNode::new("", false, "foo", "boop"),
        ResourceNode::new("", false, "foo", "baz"),
        ResourceNode::new("", false, "foo", "bar"),
    ];
    assert_text(
        &resource_dot(&nodes, &[(2, 3), (1, 0), (0, 3)]),
        r#"digraph G {
  rankdir = "RL";
  node [shape = rect, fontname = "sans-serif"];
  "foo.bar" [label="foo.bar"];
  "foo.baz" [label="foo.baz"];
  "foo.boop" [label="foo.boop"];
  subgraph "cluster_module.child" {
    label = "module.child"
    fontname = "sans-serif"
    "module.child.foo.bleep" [label="foo.bleep"];
  }
  "foo.baz" -> "foo.bar";
  "foo.boop" -> "module.child.foo.bleep";
  "module.child.foo.bleep" -> "foo.bar";
}
"#,
    );
}

/// `internal/dag/dag_test.go` `TestAcyclicGraphWalkOrder` (its sorted test mode).
#[test]
fn walk_order() {
    let names: Vec<String> = (1..=11).map(|i| i.to_string()).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let edges =
        [(1, 3), (1, 4), (2, 4), (2, 5), (3, 6), (4, 7), (5, 7), (7, 8), (7, 9), (7, 10), (8, 11), (9, 11), (10, 11)]
            .map(|(a, b)| (names[a - 1].clone(), names[b - 1].clone()));
    let edge_refs: Vec<(&str, &str)> = edges.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let g = named(&refs, &edge_refs);
    let id = |i: usize| g.find(&i.to_string()).unwrap();
    let run = |starts: &[usize], dir, order| {
        let starts: Vec<NodeId> = starts.iter().map(|&i| id(i)).collect();
        let mut seen = Vec::new();
        g.walk(&starts, dir, order, |v, d| {
            seen.push((g.name(v).parse::<usize>().unwrap(), d));
            WalkControl::Continue
        });
        seen
    };
    use Direction::*;
    use WalkOrder::*;
    assert_eq!(
        run(&[2, 1], Dependencies, DepthFirst),
        [(2, 0), (5, 1), (7, 2), (9, 3), (11, 4), (8, 3), (10, 3), (4, 1), (1, 0), (3, 1), (6, 2)]
    );
    assert_eq!(
        run(&[11, 6], Dependents, DepthFirst),
        [(6, 0), (3, 1), (1, 2), (11, 0), (9, 1), (7, 2), (5, 3), (2, 4), (4, 3), (8, 1), (10, 1)]
    );
    assert_eq!(
        run(&[2, 1], Dependencies, BreadthFirst),
        [(1, 0), (2, 0), (3, 1), (4, 1), (5, 1), (6, 2), (7, 2), (10, 3), (8, 3), (9, 3), (11, 4)]
    );
    assert_eq!(
        run(&[11, 6], Dependents, BreadthFirst),
        [(11, 0), (6, 0), (10, 1), (8, 1), (9, 1), (3, 1), (7, 2), (1, 2), (4, 3), (5, 3), (2, 4)]
    );
    // TopologicalOrder / ReverseTopologicalOrder: every edge respected.
    let rev = g.reverse_topological_order().unwrap();
    let pos = |v: NodeId| rev.iter().position(|&x| x == v).unwrap();
    for (a, b, _) in g.edges() {
        assert!(pos(b) < pos(a));
    }
    let fwd = g.topological_order().unwrap();
    let pos = |v: NodeId| fwd.iter().position(|&x| x == v).unwrap();
    for (a, b, _) in g.edges() {
        assert!(pos(a) < pos(b));
    }
}

/// `transform_transitive_reduction_test.go` on `transform-trans-reduce-basic`: the reference
/// graph of B -> A, C -> A, C -> B reduces to a chain.
#[test]
fn transform_trans_reduce_basic() {
    let mut g = named(
        &["aws_instance.A", "aws_instance.B", "aws_instance.C"],
        &[
            ("aws_instance.B", "aws_instance.A"),
            ("aws_instance.C", "aws_instance.A"),
            ("aws_instance.C", "aws_instance.B"),
        ],
    );
    let removed = g.transitive_reduction().unwrap();
    assert_eq!(removed.len(), 1);
    assert_text(
        g.to_string().trim(),
        "aws_instance.A\naws_instance.B\n  aws_instance.A\naws_instance.C\n  aws_instance.B",
    );
}
