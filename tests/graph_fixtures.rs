#![cfg(not(target_arch = "wasm32"))]
//! One test over every folder of `tests/fixtures/graph/`: load its `.tf` files (subfolders are
//! local modules), build, and compare with the expectation files present:
//!
//! | file | compared with |
//! |---|---|
//! | `plan.txt` | `String()` of the plan graph |
//! | `validate.txt` | `String()` of the validate graph |
//! | `destroy.txt` | `String()` of the plan-destroy graph |
//! | `plan-unreduced.txt` | `String()` of the plan graph without transitive reduction |
//! | `resources.dot` | the resource-only DOT (`terraform graph`, v1.7+) |
//! | `plan.dot` | the full DOT of the plan graph (`terraform graph -type=plan`) |
//! | `plan-cycles.dot` | the full DOT with `-draw-cycles` |
//! | `diagnostics.txt` | the plan build's diagnostics as the CLI prints them (summary and `on` line), separated by `---` lines |
//!
//! Folders starting with `_` are not cases (`_tools/`). `SOURCE` says where each expectation
//! came from. Files are compared after trimming, with a
//! line diff on failure; every mismatch in every fixture is reported before failing.

use std::path::{Path, PathBuf};
use tfgraph::graph::{build, BuildOptions, DotKind, Operation};

mod support;


/// A line diff (longest common subsequence), `-` expected, `+` actual.
fn diff(want: &str, got: &str) -> String {
    let a: Vec<&str> = want.lines().collect();
    let b: Vec<&str> = got.lines().collect();
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out += &format!("  {}\n", a[i]);
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out += &format!("+ {}\n", b[j]);
            j += 1;
        } else {
            out += &format!("- {}\n", a[i]);
            i += 1;
        }
    }
    out
}

fn options(operation: Operation, reduce: bool) -> BuildOptions {
    BuildOptions { operation, reduce, ..Default::default() }
}

fn render_diags(d: &tfgraph::Diagnostics) -> String {
    d.iter()
        .map(|d| {
            let label = if d.is_error() { "Error" } else { "Warning" };
            let on = d.range.as_ref().map(|r| format!("\n  on {} line {}", r.filename, r.start.line)).unwrap_or_default();
            format!("{label}: {}{on}", d.summary)
        })
        .collect::<Vec<_>>()
        .join("\n---\n")
}

#[test]
fn graph_fixtures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph");
    // `apply-*`, `destroy-*`, `orphan-*`, `state-*` cases need a state or changes: tests/graph_apply.rs.
    let state_driven = |n: &str| ["apply-", "destroy-", "orphan-", "state-"].iter().any(|p| n.starts_with(p));
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir() && !p.file_name().unwrap().to_string_lossy().starts_with('_') && !state_driven(&p.file_name().unwrap().to_string_lossy())).collect();
    cases.sort();
    assert!(!cases.is_empty(), "no fixtures in {}", root.display());
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().to_string();
        assert!(case.join("SOURCE").exists(), "{name}: every fixture needs a SOURCE file");
        let files = support::read_tf_fixture(case);
        let loaded = tfgraph::config::load(&files, &Default::default());
        assert!(!loaded.diagnostics.has_errors(), "{name}: the configuration does not load: {:?}", loaded.diagnostics);
        let plan = build(&loaded.config, &options(Operation::Plan, true));
        let expectations: Vec<(&str, Box<dyn Fn() -> String>)> = vec![
            ("plan.txt", Box::new(|| plan.graph.to_string())),
            ("validate.txt", Box::new(|| build(&loaded.config, &options(Operation::Validate, true)).graph.to_string())),
            ("destroy.txt", Box::new(|| build(&loaded.config, &options(Operation::Destroy, true)).graph.to_string())),
            ("plan-unreduced.txt", Box::new(|| build(&loaded.config, &options(Operation::Plan, false)).graph.to_string())),
            ("resources.dot", Box::new(|| plan.graph.to_dot(DotKind::Resources, false))),
            ("plan.dot", Box::new(|| plan.graph.to_dot(DotKind::Full, false))),
            ("plan-cycles.dot", Box::new(|| plan.graph.to_dot(DotKind::Full, true))),
            ("diagnostics.txt", Box::new(|| render_diags(&plan.diagnostics))),
        ];
        let mut any = false;
        for (file, got) in expectations {
            let path = case.join(file);
            if !path.exists() {
                continue;
            }
            any = true;
            checked += 1;
            let want = std::fs::read_to_string(&path).unwrap();
            let got = got();
            if want.trim() != got.trim() {
                failures.push(format!("{name}/{file}:\n{}", diff(want.trim(), got.trim())));
            }
        }
        if !case.join("diagnostics.txt").exists() && !plan.diagnostics.is_empty() {
            failures.push(format!("{name}: unexpected diagnostics:\n{}", render_diags(&plan.diagnostics)));
        }
        assert!(any, "{name}: no expectation file");
    }
    eprintln!("{} fixtures, {checked} expectations", cases.len());
    assert!(failures.is_empty(), "{} mismatch(es):\n\n{}", failures.len(), failures.join("\n"));
}

/// Oracle case 4 (`plan-for-each-no-schema/SOURCE`): without provider schemas we keep a reference
/// Terraform drops; the two expectations differ in exactly these lines.
#[test]
fn for_each_fixture_differs_only_by_the_schema_edge() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph/plan-for-each-no-schema");
    let ours = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
    let terraform = std::fs::read_to_string(dir.join("plan.terraform.txt")).unwrap();
    let changed: Vec<String> = diff(terraform.trim(), ours.trim()).lines().filter(|l| !l.starts_with("  ")).map(str::to_string).collect();
    assert_eq!(
        changed,
        [
            "+   aws_instance.foo (expand)",
            "-   provider[\"registry.terraform.io/hashicorp/aws\"]",
            "-   aws_instance.foo (expand)",
        ],
        "{changed:#?}"
    );
}
