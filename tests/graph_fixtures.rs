#![cfg(not(target_arch = "wasm32"))]
//! The one runner of the graph fixtures: every `tests/fixtures/graph/<group>/<case>/` folder is
//! loaded (its `.tf` files, subfolders being local modules; `state.json` and `changes.json` when
//! present), its graphs are built, and each expectation file present is compared with what we
//! build. The groups, the expectation files and where each came from are described in
//! `tests/fixtures/graph/README.md`; this table is the code side of it:
//!
//! | file | compared with |
//! |---|---|
//! | `plan.txt` | `String()` of the plan graph (with the state, if any) |
//! | `validate.txt` | `String()` of the validate graph |
//! | `plan-destroy.txt` | `String()` of the plan-destroy graph |
//! | `plan-unreduced.txt` | `String()` of the plan graph without transitive reduction |
//! | `resources.dot` | the resource-only DOT (`terraform graph`, v1.7+) |
//! | `plan.dot`, `plan-cycles.dot` | the full DOT of the plan graph, without and with `-draw-cycles` |
//! | `apply.txt` | `String()` of the apply graph |
//! | `apply.dot` | the full DOT of the apply graph (`terraform graph -type=apply -plan=...`) |
//! | `apply-instances.txt` | the apply graph's instance nodes only (Terraform's `filterInstances`) |
//! | `cbd.txt` | Terraform's `cbdTestGraph`: apply steps up to `CBDEdgeTransformer`, root, reduction, instances only |
//! | `apply-destroy.txt` | `String()` of the apply graph of a destroy plan (Terraform's `walkDestroy`) |
//! | `order.txt`, `apply-destroy-order.txt`, `plan-destroy-order.txt` | `A before B` lines (Terraform's `testGraphHappensBefore`) on the apply, destroy-apply and plan-destroy graphs |
//! | `diagnostics.txt` | the diagnostics as the CLI prints them (`Error: summary`, `  on file line N`), `---` between them: of the apply build when the case has `changes.json`, else of the plan build |
//!
//! A case with no `diagnostics.txt` must build without any. Deposed keys are written `KEY`
//! (Terraform's tests match them with `\w+`; ours are derived from the address). Files are
//! compared after trimming; every mismatch of every case is reported before failing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tfgraph::graph::builders::apply;
use tfgraph::graph::transform::{self, BuildContext, CloseRootModuleTransformer, TransitiveReductionTransformer};
use tfgraph::graph::{build, BuildOptions, DotKind, Operation, PlanMode, TfGraph, Why};
use tfgraph::plans::parse_changes;
use tfgraph::state::parse_state;

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

/// `(destroy deposed 1a2b3c4d)` → `(destroy deposed KEY)`, likewise `(deposed …)`.
fn normalize(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("deposed ") {
        let (head, tail) = rest.split_at(i + "deposed ".len());
        out.push_str(head);
        if tail.len() >= 8 && tail.as_bytes()[..8].iter().all(u8::is_ascii_hexdigit) {
            out.push_str("KEY");
            rest = &tail[8..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Terraform's `filterInstances`: removes every node that is not a resource instance,
/// connecting its dependents to its dependencies first.
fn filter_instances(g: &TfGraph) -> TfGraph {
    let mut g = g.clone();
    let others: Vec<_> = g.ids().filter(|&id| !g.node(id).is_resource_instance()).collect();
    for v in others {
        let downs: Vec<_> = g.dag().edges_from(v).collect();
        let ups: Vec<_> = g.dag().edges_to(v).collect();
        for &u in &ups {
            for &d in &downs {
                if u != d {
                    g.connect(u, d, Why::RootClose);
                }
            }
        }
        g.remove(v);
    }
    g
}

struct Case {
    name: String,
    dir: PathBuf,
    config: tfgraph::config::Config,
    options: BuildOptions,
}

impl Case {
    fn load(dir: &Path) -> Case {
        let name = dir.strip_prefix(fixtures()).unwrap().to_string_lossy().to_string();
        assert!(dir.join("SOURCE").exists(), "{name}: every fixture needs a SOURCE file");
        let files = support::read_tf_fixture(dir);
        let loaded = tfgraph::config::load(&files, &Default::default());
        assert!(!loaded.diagnostics.has_errors(), "{name}: the configuration does not load: {:?}", loaded.diagnostics);
        let mut options = BuildOptions::default();
        if let Ok(text) = std::fs::read_to_string(dir.join("state.json")) {
            let (s, d) = parse_state(&text);
            assert!(d.is_empty(), "{name}: state.json: {d:?}");
            options.state = Some(s);
        }
        if let Ok(text) = std::fs::read_to_string(dir.join("changes.json")) {
            let (c, d) = parse_changes(&text);
            assert!(d.is_empty(), "{name}: changes.json: {d:?}");
            options.changes = Some(c);
        }
        Case { name, dir: dir.to_path_buf(), config: loaded.config, options }
    }

    fn with(&self, operation: Operation) -> BuildOptions {
        BuildOptions { operation, ..self.options.clone() }
    }

    fn read(&self, file: &str) -> Option<String> {
        std::fs::read_to_string(self.dir.join(file)).ok()
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph")
}

/// Every `<group>/<case>` folder; folders starting with `_` (`_tools/`) are not cases.
fn cases() -> Vec<PathBuf> {
    let dirs = |p: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir() && !p.file_name().unwrap().to_string_lossy().starts_with('_'))
            .collect();
        v.sort();
        v
    };
    dirs(&fixtures()).iter().flat_map(|group| dirs(group)).collect()
}

fn render_diags(d: &tfgraph::Diagnostics) -> String {
    d.iter()
        .map(|d| {
            let label = if d.is_error() { "Error" } else { "Warning" };
            let on =
                d.range.as_ref().map(|r| format!("\n  on {} line {}", r.filename, r.start.line)).unwrap_or_default();
            format!("{label}: {}{on}", d.summary)
        })
        .collect::<Vec<_>>()
        .join("\n---\n")
}

/// Terraform's `cbdTestGraph`: the apply steps up to `CBDEdgeTransformer`, then the root and
/// reduction, instances only.
fn cbd_graph(c: &Case) -> TfGraph {
    let o = c.with(Operation::Apply);
    let mut steps = apply::steps(&o);
    let at = steps.iter().position(|s| s.transform.name() == "CBDEdgeTransformer").expect("CBD step");
    steps.truncate(at + 1);
    steps.push(transform::Step::new(CloseRootModuleTransformer, "test"));
    steps.push(transform::Step::new(TransitiveReductionTransformer, "test"));
    let cx = BuildContext::new(&c.config, &o);
    let mut g = TfGraph::new();
    transform::run(&steps, &mut g, &cx);
    filter_instances(&g)
}

fn check_order(g: &TfGraph, text: &str, failures: &mut Vec<String>, what: &str) {
    let names: BTreeMap<String, String> = g.nodes().into_iter().map(|n| (normalize(&n.name), n.name)).collect();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (a, b) = line.split_once(" before ").expect("`A before B`");
        let (Some(a), Some(b)) = (names.get(a.trim()), names.get(b.trim())) else {
            failures.push(format!("{what}: {line}: node missing"));
            continue;
        };
        if !g.ancestors(b).contains(a) {
            failures.push(format!("{what}: expected {a} to happen before {b}\n{}", normalize(&g.to_string())));
        }
    }
}

#[test]
fn graph_fixtures() {
    let cases = cases();
    assert!(cases.len() >= 40, "{} cases under {}", cases.len(), fixtures().display());
    let (mut failures, mut checked) = (Vec::new(), 0);
    for dir in &cases {
        let c = Case::load(dir);
        let plan = build(&c.config, &c.with(Operation::Plan));
        let applied = c.options.changes.as_ref().map(|_| build(&c.config, &c.with(Operation::Apply)));
        let apply_graph = || {
            applied
                .as_ref()
                .map(|b| b.graph.clone())
                .unwrap_or_else(|| build(&c.config, &c.with(Operation::Apply)).graph)
        };
        let destroy_apply = || build(&c.config, &BuildOptions { mode: PlanMode::Destroy, ..c.with(Operation::Apply) });
        let plan_destroy = || build(&c.config, &c.with(Operation::Destroy));
        let graphs: Vec<(&str, Box<dyn Fn() -> String + '_>)> = vec![
            ("plan.txt", Box::new(|| plan.graph.to_string())),
            ("validate.txt", Box::new(|| build(&c.config, &c.with(Operation::Validate)).graph.to_string())),
            ("plan-destroy.txt", Box::new(|| plan_destroy().graph.to_string())),
            (
                "plan-unreduced.txt",
                Box::new(|| {
                    build(&c.config, &BuildOptions { reduce: false, ..c.with(Operation::Plan) }).graph.to_string()
                }),
            ),
            ("resources.dot", Box::new(|| plan.graph.to_dot(DotKind::Resources, false))),
            ("plan.dot", Box::new(|| plan.graph.to_dot(DotKind::Full, false))),
            ("plan-cycles.dot", Box::new(|| plan.graph.to_dot(DotKind::Full, true))),
            ("apply.txt", Box::new(|| apply_graph().to_string())),
            ("apply.dot", Box::new(|| apply_graph().to_dot(DotKind::Full, false))),
            ("apply-instances.txt", Box::new(|| filter_instances(&apply_graph()).to_string())),
            ("cbd.txt", Box::new(|| cbd_graph(&c).to_string())),
            ("apply-destroy.txt", Box::new(|| destroy_apply().graph.to_string())),
        ];
        for (file, got) in graphs {
            let Some(want) = c.read(file) else { continue };
            checked += 1;
            let got = normalize(got().trim());
            if want.trim() != got {
                failures.push(format!("{}/{file}:\n{}", c.name, diff(want.trim(), &got)));
            }
        }
        let orders: Vec<(&str, Box<dyn Fn() -> TfGraph + '_>)> = vec![
            ("order.txt", Box::new(apply_graph)),
            ("apply-destroy-order.txt", Box::new(|| destroy_apply().graph)),
            ("plan-destroy-order.txt", Box::new(|| plan_destroy().graph)),
        ];
        for (file, graph) in orders {
            let Some(text) = c.read(file) else { continue };
            checked += 1;
            check_order(&graph(), &text, &mut failures, &format!("{}/{file}", c.name));
        }
        let diagnostics = render_diags(applied.as_ref().map_or(&plan.diagnostics, |b| &b.diagnostics));
        match c.read("diagnostics.txt") {
            Some(want) => {
                checked += 1;
                if want.trim() != diagnostics.trim() {
                    failures.push(format!("{}/diagnostics.txt:\n{}", c.name, diff(want.trim(), diagnostics.trim())));
                }
            }
            None if !diagnostics.is_empty() => {
                failures.push(format!("{}: unexpected diagnostics:\n{diagnostics}", c.name))
            }
            None => {}
        }
    }
    eprintln!("{} fixtures, {checked} expectations", cases.len());
    assert!(failures.is_empty(), "{} mismatch(es):\n\n{}", failures.len(), failures.join("\n\n"));
}

/// Oracle case 4 (`plan/for-each-no-schema/SOURCE`): without provider schemas we keep a reference
/// Terraform drops; the two expectations differ in exactly these lines.
#[test]
fn for_each_fixture_differs_only_by_the_schema_edge() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graph/plan/for-each-no-schema");
    let ours = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
    let terraform = std::fs::read_to_string(dir.join("plan.terraform.txt")).unwrap();
    let changed: Vec<String> =
        diff(terraform.trim(), ours.trim()).lines().filter(|l| !l.starts_with("  ")).map(str::to_string).collect();
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
