//! Bad input to the test runner: every prefix of every recorded test file (cut at each line and
//! inside lines), and a few malformed files, give Terraform's diagnostics with file ranges,
//! never a panic.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::path::Path;
use tfgraph::testing::runner::{run, Options};

fn scenario(name: &str) -> BTreeMap<String, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/test").join(name);
    let mut out = BTreeMap::new();
    out.insert("main.tf".to_string(), std::fs::read_to_string(dir.join("main.tf")).unwrap());
    for e in std::fs::read_dir(dir.join("tests")).unwrap() {
        let p = e.unwrap().path();
        out.insert(format!("tests/{}", p.file_name().unwrap().to_string_lossy()), std::fs::read_to_string(&p).unwrap());
    }
    out
}

#[test]
fn truncated_test_files_never_panic() {
    for name in ["basic", "expect", "statekeys", "planopts"] {
        let files = scenario(name);
        for (path, text) in files.iter().filter(|(p, _)| p.ends_with(".tftest.hcl")) {
            let cuts: Vec<usize> = (0..text.len())
                .filter(|&i| text.is_char_boundary(i) && (i % 13 == 0 || text.as_bytes()[i] == b'\n'))
                .collect();
            for cut in cuts {
                let mut f: BTreeMap<String, String> = files
                    .iter()
                    .filter(|(p, _)| p.as_str() == "main.tf")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                f.insert(path.clone(), text[..cut].to_string());
                let suite = run(&f, &Options::default(), &mut |_| {});
                // A prefix either loads (and runs) or is refused with ranged diagnostics.
                if suite.diagnostics.has_errors() {
                    assert!(suite.diagnostics.iter().all(|d| d.range.is_some()), "{name} {path} cut at {cut}");
                }
            }
        }
    }
}

#[test]
fn malformed_files_are_diagnostics() {
    let main = "resource \"mock_resource\" \"a\" {\n  name = \"a\"\n}\n".to_string();
    let cases = [
        ("run {", "Missing name for run"),
        ("run \"a\" {}\nrun \"a\" {}\n", "Duplicate \"run\" block names"),
        ("run \"a\" {\n  assert {\n  }\n}\n", "Missing required argument"),
        ("run \"a\" {\n  command = \"plan\"\n}\n", "Invalid \"command\" keyword"),
        (
            "run \"a\" {\n  plan_options {\n    mode    = refresh-only\n    refresh = false\n  }\n}\n",
            "Incompatible plan options",
        ),
        ("run \"a\" {\n  expect_failures = var.x\n}\n", "Invalid expression"),
        ("run \"a\" {\n  module {\n  }\n}\n", "Missing \"source\" attribute for module block"),
        (
            "run \"a\" {\n  module {\n    source = \"git::https://example.com/x\"\n  }\n}\n",
            "Invalid module source address",
        ),
        ("variables {\n}\nvariables {\n}\n", "Multiple \"variables\" blocks"),
        ("run \"a\" {\n  bogus = 1\n}\n", "Unsupported argument"),
    ];
    for (text, summary) in cases {
        let files = BTreeMap::from([
            ("main.tf".to_string(), main.clone()),
            ("tests/x.tftest.hcl".to_string(), text.to_string()),
        ]);
        let suite = run(&files, &Options::default(), &mut |_| {});
        assert_eq!(suite.exit_code(), 1, "{text}");
        assert!(
            suite
                .diagnostics
                .iter()
                .any(|d| d.summary == summary && d.range.as_ref().is_some_and(|r| r.filename == "tests/x.tftest.hcl")),
            "{text}: {:?}",
            suite.diagnostics.iter().map(|d| &d.summary).collect::<Vec<_>>()
        );
    }
}

/// Every file of a scenario, its subdirectories included (`tests/mocks/*.tfmock.hcl`).
fn scenario_all(name: &str) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            if rel == "expected" {
                continue;
            }
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/test").join(name);
    let mut out = BTreeMap::new();
    walk(&dir, &dir, &mut out);
    out
}

/// Mock providers, overrides, `.tfmock.hcl`, `.tfmock.json` and `.tftest.json` files cut short: diagnostics
/// with ranges, never a panic.
#[test]
fn truncated_mocks_overrides_and_json_never_panic() {
    for name in
        ["mockprovider", "overrides", "providers", "mocksource", "mocksourcejson", "jsonsyntax", "overridemodule"]
    {
        let files = scenario_all(name);
        let cut_files: Vec<&String> = files
            .keys()
            .filter(|p| {
                [".tftest.hcl", ".tftest.json", ".tfmock.hcl", ".tfmock.json"].iter().any(|ext| p.ends_with(ext))
            })
            .collect();
        for path in cut_files {
            let text = &files[path];
            let cuts: Vec<usize> = (0..text.len())
                .filter(|&i| text.is_char_boundary(i) && (i % 17 == 0 || text.as_bytes()[i] == b'\n'))
                .collect();
            for cut in cuts {
                let mut f = files.clone();
                f.insert(path.clone(), text[..cut].to_string());
                let suite = run(&f, &Options::default(), &mut |_| {});
                if suite.diagnostics.has_errors() {
                    assert!(suite.diagnostics.iter().all(|d| d.range.is_some()), "{name} {path} cut at {cut}");
                }
            }
        }
    }
}

/// Override values and mock defaults are constants: a reference is refused at load; a
/// `mock_provider` without a name, an override without a target and a `source` with no
/// `.tfmock.hcl` files are diagnostics too (Terraform 1.11.4's `configs/mock_provider.go`
/// wording).
#[test]
fn bad_mock_blocks_are_diagnostics() {
    let main = "resource \"mock_resource\" \"a\" {\n  name = \"a\"\n}\n".to_string();
    let cases = [
        ("override_resource {\n  target = mock_resource.a\n  values = { id = var.x }\n}\nrun \"r\" {}\n", "Variables not allowed"),
        ("override_resource {\n  values = { id = \"x\" }\n}\nrun \"r\" {}\n", "Missing target attribute"),
        ("override_resource {\n  target = 5\n}\nrun \"r\" {}\n", "Invalid expression"),
        ("mock_provider {\n}\nrun \"r\" {}\n", "Missing name for mock_provider"),
        ("mock_provider \"mock\" {\n  source = \"./nowhere\"\n}\nrun \"r\" {}\n", "Failed to load mock data"),
        ("override_resource {\n  target          = mock_resource.a\n  override_during = later\n  values          = {}\n}\nrun \"r\" {}\n", "Invalid override_during value"),
    ];
    for (test, summary) in cases {
        let f = BTreeMap::from([
            ("main.tf".to_string(), main.clone()),
            ("tests/t.tftest.hcl".to_string(), test.to_string()),
        ]);
        let suite = run(&f, &Options::default(), &mut |_| {});
        assert!(
            suite.diagnostics.iter().any(|d| d.summary == summary && d.range.is_some()),
            "{test}: {:?}",
            suite.diagnostics
        );
        // A target that is not a reference is that error alone (configs/mock_provider.go).
        assert!(!suite
            .diagnostics
            .iter()
            .any(|d| d.summary == "Missing target attribute" && !test.contains("  values")));
        assert_eq!(suite.exit_code(), 1);
    }
}

/// Mock defaults that are not an object are refused when used ("Invalid replacement value",
/// `moduletest/mocking`), and the run is an error, not a crash.
#[test]
fn defaults_that_are_not_objects_fail_the_run() {
    let main = "resource \"mock_resource\" \"a\" {\n  name = \"a\"\n}\n".to_string();
    let test = "mock_provider \"mock\" {\n  mock_resource \"mock_resource\" {\n    defaults = 3\n  }\n}\n\nrun \"r\" {\n  assert {\n    condition     = mock_resource.a.id != \"\"\n    error_message = \"id\"\n  }\n}\n";
    let f = BTreeMap::from([("main.tf".to_string(), main), ("tests/t.tftest.hcl".to_string(), test.to_string())]);
    let suite = run(&f, &Options::default(), &mut |_| {});
    let r = &suite.files[0].runs[0];
    assert_eq!(r.status, tfgraph::testing::runner::Status::Error);
    assert!(
        r.diagnostics.iter().any(|d| d.summary == "Invalid replacement value"
            && d.detail == "The requested replacement value must be an object type, but was number."),
        "{:?}",
        r.diagnostics
    );
}

/// `override_module` outputs reach the module's callers as written, from a `.tftest.hcl` and a
/// `.tftest.json` file: strings that look like templates, numbers, nested collections, null.
#[test]
fn override_module_outputs_are_the_values_written() {
    let mut files = scenario_all("overridemodule");
    files.retain(|p, _| !p.starts_with("tests/"));
    files.insert(
        "tests/a.tftest.hcl".into(),
        r#"override_module {
  target  = module.child
  outputs = { value = "$${x} %%{y} \"q\"", list = [1.5, { k = [true, null] }], other = tomap({ a = "b" }) }
}
run "a" {
  command = plan
  assert {
    condition     = output.child_value == "$${x} %%{y} \"q\"" && output.child_list[0] == 1.5 && output.child_list[1].k[0] && output.child_list[1].k[1] == null && output.child_other["a"] == "b"
    error_message = "got ${jsonencode([output.child_value, output.child_list, output.child_other])}"
  }
}
"#
        .into(),
    );
    files.insert(
        "tests/b.tftest.json".into(),
        r#"{
  "override_module": [{ "target": "module.child", "outputs": { "value": "$${x}", "list": [2, "c"] } }],
  "run": { "b": { "command": "plan", "assert": [{ "condition": "${output.child_value == \"$${x}\" && output.child_list[0] == 2 && output.child_other == null}", "error_message": "got ${output.child_value}" }] } }
}
"#
        .into(),
    );
    let suite = run(&files, &Options::default(), &mut |_| {});
    let statuses: Vec<(String, String)> =
        suite.files.iter().flat_map(|f| f.runs.iter().map(|r| (r.name.clone(), r.status.word().to_string()))).collect();
    let diags: Vec<String> = suite
        .files
        .iter()
        .flat_map(|f| f.runs.iter().flat_map(|r| r.diagnostics.iter().map(|d| d.detail.clone())))
        .collect();
    assert!(suite.diagnostics.is_empty(), "{:?}", suite.diagnostics);
    assert_eq!(statuses, vec![("a".into(), "pass".into()), ("b".into(), "pass".into())], "{diags:?}");
}
