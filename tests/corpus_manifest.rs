#![cfg(not(target_arch = "wasm32"))]
//! Real configurations after a simulated `terraform init`: every corpus root that calls a
//! registry module whose repository is also in the corpus (`terraform-aws-modules/vpc/aws` →
//! `terraform-aws-modules__terraform-aws-vpc`) gets a `.terraform/modules/modules.json` built
//! here, with each called module's package copied under `.terraform/modules/<key>/` (the
//! `//subdir` honoured in `Dir`), nested registry calls included (dotted keys). The roots then
//! load without new errors and build full graphs whose nodes include the called modules'
//! resources (`module.<key>.<type>.<name>`). Skipped with a message when the corpus
//! (`../shared/corpus` beside the crate) is absent.

use std::path::Path;
use tfgraph::config::manifest::{constraint_allows, Version};
use tfgraph::config::{load, LoadOptions, Module};
use tfgraph::graph::{build, BuildOptions};

mod support;

/// A registry source's corpus folder and subdir: `ns/name/provider[//sub]` →
/// (`<ns>__terraform-<provider>-<name>`, `sub`), when that folder exists.
fn corpus_package(corpus: &Path, source: &str) -> Option<(String, String)> {
    let source = source.strip_prefix("registry.terraform.io/").unwrap_or(source);
    let (pkg, sub) = source.split_once("//").unwrap_or((source, ""));
    let [ns, name, provider] = pkg.split('/').collect::<Vec<_>>()[..] else { return None };
    let repo = format!("{ns}__terraform-{provider}-{name}");
    // A subdir missing from the snapshot (a submodule removed in a later major version)
    // could not be installed either: the call stays opaque.
    let sub = sub.trim_matches('/').to_string();
    corpus.join(&repo).join(&sub).is_dir().then_some((repo, sub))
}

/// A version the call's constraint accepts (the corpus holds one snapshot per repository, so
/// the manifest records a version that satisfies the call, as `terraform init` would pick).
fn version_for(constraint: Option<&str>) -> Option<String> {
    let c = constraint?.trim();
    if c.is_empty() {
        return None;
    }
    let mut candidates = Vec::new();
    for term in c.split(',') {
        let v = term.trim().trim_start_matches(['~', '>', '<', '=', '!', ' ']);
        if let Some(p) = Version::parse(v) {
            let s = p.to_string();
            let parts: Vec<u64> = s.split('.').filter_map(|x| x.parse().ok()).collect();
            candidates.push(s);
            if parts.len() == 3 {
                candidates.push(format!("{}.{}.{}", parts[0], parts[1], parts[2] + 1));
                candidates.push(format!("{}.{}.0", parts[0], parts[1] + 1));
            }
        }
    }
    candidates.into_iter().find(|v| constraint_allows(c, &Version::parse(v).unwrap()) == Some(true))
}

struct Call {
    key: String,
    source: String,
    version: Option<String>,
    repo: String,
    sub: String,
}

/// Opaque registry calls (not loaded) whose package is in the corpus, with their manifest keys.
fn resolvable(corpus: &Path, m: &Module, out: &mut Vec<Call>) {
    for c in &m.module_calls {
        match &c.module {
            Some(child) => resolvable(corpus, child, out),
            None if c.source_kind == "registry" => {
                if let Some((repo, sub)) = corpus_package(corpus, &c.source) {
                    let key = m.path.child(&c.name).manifest_key();
                    out.push(Call { key, source: c.source.clone(), version: c.version.clone(), repo, sub });
                }
            }
            None => {}
        }
    }
}

/// Every resource address of the loaded module tree under the call path `prefix`.
fn resources_under(m: &Module, out: &mut Vec<String>) {
    out.extend(m.resources.iter().map(|r| r.address.clone()));
    for c in &m.module_calls {
        if let Some(child) = &c.module {
            resources_under(child, out);
        }
    }
}

fn find_module<'a>(m: &'a Module, key: &str) -> Option<&'a Module> {
    if m.path.manifest_key() == key {
        return Some(m);
    }
    m.module_calls.iter().filter_map(|c| c.module.as_deref()).find_map(|c| find_module(c, key))
}

#[test]
fn corpus_roots_with_installed_registry_modules_build_full_graphs() {
    let Some(corpus) = support::corpus_dir() else { return };
    let index = std::fs::read_to_string(corpus.join("INDEX.tsv")).unwrap();
    let mut repos = support::RepoFiles::new(&corpus, support::tf_or_json_file);
    let (mut roots, mut calls, mut nodes_from_calls, mut failures) = (0, 0, 0, Vec::new());
    for line in index.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let dir = line.split('\t').next().unwrap();
        let (repo, root) = dir.split_once('/').unwrap_or((dir, ""));
        let base = repos.repo(repo).clone();
        let options = LoadOptions { root: root.to_string() };
        let before = load(&base, &options);
        let before_errors = before.diagnostics.errors().count();
        let prefix = if root.is_empty() { String::new() } else { format!("{root}/") };
        // Install, as `terraform init` does, level by level (nested registry calls appear once
        // their parent is loaded).
        let mut files = base.clone();
        let mut records: Vec<String> = vec![r#"{"Key":"","Source":"","Dir":"."}"#.to_string()];
        let mut installed: Vec<Call> = Vec::new();
        let mut loaded = before;
        for _ in 0..6 {
            let mut found = Vec::new();
            resolvable(&corpus, &loaded.config.root, &mut found);
            found.retain(|c| !installed.iter().any(|i| i.key == c.key));
            if found.is_empty() {
                break;
            }
            for c in found {
                let pkg = repos.repo(&c.repo).clone();
                for (path, text) in pkg {
                    files.insert(format!("{prefix}.terraform/modules/{}/{path}", c.key), text);
                }
                let dir = if c.sub.is_empty() {
                    format!(".terraform/modules/{}", c.key)
                } else {
                    format!(".terraform/modules/{}/{}", c.key, c.sub)
                };
                let version =
                    version_for(c.version.as_deref()).map(|v| format!(r#","Version":"{v}""#)).unwrap_or_default();
                records.push(format!(r#"{{"Key":"{}","Source":"{}"{version},"Dir":"{dir}"}}"#, c.key, c.source));
                installed.push(c);
            }
            files.insert(
                format!("{prefix}.terraform/modules/modules.json"),
                format!("{{\"Modules\":[{}]}}", records.join(",")),
            );
            loaded = load(&files, &options);
        }
        if installed.is_empty() {
            continue;
        }
        roots += 1;
        calls += installed.len();
        let after_errors = loaded.diagnostics.errors().count();
        if after_errors > before_errors {
            failures.push(format!(
                "{dir}: {} new errors: {:#?}",
                after_errors - before_errors,
                loaded.diagnostics.errors().collect::<Vec<_>>()
            ));
            continue;
        }
        let built = build(&loaded.config, &BuildOptions::default());
        let names: std::collections::HashSet<String> = built.graph.nodes().into_iter().map(|n| n.name).collect();
        for c in &installed {
            let Some(m) = find_module(&loaded.config.root, &c.key) else {
                failures.push(format!("{dir}: module {} ({}) did not load", c.key, c.source));
                continue;
            };
            assert!(m.dir.starts_with(&format!("{prefix}.terraform/modules/")), "{dir}: {}", m.dir);
            let mut res = Vec::new();
            resources_under(m, &mut res);
            for r in &res {
                if names.contains(&format!("{r} (expand)")) || names.contains(r.as_str()) {
                    nodes_from_calls += 1;
                } else {
                    failures.push(format!("{dir}: {r} (from {}) is not a graph node", c.source));
                }
            }
        }
    }
    println!("{roots} corpus roots, {calls} registry module calls resolved from the corpus through built manifests; {nodes_from_calls} resource nodes from those modules in the plan graphs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(roots >= 10 && calls >= 20, "{roots} roots, {calls} calls");
}
