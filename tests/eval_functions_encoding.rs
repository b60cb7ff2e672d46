#![cfg(not(target_arch = "wasm32"))]
//! The encoding functions against Terraform: every case of
//! `tests/fixtures/eval/functions/encoding*.json` (recorded from Terraform 1.11.4;
//! `encoding_unknown.json` written by hand from cty's parameter flags). Cases of functions not
//! registered yet (`yamldecode`) are counted and reported, not run.

mod support;
use support::console as harness;

use tfgraph::eval::functions::Registry;

#[test]
fn encoding_functions_as_terraform_evaluates_them() {
    let funcs = Registry::builtin();
    let registered = |e: &str| {
        let name = &e[..e.find('(').unwrap_or(0)];
        funcs.get(name).is_some()
    };
    let (_, cases) = harness::load("encoding.json");
    let pending = cases.iter().filter(|c| !registered(&c.expr)).count();
    let n = harness::check_filtered("encoding.json", registered, harness::console).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{n} encoding cases match Terraform; {pending} wait for functions not registered yet");
    assert!(n >= 165, "only {n} encoding cases ran");
}

#[test]
fn encoding_functions_with_unknown_and_sensitive_arguments() {
    let n = harness::run("encoding_unknown.json", harness::console);
    assert!(n >= 10, "only {n} cases ran");
}

#[test]
fn hostile_inputs_get_errors_not_crashes() {
    let setup = harness::Setup::default();
    let deep = format!("jsondecode(\"{}{}\")", "[".repeat(5000), "]".repeat(5000));
    match harness::console(&setup, &deep) {
        harness::Outcome::Error { detail, .. } => assert!(detail.contains("levels deep"), "{detail}"),
        harness::Outcome::Value { .. } => panic!("5000 levels of JSON decoded"),
    }
    let long = format!("parseint(\"{}\", 10)", "9".repeat(100_000));
    assert!(matches!(harness::console(&setup, &long), harness::Outcome::Error { .. }));
    let shifted = "cidrsubnet(\"10.0.0.0/8\", -9000000000000000000, 5)";
    assert!(matches!(harness::console(&setup, shifted), harness::Outcome::Error { .. }));
    let big = format!("length(yamlencode([for i in [{}]: {{a = \"x\"}}]))", vec!["1"; 2000].join(","));
    assert!(matches!(harness::console(&setup, &big), harness::Outcome::Value { .. }));
    // YAML nested past the evaluator's depth, aliases naming billions of values, and large
    // documents: errors or quick results.
    let deep = format!("yamldecode(\"{}{}\")", "[".repeat(5000), "]".repeat(5000));
    match harness::console(&setup, &deep) {
        harness::Outcome::Error { detail, .. } => assert!(detail.contains("levels deep"), "{detail}"),
        harness::Outcome::Value { .. } => panic!("5000 levels of YAML decoded"),
    }
    let mut laughs = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\\n");
    for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
        let prev = ["a", "b", "c", "d", "e", "f", "g", "h"][i];
        laughs.push_str(&format!("{name}: &{name} [{}]\\n", vec![format!("*{prev}"); 10].join(", ")));
    }
    let started = std::time::Instant::now();
    match harness::console(&setup, &format!("yamldecode(\"{laughs}\")")) {
        harness::Outcome::Error { detail, .. } => assert!(detail.contains("aliases"), "{detail}"),
        harness::Outcome::Value { .. } => panic!("a billion aliased values decoded"),
    }
    assert!(started.elapsed().as_secs() < 10, "aliases took {:?}", started.elapsed());
    let long =
        format!("length(yamldecode(\"{}\"))", (0..20_000).map(|i| format!("k{i}: [v, {i}]\\n")).collect::<String>());
    match harness::console(&setup, &long) {
        harness::Outcome::Value { rendered, .. } => assert_eq!(rendered, "20000"),
        harness::Outcome::Error { detail, .. } => panic!("{detail}"),
    }
}

#[test]
fn base64gzip_is_gos_deflate_byte_for_byte() {
    // Short, repetitive, unicode and generated inputs; the long ones (past the 64 KiB window,
    // several 16384-token blocks) are compared through sha256 of the result.
    let n = harness::run("encoding_gzip.json", harness::console);
    assert!(n >= 50, "only {n} base64gzip cases ran");
}

#[test]
fn yamldecode_as_go_cty_yaml_decodes() {
    // Resolve rules of plain scalars, tags, block and flow styles, block scalars, quoting,
    // anchors, aliases and merges, documents, unicode and every kind of error.
    let n = harness::run("encoding_yamldecode.json", harness::console);
    assert!(n >= 200, "only {n} yamldecode cases ran");
}
