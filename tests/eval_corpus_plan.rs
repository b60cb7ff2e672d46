#![cfg(not(target_arch = "wasm32"))]
//! The corpus roots Terraform can plan offline, planned by Terraform 1.11.4 and by tfgraph with
//! the same mock providers, value by value. Terraform cannot install the corpus' providers
//! here, so the recording serves every provider source a root uses with a mock built from the
//! schemas tfgraph's generic mock derives from the configuration (`record.py` in
//! `tests/fixtures/eval/corpus-plan/`: every written argument optional and of dynamic type,
//! every attribute the configuration reads without writing it computed, nested blocks as
//! lists), so the two mocks agree on what each resource is. Roots with registry or git modules
//! are left out (`terraform init` would have to fetch them), as are roots tfgraph refuses.
//!
//! Each fixture keeps Terraform's `planned_values` and errors, the working directory it ran in
//! (`path.cwd`) and the variables given to required variables. tfgraph plans the same root
//! with the same working directory and variables; every value known in both plans must be
//! equal. Values are compared leaf by leaf, of managed resources only: a leaf unknown in either
//! plan (computed by one of the mocks) is skipped, and so is a string holding what Terraform's
//! mock read for a data source (`MOCKDS…`), since the generic mock reads plausible values.
//! What each plan leaves unknown (`after_unknown`) must be the same too: the two mocks share
//! their schemas, so the same attributes are computed, and the rest is what evaluation leaves
//! unknown (references to computed attributes, partially unknown collections).
//! [`KNOWN`] lists each difference that remains, with its cause; a listed difference that goes
//! away fails the test.
//!
//! `TFGRAPH_RECORD_DIR=dir cargo test --test eval_corpus_plan -- --ignored` writes, per root,
//! what `record.py` needs (the derived schemas and the variables). `TFGRAPH_SHOW_DETAILS=1`
//! prints every error whose detail differs between the two (last run: none).

mod support;

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;
use tfgraph::eval::Type;
use tfgraph::providers::ResourceSchema;

/// (root, value path, cause): differences from Terraform that remain, each explained.
const KNOWN: &[(&str, &str, &str)] = &[];

/// Roots whose plans are not compared: (root, why). Terraform 1.11.4 stops on them for
/// reasons that are not tfgraph's to follow, or the two mocks disagree on what a type is.
const REFUSED: &[(&str, &str)] = &[
    ("Azure__terraform-azurerm-aks/examples/api_server_vnet_integration", SHORT_CIRCUIT),
    ("Azure__terraform-azurerm-aks/examples/application_gateway_ingress", SHORT_CIRCUIT),
    ("Azure__terraform-azurerm-aks/examples/local_dns_config", SHORT_CIRCUIT),
    ("Azure__terraform-azurerm-aks/examples/multiple_node_pools", SHORT_CIRCUIT),
    ("Azure__terraform-azurerm-aks/examples/uai_and_assign_role_on_subnet", SHORT_CIRCUIT),
    ("Azure__terraform-azurerm-aks/examples/with_acr", SHORT_CIRCUIT),
    ("Azure__terraform-azurerm-aks", IGNORE_CHANGES),
    ("terraform-google-modules__terraform-google-kubernetes-engine", IGNORE_CHANGES),
    ("kube-hetzner__terraform-hcloud-kube-hetzner", "calls provider::semvers::compare, a provider-defined function neither mock offers; it also reads templates the corpus leaves out"),
    ("terraform-aws-modules__terraform-aws-rds", WRITE_ONLY),
    ("terraform-aws-modules__terraform-aws-rds/examples/groups", WRITE_ONLY),
    ("terraform-google-modules__terraform-google-network/examples/multi_vpc", WHOLE_OBJECT),
    ("terraform-google-modules__terraform-google-network/examples/private-service-access", WHOLE_OBJECT),
    ("terraform-google-modules__terraform-google-network/test/fixtures/multi_vpc", WHOLE_OBJECT),
];

/// Variable validations written `var.x == null || length(var.x) > 0`: Terraform 1.11's `||`
/// evaluates both sides and fails on the null; since 1.12 (HCL 2.23) logical operators
/// short-circuit, and tfgraph keeps the 1.15 line (`tests/fixtures/eval/expressions.json`).
const SHORT_CIRCUIT: &str =
    "Terraform 1.11.4's || does not short-circuit: its variable validations fail on null defaults; 1.12+ (tfgraph) pass them";
/// Terraform checks `ignore_changes` paths against the schema; the generic mock's derivation
/// does not read them, so an attribute named only there is missing from both mocks' schema
/// (and engine_corpus.rs: Terraform stops on these roots' inputs too).
const IGNORE_CHANGES: &str =
    "an attribute named only in lifecycle.ignore_changes is not in the derived schema, so Terraform's mock refuses the path";
/// The recording's provider framework speaks a plugin protocol without write-only attributes.
const WRITE_ONLY: &str =
    "password_wo takes an ephemeral value; the recording's mock cannot declare a write-only attribute (its protocol predates them)";
/// engine_corpus.rs GAPS: the schema derivation does not follow whole objects through outputs.
const WHOLE_OBJECT: &str =
    "reads self_link of whole google_compute_network objects passed out through a module output: the derived schema (so Terraform's mock) lacks it";

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval/corpus-plan")
}

fn config_file(p: &Path) -> bool {
    let name = p.file_name().unwrap().to_string_lossy();
    support::tf_file(p) || name.ends_with(".tfvars") || name.ends_with(".tfvars.json")
}

/// A sample value of a type constraint, as `engine_corpus.rs` gives required variables.
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

fn constraint(text: &str) -> Option<Type> {
    let e = tfgraph::hcl::parse_expr(text).ok()?;
    let c = tfgraph::eval::typeexpr::parse(&e, &mut |_| Ok(tfgraph::eval::Value::null(Type::Dynamic))).ok()?;
    Some(c.ty())
}

fn variables(config: &tfgraph::config::Config) -> BTreeMap<String, Value> {
    config
        .root
        .variables
        .iter()
        .filter(|v| v.default.is_none())
        .map(|v| (v.name.clone(), sample(&v.type_expr.as_deref().and_then(constraint).unwrap_or(Type::Dynamic))))
        .collect()
}

fn schema_json(s: &ResourceSchema) -> Value {
    let attrs: serde_json::Map<String, Value> = s
        .attributes
        .iter()
        .map(|(k, a)| (k.clone(), json!({"optional": a.optional, "computed": a.computed, "required": a.required})))
        .collect();
    let blocks: serde_json::Map<String, Value> = s.blocks.iter().map(|(k, b)| (k.clone(), schema_json(b))).collect();
    json!({"attributes": attrs, "blocks": blocks})
}

/// A shape as cty's type JSON.
fn shape_json(t: &Type) -> Value {
    match t {
        Type::List(e) => json!(["list", shape_json(e)]),
        Type::Set(e) => json!(["set", shape_json(e)]),
        Type::Map(e) => json!(["map", shape_json(e)]),
        Type::Object(m) => {
            json!(["object", m.iter().map(|(k, t)| (k.clone(), shape_json(t))).collect::<serde_json::Map<_, _>>()])
        }
        Type::Tuple(items) => json!(["tuple", items.iter().map(shape_json).collect::<Vec<_>>()]),
        Type::Number => json!("number"),
        Type::Bool => json!("bool"),
        _ => json!("string"),
    }
}

/// The arguments and nested blocks a provider block writes: its schema for the mock.
fn provider_body_schema(body: &tfgraph::hcl::ast::Body<'_>, into: &mut Value) {
    for item in &body.items {
        match item {
            tfgraph::hcl::ast::Item::Attr(a) => {
                if a.name.name != "alias" && a.name.name != "version" {
                    into["attributes"][a.name.name.to_string()] =
                        json!({"optional": true, "computed": false, "required": false});
                }
            }
            tfgraph::hcl::ast::Item::Block(b) => {
                let name = b.kind.name.to_string();
                if into["blocks"].get(&name).is_none() {
                    into["blocks"][name.clone()] = json!({"attributes": {}, "blocks": {}});
                }
                provider_body_schema(&b.body, &mut into["blocks"][name]);
            }
        }
    }
}

fn every_module(m: &tfgraph::config::model::Module) -> Vec<&tfgraph::config::model::Module> {
    let mut out = vec![m];
    for c in &m.module_calls {
        if let Some(child) = c.module.as_deref() {
            out.extend(every_module(child));
        }
    }
    out
}

/// Error summaries and details of a diagnostics array.
fn errors(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["severity"] == "error")
        .map(|d| format!("{}: {}", d["summary"].as_str().unwrap_or(""), d["detail"].as_str().unwrap_or("")))
        .collect()
}

#[test]
#[ignore]
fn record_inputs() {
    let Some(out) = std::env::var_os("TFGRAPH_RECORD_DIR") else { return };
    let Some((corpus, dirs)) = support::corpus_roots() else { return };
    let mut trees = support::RepoFiles::new(&corpus, config_file);
    for dir in &dirs {
        let (files, root) = trees.read_root_files(dir);
        let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root: root.clone() });
        if loaded.diagnostics.has_errors() {
            continue;
        }
        let vars = variables(&loaded.config);
        let plan =
            support::session::run(files, &loaded.config, loaded.diagnostics.clone(), &json!({"variables": vars}));
        let errs = errors(&plan["diagnostics"]);
        let (schemas, _) = tfgraph::engine::shared::schemas::derive(files, &loaded.config);
        let mut by_source: BTreeMap<String, Value> = BTreeMap::new();
        let blank = || json!({"resources": {}, "data_sources": {}, "provider": {"attributes": {}, "blocks": {}}});
        for (t, s) in &schemas.resources {
            let src = schemas.sources.get(t).cloned().unwrap_or_default();
            by_source.entry(src).or_insert_with(blank)["resources"][t] = schema_json(s);
        }
        for (t, s) in &schemas.data_sources {
            let src = schemas.sources.get(t).cloned().unwrap_or_default();
            by_source.entry(src).or_insert_with(blank)["data_sources"][t] = schema_json(s);
        }
        for m in every_module(&loaded.config.root) {
            for rp in &m.required_providers {
                let entry = by_source.entry(rp.fqn.clone()).or_insert_with(blank);
                if let Some(v) = &rp.version {
                    let mut list = entry["versions"].as_array().cloned().unwrap_or_default();
                    list.push(json!(v));
                    entry["versions"] = Value::Array(list);
                }
            }
            for pc in &m.providers {
                let entry = by_source.entry(pc.fqn.clone()).or_insert_with(blank);
                if let Some(kept) = &pc.body {
                    provider_body_schema(kept.get(), &mut entry["provider"]);
                }
            }
        }
        // The shape of each computed attribute the configuration reads (a list where it
        // indexes it, an object where it reads keys), for the Terraform side's data sources.
        for ((t, a), shape) in &schemas.shapes {
            let src = schemas.sources.get(t).cloned().unwrap_or_default();
            by_source.entry(src).or_insert_with(blank)["shapes"][format!("{t}.{a}")] = shape_json(shape);
        }
        let key = dir.replace('/', "+");
        let d = Path::new(&out).join(&key);
        std::fs::create_dir_all(&d).unwrap();
        let info = json!({"root": dir, "variables": vars, "providers": by_source, "tfgraph_errors": errs});
        std::fs::write(d.join("inputs.json"), serde_json::to_string_pretty(&info).unwrap()).unwrap();
    }
}

/// Every leaf of `v` under `path`: (path, value), unknown leaves (`true` in `unknown`) left out.
fn leaves(v: &Value, unknown: &Value, path: String, out: &mut BTreeMap<String, Value>) {
    if unknown == &Value::Bool(true) {
        return;
    }
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                leaves(x, unknown.get(k).unwrap_or(&Value::Null), format!("{path}.{k}"), out);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, unknown.get(i).unwrap_or(&Value::Null), format!("{path}[{i}]"), out);
            }
        }
        _ => {
            out.insert(path, v.clone());
        }
    }
}

/// Every managed resource instance's known values in a plan's `planned_values` (`unknown`:
/// each address's `after_unknown`).
fn planned(pv: &Value, unknown: &BTreeMap<String, Value>, out: &mut BTreeMap<String, Value>) {
    for r in pv["resources"].as_array().into_iter().flatten() {
        if r["mode"] != "managed" {
            continue;
        }
        let addr = r["address"].as_str().unwrap_or("").to_string();
        leaves(&r["values"], unknown.get(&addr).unwrap_or(&Value::Null), addr, out);
    }
    for c in pv["child_modules"].as_array().into_iter().flatten() {
        planned(c, unknown, out);
    }
}

/// Every managed resource instance's address in `planned_values`.
fn addresses(pv: &Value, out: &mut Vec<String>) {
    for r in pv["resources"].as_array().into_iter().flatten().filter(|r| r["mode"] == "managed") {
        out.push(r["address"].as_str().unwrap_or("").to_string());
    }
    for c in pv["child_modules"].as_array().into_iter().flatten() {
        addresses(c, out);
    }
}

/// `after_unknown` of each resource change, by address.
fn unknowns(plan: &Value) -> BTreeMap<String, Value> {
    plan["resource_changes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| (c["address"].as_str().unwrap_or("").to_string(), c["change"]["after_unknown"].clone()))
        .collect()
}

#[test]
fn corpus_roots_plan_the_values_terraform_plans() {
    let Some((corpus, _)) = support::corpus_roots() else { return };
    let Ok(entries) = std::fs::read_dir(fixtures()) else { return };
    let mut names: Vec<_> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
    names.sort();
    let mut trees = support::RepoFiles::new(&corpus, config_file);
    let (mut compared, mut differences, mut summary) = (0usize, Vec::new(), Vec::new());
    let mut known_seen = 0usize;
    let mut refused = Vec::new();
    let mut unknown_compared = 0usize;
    for path in names {
        let rec: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let dir = rec["root"].as_str().unwrap();
        let (files, root) = trees.read_root_files(dir);
        let mut loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root });
        loaded.config.cwd = rec["cwd"].as_str().map(String::from);
        let plan = support::session::run(
            files,
            &loaded.config,
            loaded.diagnostics.clone(),
            &json!({"variables": rec["variables"]}),
        );
        let ours_errs = errors(&plan["diagnostics"]);
        let theirs_errs: Vec<String> =
            rec["errors"].as_array().into_iter().flatten().map(|e| e.as_str().unwrap().to_string()).collect();
        // The errors' summaries, as sets: the two walks report them in different orders.
        let summaries = |errs: &[String]| -> std::collections::BTreeSet<String> {
            errs.iter().map(|e| e.split(':').next().unwrap().to_string()).collect()
        };
        if let Some((_, why)) = REFUSED.iter().find(|(r, _)| *r == dir) {
            refused.push(format!("{dir}: {why}"));
            continue;
        }
        if summaries(&ours_errs) != summaries(&theirs_errs) {
            differences.push(format!("{dir}: errors {ours_errs:?}, Terraform {theirs_errs:?}"));
            continue;
        }
        let mut theirs = BTreeMap::new();
        // Root outputs Terraform knows (it leaves `value` out of an unknown one).
        for (name, o) in rec["planned_values"]["outputs"].as_object().into_iter().flatten() {
            if let Some(v) = o.get("value") {
                leaves(v, &Value::Null, format!("output.{name}"), &mut theirs);
            }
        }
        let their_unknown: BTreeMap<String, Value> =
            rec["unknown"].as_object().into_iter().flatten().map(|(k, v)| (k.clone(), v.clone())).collect();
        planned(&rec["planned_values"]["root_module"], &their_unknown, &mut theirs);
        let mut ours = BTreeMap::new();
        for (name, o) in plan["plan"]["planned_values"]["outputs"].as_object().into_iter().flatten() {
            if let Some(v) = o.get("value") {
                leaves(v, &Value::Null, format!("output.{name}"), &mut ours);
            }
        }
        planned(&plan["plan"]["planned_values"]["root_module"], &unknowns(&plan["plan"]), &mut ours);
        if std::env::var_os("TFGRAPH_SHOW_DETAILS").is_some() {
            let strip = |e: &String| e.rsplit_once(" (").map(|(a, _)| a.to_string()).unwrap_or(e.clone());
            let a: std::collections::BTreeSet<String> = ours_errs.iter().map(strip).collect();
            let b: std::collections::BTreeSet<String> = theirs_errs.iter().map(strip).collect();
            for x in a.symmetric_difference(&b) {
                eprintln!("DETAIL {dir}: {} {x}", if a.contains(x) { "ours" } else { "theirs" });
            }
        }
        if !theirs_errs.is_empty() {
            // Terraform saves no plan that has errors: the same errors are all there is to compare.
            summary.push(format!("{dir}: the same errors ({})", theirs_errs.len()));
            continue;
        }
        // The same managed instances.
        let (mut ours_at, mut theirs_at) = (Vec::new(), Vec::new());
        addresses(&plan["plan"]["planned_values"]["root_module"], &mut ours_at);
        addresses(&rec["planned_values"]["root_module"], &mut theirs_at);
        ours_at.sort();
        theirs_at.sort();
        if ours_at != theirs_at {
            differences.push(format!("{dir}: instances {ours_at:?}, Terraform {theirs_at:?}"));
            continue;
        }
        let mut n = 0;
        for (k, v) in &theirs {
            let Some(o) = ours.get(k) else { continue };
            // What Terraform's mock read for a data source (`MOCKDS`), and what derives from
            // it: the generic mock reads other values.
            if v.as_str().is_some_and(|s| s.contains("MOCKDS")) {
                continue;
            }
            n += 1;
            if o != v {
                let known = KNOWN.iter().any(|(r, p, _)| *r == dir && p == k);
                if known {
                    known_seen += 1;
                } else {
                    differences.push(format!("{dir}: {k} = {o} (Terraform: {v})"));
                }
            }
        }
        // What is unknown: the same schema, so the same computed attributes; the rest is what
        // evaluation leaves unknown (a reference to a computed attribute, partially unknown
        // collections).
        {
            let ours_unknown = unknowns(&plan["plan"]);
            for (addr, u) in &their_unknown {
                let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
                leaves(u, &Value::Null, addr.clone(), &mut a);
                leaves(ours_unknown.get(addr).unwrap_or(&Value::Null), &Value::Null, addr.clone(), &mut b);
                let a: std::collections::BTreeSet<_> =
                    a.into_iter().filter(|(_, v)| v == &json!(true)).map(|(k, _)| k).collect();
                let b: std::collections::BTreeSet<_> =
                    b.into_iter().filter(|(_, v)| v == &json!(true)).map(|(k, _)| k).collect();
                unknown_compared += a.len();
                for x in a.symmetric_difference(&b) {
                    let side = if a.contains(x) { "Terraform's only" } else { "ours only" };
                    differences.push(format!("{dir}: {x} unknown in {side}"));
                }
            }
        }
        compared += n;
        summary.push(format!("{dir}: {n} values"));
    }
    eprintln!("{}", summary.join("\n"));
    eprintln!("compared {compared} values and {unknown_compared} unknown ones; not compared:\n{}", refused.join("\n"));
    assert_eq!(known_seen, KNOWN.len(), "a difference listed in KNOWN went away");
    assert!(differences.is_empty(), "{} differences:\n{}", differences.len(), differences.join("\n"));
}
