//! The plan's human rendering (`src/plans/render_human.rs`) against the texts real Terraform
//! printed: every `plan.txt` recorded in tests/fixtures/engine (Terraform 1.11.4's
//! `terraform show -no-color` of the saved plan, from `plan.json` and the mock provider's
//! schemas), byte for byte; then cases of our own for what the scenarios do not reach, each
//! taken from Terraform's renderer tests (internal/command/jsonformat/plan_test.go,
//! computed/renderers/renderer_test.go).

use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use tfgraph::plans::render_human::{render_plan, word_wrap, PlanMode, RenderOptions};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/engine")
}

fn schemas() -> Value {
    serde_json::from_str(&fs::read_to_string(fixtures().join("mock-provider-schemas.json")).unwrap()).unwrap()
}

/// Every (scenario/step, plan.json, plan.txt, destroy?) recorded.
fn recorded() -> Vec<(String, Value, String, bool)> {
    let mut out = Vec::new();
    let mut scenarios: Vec<_> =
        fs::read_dir(fixtures()).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    scenarios.sort();
    for scenario in scenarios {
        let mut steps: Vec<_> =
            fs::read_dir(&scenario).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
        steps.sort();
        for step in steps {
            let (pj, pt) = (step.join("plan.json"), step.join("plan.txt"));
            if !pj.exists() || !pt.exists() {
                continue;
            }
            let env = fs::read_to_string(step.join("step.env")).unwrap_or_default()
                + &fs::read_to_string(scenario.join("scenario.env")).unwrap_or_default();
            let destroy = env.lines().any(|l| l.trim() == "DESTROY=1");
            let name = format!(
                "{}/{}",
                scenario.file_name().unwrap().to_string_lossy(),
                step.file_name().unwrap().to_string_lossy()
            );
            let plan = serde_json::from_str(&fs::read_to_string(pj).unwrap()).unwrap();
            out.push((name, plan, fs::read_to_string(pt).unwrap(), destroy));
        }
    }
    out
}

#[test]
fn every_recorded_plan_text_byte_for_byte() {
    let schemas = schemas();
    let cases = recorded();
    assert!(cases.len() >= 20, "expected the recorded scenarios, found {}", cases.len());
    let mut failures = Vec::new();
    for (name, plan, expected, destroy) in &cases {
        let mut opts = RenderOptions::from_plan(plan);
        if *destroy {
            opts.mode = PlanMode::Destroy;
        }
        let got = render_plan(plan, Some(&schemas), &opts);
        if &got != expected {
            failures.push(format!("--- {name}: expected\n{expected}\n--- got\n{got}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} plan texts differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// A plan JSON with one change of `mock_resource`-like shape but a schema of our own.
fn plan_with(schema_block: Value, rc: Value, outputs: Value) -> (Value, Value) {
    let schemas = json!({
        "format_version": "1.0",
        "provider_schemas": {
            "registry.terraform.io/hashicorp/test": {
                "resource_schemas": { "test_instance": { "version": 0, "block": schema_block } }
            }
        }
    });
    let plan = json!({
        "format_version": "1.2",
        "resource_changes": if rc.is_null() { json!([]) } else { json!([rc]) },
        "output_changes": outputs,
    });
    (plan, schemas)
}

fn rc(actions: Value, before: Value, after: Value, after_unknown: Value, extra: Value) -> Value {
    let mut change = json!({
        "actions": actions,
        "before": before,
        "after": after,
        "after_unknown": after_unknown,
        "before_sensitive": {},
        "after_sensitive": {},
    });
    if let Value::Object(m) = extra {
        for (k, v) in m {
            change[k] = v;
        }
    }
    json!({
        "address": "test_instance.example",
        "mode": "managed",
        "type": "test_instance",
        "name": "example",
        "provider_name": "registry.terraform.io/hashicorp/test",
        "change": change,
    })
}

/// The resource's own block as rendered (from `# ...` to the closing brace).
fn body(text: &str) -> String {
    let start = text.find("  # test_instance").expect("no resource in the text");
    let rest = &text[start..];
    let end = rest.find("\n\nPlan:").unwrap_or(rest.len());
    rest[..end].to_string()
}

fn render(schema_block: Value, rc: Value) -> String {
    let (plan, schemas) = plan_with(schema_block, rc, json!({}));
    body(&render_plan(&plan, Some(&schemas), &RenderOptions::default()))
}

#[test]
fn nested_blocks_lists_and_sets() {
    // plan_test.go "in-place update - nested block": a list block gains an element.
    let schema = json!({
        "attributes": { "id": { "type": "string", "computed": true }, "ami": { "type": "string", "optional": true } },
        "block_types": {
            "root_block_device": {
                "nesting_mode": "list",
                "block": { "attributes": { "volume_type": { "type": "string", "optional": true } } }
            }
        }
    });
    let got = render(
        schema,
        rc(
            json!(["update"]),
            json!({ "id": "i-02ae66f368e8518a9", "ami": "ami-BEFORE", "root_block_device": [] }),
            json!({ "id": "i-02ae66f368e8518a9", "ami": "ami-AFTER", "root_block_device": [{ "volume_type": "gp2" }] }),
            json!({}),
            json!({}),
        ),
    );
    let want = r#"  # test_instance.example will be updated in-place
  ~ resource "test_instance" "example" {
      ~ ami = "ami-BEFORE" -> "ami-AFTER"
        id  = "i-02ae66f368e8518a9"

      + root_block_device {
          + volume_type = "gp2"
        }
    }"#;
    assert_eq!(got, want);
}

#[test]
fn list_attribute_context_and_set_changes() {
    let schema = json!({
        "attributes": {
            "id": { "type": "string", "computed": true },
            "list_field": { "type": ["list", "string"], "optional": true },
            "list_ins": { "type": ["list", "string"], "optional": true },
            "set_field": { "type": ["set", "string"], "optional": true }
        }
    });
    let got = render(
        schema,
        rc(
            json!(["update"]),
            json!({ "id": "i-1", "list_field": ["aaaa", "bbbb", "cccc", "dddd", "eeee"], "list_ins": ["a", "b", "c"], "set_field": ["x", "y"] }),
            json!({ "id": "i-1", "list_field": ["aaaa", "bbbb", "xxxx", "dddd", "eeee"], "list_ins": ["a", "b", "x", "c"], "set_field": ["y", "z"] }),
            json!({}),
            json!({}),
        ),
    );
    // plan_test.go: one unchanged element shown on each side of a change, the rest counted;
    // lists of equal length (not a reordering) compare index by index, others on their longest
    // common subsequence.
    let want = r#"  # test_instance.example will be updated in-place
  ~ resource "test_instance" "example" {
        id         = "i-1"
      ~ list_field = [
            # (1 unchanged element hidden)
            "bbbb",
          ~ "cccc" -> "xxxx",
            "dddd",
            # (1 unchanged element hidden)
        ]
      ~ list_ins   = [
            # (1 unchanged element hidden)
            "b",
          + "x",
            "c",
        ]
      ~ set_field  = [
          - "x",
          + "z",
            # (1 unchanged element hidden)
        ]
    }"#;
    assert_eq!(got, want);
}

#[test]
fn sensitive_values_and_warnings() {
    let schema = json!({
        "attributes": {
            "id": { "type": "string", "computed": true },
            "password": { "type": "string", "optional": true, "sensitive": true },
            "tags": { "type": ["map", "string"], "optional": true }
        }
    });
    let mut change = rc(
        json!(["update"]),
        json!({ "id": "i-1", "password": "a", "tags": { "env": "dev" } }),
        json!({ "id": "i-1", "password": "b", "tags": { "env": "dev" } }),
        json!({}),
        json!({}),
    );
    change["change"]["before_sensitive"] = json!({ "password": true, "tags": { "env": false } });
    change["change"]["after_sensitive"] = json!({ "password": true, "tags": { "env": true } });
    let got = render(schema, change);
    let want = r#"  # test_instance.example will be updated in-place
  ~ resource "test_instance" "example" {
        id       = "i-1"
      ~ password = (sensitive value)
      ~ tags     = {
          # Warning: this attribute value will be marked as sensitive and will not
          # display in UI output after applying this change. The value is unchanged.
          ~ "env" = (sensitive value)
        }
    }"#;
    assert_eq!(got, want);
}

#[test]
fn multiline_strings_and_json_strings() {
    let schema = json!({
        "attributes": {
            "id": { "type": "string", "computed": true },
            "policy": { "type": "string", "optional": true },
            "script": { "type": "string", "optional": true }
        }
    });
    let got = render(
        schema,
        rc(
            json!(["update"]),
            json!({ "id": "i-1", "policy": "{\"a\":1,\"b\":[1,2]}", "script": "line one\nline two\nline three\n" }),
            json!({ "id": "i-1", "policy": "{\"a\":2,\"b\":[1,2]}", "script": "line one\nline 2\nline three\n" }),
            json!({}),
            json!({}),
        ),
    );
    let want = r#"  # test_instance.example will be updated in-place
  ~ resource "test_instance" "example" {
        id     = "i-1"
      ~ policy = jsonencode(
          ~ {
              ~ a = 1 -> 2
                # (1 unchanged attribute hidden)
            }
        )
      ~ script = <<-EOT
            line one
          - line two
          + line 2
            line three
        EOT
    }"#;
    assert_eq!(got, want);
}

#[test]
fn tainted_requested_and_deposed_comments() {
    let schema = json!({ "attributes": { "id": { "type": "string", "computed": true } } });
    let base = |reason: &str, actions: Value| {
        let mut r = rc(actions, json!({ "id": "i-1" }), json!({ "id": null }), json!({ "id": true }), json!({}));
        r["action_reason"] = json!(reason);
        r
    };
    let t = render(schema.clone(), base("replace_because_tainted", json!(["delete", "create"])));
    assert!(t.starts_with("  # test_instance.example is tainted, so must be replaced\n-/+ resource \"test_instance\" \"example\" {\n      ~ id = \"i-1\" -> (known after apply)\n    }"), "{t}");
    let r = render(schema.clone(), base("replace_by_request", json!(["create", "delete"])));
    assert!(r.starts_with("  # test_instance.example will be replaced, as requested\n+/- resource"), "{r}");
    let mut d = rc(json!(["delete"]), json!({ "id": "i-1" }), Value::Null, json!({}), json!({}));
    d["deposed"] = json!("00000001");
    let d = render(schema, d);
    assert_eq!(
        d,
        "  # test_instance.example (deposed object 00000001) will be destroyed\n  # (left over from a partially-failed replacement of this instance)\n  - resource \"test_instance\" \"example\" {\n      - id = \"i-1\" -> null\n    }"
    );
}

#[test]
fn outputs_only_and_no_changes_texts() {
    let (plan, schemas) = plan_with(
        json!({ "attributes": {} }),
        Value::Null,
        json!({ "foo": { "actions": ["create"], "before": null, "after": "bar", "after_unknown": false, "before_sensitive": false, "after_sensitive": false } }),
    );
    let got = render_plan(&plan, Some(&schemas), &RenderOptions::default());
    assert_eq!(
        got,
        "\nChanges to Outputs:\n  + foo = \"bar\"\n\nYou can apply this plan to save these new output values to the Terraform\nstate, without changing any real infrastructure.\n"
    );
    let (plan, schemas) = plan_with(json!({ "attributes": {} }), Value::Null, json!({}));
    let destroy = RenderOptions { mode: PlanMode::Destroy, ..RenderOptions::default() };
    assert_eq!(
        render_plan(&plan, Some(&schemas), &destroy),
        "\nNo changes. No objects need to be destroyed.\n\nEither you have not created any objects yet or the existing objects were\nalready deleted outside of Terraform.\n"
    );
    let errored = RenderOptions { errored: true, ..RenderOptions::default() };
    assert_eq!(
        render_plan(&plan, Some(&schemas), &errored),
        "\nPlanning failed. Terraform encountered an error while generating this plan.\n\n"
    );
}

#[test]
fn without_a_schema_values_render_as_json() {
    // A provider with no schema (the generic mock): attributes render as Terraform renders outputs.
    let plan = json!({
        "format_version": "1.2",
        "resource_changes": [{
            "address": "aws_instance.web", "mode": "managed", "type": "aws_instance", "name": "web",
            "provider_name": "registry.terraform.io/hashicorp/aws",
            "change": { "actions": ["create"], "before": null,
                        "after": { "ami": "ami-1", "tags": { "Name": "web" } },
                        "after_unknown": { "id": true }, "before_sensitive": false, "after_sensitive": {} }
        }]
    });
    let got = render_plan(&plan, None, &RenderOptions::default());
    assert!(got.contains(
        "  # aws_instance.web will be created\n  + resource \"aws_instance\" \"web\" {\n      + ami  = \"ami-1\"\n      + id   = (known after apply)\n      + tags = {\n          + Name = \"web\"\n        }\n    }\n"
    ), "{got}");
    assert!(got.ends_with("\nPlan: 1 to add, 0 to change, 0 to destroy.\n"), "{got}");
}

#[test]
fn word_wrap_as_go_wordwrap() {
    assert_eq!(
        word_wrap(
            "Terraform used the selected providers to generate the following execution plan. Resource actions",
            78
        ),
        "Terraform used the selected providers to generate the following execution\nplan. Resource actions"
    );
    assert_eq!(
        word_wrap("  indented lines stay whole however long they are, even past the width given", 20),
        "  indented lines stay whole however long they are, even past the width given"
    );
}
