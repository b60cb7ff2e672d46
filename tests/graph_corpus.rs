#![cfg(not(target_arch = "wasm32"))]
//! Every root of the shared corpus (`../shared/corpus/INDEX.tsv`, real public modules) builds a
//! plan graph and a validate graph without error diagnostics, and its DOT, resource-only DOT and
//! static-instances view render. Each root is loaded with its whole repository's files, as
//! `bench/native` does, so local module calls resolve; registry and git modules stay opaque.
//! Skipped, with a message, when the corpus is not there (`TFGRAPH_CORPUS` overrides the path).
//!
//! One documented exception: the `cds-snc__notification-terraform/aws/*` roots use provider
//! aliases that Terragrunt generates at run time (`../shared/corpus/SOURCES.md`), so Terraform
//! itself reports "Provider configuration not present" for every resource using them, and so do
//! we. Those errors are expected, and only for those aliases.

mod support;

use tfgraph::graph::{build, instances, BuildOptions, DotKind, Operation};

/// Terragrunt generates these `aws` aliases for cds-snc/notification-terraform (SOURCES.md).
const TERRAGRUNT_ALIASES: &[&str] = &[
    "core_services",
    "core_services_us_east_1",
    "core_services_us_west_2",
    "core_services_ca_west_1",
    "dns",
    "dns-us-east-1",
];

fn terragrunt_alias(dir: &str, d: &tfgraph::Diagnostic) -> bool {
    dir.starts_with("cds-snc__notification-terraform/aws/")
        && d.summary == "Provider configuration not present"
        && TERRAGRUNT_ALIASES
            .iter()
            .any(|a| d.detail.contains(&format!("provider[\"registry.terraform.io/hashicorp/aws\"].{a} is required")))
}

#[test]
fn corpus_roots_build_plan_graphs_without_errors() {
    let Some((corpus, dirs)) = support::corpus_roots() else { return };
    let mut trees = support::RepoFiles::new(&corpus, support::tf_file);
    let (mut roots, mut nodes, mut edges, mut failures, mut expected) = (0, 0, 0, Vec::new(), 0);
    for dir in &dirs {
        let dir = dir.as_str();
        let (files, root) = trees.read_root_files(dir);
        let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root });
        for operation in [Operation::Plan, Operation::Validate] {
            let built = build(&loaded.config, &BuildOptions { operation, ..Default::default() });
            for d in built.diagnostics.errors() {
                if terragrunt_alias(dir, d) {
                    expected += 1;
                    continue;
                }
                failures.push(format!("{dir} ({operation:?}): {d}"));
            }
            if operation == Operation::Plan {
                roots += 1;
                nodes += built.graph.node_count();
                edges += built.graph.edge_count();
                assert!(built.graph.to_dot(DotKind::Full, true).ends_with("}\n"));
                assert!(built.graph.to_dot(DotKind::Resources, false).ends_with("}\n"));
                let view = instances::expand_static_instances(&built.graph, &loaded.config);
                assert!(view.node_count() >= built.graph.node_count());
                assert!(built.graph.find("root").is_some(), "{dir}: no root node");
            }
        }
    }
    eprintln!(
        "{roots} corpus roots: {nodes} nodes, {edges} edges in their plan graphs; {expected} expected errors for Terragrunt-generated provider aliases"
    );
    assert!(failures.is_empty(), "{} error(s):\n{}", failures.len(), failures.join("\n\n"));
}
