#![cfg(not(target_arch = "wasm32"))]
//! Real configurations: every root listed in the shared corpus loads with zero errors, and the
//! complete reference lists of selected files match expectations checked by hand
//! (`tests/fixtures/corpus-refs/*.expected`).
//!
//! Each root is loaded with every file of its repository folder (`<owner>__<repo>`), `root`
//! set to the root's subpath, so local modules reached through `../..` resolve. Skipped with a
//! message when the corpus (`../shared/corpus` beside the crate) is absent.

use std::fmt::Write;
use std::path::Path;
use tfgraph::config::files::MapFiles;
use tfgraph::config::{load, load_model_from, LoadOptions, Module};

mod support;

#[test]
fn every_corpus_root_loads_without_errors() {
    let Some(corpus) = support::corpus_dir() else { return };
    let mut repos = support::RepoFiles::new(&corpus, support::any_file);
    let mut failures = String::new();
    let mut total_resources = 0;
    let all = support::index_roots(&corpus);
    for root in &all {
        let repo = root.split_once('/').map_or(root.as_str(), |(repo, _)| repo);
        let (files, sub) = repos.read_root_files(root);
        let loaded = load(files, &LoadOptions { root: sub });
        for d in loaded.diagnostics.errors() {
            // The corpus left out a few folders that some modules call (cloudposse's
            // `modules/datadog-configuration`); Terraform reports those exactly like this too.
            if d.summary == "Unreadable module directory" {
                let dir = d.detail.trim_start_matches("The directory ").split(" could not").next().unwrap_or("");
                if !corpus.join(repo).join(dir).exists() {
                    eprintln!("{root}: module folder {dir} is not in the corpus");
                    continue;
                }
            }
            let at = d.range.as_ref().map(|r| r.to_string()).unwrap_or_default();
            let _ = writeln!(failures, "{root}: {at}: {}: {}", d.summary, d.detail);
        }
        total_resources += loaded.config.modules().iter().map(|m| m.resources.len()).sum::<usize>();
    }
    assert!(failures.is_empty(), "error diagnostics in the corpus:\n{failures}");
    assert!(all.len() > 100, "only {} roots listed", all.len());
    eprintln!("{} corpus roots loaded, {total_resources} resources", all.len());
}

/// `load_model_from` (what `loadConfig` and `buildGraph` use) loads exactly what `load` does,
/// the same configuration and diagnostics, with no syntax tree kept; `load` keeps them.
#[test]
fn every_corpus_root_loads_the_same_without_kept_trees() {
    let Some(corpus) = support::corpus_dir() else { return };
    let mut repos = support::RepoFiles::new(&corpus, support::any_file);
    let (mut differ, mut kept) = (Vec::new(), 0);
    for root in &support::index_roots(&corpus) {
        let (files, sub) = repos.read_root_files(root);
        let options = LoadOptions { root: sub };
        let with_trees = load(files, &options);
        let model = match load_model_from(&MapFiles::new(files), &options) {
            Ok(loaded) => loaded,
            Err(never) => match never {},
        };
        let json = |l: &tfgraph::config::Loaded| serde_json::to_string(&(&l.config, &l.diagnostics)).unwrap();
        if json(&with_trees) != json(&model) {
            differ.push(root.clone());
        }
        let trees = |l: &tfgraph::config::Loaded| {
            l.config
                .modules()
                .iter()
                .map(|m| m.syntax.len() + m.resources.iter().filter(|r| r.body.is_some()).count())
                .sum::<usize>()
        };
        assert_eq!(trees(&model), 0, "{root}: load_model_from kept syntax trees");
        kept += trees(&with_trees);
    }
    assert!(differ.is_empty(), "load_model_from differs from load in {differ:?}");
    assert!(kept > 1000, "load kept only {kept} files and resource bodies in the whole corpus");
}

/// `loadConfigRaw`'s JSON is the tape written as text (`bindings::tape::to_json`): for every
/// corpus root, for generated-10k's shape of files and for configurations with errors, it is
/// exactly the text serde_json writes for the same `{ config, diagnostics }`, keys and order
/// included. (`tests/js/tape.test.mjs` then checks the package's decoder against that text.)
#[test]
fn the_tape_written_as_json_is_serde_jsons_text() {
    #[derive(serde::Serialize)]
    struct LoadResult<'a> {
        config: &'a tfgraph::config::Config,
        diagnostics: &'a tfgraph::Diagnostics,
    }
    let check = |files: &std::collections::BTreeMap<String, String>, root: String, what: &str| {
        let loaded = match load_model_from(&MapFiles::new(files), &LoadOptions { root }) {
            Ok(loaded) => loaded,
            Err(never) => match never {},
        };
        let result = LoadResult { config: &loaded.config, diagnostics: &loaded.diagnostics };
        let want = serde_json::to_string(&result).unwrap();
        let got = tfgraph::bindings::tape::to_json(&tfgraph::bindings::tape::encode(&result).unwrap());
        if got != want {
            let at = got.bytes().zip(want.bytes()).take_while(|(a, b)| a == b).count();
            let from = at.saturating_sub(80);
            panic!(
                "{what}: the tape's JSON differs at byte {at}:\n got {}\nwant {}",
                String::from_utf8_lossy(&got.as_bytes()[from..(at + 80).min(got.len())]),
                String::from_utf8_lossy(&want.as_bytes()[from..(at + 80).min(want.len())])
            );
        }
    };
    let errors = [
        ("main.tf", "resource \"a\" \"b\" {\n  x = \n}\n"),
        (
            "main.tf",
            "locals {\n  a = var.x[\"é🦀\\u2028\"]\n  b = 1.5 + -3\n}\nmodule \"m\" {\n  source = \"./nowhere\"\n}\n",
        ),
        (
            "main.tf.json",
            "{\"resource\": {\"a\": {\"b\": {\"count\": 1e400, \"x\": \"${aws_instance.y[\\\"k\\\"]}\"}}}}",
        ),
    ];
    for (name, text) in errors {
        check(&[(name.to_string(), text.to_string())].into(), String::new(), text);
    }
    let Some(corpus) = support::corpus_dir() else { return };
    let mut repos = support::RepoFiles::new(&corpus, support::any_file);
    for root in &support::index_roots(&corpus) {
        let (files, sub) = repos.read_root_files(root);
        check(files, sub, root);
    }
}

/// `object -> subject (in) line:col` for every reference of every object in a module, in a
/// stable order (objects by kind then name, references in source order).
fn describe_refs(m: &Module, file: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut add = |object: &str, refs: &[tfgraph::config::Reference]| {
        for r in refs {
            if r.range.filename.ends_with(file) {
                lines.push(format!(
                    "{object} -> {} ({}) {}:{}",
                    r.subject, r.context, r.range.start.line, r.range.start.column
                ));
            }
        }
    };
    for r in &m.resources {
        add(&r.address, &r.references);
        for p in r.provisioners.iter().filter(|p| p.when == tfgraph::config::ProvisionerWhen::Destroy) {
            add(&format!("{} (destroy provisioner)", r.address), &p.references);
        }
    }
    for c in &m.module_calls {
        add(&c.address, &c.references);
        for a in &c.arguments {
            add(&format!("{}.{}", c.address, a.name), &a.expr.references);
        }
    }
    for l in &m.locals {
        add(&format!("local.{}", l.name), &l.expr.references);
    }
    for o in &m.outputs {
        add(&format!("output.{}", o.name), &o.references);
    }
    for v in &m.variables {
        for c in &v.validations {
            add(&format!("var.{}", v.name), &c.condition.references);
        }
    }
    for p in &m.providers {
        add(&p.address, &p.references);
    }
    lines.join("\n")
}

#[test]
fn corpus_reference_lists_match_hand_checked_expectations() {
    let Some(corpus) = support::corpus_dir() else { return };
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus-refs");
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&fixtures).unwrap().flatten().map(|e| e.path()).collect();
    entries.sort();
    let mut mismatches = String::new();
    for path in entries.iter().filter(|p| p.extension().is_some_and(|e| e == "expected")) {
        let expected = std::fs::read_to_string(path).unwrap();
        // First line: `# <corpus path of the file>`.
        let first = expected.lines().next().unwrap();
        let rel = first.trim_start_matches('#').trim();
        let (repo, in_repo) = rel.split_once('/').unwrap();
        let (dir, file) = in_repo.rsplit_once('/').unwrap_or(("", in_repo));
        let files = support::read_tree(&corpus.join(repo), support::any_file);
        let loaded = load(&files, &LoadOptions { root: dir.to_string() });
        let mut got = describe_refs(
            &loaded.config.root,
            &format!("{}{file}", if dir.is_empty() { String::new() } else { format!("{dir}/") }),
        );
        // `# only <object>`: check that object's references only.
        if let Some(only) = expected.lines().find_map(|l| l.strip_prefix("# only ")) {
            got = got.lines().filter(|l| l.split(" -> ").next() == Some(only.trim())).collect::<Vec<_>>().join("\n");
        }
        let want: Vec<&str> =
            expected.lines().skip(1).filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
        if got.lines().collect::<Vec<_>>() != want {
            let _ = writeln!(mismatches, "== {}\n-- got:\n{got}\n-- want:\n{}\n", path.display(), want.join("\n"));
        }
        checked += 1;
    }
    if std::env::var_os("TFGRAPH_PRINT_REFS").is_some() {
        eprintln!("{mismatches}");
    }
    assert!(mismatches.is_empty(), "{mismatches}");
    assert!(checked >= 10, "only {checked} corpus files checked");
}

/// In `.tf.json` files references sit inside JSON strings (with escapes): every reference range
/// must still slice the file to exactly the traversal's text.
#[test]
fn json_corpus_reference_ranges_slice_to_the_traversal() {
    let Some(corpus) = support::corpus_dir() else { return };
    let repo = "aws-ia__terraform-aws-vpc_endpoints";
    let files = support::read_tree(&corpus.join(repo), support::any_file);
    let loaded = load(&files, &LoadOptions::default());
    assert!(!loaded.diagnostics.has_errors());
    let mut n = 0;
    for m in loaded.config.modules() {
        let refs = m
            .resources
            .iter()
            .flat_map(|r| r.references.iter())
            .chain(m.locals.iter().flat_map(|l| l.expr.references.iter()));
        for r in refs.filter(|r| r.range.filename.ends_with(".tf.json")) {
            let text = &files[&r.range.filename];
            let slice = &text[r.range.start.byte as usize..r.range.end.byte as usize];
            assert!(r.traversal.starts_with(slice), "{} at {}: {slice:?}", r.traversal, r.range);
            n += 1;
        }
    }
    assert!(n > 1000, "{n}");
}
