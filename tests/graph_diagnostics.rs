#![cfg(not(target_arch = "wasm32"))]
//! The graph stage's diagnostics: cycles (Terraform 1.16's text, one per cycle, plus our
//! detail walking one loop with the expressions that made each edge) and provider errors
//! (Terraform's text, verbatim).

use std::collections::BTreeMap;
use tfgraph::graph::{build, BuildOptions, Built, DotKind};

fn built(list: &[(&str, &str)]) -> Built {
    let files: BTreeMap<String, String> = list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let loaded = tfgraph::config::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    build(&loaded.config, &BuildOptions::default())
}

const CYCLIC: &str = r#"locals {
  test1 = local.test2
  test2 = local.test1
}

resource "test_instance" "foo" {
    ami = resource.test_instance.bar.ami
}

resource "test_instance" "bar" {
    ami = resource.test_instance.foo.ami
}
"#;

#[test]
fn one_error_per_cycle_with_the_loop_explained() {
    let b = built(&[("main.tf", CYCLIC)]);
    let d: Vec<_> = b.diagnostics.iter().collect();
    assert_eq!(d.len(), 2);
    assert!(d.iter().all(|d| d.is_error()));
    assert_eq!(d[0].summary, "Cycle:\n  local.test1 (expand)\n  local.test2 (expand)");
    assert_eq!(
        d[0].detail,
        "One loop in this cycle, edge by edge:\n  \
         local.test1 (expand) -> local.test2 (expand): local.test1 refers to local.test2 in test1 at main.tf:2:11\n  \
         local.test2 (expand) -> local.test1 (expand): local.test2 refers to local.test1 in test2 at main.tf:3:11"
    );
    assert_eq!(d[1].summary, "Cycle:\n  test_instance.bar (expand)\n  test_instance.foo (expand)");
    assert_eq!(
        d[1].detail,
        "One loop in this cycle, edge by edge:\n  \
         test_instance.bar (expand) -> test_instance.foo (expand): test_instance.bar refers to test_instance.foo (resource.test_instance.foo.ami) in ami at main.tf:11:11\n  \
         test_instance.foo (expand) -> test_instance.bar (expand): test_instance.foo refers to test_instance.bar (resource.test_instance.bar.ami) in ami at main.tf:7:11"
    );
    // The graph is still there, unreduced, and says where the cycles are.
    assert_eq!(
        b.graph.cycles(),
        [
            vec!["local.test1 (expand)".to_string(), "local.test2 (expand)".to_string()],
            vec!["test_instance.bar (expand)".to_string(), "test_instance.foo (expand)".to_string()],
        ]
    );
    assert_eq!(b.graph.dependencies("provider[\"registry.terraform.io/hashicorp/test\"] (close)").len(), 3);
    assert!(b.graph.implied.is_empty(), "no reduction on a cyclic graph");
    let dot = b.graph.to_dot(DotKind::Full, true);
    assert_eq!(dot.matches("color = \"red\"").count(), 2);
}

#[test]
fn the_loop_is_the_shortest_one_through_a_long_cycle() {
    let b = built(&[(
        "main.tf",
        r#"
locals {
  a = local.b
  b = local.c
  c = [local.a, local.d]
  d = local.a
}
"#,
    )]);
    assert_eq!(b.diagnostics.len(), 1);
    let d = b.diagnostics.iter().next().unwrap();
    assert_eq!(d.summary, "Cycle:\n  local.a (expand)\n  local.b (expand)\n  local.c (expand)\n  local.d (expand)");
    let steps: Vec<&str> = d.detail.lines().skip(1).collect();
    assert_eq!(steps.len(), 3, "{}", d.detail);
    assert!(
        steps[2].starts_with("  local.c (expand) -> local.a (expand): local.c refers to local.a in c at main.tf:5:8"),
        "{}",
        d.detail
    );
}

#[test]
fn self_reference_through_depends_on_is_dropped() {
    // Terraform drops references to the node itself (`rv == v`): no self-loop, no error.
    let b = built(&[("main.tf", "resource \"a_b\" \"c\" {\n  x = a_b.c.id\n  depends_on = [a_b.c]\n}\n")]);
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
}

#[test]
fn provider_configuration_not_present_is_terraforms_text() {
    let b = built(&[
        ("main.tf", "module \"child\" {\n  source = \"./child\"\n}\n"),
        ("child/main.tf", "resource \"mock_resource\" \"thing\" {\n  provider = mock.bar\n  name     = \"thing\"\n}\n"),
    ]);
    let d: Vec<_> = b.diagnostics.iter().collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].summary, "Provider configuration not present");
    // Verbatim from Terraform 1.0.3 `terraform graph -type=plan` (same text in 1.15's
    // ProviderTransformer).
    assert_eq!(
        d[0].detail,
        "To work with module.child.mock_resource.thing (expand) its original provider configuration at module.child.provider[\"registry.terraform.io/hashicorp/mock\"].bar is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy module.child.mock_resource.thing (expand), after which you can remove the provider configuration again."
    );
    assert_eq!(d[0].address.as_deref(), Some("module.child.mock_resource.thing"));
    let r = d[0].range.as_ref().unwrap();
    assert_eq!((r.filename.as_str(), r.start.line), ("child/main.tf", 2));
}
