#![cfg(not(target_arch = "wasm32"))]
//! The string functions against Terraform: every case of `tests/fixtures/eval/functions/string*.json`
//! (recorded from Terraform 1.11.4; 1.15 differences written from its source and marked), all run.

mod support;
use support::console as harness;

#[test]
fn string_functions_as_terraform_evaluates_them() {
    let mut failures = Vec::new();
    let mut total = 0;
    for file in [
        "string.json",
        "string_more.json",
        "string_casemap.json",
        "string_grapheme.json",
        "string_regex.json",
        "string_format.json",
        "string_unknown.json",
        "string_templatestring.json",
    ] {
        match harness::check(file, harness::console) {
            Ok(n) => total += n,
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(total >= 1533, "only {total} string cases ran");
}

/// Go's `(?i)` case orbits natively (regex-syntax's simple case folding, cut to Unicode 15.0)
/// are those of tests/fixtures/eval/case_orbits.json, one orbit per line;
/// tests/wasm_node.rs checks that the package builds the same from the JS engine.
/// `TFGRAPH_WRITE_ORBITS=1` rewrites the file.
#[test]
fn case_orbits_are_the_fixture() {
    let orbits = tfgraph::eval::functions::string_regex_fold::orbits();
    let lines: Vec<String> = orbits.iter().map(|o| serde_json::to_string(o).unwrap()).collect();
    let text = format!("[\n{}\n]\n", lines.join(",\n"));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/eval/case_orbits.json");
    if std::env::var_os("TFGRAPH_WRITE_ORBITS").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    assert_eq!(std::fs::read_to_string(path).unwrap(), text);
    // Kelvin's K and the three sigmas; 1,400 or so orbits in Unicode 15.0.
    assert!(orbits.contains(&vec![0x4B, 0x6B, 0x212A]) && orbits.contains(&vec![0x3A3, 0x3C2, 0x3C3]));
    assert!(orbits.len() > 1_000, "{}", orbits.len());
}
