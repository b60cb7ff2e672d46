#![cfg(not(target_arch = "wasm32"))]
//! Hostile input for configuration loading: truncated files, binary garbage, a 10 MB file and
//! expressions nested 10,000 deep. Each must load or return error diagnostics with a file, line
//! and column, and never panic or overflow the stack. Every range in every result is checked by
//! `fuzz/invariants.rs` (shared with the fuzz target). Timing bounds are generous on purpose.
//!
//! The deep-nesting cases run in a child process (this test binary, filtered to the one case),
//! on a thread with a 1 MiB stack like wasm's, so that a stack overflow, which aborts the whole
//! process, fails only its own case and says which.

#[path = "../fuzz/invariants.rs"]
mod invariants;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};
use tfgraph::config::{load, LoadOptions, Loaded};

/// A file of the shared corpus (`$TFGRAPH_CORPUS`, or `shared/corpus` beside the repository),
/// or, in a checkout without it, one of our own fixtures (`tests/fixtures/`) of the same syntax,
/// so that the cutting tests run everywhere and are stronger where the corpus is. Returns the
/// path read and its text.
fn corpus_file(path: &str, fallback: &str) -> (String, String) {
    let dir = std::env::var_os("TFGRAPH_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    let file = dir.join(path);
    let file = if file.is_file() {
        file
    } else {
        eprintln!("corpus file {} not found: cutting tests/fixtures/{fallback} instead", file.display());
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(fallback)
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
    (file.display().to_string(), text)
}

/// xorshift64*: seeded, dependency-free randomness.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn one_file(name: &str, text: String) -> BTreeMap<String, String> {
    BTreeMap::from([(name.to_string(), text)])
}

/// Loads and checks the invariants; when there are errors, at least one must point into a file.
#[track_caller]
fn load_checked(files: &BTreeMap<String, String>, root: &str, what: &str) -> Loaded {
    let loaded = load(files, &LoadOptions { root: root.to_string() });
    if let Err(problem) = invariants::check(files, &loaded) {
        panic!("{what}: {problem}");
    }
    if loaded.diagnostics.has_errors() {
        let located = loaded.diagnostics.0.iter().any(|d| d.is_error() && d.range.is_some());
        assert!(located, "{what}: errors without any file/line/column: {:#?}", loaded.diagnostics);
    }
    loaded
}

/// Every byte prefix of small real files (cut inside a UTF-8 sequence → U+FFFD, as lossy decoding
/// of a cut upload would give).
#[test]
fn every_prefix_of_small_files() {
    // 3.8 KB with templates, `for`, `dynamic`, `count` and module calls.
    for (path, fallback) in
        [("cloudposse__terraform-aws-components/modules/dns-delegated/main.tf", "config/blocks/main.tf")]
    {
        let (path, text) = corpus_file(path, fallback);
        let bytes = text.into_bytes();
        let (mut errors, mut loads) = (0, 0);
        for cut in 0..=bytes.len() {
            let text = String::from_utf8_lossy(&bytes[..cut]).into_owned();
            let loaded = load_checked(&one_file("main.tf", text), "", &format!("{path} cut at byte {cut}"));
            if loaded.diagnostics.has_errors() {
                errors += 1
            } else {
                loads += 1
            }
        }
        assert!(errors > 0 && loads > 0, "{path}: {errors} prefixes with errors, {loads} without");
    }
}

/// A few hundred random cuts of bigger files (.tf and .tf.json), as a root and as a called module.
#[test]
fn random_cuts_of_big_files() {
    let mut rng = Rng(0x5eed_0001);
    for (path, name, fallback) in [
        ("Azure__terraform-azurerm-aks/variables.tf", "variables.tf", "config/blocks/main.tf"),
        ("cds-snc__notification-terraform/aws/eks/dashboards.tf", "dashboards.tf", "config/equivalence/native/main.tf"),
        ("terraform-google-modules__terraform-google-kubernetes-engine/modules/beta-private-cluster-update-variant/cluster.tf", "cluster.tf", "config/providers/main.tf"),
        ("aws-ia__terraform-aws-vpc_endpoints/main_generated.tf.json", "main_generated.tf.json", "config/equivalence/json/main.tf.json"),
    ] {
        let (path, text) = corpus_file(path, fallback);
        let bytes = text.into_bytes();
        for i in 0..75 {
            let cut = rng.below(bytes.len() + 1);
            let text = String::from_utf8_lossy(&bytes[..cut]).into_owned();
            let what = format!("{path} cut at byte {cut}");
            if i % 2 == 0 {
                load_checked(&one_file(name, text), "", &what);
            } else {
                let files = BTreeMap::from([
                    ("main.tf".to_string(), "module \"m\" {\n  source = \"./m\"\n}\n".to_string()),
                    (format!("m/{name}"), text),
                ]);
                load_checked(&files, "", &what);
            }
        }
    }
}

/// Seeded random bytes (lossy UTF-8), and random soups of HCL tokens, in both syntaxes.
#[test]
fn binary_garbage_and_token_soup() {
    let mut rng = Rng(0x5eed_0002);
    const TOKENS: &[&str] = &[
        "resource",
        "\"aws_instance\"",
        "\"web\"",
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        "=",
        "\n",
        " ",
        "${",
        "%{",
        "\"",
        "<<EOT\n",
        "\nEOT\n",
        "for",
        "in",
        ":",
        "=>",
        "...",
        "?",
        "var.a",
        "local.b",
        "module.m.x",
        "count.index",
        "each.key",
        "[*]",
        ".",
        ",",
        "#",
        "//",
        "/*",
        "*/",
        "~}",
        "if",
        "endif",
        "endfor",
        "dynamic",
        "content",
        "lifecycle",
        "module",
        "source",
        "\"./m\"",
        "depends_on",
        "!",
        "-",
        "+",
        "1.5e3",
        "\\",
        "é",
        "\u{0}",
        "\r\n",
        "\t",
    ];
    for i in 0..400 {
        let text = if i % 2 == 0 {
            let len = rng.below(4097);
            let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else {
            (0..rng.below(600)).map(|_| TOKENS[rng.below(TOKENS.len())]).collect()
        };
        let name = if i % 3 == 0 { "main.tf.json" } else { "main.tf" };
        load_checked(&one_file(name, text.clone()), "", &format!("garbage case {i} ({name}): {text:?}"));
    }
}

/// A generated 10 MB file of resources that refer to each other.
#[test]
fn ten_megabyte_file() {
    let mut text = String::with_capacity(10_600_000);
    text.push_str("variable \"prefix\" {\n  type    = string\n  default = \"x\"\n}\n\n");
    let mut n: usize = 0;
    while text.len() < 10_000_000 {
        let prev = n.saturating_sub(1 + n % 7);
        text.push_str(&format!(
            "resource \"aws_instance\" \"r{n}\" {{\n  ami           = \"ami-{n:08x}\"\n  instance_type = \"t3.micro\"\n  \
             subnet_id     = aws_instance.r{prev}.subnet_id\n  user_data     = \"${{var.prefix}}-${{aws_instance.r{prev}.id}}\"\n\n  \
             tags = {{\n    Name = \"r{n}\"\n    Index = {n}\n  }}\n}}\n\n"
        ));
        n += 1;
    }
    let files = one_file("main.tf", text);
    let started = Instant::now();
    let loaded = load_checked(&files, "", "10 MB file");
    let took = started.elapsed();
    assert!(!loaded.diagnostics.has_errors(), "{:#?}", loaded.diagnostics.0.first());
    assert_eq!(loaded.config.root.resources.len(), n);
    let refs: usize = loaded.config.root.resources.iter().map(|r| r.references.len()).sum();
    assert!(refs >= 2 * (n - 1), "only {refs} references found for {n} resources");
    // Generous: a debug build on a shared machine; the benchmark tracks the real speed.
    let bound = Duration::from_secs(if cfg!(debug_assertions) { 120 } else { 30 });
    assert!(took < bound, "loading 10 MB took {took:?}");
    eprintln!("10 MB file ({n} resources, {refs} references) loaded in {took:?}");
}

// --- nesting 10,000 deep --------------------------------------------------------------------------

const DEPTH: usize = 10_000;
const CHILD_ENV: &str = "TFGRAPH_HOSTILE_DEEP_CHILD";

/// The expression (or block) of each kind, nested `DEPTH` deep, with a reference at the bottom.
fn deep_source(kind: &str) -> (&'static str, String) {
    let d = DEPTH;
    let expr = |open: &str, leaf: &str, close: &str| format!("{}{leaf}{}", open.repeat(d), close.repeat(d));
    let in_resource = |e: String| format!("resource \"null_resource\" \"r\" {{\n  v = {e}\n}}\n");
    let tf = match kind {
        "parens" => in_resource(expr("(", "var.a", ")")),
        "brackets" => in_resource(expr("[", "var.a", "]")),
        "objects" => in_resource(expr("{a = ", "var.a", "}")),
        "unary_not" => in_resource(expr("!", "var.a", "")),
        "unary_minus" => in_resource(expr("-", "var.a", "")),
        "binary_chain" => in_resource(format!("var.a{}", " + var.a".repeat(d))),
        "conditionals" => in_resource(format!("{}var.a", "var.a ? var.a : ".repeat(d))),
        "templates" => in_resource(expr("\"${", "var.a", "}\"")),
        "heredocs_in_templates" => {
            // Alternating: a quoted template whose interpolation holds a heredoc whose
            // interpolation holds a quoted template, and so on.
            let mut e = String::from("var.a");
            for k in (0..d).rev() {
                e = if k % 2 == 0 { format!("\"${{{e}}}\"") } else { format!("<<E{k}\n${{{e}}}\nE{k}\n") };
            }
            in_resource(e)
        }
        "function_calls" => in_resource(expr("f(", "var.a", ")")),
        "index" => in_resource(expr("var.a[", "var.a", "]")),
        "for_expressions" => in_resource(expr("[for x in ", "var.a", " : x]")),
        "attribute_chain" => in_resource(format!("var.a{}", ".b".repeat(d))),
        "blocks" => {
            format!("resource \"null_resource\" \"r\" {{\n{}v = var.a\n{}}}\n", "b {\n".repeat(d), "}\n".repeat(d))
        }
        "json_arrays" => {
            return ("main.tf.json", format!("{{\"locals\": {{\"a\": {}}}}}", expr("[", "\"${var.a}\"", "]")))
        }
        "json_template" => {
            return ("main.tf.json", format!("{{\"locals\": {{\"a\": \"${{{}}}\"}}}}", expr("(", "var.a", ")")))
        }
        other => panic!("unknown kind {other}"),
    };
    ("main.tf", tf)
}

/// Parent: run this case in a child process and report how it ended. Child: load on a 1 MiB stack.
fn deep_case(kind: &str) {
    match std::env::var(CHILD_ENV) {
        Ok(k) if k == kind => {
            let (name, text) = deep_source(kind);
            let files = one_file(name, text);
            let kind = kind.to_string();
            let worker = std::thread::Builder::new()
                .name(format!("deep-{kind}"))
                .stack_size(1 << 20)
                .spawn(move || {
                    let started = Instant::now();
                    let loaded = load_checked(&files, "", &format!("nested 10,000 deep: {kind}"));
                    let errors: Vec<String> = loaded
                        .diagnostics
                        .0
                        .iter()
                        .filter(|d| d.is_error())
                        .map(|d| {
                            format!("{}: {}", d.range.as_ref().map_or(String::new(), |r| r.to_string()), d.summary)
                        })
                        .collect();
                    eprintln!(
                        "deep {kind}: {} error(s) in {:?}: {:?}",
                        errors.len(),
                        started.elapsed(),
                        errors.first()
                    );
                    drop(loaded); // dropping a deep result must not overflow either
                })
                .expect("spawning the 1 MiB-stack thread");
            worker.join().expect("the load panicked");
        }
        Ok(_) => {} // a child run for another case: nothing to do
        Err(_) => {
            let started = Instant::now();
            let out = Command::new(std::env::current_exe().unwrap())
                .args([&format!("deep_{kind}"), "--exact", "--nocapture", "--test-threads=1"])
                .env(CHILD_ENV, kind)
                .output()
                .expect("running the child test process");
            let stderr = String::from_utf8_lossy(&out.stderr);
            let tail: String =
                stderr.lines().rev().take(15).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n");
            assert!(
                out.status.success(),
                "nested 10,000 deep ({kind}) on a 1 MiB stack did not finish cleanly ({}):\n{tail}",
                out.status
            );
            assert!(stderr.contains(&format!("deep {kind}:")), "the child did not run the case:\n{tail}");
            assert!(started.elapsed() < Duration::from_secs(120), "{kind} took {:?}", started.elapsed());
        }
    }
}

macro_rules! deep_tests {
    ($($name:ident => $kind:literal,)*) => { $( #[test] fn $name() { deep_case($kind) } )* };
}

deep_tests! {
    deep_parens => "parens",
    deep_brackets => "brackets",
    deep_objects => "objects",
    deep_unary_not => "unary_not",
    deep_unary_minus => "unary_minus",
    deep_binary_chain => "binary_chain",
    deep_conditionals => "conditionals",
    deep_templates => "templates",
    deep_heredocs_in_templates => "heredocs_in_templates",
    deep_function_calls => "function_calls",
    deep_index => "index",
    deep_for_expressions => "for_expressions",
    deep_attribute_chain => "attribute_chain",
    deep_blocks => "blocks",
    deep_json_arrays => "json_arrays",
    deep_json_template => "json_template",
}

// --- fuzz findings --------------------------------------------------------------------------------

/// Inputs the fuzzer (`fuzz/run.sh`) found panicking the loader, minimised with
/// `cargo fuzz tmin`, plus close variants. Each must load or give located errors.
#[test]
fn fuzz_regressions() {
    let cases: &[(&str, &str)] = &[
        // When hcl-edit parsed files, parse_error_diag (src/config/syntax.rs) sliced the text at
        // an error offset inside a multi-byte character (here U+FFFD from lossy decoding) and
        // panicked ("byte index is not a char boundary"). Found 2026-11-21 (input: 00 70 7b 0a 23
        // ff), fixed in ce3076c. Kept: errors next to multi-byte characters, whose empty ranges
        // are now widened by one character (config::expr::syntax_error_diag).
        ("main.tf", "p{\n#\u{FFFD}"),
        ("main.tf", "p{\n#é"),
        ("main.tf", "a = é"),
        ("main.tf", "é"),
        ("main.tf", "resource \"x\" \"y\" {\n  a = \"é\n"),
        ("main.tf", "locals {\n  a = 1 +\n}\n# ✓✓✓"),
        ("main.tf.json", "{\"locals\": {\"a\": \"${é\"}}"),
    ];
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|(name, text)| {
            let what = format!("{name}: {text:?}");
            std::panic::catch_unwind(|| load_checked(&one_file(name, text.to_string()), "", &what)).err().map(|_| what)
        })
        .collect();
    assert!(failed.is_empty(), "panicked on {} of {} inputs: {failed:#?}", failed.len(), cases.len());
}

/// Provider local names may hold non-ASCII letters (HCL identifiers): the ranges the provider
/// checks compute for `providers` entries must count characters in columns and bytes in bytes.
#[test]
fn provider_names_with_non_ascii_letters() {
    let files = BTreeMap::from([
        (
            "main.tf".to_string(),
            "provider \"ñu\" {\n  alias = \"é\"\n}\nmodule \"m\" {\n  source    = \"./m\"\n  providers = { äws = ñu.é, \"ñu.x\" = ñu.é }\n}\n".to_string(),
        ),
        ("m/main.tf".to_string(), "provider \"äws\" {\n  region = \"x\"\n}\n".to_string()),
    ]);
    let loaded = load_checked(&files, "", "non-ASCII provider names");
    let ranged: Vec<String> = loaded
        .diagnostics
        .0
        .iter()
        .filter(|d| d.range.as_ref().is_some_and(|r| r.filename == "main.tf" && r.start.line == 6))
        .map(|d| format!("{}: {}", d.summary, d.range.as_ref().unwrap()))
        .collect();
    assert!(!ranged.is_empty(), "{:#?}", loaded.diagnostics);
}
