#![cfg(not(target_arch = "wasm32"))]
//! The corpus roots' values as Terraform computes them: every root module's variables (given or
//! default, converted to their type constraints), and the locals and outputs that need nothing
//! but variables and such locals. Terraform plans none of the corpus roots offline (their
//! providers cannot be installed here; one root has no resources and only echoes a variable),
//! but `terraform console` evaluates variables and locals without providers: the recording
//! keeps, of each root module, its variables and those locals (outputs written as locals
//! `zzout_NAME`) and asks `terraform console` (1.11.4) for each
//! (`tests/fixtures/eval/corpus-console/`, with the recipe: `record.py`). tfgraph evaluates the
//! same names in the whole root (with the same values for required variables, [`sample`]) and
//! must print each as the console does. Last recording: 296 roots, 5,264 values (4,354
//! variables, 695 locals, 215 outputs), all equal.
//!
//! Left out, as the recipe leaves them out: locals that read files (the corpus keeps only
//! configuration), `path.cwd` / `abspath` (the recording's folder is not the corpus'), clocks
//! and random values (`timestamp`, `uuid`, `bcrypt`), provider-defined functions, locals that
//! tfgraph reports an error for (`eval_corpus.rs` checks those against Terraform's errors), and
//! every local that depends on one left out. [`KNOWN`] lists each remaining difference with its
//! cause; a listed difference that goes away fails the test, so the list stays true.
//!
//! `cargo test --test eval_corpus_values -- --ignored` with `TFGRAPH_RECORD_DIR` set writes the
//! folders `record.py` runs `terraform console` in; `TFGRAPH_SHOW_DROPPED=1` prints why locals
//! tfgraph evaluates with an error or to an unknown value are left out.

mod support;

use serde_json::{json, Value as Json};
use std::collections::{BTreeMap, BTreeSet};
use tfgraph::eval::functions::Registry;
use tfgraph::eval::module_scope::{Inputs, ModuleScope};
use tfgraph::eval::{render, Type};

/// (root, `local.x` / `var.x` / `output.x`, cause): differences from Terraform that remain,
/// each explained.
const KNOWN: &[(&str, &str, &str)] = &[];

/// Text in a local's expression that keeps it out of the comparison (see the module doc).
const LEFT_OUT: &[&str] = &[
    "path.cwd",
    "abspath(",
    "file(",
    "fileexists(",
    "fileset(",
    "filebase64",
    "filemd5(",
    "filesha",
    "templatefile(",
    "timestamp(",
    "uuid(",
    "bcrypt(",
    "provider::",
];

/// A sample value of a type constraint, as a user's `-var` would give one (as `engine_corpus.rs`).
fn sample(t: &Type) -> Json {
    match t {
        Type::String | Type::Dynamic => json!("example"),
        Type::Number => json!(1),
        Type::Bool => json!(true),
        Type::List(e) | Type::Set(e) => json!([sample(e)]),
        Type::Map(e) => json!({"key": sample(e)}),
        Type::Tuple(items) => Json::Array(items.iter().map(sample).collect()),
        Type::Object(attrs) => Json::Object(attrs.iter().map(|(k, t)| (k.clone(), sample(t))).collect()),
        _ => json!("example"),
    }
}

fn constraint(text: &str) -> Option<Type> {
    let e = tfgraph::hcl::parse_expr(text).ok()?;
    let c = tfgraph::eval::typeexpr::parse(&e, &mut |_| Ok(tfgraph::eval::Value::null(Type::Dynamic))).ok()?;
    Some(c.ty())
}

/// What one root's comparison needs: its loaded config and required variables' values.
struct Root {
    config: tfgraph::config::Config,
    variables: BTreeMap<String, Json>,
}

fn load_root(trees: &mut support::RepoFiles, dir: &str) -> (Root, String) {
    let (files, root) = trees.read_root_files(dir);
    let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root: root.clone() });
    let variables = loaded
        .config
        .root
        .variables
        .iter()
        .filter(|v| v.default.is_none())
        .map(|v| (v.name.clone(), sample(&v.type_expr.as_deref().and_then(constraint).unwrap_or(Type::Dynamic))))
        .collect();
    (Root { config: loaded.config, variables }, root)
}

/// The variables, locals and outputs of the root that the console can evaluate as written
/// (`local.x`, `var.x`, `output.x`), and tfgraph's text for each.
fn comparable(files: &BTreeMap<String, String>, base: &str, root: &Root) -> BTreeMap<String, String> {
    let funcs = Registry::builtin();
    let file_source = tfgraph::eval::MapFilesystem(files);
    let base_dir = if base.is_empty() { "." } else { base };
    let inputs = Inputs { base_dir, ..Inputs::new(&root.variables, &file_source, &funcs) };
    let scope = ModuleScope::root(&root.config, &inputs, &[]);
    let module = &root.config.root;
    let declared: BTreeSet<&str> = module.locals.iter().map(|l| l.name.as_str()).collect();
    // A local is kept when its text is comparable, it references only variables and kept
    // locals, and tfgraph evaluates it without an error to a wholly known value.
    let mut kept: BTreeMap<String, String> = BTreeMap::new();
    let mut dropped: BTreeSet<String> = BTreeSet::new();
    let mut changed = true;
    while changed {
        changed = false;
        for local in &module.locals {
            if kept.contains_key(&local.name) || dropped.contains(&local.name) {
                continue;
            }
            let src = &local.expr.source;
            let mut ready = true;
            let mut ok = local.expr.tree.is_some() && !LEFT_OUT.iter().any(|t| src.contains(t));
            for r in &local.expr.references {
                match r.kind {
                    "variable" => {}
                    "local" => {
                        let name = r.subject.to_string();
                        let name = name.trim_start_matches("local.");
                        if dropped.contains(name) || !declared.contains(name) {
                            ok = false;
                        } else if !kept.contains_key(name) {
                            ready = false;
                        }
                    }
                    _ => ok = false,
                }
            }
            if !ok {
                dropped.insert(local.name.clone());
                changed = true;
                continue;
            }
            if !ready {
                continue;
            }
            let before = scope.diagnostics.borrow().errors().count();
            match scope.local(&local.name) {
                Ok(v) if v.is_wholly_known() && scope.diagnostics.borrow().errors().count() == before => {
                    kept.insert(local.name.clone(), render::console(&v));
                }
                other => {
                    if std::env::var_os("TFGRAPH_SHOW_DROPPED").is_some() {
                        let errs: Vec<String> =
                            scope.diagnostics.borrow().errors().skip(before).map(|d| d.detail.clone()).collect();
                        eprintln!(
                            "dropped local.{}: known={:?} {errs:?}",
                            local.name,
                            other.as_ref().map(|v| v.is_wholly_known())
                        );
                    }
                    dropped.insert(local.name.clone());
                }
            }
            changed = true;
        }
    }
    let mut out: BTreeMap<String, String> = kept.iter().map(|(k, v)| (format!("local.{k}"), v.clone())).collect();
    // Every variable, as the console reads it: given or default, converted to its type
    // constraint (optional attributes' defaults filled in).
    for var in &module.variables {
        let before = scope.diagnostics.borrow().errors().count();
        if let Ok(v) = scope.var(&var.name) {
            if v.is_wholly_known() && scope.diagnostics.borrow().errors().count() == before {
                out.insert(format!("var.{}", var.name), render::console(&v));
            }
        }
    }
    // Outputs that read only variables and kept locals (not sensitive ones: the console reads
    // them as locals, without the output's mark).
    for output in &module.outputs {
        let src = &output.value.source;
        let ok = !output.sensitive
            && output.depends_on.is_empty()
            && output.preconditions.is_empty()
            && output.value.tree.is_some()
            && !LEFT_OUT.iter().any(|t| src.contains(t))
            && output.value.references.iter().all(|r| match r.kind {
                "variable" => true,
                "local" => kept.contains_key(r.subject.to_string().trim_start_matches("local.")),
                _ => false,
            });
        if !ok {
            continue;
        }
        let before = scope.diagnostics.borrow().errors().count();
        match scope.output(&output.name) {
            Some(v) if v.is_wholly_known() && scope.diagnostics.borrow().errors().count() == before => {
                out.insert(format!("output.{}", output.name), render::console(&v));
            }
            _ => {}
        }
    }
    out
}

/// What the console is asked for an entry: outputs are written as locals named `zzout_NAME`.
fn console_expr(key: &str) -> String {
    match key.strip_prefix("output.") {
        Some(name) => format!("local.zzout_{name}"),
        None => key.to_string(),
    }
}

fn fixture() -> Json {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/corpus-console/values.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn corpus_locals_print_as_terraform_console_prints_them() {
    let Some((corpus, _)) = support::corpus_roots() else { return };
    let mut trees = support::RepoFiles::new(&corpus, support::files::any_file);
    let want = fixture();
    let (mut compared, mut roots, mut unmatched) = (0, 0, Vec::new());
    let mut known_seen = BTreeSet::new();
    for (dir, locals) in want["roots"].as_object().unwrap() {
        let (root, base) = load_root(&mut trees, dir);
        let (files, _) = trees.read_root_files(dir);
        let got = comparable(files, &base, &root);
        roots += 1;
        for (name, text) in locals.as_object().unwrap() {
            let text = text.as_str().unwrap();
            compared += 1;
            let ours = got.get(name).map(String::as_str);
            if ours == Some(text) {
                continue;
            }
            if let Some(k) = KNOWN.iter().find(|(r, l, _)| r == dir && l == name) {
                known_seen.insert((k.0, k.1));
                continue;
            }
            unmatched.push(format!("{dir}: {name}\n  terraform: {text}\n  tfgraph:   {ours:?}"));
        }
    }
    eprintln!("{roots} roots, {compared} values compared, {} known differences", known_seen.len());
    let stale: Vec<_> = KNOWN.iter().filter(|(r, l, _)| !known_seen.contains(&(*r, *l))).collect();
    assert!(stale.is_empty(), "listed differences that are gone: {stale:?}");
    assert!(unmatched.is_empty(), "{} differences:\n{}", unmatched.len(), unmatched.join("\n"));
    assert!(compared > 0, "the fixture compares nothing");
}

/// Writes, for every corpus root, a folder holding its variables, the comparable locals and
/// the required variables' values, for `record.py` to run `terraform console` in.
#[test]
#[ignore]
fn write_console_folders() {
    let Some(out) = std::env::var_os("TFGRAPH_RECORD_DIR") else { return };
    let out = std::path::PathBuf::from(out);
    let Some((corpus, dirs)) = support::corpus_roots() else { return };
    let mut trees = support::RepoFiles::new(&corpus, support::files::any_file);
    for dir in &dirs {
        let (root, base) = load_root(&mut trees, dir);
        let (files, _) = trees.read_root_files(dir);
        let kept = comparable(files, &base, &root);
        if kept.is_empty() {
            continue;
        }
        let mut tf = String::new();
        for v in &root.config.root.variables {
            tf.push_str(&format!("variable \"{}\" {{\n", v.name));
            if let Some(t) = &v.type_expr {
                tf.push_str(&format!("  type = {t}\n"));
            }
            if let Some(d) = &v.default {
                tf.push_str(&format!("  default = {}\n", d.source));
            }
            if v.sensitive {
                tf.push_str("  sensitive = true\n");
            }
            if !v.nullable {
                tf.push_str("  nullable = false\n");
            }
            tf.push_str("}\n\n");
        }
        tf.push_str("locals {\n");
        for local in &root.config.root.locals {
            if kept.contains_key(&format!("local.{}", local.name)) {
                tf.push_str(&format!("  {} = {}\n", local.name, local.expr.source));
            }
        }
        for output in &root.config.root.outputs {
            if kept.contains_key(&format!("output.{}", output.name)) {
                tf.push_str(&format!("  zzout_{} = {}\n", output.name, output.value.source));
            }
        }
        tf.push_str("}\n");
        let folder = out.join(dir.replace('/', "#"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("main.tf"), tf).unwrap();
        std::fs::write(folder.join("terraform.tfvars.json"), serde_json::to_string_pretty(&root.variables).unwrap())
            .unwrap();
        std::fs::write(folder.join("root.txt"), dir).unwrap();
        let asked: BTreeMap<&String, String> = kept.keys().map(|k| (k, console_expr(k))).collect();
        std::fs::write(folder.join("asked.json"), serde_json::to_string(&asked).unwrap()).unwrap();
    }
}
