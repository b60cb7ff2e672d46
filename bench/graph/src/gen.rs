//! The generated inputs of the graph benchmark, shared by `main.rs` and `bin/dump.rs` (and
//! ported to JavaScript in `run.mjs`, same seed): plan configurations of N resources, and
//! apply/destroy inputs of N resources with a state and planned changes.

use std::collections::BTreeMap;
use std::fmt::Write;

/// A small deterministic generator (xorshift), so every run builds the same configuration.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn resources(out: &mut String, rng: &mut Rng, prefix: &str, count: usize, inputs: &[&str]) {
    for i in 0..count {
        let _ = writeln!(out, "resource \"aws_instance\" \"{prefix}{i}\" {{");
        if i % 10 == 3 {
            out.push_str("  count = 2\n");
        } else if i % 20 == 7 {
            out.push_str("  for_each = toset([\"a\", \"b\"])\n");
        }
        out.push_str("  ami = \"ami-123\"\n");
        if i > 0 {
            let refs = 1 + rng.below(3) as usize;
            for r in 0..refs {
                let j = i - 1 - rng.below(i.min(20) as u64) as usize;
                let splat = if j % 10 == 3 {
                    "[*]"
                } else if j % 20 == 7 {
                    "[\"a\"]"
                } else {
                    ""
                };
                let _ = writeln!(out, "  tag_{r} = aws_instance.{prefix}{j}{splat}.id");
            }
        }
        if !inputs.is_empty() && i % 30 == 0 {
            let _ = writeln!(out, "  input = var.{}", inputs[i / 30 % inputs.len()]);
        }
        if i % 50 == 49 {
            let _ = writeln!(out, "  depends_on = [aws_instance.{prefix}{}]", i - 40);
        }
        out.push_str("}\n");
    }
}

pub fn generate(n: usize) -> BTreeMap<String, String> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut files = BTreeMap::new();
    let modules = n / 100;
    let per_module = 90;
    let mut root = String::new();
    let root_count = n - modules * per_module;
    resources(&mut root, &mut rng, "r", root_count, &[]);
    for m in 0..modules {
        let src = format!("modules/m{m}");
        let a = rng.below(root_count.max(1) as u64);
        let _ = writeln!(
            root,
            "module \"m{m}\" {{\n  source = \"./{src}\"\n  in_a = aws_instance.r{a}.id\n  in_b = {}\n}}",
            if m > 0 { format!("module.m{}.out", m - 1) } else { "\"x\"".to_string() }
        );
        let mut body = String::from("variable \"in_a\" {}\nvariable \"in_b\" {}\n");
        resources(&mut body, &mut rng, "x", per_module, &["in_a", "in_b"]);
        let _ = writeln!(body, "output \"out\" {{\n  value = aws_instance.x{}.id\n}}", per_module - 1);
        files.insert(format!("{src}/main.tf"), body);
    }
    let _ = writeln!(root, "output \"last\" {{\n  value = aws_instance.r{}.id\n}}", root_count.saturating_sub(1));
    files.insert("main.tf".to_string(), root);
    files
}

/// Apply and plan-destroy inputs (the shape of `tests/graph_state_corpus.rs` `generated`):
/// N/100 calls to one local module of 100 resources in chains of ten, a state whose
/// `dependencies` are the chain so far, and changes updating a third, replacing a third
/// (chain heads create-before-destroy) and deleting the rest.
pub fn generate_state(n: usize) -> (BTreeMap<String, String>, String, String) {
    let modules = (n / 100).max(1);
    let mut root = String::new();
    for m in 0..modules {
        let _ = writeln!(root, "module \"m{m}\" {{\n  source = \"./m\"\n}}");
    }
    let mut child = String::new();
    for r in 0..100 {
        if r % 10 == 0 {
            let _ = writeln!(child, "resource \"test_object\" \"r{r}\" {{}}");
        } else {
            let _ =
                writeln!(child, "resource \"test_object\" \"r{r}\" {{\n  test_string = test_object.r{}.id\n}}", r - 1);
        }
    }
    let files = BTreeMap::from([("main.tf".to_string(), root), ("m/main.tf".to_string(), child)]);
    let mut resources = Vec::new();
    let mut changes = serde_json::Map::new();
    for m in 0..modules {
        for r in 0..100 {
            let deps: Vec<String> = (r - r % 10..r).map(|d| format!("module.m{m}.test_object.r{d}")).collect();
            resources.push(serde_json::json!({"module": format!("module.m{m}"), "mode": "managed", "type": "test_object", "name": format!("r{r}"),
                "provider": "provider[\"registry.terraform.io/hashicorp/test\"]",
                "instances": [{"schema_version": 0, "attributes": {"id": format!("{m}-{r}")}, "dependencies": deps}]}));
            let action = match (m + r) % 3 {
                0 => serde_json::json!(["update"]),
                1 if r % 10 == 0 => serde_json::json!(["create", "delete"]),
                1 => serde_json::json!(["delete", "create"]),
                _ => serde_json::json!(["delete"]),
            };
            changes.insert(format!("module.m{m}.test_object.r{r}"), action);
        }
    }
    let state =
        serde_json::json!({"version": 4, "serial": 1, "lineage": "perf", "outputs": {}, "resources": resources});
    (files, state.to_string(), serde_json::Value::Object(changes).to_string())
}
