#![cfg(not(target_arch = "wasm32"))]
//! Destroy ordering, transformer by transformer (Terraform's `transform_destroy_edge_test.go`,
//! oracle case 11), plan-destroy graphs, orphans (oracle case 16), forced create_before_destroy,
//! cycles made by destroy edges, and every corpus root's plan-destroy graph from a synthesized
//! state.

use std::collections::BTreeMap;
use tfgraph::graph::transform::{
    self, AttachStateTransformer, BuildContext, DestroyEdgeTransformer, DiffTransformer, Step,
};
use tfgraph::graph::{build, BuildOptions, Operation, PlanMode, TfGraph};
use tfgraph::plans::parse_changes;
use tfgraph::state::parse_state;

fn config(main: &str) -> tfgraph::config::Config {
    let files = BTreeMap::from([("main.tf".to_string(), main.to_string())]);
    let loaded = tfgraph::config::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    loaded.config
}

/// A state v4 document: `(address, dependencies, create_before_destroy)` per object.
fn state(objects: &[(&str, &[&str], bool)]) -> String {
    let mut resources = Vec::new();
    for (addr, deps, cbd) in objects {
        let a = tfgraph::addrs::InstanceAddr::parse(addr).unwrap();
        let mut inst =
            serde_json::json!({"attributes": {"id": addr}, "dependencies": deps, "create_before_destroy": cbd});
        if let Some(k) = &a.key {
            inst["index_key"] = match k {
                tfgraph::addrs::InstanceKey::Int(i) => serde_json::json!(i),
                tfgraph::addrs::InstanceKey::Str(s) => serde_json::json!(s),
            };
        }
        let mode = if a.resource.mode == tfgraph::addrs::ResourceMode::Data { "data" } else { "managed" };
        let mut r = serde_json::json!({"mode": mode, "type": a.resource.type_name, "name": a.resource.name,
            "provider": "provider[\"registry.terraform.io/hashicorp/test\"]", "instances": [inst]});
        if !a.module.is_empty() {
            r["module"] = serde_json::json!(a.module_instance());
        }
        resources.push(r);
    }
    serde_json::json!({"version": 4, "serial": 1, "lineage": "x", "outputs": {}, "resources": resources}).to_string()
}

fn options(op: Operation, state_json: &str, changes_json: Option<&str>) -> BuildOptions {
    let (s, d) = parse_state(state_json);
    assert!(d.is_empty(), "{d:?}");
    let changes = changes_json.map(|c| {
        let (c, d) = parse_changes(c);
        assert!(d.is_empty(), "{d:?}");
        c
    });
    BuildOptions { operation: op, state: Some(s), changes, ..Default::default() }
}

/// Terraform's `DestroyEdgeTransformer` tests: a graph of destroy nodes only (here: made by
/// `DiffTransformer` from Delete changes), state attached, destroy edges.
fn destroy_edges_only(objects: &[(&str, &[&str], bool)], updates: &[&str]) -> String {
    let mut changes: BTreeMap<String, Vec<&str>> =
        objects.iter().map(|(a, _, _)| (a.to_string(), vec!["delete"])).collect();
    for u in updates {
        changes.insert(u.to_string(), vec!["update"]);
    }
    let o = options(Operation::Apply, &state(objects), Some(&serde_json::to_string(&changes).unwrap()));
    let cfg = config("");
    let cx = BuildContext::new(&cfg, &o);
    let steps = vec![
        Step::new(DiffTransformer, "test"),
        Step::new(AttachStateTransformer, "test"),
        Step::new(DestroyEdgeTransformer { full_destroy: false }, "test"),
    ];
    let mut g = TfGraph::new();
    let (_, d) = transform::run(&steps, &mut g, &cx);
    assert!(d.is_empty(), "{d:?}");
    g.to_string().trim().to_string()
}

/// SOURCE: hashicorp/terraform v1.15.0, internal/terraform/transform_destroy_edge_test.go, the
/// constants testTransformDestroyEdge{Basic,Multi,SelfRef,Module}Str and the inline
/// expectations of TestDestroyEdgeTransformer_moduleOnly and _destroyThenUpdate.
#[test]
fn destroy_edge_transformer_matches_terraform() {
    assert_eq!(
        destroy_edges_only(&[("test_object.A", &[], false), ("test_object.B", &["test_object.A"], false)], &[]),
        "test_object.A (destroy)\n  test_object.B (destroy)\ntest_object.B (destroy)"
    );
    assert_eq!(
        destroy_edges_only(
            &[
                ("test_object.A", &[], false),
                ("test_object.B", &["test_object.A"], false),
                ("test_object.C", &["test_object.A", "test_object.B"], false)
            ],
            &[]
        ),
        "test_object.A (destroy)\n  test_object.B (destroy)\n  test_object.C (destroy)\ntest_object.B (destroy)\n  test_object.C (destroy)\ntest_object.C (destroy)"
    );
    assert_eq!(destroy_edges_only(&[("test_object.A", &[], false)], &[]), "test_object.A (destroy)");
    assert_eq!(
        destroy_edges_only(
            &[("test_object.a", &["module.child.test_object.b"], false), ("module.child.test_object.b", &[], false)],
            &[]
        ),
        "module.child.test_object.b (destroy)\n  test_object.a (destroy)\ntest_object.a (destroy)"
    );
    // moduleOnly: no edges between different instances of the same module.
    let mut objs: Vec<(String, Vec<&str>)> = Vec::new();
    for i in 0..2 {
        objs.push((format!("module.child[{i}].test_object.a"), vec![]));
        objs.push((format!("module.child[{i}].test_object.b"), vec!["module.child.test_object.a"]));
        objs.push((
            format!("module.child[{i}].test_object.c"),
            vec!["module.child.test_object.a", "module.child.test_object.b"],
        ));
    }
    let objs: Vec<(&str, &[&str], bool)> = objs.iter().map(|(a, d)| (a.as_str(), d.as_slice(), false)).collect();
    let want = (0..2)
        .map(|i| {
            format!(
                "module.child[{i}].test_object.a (destroy)\n  module.child[{i}].test_object.b (destroy)\n  module.child[{i}].test_object.c (destroy)\nmodule.child[{i}].test_object.b (destroy)\n  module.child[{i}].test_object.c (destroy)\nmodule.child[{i}].test_object.c (destroy)"
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(destroy_edges_only(&objs, &[]), want);
    // destroyThenUpdate: A updated, B (which depended on A) destroyed: A waits for B's destroy.
    assert_eq!(
        destroy_edges_only(
            &[("test_object.A", &[], false), ("test_object.B", &["test_object.A"], false)],
            &["test_object.A"]
        ),
        "test_object.A\n  test_object.B (destroy)\ntest_object.B (destroy)"
    );
}

/// Plan-destroy (Terraform 1.15 `walkPlanDestroy`): destroy nodes named by resource, ordered by
/// state dependencies, unused values pruned, root outputs kept and referring to nothing.
#[test]
fn plan_destroy_orders_by_state_and_prunes() {
    let cfg = config(
        r#"
        variable "n" { default = 2 }
        locals { x = var.n }
        resource "test_object" "a" { count = local.x }
        resource "test_object" "b" { test_string = test_object.a[0].id }
        data "test_data" "d" {}
        output "o" { value = test_object.b.id }
        "#,
    );
    let st = state(&[
        ("test_object.a[0]", &[], false),
        ("test_object.a[1]", &[], false),
        ("test_object.b", &["test_object.a"], false),
        ("data.test_data.d", &[], false),
    ]);
    let built = build(&cfg, &options(Operation::Destroy, &st, None));
    assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics);
    let want = r#"
data.test_data.d (destroy)
  provider["registry.terraform.io/hashicorp/test"]
output.o (expand)
provider["registry.terraform.io/hashicorp/test"]
provider["registry.terraform.io/hashicorp/test"] (close)
  data.test_data.d (destroy)
  test_object.a (destroy)
  test_object.a (destroy)
root
  output.o (expand)
  provider["registry.terraform.io/hashicorp/test"] (close)
test_object.a (destroy)
  test_object.b (destroy)
test_object.a (destroy)
  test_object.b (destroy)
test_object.b (destroy)
  provider["registry.terraform.io/hashicorp/test"]"#;
    assert_eq!(built.graph.to_string().trim(), want.trim());
    // Which instance each same-named node destroys is recorded.
    let mut instances: Vec<String> = built
        .graph
        .ids()
        .filter_map(|id| built.graph.node(id).facts.as_ref().and_then(|f| f.instance.clone()))
        .collect();
    instances.sort();
    assert_eq!(instances, ["data.test_data.d", "test_object.a[0]", "test_object.a[1]", "test_object.b"]);
}

/// Deposed objects in the state: plan nodes `addr (deposed KEY)`, ordered like destroys.
#[test]
fn deposed_objects_in_state_get_plan_nodes() {
    let cfg = config(
        r#"resource "test_object" "a" {}
resource "test_object" "b" { test_string = test_object.a.id }"#,
    );
    let st = r#"{"version":4,"serial":1,"lineage":"x","resources":[
      {"mode":"managed","type":"test_object","name":"a","provider":"provider[\"registry.terraform.io/hashicorp/test\"]",
       "instances":[{"attributes":{}},{"deposed":"0000aaaa","attributes":{}}]},
      {"mode":"managed","type":"test_object","name":"b","provider":"provider[\"registry.terraform.io/hashicorp/test\"]",
       "instances":[{"attributes":{},"dependencies":["test_object.a"]},{"deposed":"0000bbbb","attributes":{},"dependencies":["test_object.a"]}]}]}"#;
    let built = build(&cfg, &options(Operation::Plan, st, None));
    assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics);
    assert_eq!(built.graph.dependencies("test_object.a (deposed 0000aaaa)"), ["test_object.b (deposed 0000bbbb)"]);
    assert_eq!(
        built.graph.dependencies("test_object.b (deposed 0000bbbb)"),
        ["provider[\"registry.terraform.io/hashicorp/test\"]"]
    );
}

/// Orphans: whole blocks gone become `(orphan)` nodes; keys gone from a literal count/for_each
/// and instances of vanished module instances are recorded on the expand node (oracle case 16:
/// state foo[0], foo[2] with count = 1 → foo[2]; an empty for_each → every key).
#[test]
fn orphans_from_removed_blocks_keys_and_module_instances() {
    let mut files = BTreeMap::new();
    files.insert(
        "main.tf".to_string(),
        r#"
        resource "aws_instance" "foo" { count = 1 }
        resource "aws_instance" "each" { for_each = {} }
        module "m" {
          source = "./m"
          count  = 1
        }"#
        .to_string(),
    );
    files.insert("m/main.tf".to_string(), r#"resource "aws_instance" "x" {}"#.to_string());
    let loaded = tfgraph::config::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let st = state(&[
        ("aws_instance.foo[0]", &[], false),
        ("aws_instance.foo[2]", &[], false),
        ("aws_instance.each[\"bar\"]", &[], false),
        ("aws_instance.gone", &[], false),
        ("module.m[0].aws_instance.x", &[], false),
        ("module.m[3].aws_instance.x", &[], false),
        ("module.old.aws_instance.y", &[], false),
    ]);
    let built = build(&loaded.config, &options(Operation::Plan, &st, None));
    let g = &built.graph;
    let orphans = |name: &str| {
        g.node(g.find(name).unwrap()).facts.as_ref().map(|f| f.expansion_orphans.clone()).unwrap_or_default()
    };
    assert_eq!(orphans("aws_instance.foo (expand)"), ["aws_instance.foo[2]"]);
    assert_eq!(orphans("aws_instance.each (expand)"), ["aws_instance.each[\"bar\"]"]);
    assert_eq!(orphans("module.m.aws_instance.x (expand)"), ["module.m[3].aws_instance.x"]);
    assert!(g.find("aws_instance.gone (orphan)").is_some());
    assert!(g.find("module.old.aws_instance.y (orphan)").is_some());
    // The removed module gets a close node that waits for its orphans.
    assert_eq!(g.dependencies("module.old (close)"), ["module.old.aws_instance.y (orphan)"]);
    // Orphans use the provider recorded in the state, exactly.
    assert!(g.dependencies("aws_instance.gone (orphan)").iter().any(|d| d.contains("hashicorp/test")));
    // Plan-destroy has no orphan nodes: everything gets a destroy node.
    let destroy = build(&loaded.config, &options(Operation::Destroy, &st, None));
    assert!(destroy.graph.nodes().iter().all(|n| !n.name.contains("(orphan)")));
}

/// ForcedCBD: create_before_destroy infects everything a CBD resource depends on,
/// transitively; AttachDependencies lists transitive resource dependencies.
#[test]
fn forced_cbd_and_dependencies_are_recorded() {
    let cfg = config(
        r#"
        resource "test_object" "a" {}
        locals { l = test_object.a.id }
        resource "test_object" "b" { test_string = local.l }
        resource "test_object" "c" {
          test_string = test_object.b.id
          lifecycle { create_before_destroy = true }
        }
        resource "test_object" "d" { test_string = test_object.a.id }
        "#,
    );
    let built = build(&cfg, &BuildOptions::default());
    let g = &built.graph;
    let facts = |n: &str| g.node(g.find(n).unwrap()).facts.clone().unwrap_or_default();
    assert!(facts("test_object.a (expand)").forced_cbd);
    assert!(facts("test_object.b (expand)").forced_cbd);
    assert!(!facts("test_object.c (expand)").forced_cbd, "set in configuration, not forced");
    assert!(!facts("test_object.d (expand)").forced_cbd);
    assert_eq!(facts("test_object.c (expand)").dependencies.unwrap(), ["test_object.a", "test_object.b"]);
    assert_eq!(facts("test_object.a (expand)").dependencies.unwrap(), Vec::<String>::new());
}

/// A cycle made by destroy and CBD edges is reported with Terraform's deterministic text and
/// an explained loop: B (create_before_destroy) refers to A, and a plan replaces A destroy-first
/// and B create-first (Terraform's plan would have forced A to create_before_destroy; an
/// inconsistent plan gives the classic cycle A -> A (destroy) -> B (destroy deposed) -> B -> A).
#[test]
fn destroy_cycles_are_explained() {
    let cfg = config(
        r#"
        resource "test_object" "a" {}
        resource "test_object" "b" {
          test_string = test_object.a.id
          lifecycle { create_before_destroy = true }
        }
        "#,
    );
    let st = state(&[("test_object.a", &[], false), ("test_object.b", &["test_object.a"], true)]);
    let changes = r#"{"test_object.a": ["delete", "create"], "test_object.b": ["create", "delete"]}"#;
    let built = build(&cfg, &options(Operation::Apply, &st, Some(changes)));
    let cycles: Vec<_> = built.diagnostics.iter().filter(|d| d.summary.starts_with("Cycle:")).collect();
    assert_eq!(cycles.len(), 1, "{:?}\n{}", built.diagnostics, built.graph);
    let d = cycles[0];
    assert!(d.detail.starts_with("One loop in this cycle, edge by edge:"), "{}", d.detail);
    assert!(d.detail.contains("depended on") || d.detail.contains("create_before_destroy"), "{}", d.detail);
    // Deterministic: the same text every time.
    let again = build(&cfg, &options(Operation::Apply, &st, Some(changes)));
    assert_eq!(format!("{:?}", again.diagnostics), format!("{:?}", built.diagnostics));
}

/// Malformed changes and states never panic; the apply builder reports Terraform's errors.
#[test]
fn invalid_planned_changes_are_reported() {
    let cfg = config(r#"resource "test_object" "a" {}"#);
    let st = state(&[]);
    let built = build(
        &cfg,
        &options(
            Operation::Apply,
            &st,
            Some(r#"{"test_object.a": ["create", "delete"], "test_object.a (deposed 0000aaaa)": ["update"]}"#),
        ),
    );
    let mut summaries: Vec<&str> = built.diagnostics.iter().map(|d| d.summary.as_str()).collect();
    summaries.sort();
    assert_eq!(summaries, ["Invalid planned change", "Invalid planned change for deposed object"]);
}

/// Applying a destroy plan (`PlanMode::Destroy`, Terraform's `walkDestroy`) against a normal
/// apply of the same changes: `graph_builder_apply.go` passes `Operation == walkDestroy` to the
/// variable, output and check transformers, `DestroyEdgeTransformer` and
/// `pruneUnusedNodesTransformer` (fixtures `destroy-apply-*` hold the full graphs).
#[test]
fn applying_a_destroy_plan_differs_from_a_normal_apply() {
    let cfg = config(
        r#"
        variable "v" {
          default = "x"
          validation {
            condition     = var.v != ""
            error_message = "empty"
          }
        }
        resource "test_object" "a" { test_string = var.v }
        output "a" { value = test_object.a.id }
        check "c" {
          assert {
            condition     = test_object.a.id != ""
            error_message = "no id"
          }
        }
        "#,
    );
    let st = state(&[("test_object.a", &[], false)]);
    let changes = Some(r#"{"test_object.a": ["delete"]}"#);
    let normal = build(&cfg, &options(Operation::Apply, &st, changes));
    let destroy = build(&cfg, &BuildOptions { mode: PlanMode::Destroy, ..options(Operation::Apply, &st, changes) });
    assert!(
        normal.diagnostics.is_empty() && destroy.diagnostics.is_empty(),
        "{:?} {:?}",
        normal.diagnostics,
        destroy.diagnostics
    );
    let names = |g: &TfGraph| g.nodes().into_iter().map(|n| n.name).collect::<Vec<_>>();
    for kept in ["test_object.a (expand)", "var.v", "var.v (validation)", "check.c (expand)"] {
        assert!(normal.graph.find(kept).is_some(), "{kept} in the normal apply graph");
        assert!(destroy.graph.find(kept).is_none(), "{kept} pruned or never added when destroying:\n{}", destroy.graph);
    }
    assert_eq!(normal.graph.dependencies("output.a (expand)"), ["test_object.a (expand)"]);
    assert_eq!(destroy.graph.dependencies("output.a (expand)"), Vec::<String>::new());
    assert_eq!(
        names(&destroy.graph),
        [
            "output.a (expand)",
            "provider[\"registry.terraform.io/hashicorp/test\"]",
            "provider[\"registry.terraform.io/hashicorp/test\"] (close)",
            "root",
            "test_object.a (destroy)"
        ]
    );
    // The step list is the same; pruning only acts in walkDestroy.
    let pruned =
        |b: &tfgraph::graph::Built| b.steps.iter().find(|s| s.name == "pruneUnusedNodesTransformer").unwrap().changed;
    assert!(!pruned(&normal) && pruned(&destroy));
    // `operation: plan` with the destroy mode is plan-destroy.
    let plan_destroy = build(&cfg, &options(Operation::Destroy, &st, None));
    let plan_mode = build(&cfg, &BuildOptions { mode: PlanMode::Destroy, ..options(Operation::Plan, &st, None) });
    assert_eq!(plan_mode.graph.to_string(), plan_destroy.graph.to_string());
}

/// Data sources are dropped from the state without a provider call: Terraform's
/// `ProvidedBy()` returns `(nil, true)` for data resources in `NodeDestroyResourceInstance`
/// (apply), `NodeForgetResourceInstance` and `NodePlannableResourceInstanceOrphan` (plan), so
/// `ProviderTransformer` and `CloseProviderTransformer` skip them (no edge, no close edge, and
/// no "Provider configuration not present" when the configuration is gone). Plan-destroy's
/// `NodePlanDestroyableResourceInstance` does not override it: its data sources keep the
/// provider. The oracle (Terraform 1.0.3, same overrides) agrees on the apply graph of a
/// destroy plan (fixture destroy-apply-count-data-output) and on the plan's data orphan.
#[test]
fn data_sources_are_dropped_without_a_provider() {
    let cfg = config(r#"resource "test_object" "a" {}"#);
    let test = "provider[\"registry.terraform.io/hashicorp/test\"]";
    let st = state(&[("test_object.a", &[], false), ("data.test_data.d", &[], false)]);

    // Apply of a destroy plan: the data source's destroy has no provider edge.
    let changes = r#"{"test_object.a": ["delete"], "data.test_data.d": ["delete"]}"#;
    let applied =
        build(&cfg, &BuildOptions { mode: PlanMode::Destroy, ..options(Operation::Apply, &st, Some(changes)) });
    assert!(applied.diagnostics.is_empty(), "{:?}", applied.diagnostics);
    let g = &applied.graph;
    assert_eq!(g.dependencies("data.test_data.d (destroy)"), Vec::<String>::new());
    assert_eq!(g.dependencies("test_object.a (destroy)"), [test]);
    assert_eq!(g.dependents("data.test_data.d (destroy)"), ["root"]);
    assert_eq!(g.dependencies(&format!("{test} (close)")), ["test_object.a (destroy)"]);

    // Plan: the data orphan has no provider edge either; a managed orphan does.
    let st2 = state(&[("test_object.gone", &[], false), ("data.test_data.d", &[], false)]);
    let planned = build(&cfg, &options(Operation::Plan, &st2, None));
    assert_eq!(planned.graph.dependencies("data.test_data.d (orphan)"), Vec::<String>::new());
    assert_eq!(planned.graph.dependencies("test_object.gone (orphan)"), [test]);

    // Plan-destroy: its destroy node for the data source does use the provider.
    let plan_destroy = build(&cfg, &options(Operation::Destroy, &st, None));
    assert_eq!(plan_destroy.graph.dependencies("data.test_data.d (destroy)"), [test]);

    // A data source whose provider configuration is gone from the configuration is still
    // dropped without error, and its (unused) default provider is pruned; a managed resource
    // in the same situation is Terraform's "Provider configuration not present".
    let gone = r#"{"version":4,"serial":1,"lineage":"x","resources":[
      {"mode":"data","type":"other_data","name":"d","provider":"provider[\"registry.terraform.io/hashicorp/other\"].gone",
       "instances":[{"attributes":{}}]},
      {"mode":"managed","type":"other_thing","name":"t","provider":"provider[\"registry.terraform.io/hashicorp/other\"].gone",
       "instances":[{"attributes":{}}]}]}"#;
    let only_data = build(
        &cfg,
        &BuildOptions {
            mode: PlanMode::Destroy,
            ..options(Operation::Apply, gone, Some(r#"{"data.other_data.d": ["delete"]}"#))
        },
    );
    assert!(only_data.diagnostics.is_empty(), "{:?}", only_data.diagnostics);
    assert!(only_data.graph.nodes().iter().all(|n| !n.name.contains("hashicorp/other")), "{}", only_data.graph);
    let with_managed = build(
        &cfg,
        &BuildOptions {
            mode: PlanMode::Destroy,
            ..options(Operation::Apply, gone, Some(r#"{"data.other_data.d": ["delete"], "other_thing.t": ["delete"]}"#))
        },
    );
    let summaries: Vec<String> =
        with_managed.diagnostics.iter().map(|d| format!("{}: {}", d.summary, d.detail)).collect();
    assert_eq!(summaries.len(), 1, "{summaries:?}");
    assert!(
        summaries[0].starts_with("Provider configuration not present: To work with other_thing.t (destroy)"),
        "{summaries:?}"
    );
}

/// `forget` changes (Terraform 1.7+: a `removed` block with `lifecycle { destroy = false }`):
/// `DiffTransformer` (`transform_diff.go`, `case plans.Forget`) adds
/// `NodeForgetResourceInstance` (`addr (forget)`, `node_resource_forget.go`) or, for a deposed
/// object, `NodeForgetDeposedResourceInstanceObject` (`addr (forget deposed KEY)`,
/// `node_resource_destroy_deposed.go`). Both are `GraphNodeDestroyer`s, so:
/// `ReferenceTransformer` connects no reference to or from them; `DestroyEdgeTransformer`
/// orders them by state dependencies like destroys (an update of something that depended on
/// the forgotten resource waits for the forget); the destroy pruning keeps them. A forgotten
/// data source needs no provider (`NodeForgetResourceInstance.ProvidedBy`).
#[test]
fn forget_changes_make_forget_nodes() {
    let cfg = config(
        r#"
        removed {
          from = test_object.a
          lifecycle {
            destroy = false
          }
        }
        resource "test_object" "b" { test_string = "b" }
        "#,
    );
    let test = "provider[\"registry.terraform.io/hashicorp/test\"]";
    let st = r#"{"version":4,"serial":1,"lineage":"x","resources":[
      {"mode":"managed","type":"test_object","name":"a","provider":"provider[\"registry.terraform.io/hashicorp/test\"]",
       "instances":[{"attributes":{}},{"deposed":"0000aaaa","attributes":{}}]},
      {"mode":"managed","type":"test_object","name":"b","provider":"provider[\"registry.terraform.io/hashicorp/test\"]",
       "instances":[{"attributes":{},"dependencies":["test_object.a"]}]},
      {"mode":"data","type":"test_data","name":"d","provider":"provider[\"registry.terraform.io/hashicorp/test\"]",
       "instances":[{"attributes":{}}]}]}"#;
    let changes = r#"{"test_object.a": ["forget"], "test_object.a (deposed 0000aaaa)": ["forget"],
                      "data.test_data.d": ["forget"], "test_object.b": ["update"]}"#;
    let built = build(&cfg, &options(Operation::Apply, st, Some(changes)));
    assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics);
    let g = &built.graph;
    let kind = |n: &str| {
        g.nodes().into_iter().find(|x| x.name == n).map(|x| x.kind).unwrap_or_else(|| panic!("{n} missing:\n{g}"))
    };
    assert_eq!(kind("test_object.a (forget)"), "resource_instance_forget");
    assert_eq!(kind("test_object.a (forget deposed 0000aaaa)"), "resource_instance_forget_deposed");
    assert_eq!(kind("data.test_data.d (forget)"), "resource_instance_forget");
    assert_eq!(g.node(g.find("test_object.a (forget)").unwrap()).go_type(), "*terraform.NodeForgetResourceInstance");
    assert_eq!(
        g.to_string().trim(),
        format!(
            "data.test_data.d (forget)
{test}
{test} (close)
  test_object.b
root
  data.test_data.d (forget)
  {test} (close)
test_object.a (forget deposed 0000aaaa)
  {test}
test_object.a (forget)
  {test}
test_object.b
  test_object.a (forget deposed 0000aaaa)
  test_object.a (forget)
  test_object.b (expand)
test_object.b (expand)
  {test}"
        )
    );
    // Forget nodes are what a destroy plan keeps, too.
    let destroy = build(
        &cfg,
        &BuildOptions {
            mode: PlanMode::Destroy,
            ..options(Operation::Apply, st, Some(r#"{"test_object.a": ["forget"]}"#))
        },
    );
    assert!(destroy.graph.find("test_object.a (forget)").is_some());
    // A deposed object may be forgotten, not updated (Terraform's error text).
    let bad = build(&cfg, &options(Operation::Apply, st, Some(r#"{"test_object.a (deposed 0000aaaa)": ["update"]}"#)));
    assert!(bad.diagnostics.iter().any(|d| d.summary == "Invalid planned change for deposed object"));
    // ["create", "forget"] is an update to DiffTransformer: a creator only.
    let cf = build(&cfg, &options(Operation::Apply, st, Some(r#"{"test_object.b": ["create", "forget"]}"#)));
    assert!(cf.graph.find("test_object.b").is_some() && cf.graph.nodes().iter().all(|n| !n.name.contains("(forget")));
}

/// `removed` blocks leave the plan graph as it is without them: Terraform 1.15 only attaches
/// the block to the orphan's node (`AttachResourceConfigTransformer` calls
/// `AttachResourceConfig(nil, removed)`: no configuration, so no references, and the provider
/// from the state); whether the orphan is destroyed or forgotten is decided when it is planned.
#[test]
fn removed_blocks_do_not_change_the_plan_graph() {
    let st = state(&[("test_object.a", &[], false), ("test_object.b", &["test_object.a"], false)]);
    let with = config(
        r#"
        removed {
          from = test_object.a
          lifecycle {
            destroy = false
          }
        }
        resource "test_object" "b" {}
        "#,
    );
    let without = config(r#"resource "test_object" "b" {}"#);
    let a = build(&with, &options(Operation::Plan, &st, None));
    let b = build(&without, &options(Operation::Plan, &st, None));
    assert_eq!(a.graph.to_string(), b.graph.to_string());
    assert!(a.graph.find("test_object.a (orphan)").is_some(), "{}", a.graph);
}
