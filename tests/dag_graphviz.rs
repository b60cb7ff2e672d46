#![cfg(not(target_arch = "wasm32"))]
//! Graphviz accepts every DOT we write: each sample goes through `dot -Tsvg` when `dot` is on
//! PATH (the test prints "skipped" otherwise).

use std::io::Write;
use std::process::{Command, Stdio};
use tfgraph::dag::{resource_dot, DotAttrs, DotOptions, Graph, ResourceNode};

/// Runs `dot -Tsvg`; `None` if graphviz is not installed.
fn render_svg(dot: &str) -> Option<Result<String, String>> {
    let mut child = match Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("cannot run dot: {e}"),
    };
    child.stdin.take().unwrap().write_all(dot.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    Some(if out.status.success() && stderr.is_empty() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!("dot failed ({}): {stderr}\ninput:\n{dot}", out.status))
    })
}

/// Names a Terraform graph can hold, including ones that need escaping.
const AWKWARD: &[&str] = &[
    "root",
    r#"provider["registry.terraform.io/hashicorp/aws"]"#,
    r#"provider["registry.terraform.io/hashicorp/aws"] (close)"#,
    "aws_instance.web (expand)",
    r#"aws_instance.web["key with \"quotes\" and \\ backslash"]"#,
    "aws_instance.web[\"new\nline\ttab\"]",
    "aws_instance.web[\"héllo ✓ 日本\"]",
    "module.m[0].local.x (expand)",
    "",
];

#[test]
fn graphviz_accepts_full_dot_and_resource_dot() {
    let mut g: Graph<usize, ()> = Graph::new();
    let ids: Vec<_> = AWKWARD.iter().enumerate().map(|(i, n)| g.add(*n, i)).collect();
    for i in 1..ids.len() {
        g.connect(ids[0], ids[i], ());
        g.connect(ids[i], ids[(i % (ids.len() - 1)) + 1], ()); // a cycle through all but root
    }
    let attrs = |_, &i: &usize| match i % 3 {
        0 => None,
        1 => Some(DotAttrs::from([("label".into(), AWKWARD[i].into()), ("shape".into(), "box".into())])),
        _ => Some(DotAttrs::from([("shape".into(), "diamond".into())])),
    };
    let nodes = [
        ResourceNode::new("", true, "aws_ami", "ubuntu"),
        ResourceNode::new("", false, "aws_instance", "web"),
        ResourceNode::new("module.net", false, "aws_vpc", "main"),
        ResourceNode::new("module.net.module.sub", false, "aws_subnet", "a"),
    ];
    let samples = [
        g.dot(&DotOptions::default(), attrs),
        g.dot(&DotOptions { draw_cycles: true }, attrs),
        Graph::<(), ()>::new().dot(&DotOptions::default(), |_, _| None),
        resource_dot(&nodes, &[(1, 0), (1, 2), (3, 2), (2, 3)]),
        resource_dot(&[], &[]),
    ];
    for dot in &samples {
        match render_svg(dot) {
            None => {
                println!("skipped: graphviz `dot` is not on PATH");
                return;
            }
            Some(Ok(svg)) => assert!(svg.contains("<svg"), "no svg for:\n{dot}"),
            Some(Err(e)) => panic!("{e}"),
        }
    }
    // The awkward names survive the round trip (graphviz unescapes the ids we Go-quoted).
    let svg = render_svg(&samples[0]).unwrap().unwrap();
    assert!(svg.contains("[root] aws_instance.web (expand)"));
}
