#![cfg(not(target_arch = "wasm32"))]
//! References to undeclared names (src/config/static_refs.rs) against `terraform validate
//! -json` 1.11.4 on the same files (tests/fixtures/config/undeclared): severity, summary,
//! detail, range and snippet of every diagnostic. Terraform's walk is concurrent, so its order
//! is not compared; the CLI test compares the sorted text.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use tfgraph::config::{load, static_refs, LoadOptions};
use tfgraph::engine::shared::snippets::with_sources;
use tfgraph::eval::MapFilesystem;

fn sorted(mut ds: Vec<Value>) -> Vec<Value> {
    ds.sort_by_key(|d| {
        (d["range"]["filename"].to_string(), d["range"]["start"]["byte"].as_u64(), d["detail"].to_string())
    });
    ds
}

/// `tests/fixtures/config/NAME`'s `.tf` files, checked, against its validate.json (sorted).
#[track_caller]
fn compare(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/config").join(name);
    let mut files = BTreeMap::new();
    for sub in ["", "child"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else { continue };
        for e in entries.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "tf")) {
            let path = if sub.is_empty() {
                e.file_name().to_string_lossy().into_owned()
            } else {
                format!("{sub}/{}", e.file_name().to_string_lossy())
            };
            files.insert(path, std::fs::read_to_string(e.path()).unwrap());
        }
    }
    let loaded = load(&files, &LoadOptions::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let diags = with_sources(static_refs::check(&loaded.config), &MapFilesystem(&files));
    let got = sorted(diags.iter().map(|d| serde_json::to_value(d).unwrap()).collect());
    let want: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("validate.json")).unwrap()).unwrap();
    let want = sorted(want["diagnostics"].as_array().unwrap().clone());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "{name}: diagnostic {i}");
    }
    assert_eq!(got.len(), want.len(), "{name}: got {got:#?}");
}

#[test]
fn undeclared_references() {
    compare("undeclared");
}

/// `self`, `count.index`, `each.*` where nothing gives them, outputs a module does not declare.
#[test]
fn evaluation_errors() {
    compare("evaluation");
}

/// Provider blocks a resource uses: undeclared names, `count`, `each`; an unused one is not
/// evaluated.
#[test]
fn provider_block_references() {
    compare("provider-references");
}

/// A configuration whose references all resolve has nothing to report.
#[test]
fn declared_references() {
    let files = BTreeMap::from([(
        "main.tf".to_string(),
        "variable \"a\" {}\nlocals { b = var.a }\nresource \"x\" \"y\" { v = local.b }\noutput \"o\" { value = x.y.id }\n".to_string(),
    )]);
    let loaded = load(&files, &LoadOptions::default());
    assert!(static_refs::check(&loaded.config).is_empty());
}

/// Thousands of blocks in one file, each referring to the one before and to an undeclared
/// variable: every undeclared reference reported once, each snippet naming its own block. (The
/// check indexes each module's names once and each file's blocks once; this size took seconds
/// when both were searched per reference.)
#[test]
fn many_references_in_one_file() {
    let n = 5_000;
    let mut text = String::from("resource \"x\" \"r0\" {}\n");
    for i in 1..n {
        text.push_str(&format!("resource \"x\" \"r{i}\" {{\n  a = x.r{}.id\n  b = var.missing{}\n}}\n", i - 1, i % 7));
    }
    let files = BTreeMap::from([("main.tf".to_string(), text)]);
    let loaded = load(&files, &LoadOptions::default());
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
    let diags = with_sources(static_refs::check(&loaded.config), &MapFilesystem(&files));
    assert_eq!(diags.len(), n - 1);
    for (i, d) in diags.iter().enumerate() {
        assert_eq!(d.summary, "Reference to undeclared input variable");
        let snippet = d.snippet.as_ref().expect("a snippet");
        assert_eq!(snippet.context.as_deref(), Some(format!("resource \"x\" \"r{}\"", i + 1).as_str()));
        assert_eq!(snippet.code, format!("  b = var.missing{}", (i + 1) % 7));
    }
}
