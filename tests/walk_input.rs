//! Bad input is refused before anything is visited, with Terraform-worded diagnostics.
#![cfg(not(target_arch = "wasm32"))]

use tfgraph::walk::{dag_from_names, diagnostics::check_parallelism};

fn summaries(nodes: &[&str], edges: &[(&str, &str)]) -> Vec<String> {
    dag_from_names(nodes, edges).unwrap_err().iter().map(|d| d.summary.clone()).collect()
}

#[test]
fn duplicate_names_are_refused() {
    let diags = dag_from_names(&["a", "b", "a"], &[]).unwrap_err();
    let d = diags.iter().next().unwrap();
    assert_eq!(d.summary, "Duplicate node name");
    assert_eq!(d.address.as_deref(), Some("a"));
    assert!(d.detail.contains("\"a\" appears more than once"), "{}", d.detail);
}

#[test]
fn edges_to_unknown_nodes_are_refused_naming_the_edge() {
    let diags = dag_from_names(&["a"], &[("a", "ghost"), ("nobody", "a")]).unwrap_err();
    let details: Vec<&str> = diags.iter().map(|d| d.detail.as_str()).collect();
    assert_eq!(
        details,
        [
            "The edge \"a\" -> \"ghost\" names \"ghost\", which is not in the graph's node list.",
            "The edge \"nobody\" -> \"a\" names \"nobody\", which is not in the graph's node list.",
        ]
    );
    assert!(diags.iter().all(|d| d.summary == "Edge to an unknown node"));
}

#[test]
fn a_cycle_reads_in_dependency_order_from_its_shortest_name_whatever_the_input_order() {
    let edges = [
        ("aws_instance.b", "aws_instance.a"),
        ("aws_instance.a", "aws_instance.cc"),
        ("aws_instance.cc", "aws_instance.b"),
    ];
    let want = ["Cycle:\n  aws_instance.a\n  aws_instance.cc\n  aws_instance.b"];
    let names = ["aws_instance.a", "aws_instance.b", "aws_instance.cc"];
    for rot in 0..3 {
        let mut nodes = names.to_vec();
        nodes.rotate_left(rot);
        let mut e = edges.to_vec();
        e.rotate_left(rot);
        assert_eq!(summaries(&nodes, &e), want, "rotation {rot}");
        nodes.reverse();
        e.reverse();
        assert_eq!(summaries(&nodes, &e), want, "reversed rotation {rot}");
    }
}

#[test]
fn each_cycle_and_self_reference_is_its_own_diagnostic() {
    // graph-cyclic: two locals referring to each other, two instances likewise, one self-loop.
    let nodes = ["local.test1", "local.test2", "test_instance.a", "test_instance.b", "x", "ok"];
    let edges = [
        ("local.test1", "local.test2"),
        ("local.test2", "local.test1"),
        ("test_instance.a", "test_instance.b"),
        ("test_instance.b", "test_instance.a"),
        ("x", "x"),
        ("ok", "local.test1"),
    ];
    assert_eq!(
        summaries(&nodes, &edges),
        ["Cycle:\n  local.test1\n  local.test2", "Cycle:\n  test_instance.a\n  test_instance.b", "Self reference: x",]
    );
}

#[test]
fn parallelism_must_be_a_whole_number_of_at_least_one() {
    for bad in [0.0, -1.0, 1.5, f64::NAN, f64::INFINITY] {
        let d = check_parallelism(bad).unwrap_err();
        assert_eq!(d.summary, "Invalid parallelism value", "{bad}");
    }
    assert_eq!(check_parallelism(-1.0).unwrap_err().detail, "The parallelism must be a positive value. Not -1.");
    assert_eq!(check_parallelism(1.0), Ok(1));
    assert_eq!(check_parallelism(64.0), Ok(64));
}
