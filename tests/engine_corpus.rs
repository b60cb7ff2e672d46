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
//! Last run (338 roots): see the counts this test prints (`cargo test --test engine_corpus --
//! --nocapture`) and the report of the branch that added it.

mod support;

use serde_json::{json, Value};
use std::collections::BTreeMap;
use tfgraph::eval::Type;

/// Errors Terraform reports on these roots too, and why it does.
const TERRAFORM_TOO: &[(&str, &str)] = &[
    // A registry or git module that `terraform init` would have installed: Terraform refuses
    // to plan at all; we plan the rest, with the module's outputs unknown, which can leave a
    // count or for_each unknown.
    ("Invalid count argument", "depends on values known only after apply (resource attributes, or outputs of uninstalled modules)"),
    ("Invalid for_each argument", "depends on values known only after apply (resource attributes, or outputs of uninstalled modules)"),
    // Terragrunt generates these provider configurations at run time (SOURCES.md).
    ("Provider configuration not present", "Terragrunt-generated provider aliases"),
];

/// Roots refused for reasons that are ours: (root, reason).
const GAPS: &[(&str, &str)] = &[];

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
        .map(|d| (d["summary"].as_str().unwrap_or("").to_string(), d["detail"].as_str().unwrap_or("").to_string()))
        .collect()
}

#[test]
fn corpus_roots_plan_apply_and_replan_to_no_changes() {
    let Some((corpus, dirs)) = support::corpus_roots() else { return };
    let started = std::time::Instant::now();
    let mut trees = support::RepoFiles::new(&corpus, support::tf_file);
    let mut converged = 0;
    let mut resources = 0;
    let mut shared: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut ours: Vec<String> = Vec::new();
    let mut gaps_passing: Vec<&str> = Vec::new();
    let mut not_loaded: Vec<String> = Vec::new();
    for dir in &dirs {
        let (files, root) = trees.read_root_files(dir);
        let files = files.clone();
        let loaded = tfgraph::config::load(&files, &tfgraph::LoadOptions { root });
        if loaded.diagnostics.has_errors() {
            not_loaded.push(format!("{dir}: {}", loaded.diagnostics.errors().map(|d| d.summary.clone()).collect::<Vec<_>>().join("; ")));
            continue;
        }
        let vars = variables(&loaded.config);
        let request = json!({"apply": true, "variables": vars});
        let first = tfgraph::engine::api::run(&files, &loaded.config, loaded.diagnostics.clone(), &request);
        let mut errs = errors(&first["diagnostics"]);
        errs.extend(errors(&first["apply"]["diagnostics"]));
        let gap = GAPS.iter().find(|(r, _)| r == dir);
        if !errs.is_empty() {
            let unshared: Vec<&(String, String)> = errs.iter().filter(|(s, _)| !TERRAFORM_TOO.iter().any(|(t, _)| t == s)).collect();
            if unshared.is_empty() {
                for (s, _) in &errs {
                    let reason = TERRAFORM_TOO.iter().find(|(t, _)| t == s).map(|(t, _)| *t).unwrap_or("");
                    let list = shared.entry(reason).or_default();
                    if list.last() != Some(dir) {
                        list.push(dir.clone());
                    }
                }
            } else if gap.is_none() {
                ours.push(format!("{dir}:\n  {}", unshared.iter().map(|(s, d)| format!("{s}: {d}")).collect::<Vec<_>>().join("\n  ")));
            }
            continue;
        }
        let state = first["apply"]["state"].clone();
        let again = tfgraph::engine::api::run(&files, &loaded.config, loaded.diagnostics.clone(), &json!({"variables": vars, "state": state}));
        let changes: Vec<String> = again["changes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["actions"] != json!(["no-op"]) && c["actions"] != json!(["read"]))
            .map(|c| format!("{} {}", c["address"], c["actions"]))
            .collect();
        let again_errs = errors(&again["diagnostics"]);
        if !changes.is_empty() || !again_errs.is_empty() {
            if gap.is_none() {
                ours.push(format!("{dir}: the re-plan is not empty: {changes:?} {again_errs:?}"));
            }
            continue;
        }
        if gap.is_some() {
            gaps_passing.push(dir);
        }
        converged += 1;
        resources += state["resources"].as_array().map(Vec::len).unwrap_or(0);
    }
    eprintln!(
        "{} corpus roots in {:.1?}: {converged} converged ({resources} resources in their states), {} not loaded, refused for reasons Terraform shares:",
        dirs.len(),
        started.elapsed(),
        not_loaded.len()
    );
    for (reason, roots) in &shared {
        eprintln!("  {reason}: {} roots: {}", roots.len(), roots.join(", "));
    }
    for n in &not_loaded {
        eprintln!("  not loaded: {n}");
    }
    assert!(gaps_passing.is_empty(), "listed in GAPS but converging now: {gaps_passing:?}");
    assert!(ours.is_empty(), "{} root(s) refused for reasons that are ours:\n{}", ours.len(), ours.join("\n"));
}
