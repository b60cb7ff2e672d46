#![cfg(not(target_arch = "wasm32"))]
//! Every root of the shared corpus (`../shared/corpus/INDEX.tsv`, real public modules) that
//! loads is planned, applied with the generic mock (and the built-in mock for
//! `hashicorp/mock`), then planned again from the new state, which must show no changes. Each
//! root is loaded with its whole repository's files, as `graph_corpus.rs` does; required
//! variables get a value of their type constraint, as `-var` would give them (`"example"`, `1`,
//! `true`, one-element collections).
//!
//! A root is *refused* when the first plan or the apply reports an error. Refusals Terraform
//! shares are counted by reason ([`TERRAFORM_TOO`]); any other error fails the test, unless the
//! root is listed in [`GAPS`] with why (and a listed root that stops failing fails the test
//! too, so the list stays true).
//!
//! Last run (338 roots, 22 to 55 s in a debug build on a busy 2-core machine): 59 converge
//! (718 resources in their states); 1 does not load (a local module folder missing from the
//! corpus); refused for reasons Terraform shares: 249 "Module not installed" (their registry and
//! git modules are not in the corpus: Terraform wants `terraform init` first; 142 of them plan
//! and apply the rest without an error, the others stop at a count or for_each made unknown by
//! the missing modules' outputs, or at what the sample inputs do), 11
//! Terragrunt-generated provider aliases (cds-snc/notification-terraform), files the corpus
//! leaves out, and 5 roots whose inputs fail in Terraform too ([`TERRAFORM_TOO_ROOTS`]); refused
//! for reasons that are ours: the 11 roots of [`GAPS`] (9 since module outputs are evaluated at their
//! nodes, read or not, as Terraform does: their generic mock objects hold what a real provider
//! would not).

mod support;

use serde_json::{json, Value};
use std::collections::BTreeMap;
use tfgraph::eval::Type;

/// Errors Terraform reports on these roots too: (summary, a part of the detail, why).
const TERRAFORM_TOO: &[(&str, &str, &str)] = &[
    ("Invalid count argument", "", "the count depends on values known only after apply"),
    ("Invalid for_each argument", "", "the for_each depends on values known only after apply"),
    // Terragrunt generates these provider configurations at run time (SOURCES.md).
    ("Provider configuration not present", "", "Terragrunt-generated provider aliases"),
    // The corpus keeps only configuration files: templates and scripts read by templatefile,
    // file or filesha256 are not there, for Terraform either.
    ("Invalid function argument", "no file exists at", "a file the corpus leaves out (templates, scripts)"),
    ("Error in function call", "no such file or directory", "a file the corpus leaves out (templates, scripts)"),
    // The sample values this test gives required variables break a validation rule.
    ("Invalid value for variable", "", "a validation rule rejects the sample value given to a required variable"),
];

/// Why Terraform refuses an error too, if it does.
fn shared_reason(summary: &str, detail: &str) -> Option<&'static str> {
    TERRAFORM_TOO.iter().find(|(s, d, _)| *s == summary && detail.contains(d)).map(|(_, _, why)| *why)
}

/// Roots where Terraform fails too with the inputs this test gives, checked by hand: (root, why).
const TERRAFORM_TOO_ROOTS: &[(&str, &str)] = &[
    ("Azure__terraform-azurerm-aks", "its precondition needs var.prefix or var.cluster_log_analytics_workspace_name, both null by default"),
    ("terraform-aws-modules__terraform-aws-security-group", "var.name defaults to null, and main.tf interpolates and formats it"),
    ("terraform-google-modules__terraform-google-network", "the sample subnets' subnet_flow_logs is \"example\", which a condition needs as a bool"),
    ("terraform-google-modules__terraform-google-kubernetes-engine", "var.regional defaults to true and var.region to null, and cluster.tf interpolates the region"),
    ("terraform-aws-modules__terraform-aws-vpc/examples/issues", "module vpc_issue_46 has database subnets, no private subnets and no database route table: coalescelist of two empty lists fails (\"no non-null arguments\")"),
];

/// Roots refused for reasons that are ours: (root, reason).
const GAPS: &[(&str, &str)] = &[
    ("aws-ia__terraform-aws-vpc_endpoints/examples/minimal", "reads [\"arn\"] of whole aws_vpc_endpoint objects gathered into a local map (resource.aws_vpc_endpoint.x[0]) and passed out through a module output: the schema derivation sees attribute reads on resource references and for-expression iterators, not through locals and outputs"),
    ("kube-hetzner__terraform-hcloud-kube-hetzner", "calls provider::assert::ip, a provider-defined function the generic mock does not offer"),
    ("Azure__terraform-azurerm-aks/examples/api_server_vnet_integration", AKS_LINUX_PROFILE),
    ("Azure__terraform-azurerm-aks/examples/application_gateway_ingress", AKS_LINUX_PROFILE),
    ("Azure__terraform-azurerm-aks/examples/local_dns_config", AKS_LINUX_PROFILE),
    ("Azure__terraform-azurerm-aks/examples/multiple_node_pools", AKS_LINUX_PROFILE),
    ("Azure__terraform-azurerm-aks/examples/uai_and_assign_role_on_subnet", AKS_LINUX_PROFILE),
    ("Azure__terraform-azurerm-aks/examples/with_acr", AKS_LINUX_PROFILE),
    ("terraform-google-modules__terraform-google-network/examples/multi_vpc", GOOGLE_SELF_LINK),
    ("terraform-google-modules__terraform-google-network/examples/private-service-access", GOOGLE_SELF_LINK),
    ("terraform-google-modules__terraform-google-network/test/fixtures/multi_vpc", GOOGLE_SELF_LINK),
];

const AKS_LINUX_PROFILE: &str = "the module's outputs are evaluated at their nodes, as Terraform's walk does, read or not: after the generic mock's apply, azurerm_kubernetes_cluster.main holds a linux_profile block the configuration does not set (admin_username is null), so outputs.tf:119/124 index tls_private_key.ssh[0], which count = 0 leaves empty";
const GOOGLE_SELF_LINK: &str = "the module's outputs are evaluated at their nodes, as Terraform's walk does, read or not: outputs.tf:68 reads self_link of the subnets module's output objects, a read the generic mock's schema derivation does not see through a module output (as aws-ia's minimal above), so the derived google_compute_subnetwork has no self_link";

/// Configuration and variable files (`terraform.tfvars`, `*.auto.tfvars` are read as
/// Terraform reads them).
fn config_file(p: &std::path::Path) -> bool {
    let name = p.file_name().unwrap().to_string_lossy();
    support::tf_file(p) || name.ends_with(".tfvars") || name.ends_with(".tfvars.json")
}

/// A sample value of a type constraint, as a user's `-var` would give one.
fn sample(t: &Type) -> Value {
    match t {
        Type::String | Type::Dynamic => json!("example"),
        Type::Number => json!(1),
        Type::Bool => json!(true),
        Type::List(e) | Type::Set(e) => json!([sample(e)]),
        Type::Map(e) => json!({"key": sample(e)}),
        Type::Tuple(items) => Value::Array(items.iter().map(sample).collect()),
        Type::Object(attrs) => Value::Object(attrs.iter().map(|(k, t)| (k.clone(), sample(t))).collect()),
        _ => json!("example"),
    }
}

/// The type of a constraint's text (`list(object({ a = string }))`).
fn constraint(text: &str) -> Option<Type> {
    let e = tfgraph::hcl::parse_expr(text).ok()?;
    let c = tfgraph::eval::typeexpr::parse(&e, &mut |_| Ok(tfgraph::eval::Value::null(Type::Dynamic))).ok()?;
    Some(c.ty())
}

/// Values for the root's variables that have no default.
fn variables(config: &tfgraph::config::Config) -> BTreeMap<String, Value> {
    config
        .root
        .variables
        .iter()
        .filter(|v| v.default.is_none())
        .map(|v| {
            let t = v.type_expr.as_deref().and_then(constraint).unwrap_or(Type::Dynamic);
            (v.name.clone(), sample(&t))
        })
        .collect()
}

fn errors(v: &Value) -> Vec<(String, String)> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["severity"] == "error")
        .map(|d| {
            let at = d["range"]["filename"]
                .as_str()
                .map(|f| format!(" ({f}:{})", d["range"]["start"]["line"]))
                .unwrap_or_default();
            (d["summary"].as_str().unwrap_or("").to_string(), format!("{}{at}", d["detail"].as_str().unwrap_or("")))
        })
        .collect()
}

/// What became of one root.
enum Outcome {
    NotLoaded(String),
    /// Refused, for these reasons Terraform shares.
    Shared(Vec<String>),
    /// Refused by Terraform until `terraform init` installs its modules; we still plan and
    /// apply the rest: whether that went without an error.
    Uninstalled {
        clean: bool,
        summaries: Vec<String>,
    },
    /// Refused, or not converging, for reasons that are ours.
    Ours(String),
    /// Planned, applied, re-planned to no changes: the resources in its state.
    Converged(usize),
}

/// Plans, applies and re-plans one root.
fn check_root(dir: &str, files: &BTreeMap<String, String>, root: String, verbose: bool) -> Outcome {
    let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root });
    if loaded.diagnostics.has_errors() {
        return Outcome::NotLoaded(
            loaded.diagnostics.errors().map(|d| d.summary.clone()).collect::<Vec<_>>().join("; "),
        );
    }
    let vars = variables(&loaded.config);
    let first = support::session::run(
        files,
        &loaded.config,
        loaded.diagnostics.clone(),
        &json!({"apply": true, "variables": vars}),
    );
    if verbose {
        eprintln!("{dir}: {:#}\n{:#}", first["diagnostics"], first["apply"]["diagnostics"]);
    }
    // A registry or git module `terraform init` would install: Terraform refuses to plan
    // before it is (we plan the rest, its outputs unknown, and only check nothing breaks).
    let mut errs = errors(&first["diagnostics"]);
    errs.extend(errors(&first["apply"]["diagnostics"]));
    if loaded.diagnostics.iter().any(|d| d.summary == "Module not installed") {
        return Outcome::Uninstalled {
            clean: errs.is_empty(),
            summaries: errs.iter().map(|(s, _)| s.clone()).collect(),
        };
    }
    if errs.is_empty() {
        let state = first["apply"]["state"].clone();
        let again = support::session::run(
            files,
            &loaded.config,
            loaded.diagnostics.clone(),
            &json!({"variables": vars, "state": state}),
        );
        let changes: Vec<String> = again["changes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["actions"] != json!(["no-op"]) && c["actions"] != json!(["read"]))
            .map(|c| format!("{} {}", c["address"], c["actions"]))
            .collect();
        let again_errs = errors(&again["diagnostics"]);
        if changes.is_empty() && again_errs.is_empty() {
            return Outcome::Converged(state["resources"].as_array().map(Vec::len).unwrap_or(0));
        }
        if verbose {
            eprintln!("{dir}: the re-plan:\n{}", again["planText"].as_str().unwrap_or(""));
        }
        return Outcome::Ours(format!("the re-plan is not empty: {changes:?} {again_errs:?}"));
    }
    if let Some((_, why)) = TERRAFORM_TOO_ROOTS.iter().find(|(r, _)| *r == dir) {
        return Outcome::Shared(vec![why.to_string()]);
    }
    let unshared: Vec<String> =
        errs.iter().filter(|(s, d)| shared_reason(s, d).is_none()).map(|(s, d)| format!("{s}: {d}")).collect();
    if unshared.is_empty() {
        let mut reasons: Vec<String> = errs.iter().filter_map(|(s, d)| shared_reason(s, d)).map(String::from).collect();
        reasons.dedup();
        return Outcome::Shared(reasons);
    }
    Outcome::Ours(unshared.join("\n  "))
}

#[test]
fn corpus_roots_plan_apply_and_replan_to_no_changes() {
    let Some((corpus, dirs)) = support::corpus_roots() else { return };
    let started = std::time::Instant::now();
    let mut trees = support::RepoFiles::new(&corpus, config_file);
    // TFGRAPH_CORPUS_ONLY=prefix: only those roots, with every error and re-plan printed.
    let only = std::env::var("TFGRAPH_CORPUS_ONLY").ok();
    let (mut converged, mut resources, mut uninstalled, mut uninstalled_clean) = (0, 0, 0, 0);
    let mut shared: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut uninstalled_errors: BTreeMap<String, usize> = BTreeMap::new();
    let (mut ours, mut gaps_failing, mut gaps_passing, mut not_loaded, mut slowest) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for dir in &dirs {
        if only.as_ref().is_some_and(|o| !dir.starts_with(o.as_str())) {
            continue;
        }
        let (files, root) = trees.read_root_files(dir);
        let t = std::time::Instant::now();
        let outcome = check_root(dir, files, root, only.is_some());
        slowest.push((t.elapsed(), dir.as_str()));
        let gap = GAPS.iter().find(|(r, _)| r == dir);
        match (outcome, gap) {
            (Outcome::NotLoaded(why), _) => not_loaded.push(format!("{dir}: {why}")),
            (Outcome::Shared(reasons), _) => {
                for r in reasons {
                    shared.entry(r).or_default().push(dir);
                }
            }
            (Outcome::Uninstalled { clean, summaries }, _) => {
                uninstalled += 1;
                uninstalled_clean += usize::from(clean);
                let mut summaries = summaries;
                summaries.dedup();
                for s in summaries {
                    *uninstalled_errors.entry(s).or_insert(0usize) += 1;
                }
            }
            (Outcome::Ours(_), Some((_, why))) => gaps_failing.push(format!("{dir}: {why}")),
            (Outcome::Ours(what), None) => ours.push(format!("{dir}:\n  {what}")),
            (Outcome::Converged(_), Some(_)) => gaps_passing.push(dir.as_str()),
            (Outcome::Converged(n), None) => {
                converged += 1;
                resources += n;
            }
        }
    }
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    eprintln!(
        "{} corpus roots in {:.1?}: {converged} converged ({resources} resources in their states), {} not loaded, {} refused for our reasons listed in GAPS; refused for reasons Terraform shares:",
        dirs.len(),
        started.elapsed(),
        not_loaded.len(),
        gaps_failing.len()
    );
    eprintln!("  Module not installed (registry and git modules are not in the corpus): {uninstalled} roots ({uninstalled_clean} of them plan and apply the rest without an error)");
    eprintln!("    their errors (roots): {uninstalled_errors:?}");
    for (reason, roots) in &shared {
        eprintln!("  {reason}: {} roots: {}", roots.len(), roots.join(", "));
    }
    for n in not_loaded.iter().chain(&gaps_failing) {
        eprintln!("  {n}");
    }
    eprintln!("slowest: {:?}", &slowest[..slowest.len().min(5)]);
    assert!(gaps_passing.is_empty(), "listed in GAPS but converging now: {gaps_passing:?}");
    assert!(ours.is_empty(), "{} root(s) refused for reasons that are ours:\n{}", ours.len(), ours.join("\n"));
}
