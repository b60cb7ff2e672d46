//! `terraform test` scenarios recorded with Terraform 1.11.4 (tests/fixtures/test/NAME:
//! the module, its test files, and `expected/`: `terraform test` text on stdout and stderr, the
//! exit code, the `-json` lines and the `-junit-xml` report), run again by `tfgraph::testing`
//! and compared: the text exactly, the JSON lines without timestamps and progress ticks (events
//! with `elapsed` above 0 are Terraform's two-second progress updates), the JUnit XML without
//! run times.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use tfgraph::testing::{report, runner};

/// Scenarios tfgraph does not match yet, with the reason.
const GAPS: &[(&str, &str)] = &[];

fn read_dir(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if rel == "expected" {
            continue;
        }
        if p.is_dir() {
            read_dir(root, &p, out);
        } else {
            out.insert(rel, std::fs::read_to_string(&p).unwrap());
        }
    }
}

/// Without timestamps, the version line and progress ticks, `relevant_attributes` sorted; each run of consecutive
/// diagnostics sorted (the engine orders a plan's diagnostics by its own walk, which is not
/// Terraform's; the human text sorts them as Terraform does and is compared as it is).
fn normalise_json(lines: Vec<Value>) -> Vec<Value> {
    let lines: Vec<Value> = lines
        .into_iter()
        .filter(|l| l["type"] != "version")
        .filter(|l| l["test_run"]["elapsed"].as_u64().unwrap_or(0) == 0)
        .map(|mut l| {
            if let Value::Object(m) = &mut l {
                m.remove("@timestamp");
            }
            // Terraform's comparator indexes the unsorted slice, so its order varies from run to
            // run (src/engine/relevant.rs); ours is sorted.
            if let Some(Value::Array(r)) = l.pointer_mut("/test_plan/relevant_attributes") {
                r.sort_by_key(|a| a.to_string());
            }
            l
        })
        .collect();
    let mut out: Vec<Value> = Vec::new();
    let mut block: Vec<Value> = Vec::new();
    for l in lines {
        if l["type"] == "diagnostic" {
            block.push(l);
            continue;
        }
        block.sort_by_key(|d| d.to_string());
        out.append(&mut block);
        out.push(l);
    }
    block.sort_by_key(|d| d.to_string());
    out.append(&mut block);
    out
}

fn strip_times(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(i) = rest.find(" time=\"") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        // ` time="…" timestamp="…"`
        let end = after.find("Z\"").map(|e| e + 2).unwrap_or(after.len());
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn check(name: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/test").join(name);
    let mut files = BTreeMap::new();
    read_dir(&dir, &dir, &mut files);
    let expected = |f: &str| std::fs::read_to_string(dir.join("expected").join(f)).unwrap_or_default();
    // `expected/flags`: the command line's other flags when recorded (`-verbose`).
    let flags = expected("flags");
    let options = runner::Options { verbose: flags.split_whitespace().any(|f| f == "-verbose"), ..Default::default() };
    let suite = runner::run(&files, &options, &mut |_| {});
    let mut problems = Vec::new();
    let (stdout, stderr) = report::text(&suite);
    if stdout != expected("test.stdout") {
        problems.push(format!("stdout:\n--- want\n{}\n--- got\n{stdout}", expected("test.stdout")));
    }
    if stderr != expected("test.stderr") {
        problems.push(format!("stderr:\n--- want\n{}\n--- got\n{stderr}", expected("test.stderr")));
    }
    let code = expected("exitcode").trim().parse::<i32>().unwrap();
    if suite.exit_code() != code {
        problems.push(format!("exit code: want {code}, got {}", suite.exit_code()));
    }
    let want_json: Vec<Value> = expected("test.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let want_json = normalise_json(want_json);
    let got_json = normalise_json(report::json_lines(&suite, "0", None));
    if want_json != got_json {
        let a: Vec<String> = want_json.iter().map(|l| l.to_string()).collect();
        let b: Vec<String> = got_json.iter().map(|l| l.to_string()).collect();
        let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        problems.push(format!(
            "json lines differ at {first}:\n--- want\n{}\n--- got\n{}",
            a.get(first).cloned().unwrap_or_default(),
            b.get(first).cloned().unwrap_or_default()
        ));
    }
    let want_xml = expected("junit.xml");
    if !want_xml.is_empty() {
        let got = report::junit_xml(&suite, None);
        if strip_times(&want_xml) != got {
            problems.push(format!("junit:\n--- want\n{}\n--- got\n{got}", strip_times(&want_xml)));
        }
    }
    problems
}

#[test]
fn recorded_scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/test");
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    names.sort();
    let mut failed = Vec::new();
    for name in &names {
        let problems = check(name);
        let gap = GAPS.iter().find(|g| g.0 == name);
        match (problems.is_empty(), gap) {
            (true, Some(_)) => failed.push(format!("{name}: listed in GAPS but now matches")),
            (false, None) => failed.push(format!("{name}:\n{}", problems.join("\n"))),
            _ => {}
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}
