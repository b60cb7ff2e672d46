#![cfg(not(target_arch = "wasm32"))]
//! The public graph API: queries by name, edge reasons, step records and traces, the validate
//! and plan-destroy variants, the static-instances view, and the renderers (DOT checked with
//! Graphviz's `dot -Tsvg` when it is installed).

use std::collections::BTreeMap;
use tfgraph::graph::{build, instances, BuildOptions, Built, DotKind, Operation, Why};

fn load(list: &[(&str, &str)]) -> tfgraph::config::Config {
    let files: BTreeMap<String, String> = list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let loaded = tfgraph::config::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    loaded.config
}

fn plan(list: &[(&str, &str)]) -> Built {
    build(&load(list), &BuildOptions::default())
}

const NET: &str = r#"
variable "cidr" {}

resource "aws_vpc" "main" {
  cidr_block = var.cidr
}

resource "aws_subnet" "a" {
  count      = 2
  vpc_id     = aws_vpc.main.id
  cidr_block = cidrsubnet(var.cidr, 8, count.index)
}

resource "aws_instance" "web" {
  subnet_id              = aws_subnet.a[0].id
  vpc_security_group_ids = [aws_security_group.sg.id]
  depends_on             = [aws_vpc.main]
}

resource "aws_security_group" "sg" {
  vpc_id = aws_vpc.main.id
}

output "ip" {
  value = aws_instance.web.private_ip
}
"#;

#[test]
fn queries_by_name() {
    let b = plan(&[("main.tf", NET)]);
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
    let g = &b.graph;
    assert_eq!(
        g.dependencies("aws_instance.web (expand)"),
        ["aws_security_group.sg (expand)", "aws_subnet.a (expand)"]
    );
    assert_eq!(g.dependents("aws_vpc.main (expand)"), ["aws_security_group.sg (expand)", "aws_subnet.a (expand)"]);
    assert_eq!(
        g.ancestors("output.ip (expand)"),
        [
            "aws_instance.web (expand)",
            "aws_security_group.sg (expand)",
            "aws_subnet.a (expand)",
            "aws_vpc.main (expand)",
            "provider[\"registry.terraform.io/hashicorp/aws\"]",
            "var.cidr",
        ]
    );
    assert_eq!(
        g.descendants("aws_instance.web (expand)"),
        ["output.ip (expand)", "provider[\"registry.terraform.io/hashicorp/aws\"] (close)", "root"]
    );
    assert!(g.dependencies("no such node").is_empty());
    assert!(g.cycles().is_empty());

    let nodes = g.nodes();
    let web = nodes.iter().find(|n| n.name == "aws_instance.web (expand)").unwrap();
    assert_eq!((web.kind, web.address.as_str(), web.module.as_str()), ("resource", "aws_instance.web", ""));
    assert_eq!(web.range.as_ref().unwrap().start.line, 14);
    let root = nodes.iter().find(|n| n.name == "root").unwrap();
    assert_eq!((root.kind, root.address.as_str()), ("root", ""));
}

#[test]
fn edges_say_why_and_keep_every_reason() {
    let b = plan(&[("main.tf", NET)]);
    let g = &b.graph;
    let edges = g.edges();
    let e = edges.iter().find(|e| e.from == "aws_instance.web (expand)" && e.to == "aws_subnet.a (expand)").unwrap();
    match &e.why[..] {
        [Why::Reference { traversal, context, range }] => {
            assert_eq!(
                (traversal.as_str(), context.as_str(), range.start.line, range.start.column),
                ("aws_subnet.a[0].id", "subnet_id", 15, 28)
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        g.explain("aws_instance.web (expand)", "aws_security_group.sg (expand)"),
        ["aws_instance.web refers to aws_security_group.sg (aws_security_group.sg.id) in vpc_security_group_ids at main.tf:16:29"]
    );
    // web -> vpc (depends_on) is implied by web -> sg -> vpc: reduced away, reasons kept.
    let implied = g.implied_edges();
    let dep =
        implied.iter().find(|e| e.from == "aws_instance.web (expand)" && e.to == "aws_vpc.main (expand)").unwrap();
    assert_eq!(dep.why.iter().map(Why::kind).collect::<Vec<_>>(), ["depends_on"]);
    // Unreduced, the provider edge of a resource that also refers has both kinds of reason apart.
    let full = build(&load(&[("main.tf", NET)]), &BuildOptions { reduce: false, ..Default::default() });
    let kinds: Vec<&str> = full
        .graph
        .edges()
        .iter()
        .filter(|e| e.from == "aws_instance.web (expand)")
        .flat_map(|e| e.why.iter().map(Why::kind))
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == "reference").count(), 2);
    assert!(kinds.contains(&"depends_on") && kinds.contains(&"provider"), "{kinds:?}");
    // JSON shape for the bindings.
    let json = serde_json::to_value(&e.why).unwrap();
    assert_eq!(json[0]["kind"], "reference");
    assert_eq!(json[0]["range"]["filename"], "main.tf");
}

#[test]
fn several_reasons_on_one_edge_first_first() {
    let b = build(
        &load(&[
            ("main.tf", "module \"m\" {\n  source = \"./m\"\n}\n"),
            ("m/main.tf", "variable \"v\" {\n  default = 1\n}\nlocals {\n  a = var.v\n}\noutput \"o\" {\n  value = local.a\n  depends_on = [local.a]\n}\n"),
        ]),
        &BuildOptions { reduce: false, ..Default::default() },
    );
    let e = b
        .graph
        .edges()
        .into_iter()
        .find(|e| e.from == "module.m.output.o (expand)" && e.to == "module.m.local.a (expand)")
        .unwrap();
    assert_eq!(e.why.iter().map(Why::kind).collect::<Vec<_>>(), ["reference", "depends_on"]);
}

#[test]
fn steps_are_recorded_in_terraform_order_and_traced_on_request() {
    let config = load(&[("main.tf", NET)]);
    let b = build(&config, &BuildOptions { trace_steps: true, ..Default::default() });
    let names: Vec<&str> = b.steps.iter().map(|s| s.name.as_str()).collect();
    // One record per step of the builder, in its order.
    let listed: Vec<&str> =
        tfgraph::graph::builders::plan::steps(&BuildOptions::default()).iter().map(|s| s.transform.name()).collect();
    assert_eq!(names, listed);
    // Terraform 1.15's relative order of the configuration-driven steps (the state-driven ones
    // sit between them; tests/graph_destroy.rs and the apply fixtures of tests/graph_fixtures.rs cover those).
    let order = [
        "ConfigTransformer",
        "RootVariableTransformer",
        "ModuleVariableTransformer",
        "variableValidationTransformer",
        "LocalTransformer",
        "OutputTransformer",
        "checkTransformer",
        "ProviderConfigTransformer",
        "MissingProviderTransformer",
        "ProviderTransformer",
        "PruneProviderTransformer",
        "ModuleExpansionTransformer",
        "ReferenceTransformer",
        "ephemeralResourceCloseTransformer",
        "CloseProviderTransformer",
        "CloseRootModuleTransformer",
        "TransitiveReductionTransformer",
    ];
    let positions: Vec<usize> =
        order.iter().map(|n| names.iter().position(|m| m == n).unwrap_or_else(|| panic!("{n} missing"))).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{names:?}");
    assert_eq!(names.first(), Some(&"ConfigTransformer"));
    assert_eq!(names.last(), Some(&"TransitiveReductionTransformer"));
    let first = &b.steps[0];
    assert_eq!((first.nodes, first.edges, first.changed), (4, 0, true));
    assert_eq!(
        first.text.as_deref(),
        Some(
            "aws_instance.web (expand)\naws_security_group.sg (expand)\naws_subnet.a (expand)\naws_vpc.main (expand)\n"
        )
    );
    assert!(!b.steps[2].changed, "no module variables here");
    assert_eq!(b.steps.last().unwrap().text.as_deref(), Some(b.graph.to_string().as_str()));
    assert!(b.steps.iter().all(|s| !s.reason.is_empty()));
    let quiet = build(&config, &BuildOptions::default());
    assert!(quiet.steps.iter().all(|s| s.text.is_none()));
}

#[test]
fn validate_graph_names_resources_without_expand() {
    let b = build(&load(&[("main.tf", NET)]), &BuildOptions { operation: Operation::Validate, ..Default::default() });
    assert!(b.diagnostics.is_empty());
    assert_eq!(b.graph.dependencies("aws_instance.web"), ["aws_security_group.sg", "aws_subnet.a"]);
    assert!(b.graph.find("aws_instance.web (expand)").is_none());
    assert!(b.graph.find("output.ip (expand)").is_some());
}

#[test]
fn check_blocks_get_report_nodes_only_in_plan() {
    let tf = r#"
resource "aws_s3_bucket" "b" {}
check "health" {
  data "http" "site" {
    url = aws_s3_bucket.b.website_endpoint
  }
  assert {
    condition     = data.http.site.status_code == 200
    error_message = "down"
  }
}
"#;
    let config = load(&[("main.tf", tf)]);
    let p = build(&config, &BuildOptions::default());
    assert_eq!(p.graph.dependencies("check.health (expand)"), ["data.http.site (expand)"]);
    assert_eq!(
        p.graph.dependencies("data.http.site (expand)"),
        ["aws_s3_bucket.b (expand)", "check.health (report)", "provider[\"registry.terraform.io/hashicorp/http\"]"]
    );
    let v = build(&config, &BuildOptions { operation: Operation::Validate, ..Default::default() });
    assert!(v.graph.find("check.health (report)").is_none());
    assert!(v.graph.find("check.health (expand)").is_some());
    let d = build(&config, &BuildOptions { operation: Operation::Destroy, ..Default::default() });
    assert!(d.graph.find("check.health (expand)").is_none());
}

#[test]
fn ephemeral_resources_are_closed_after_their_last_user() {
    let tf = r#"
ephemeral "random_password" "db" {
  length = 16
}
resource "aws_db_instance" "db" {
  password_wo = ephemeral.random_password.db.result
}
output "done" {
  value = aws_db_instance.db.id
}
"#;
    let config = load(&[("main.tf", tf)]);
    let b = build(&config, &BuildOptions::default());
    assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
    // The last referrer is the output (nothing that refers depends on it).
    assert_eq!(b.graph.dependencies("ephemeral.random_password.db (close)"), ["output.done (expand)"]);
    assert!(b
        .graph
        .dependencies("provider[\"registry.terraform.io/hashicorp/random\"] (close)")
        .contains(&"ephemeral.random_password.db (close)".to_string()));
    let v = build(&config, &BuildOptions { operation: Operation::Validate, ..Default::default() });
    assert!(v.graph.find("ephemeral.random_password.db (close)").is_none());
}

#[test]
fn destroy_plan_without_state_has_no_resource_blocks_and_root_outputs_refer_to_nothing() {
    let b = build(&load(&[("main.tf", NET)]), &BuildOptions { operation: Operation::Destroy, ..Default::default() });
    assert!(b.graph.find("aws_instance.web (expand)").is_none());
    assert!(b.graph.dependencies("output.ip (expand)").is_empty());
    // With nothing to destroy, pruning leaves the root output (tests/graph_destroy.rs has the rest).
    assert_eq!(b.graph.to_string(), "output.ip (expand)\nroot\n  output.ip (expand)\n");
}

#[test]
fn static_instances_view() {
    let config = load(&[("main.tf", NET)]);
    let b = build(&config, &BuildOptions::default());
    let view = instances::expand_static_instances(&b.graph, &config);
    // The plan graph itself is unchanged.
    assert!(b.graph.find("aws_subnet.a[0]").is_none());
    assert_eq!(view.dependencies("aws_subnet.a[0]"), ["aws_subnet.a (expand)"]);
    assert_eq!(view.dependencies("aws_subnet.a[1]"), ["aws_subnet.a (expand)"]);
    // `aws_subnet.a[0].id` reaches only instance 0; the whole-resource reference to the
    // security group reaches its single instance.
    assert_eq!(view.dependencies("aws_instance.web (expand)"), ["aws_security_group.sg", "aws_subnet.a[0]"]);
    assert_eq!(view.dependencies("aws_instance.web"), ["aws_instance.web (expand)"]);
    assert_eq!(view.dependencies("output.ip (expand)"), ["aws_instance.web"]);
    // A count that depends on a variable stays (expand) only.
    let dynamic = load(&[("main.tf", "variable \"n\" {}\nresource \"a_b\" \"c\" {\n  count = var.n\n}\n")]);
    let d = build(&dynamic, &BuildOptions::default());
    let v = instances::expand_static_instances(&d.graph, &dynamic);
    assert_eq!(v.node_count(), d.graph.node_count());
}

#[test]
fn renderers() {
    let b = plan(&[("main.tf", NET)]);
    let dot = b.graph.to_dot(DotKind::Full, false);
    assert!(
        dot.contains("\"[root] aws_instance.web (expand)\" [label = \"aws_instance.web\", shape = \"box\"]"),
        "{dot}"
    );
    assert!(dot.contains("\"[root] var.cidr\" [label = \"var.cidr\", shape = \"note\"]"));
    assert!(!dot.contains("\"[root] output.ip (expand)\" ["), "outputs are not DOT nodes in the plan graph");
    let resources = b.graph.to_dot(DotKind::Resources, false);
    assert!(resources.contains("  \"aws_instance.web\" -> \"aws_security_group.sg\";\n"), "{resources}");
    assert!(resources.contains("  \"aws_instance.web\" -> \"aws_subnet.a\";\n"));
    assert!(!resources.contains("\"aws_instance.web\" -> \"aws_vpc.main\""), "reduced");
    let mermaid = b.graph.to_mermaid(false);
    assert!(mermaid.starts_with("flowchart LR\n"));
    assert!(b.graph.to_resource_mermaid().contains("aws_instance.web --> aws_security_group.sg"));
    assert!(b
        .graph
        .string_with_types()
        .contains("aws_instance.web (expand) - *terraform.nodeExpandPlannableResource\n"));
}

/// Every DOT we write is accepted by Graphviz (`dot -Tsvg`), cycles included.
#[test]
fn dot_output_is_accepted_by_graphviz() {
    if std::process::Command::new("dot").arg("-V").output().is_err() {
        eprintln!("skipped: graphviz `dot` is not installed");
        return;
    }
    let cyclic = "locals {\n  a = local.b\n  b = local.a\n}\nresource \"x_y\" \"p\" {\n  v = x_y.q.id\n}\nresource \"x_y\" \"q\" {\n  v = x_y.p.id\n}\n";
    let modules: &[(&str, &str)] = &[
        ("main.tf", "provider \"aws\" {\n  alias = \"w\"\n}\nmodule \"m\" {\n  source = \"./m\"\n  providers = { aws = aws.w }\n}\n"),
        ("m/main.tf", "resource \"aws_instance\" \"i\" {}\ndata \"aws_ami\" \"u\" {}\noutput \"o\" {\n  value = aws_instance.i.id\n}\n"),
    ];
    for b in [plan(&[("main.tf", NET)]), plan(&[("main.tf", cyclic)]), plan(modules)] {
        for (what, dot) in [
            ("full", b.graph.to_dot(DotKind::Full, false)),
            ("cycles", b.graph.to_dot(DotKind::Full, true)),
            ("resources", b.graph.to_dot(DotKind::Resources, false)),
        ] {
            use std::io::Write;
            let mut child = std::process::Command::new("dot")
                .arg("-Tsvg")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(dot.as_bytes()).unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "{what}: {}\n{dot}", String::from_utf8_lossy(&out.stderr));
            assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"), "{what}");
        }
    }
}

#[test]
fn implied_providers_from_type_prefixes() {
    let b = plan(&[(
        "main.tf",
        "resource \"terraform_data\" \"d\" {}\nresource \"google_beta_thing\" \"g\" {}\nterraform {\n  required_providers {\n    google = {\n      source = \"hashicorp/google-beta\"\n    }\n  }\n}\n",
    )]);
    assert_eq!(b.graph.dependencies("terraform_data.d (expand)"), ["provider[\"terraform.io/builtin/terraform\"]"]);
    // `google_beta_thing` implies the local name `google`, mapped by required_providers.
    assert_eq!(
        b.graph.dependencies("google_beta_thing.g (expand)"),
        ["provider[\"registry.terraform.io/hashicorp/google-beta\"]"]
    );
}

#[test]
fn static_instances_stop_at_counted_modules() {
    let config = load(&[
        (
            "main.tf",
            "module \"one\" {\n  source = \"./m\"\n}\nmodule \"many\" {\n  source = \"./m\"\n  count  = 2\n}\n",
        ),
        ("m/main.tf", "resource \"a_b\" \"c\" {\n  count = 2\n}\n"),
    ]);
    let b = build(&config, &BuildOptions::default());
    let v = instances::expand_static_instances(&b.graph, &config);
    assert!(v.find("module.one.a_b.c[1]").is_some());
    assert!(v.find("module.many.a_b.c[0]").is_none());
}

/// A module's own `provider` block and a configuration passed in under its name:
/// `ProviderConfigTransformer.addProxyProviders` (`internal/terraform/transform_provider.go`)
/// replaces the block with a proxy to the caller's configuration only when the block is empty
/// (`proxiable`); a configured block stays, and is what the module's resources use. (Terraform
/// never builds that second graph: loading rejects the configuration with "Cannot override
/// provider configuration", tests/config_diagnostics.rs. Here the graph is built anyway.)
#[test]
fn passed_in_provider_replaces_only_an_empty_module_block() {
    let main = "provider \"mock\" {\n  alias = \"x\"\n  label = \"root-x\"\n}\nmodule \"child\" {\n  source = \"./child\"\n  providers = {\n    mock = mock.x\n  }\n}\n";
    let child = |block: &str| format!("{block}\nresource \"mock_resource\" \"c\" {{\n  name = \"c\"\n}}\n");
    let res = "module.child.mock_resource.c (expand)";
    let root_x = "provider[\"registry.terraform.io/hashicorp/mock\"].x";
    let own = "module.child.provider[\"registry.terraform.io/hashicorp/mock\"]";

    let empty = plan(&[("main.tf", main), ("child/main.tf", &child("provider \"mock\" {}"))]);
    assert!(empty.graph.dependencies(res).contains(&root_x.to_string()), "{}", empty.graph);
    assert!(empty.graph.find(own).is_none(), "the empty block is replaced:\n{}", empty.graph);

    let files: BTreeMap<String, String> = [
        ("main.tf".to_string(), main.to_string()),
        ("child/main.tf".to_string(), child("provider \"mock\" {\n  label = \"child\"\n}")),
    ]
    .into();
    let loaded = tfgraph::config::load(&files, &Default::default());
    assert_eq!(
        loaded.diagnostics.iter().map(|d| d.summary.as_str()).collect::<Vec<_>>(),
        ["Cannot override provider configuration", "Reference to undefined provider"]
    );
    let configured = build(&loaded.config, &BuildOptions::default());
    assert!(configured.graph.dependencies(res).contains(&own.to_string()), "{}", configured.graph);
    assert!(configured.graph.find(root_x).is_none(), "the unused root configuration is pruned:\n{}", configured.graph);
}

/// A data source read deferred to apply by `depends_on` (the plan says `read`, reason
/// `read_because_dependency_pending`) is an instance node of the apply graph
/// (`DiffTransformer`: every action but delete/forget/no-op makes a creator), ordered after the
/// resource it depends on through the reference edges (see src/graph/plan.rs on why the
/// deferral itself is decided by the plan walk).
#[test]
fn deferred_data_read_is_ordered_in_the_apply_graph() {
    let cfg = load(&[(
        "main.tf",
        "resource \"test_object\" \"a\" {}\ndata \"test_data\" \"d\" {\n  depends_on = [test_object.a]\n}\nresource \"test_object\" \"b\" {\n  test_string = data.test_data.d.id\n}\n",
    )]);
    let (changes, d) = tfgraph::plans::parse_changes(
        r#"{"test_object.a": ["create"], "data.test_data.d": ["read"], "test_object.b": ["create"]}"#,
    );
    assert!(d.is_empty(), "{d:?}");
    let built =
        build(&cfg, &BuildOptions { operation: Operation::Apply, changes: Some(changes), ..Default::default() });
    assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics);
    let g = &built.graph;
    assert!(g.ancestors("data.test_data.d").contains(&"test_object.a".to_string()), "{g}");
    assert!(g.ancestors("test_object.b").contains(&"data.test_data.d".to_string()), "{g}");
}
