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
