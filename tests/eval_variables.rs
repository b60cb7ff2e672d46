#![cfg(not(target_arch = "wasm32"))]
//! Input variables as Terraform 1.11.4 reports them (each text and range below was printed by
//! `terraform plan -json` on the same files): values from the API (as -var), tfvars files and
//! module calls, their precedence, type constraints with optional defaults, and validation.

use serde_json::json;
use std::collections::BTreeMap;
use tfgraph::eval::{evaluate, render, EvalOptions};

const MAIN: &str = r#"variable "n" {
  type = number
  validation {
    condition     = var.n > 2
    error_message = "n must be more than two."
  }
}
variable "o" {
  type    = object({ a = string, b = optional(number, 5) })
  default = { a = "x" }
}
"#;

fn run(files: &[(&str, &str)], vars: serde_json::Value, expr: &str) -> Result<String, Vec<(String, String, String)>> {
    let files: BTreeMap<String, String> = files.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let loaded = tfgraph::load(&files, &Default::default());
    let opts = EvalOptions { variables: vars.as_object().unwrap().clone().into_iter().collect(), ..Default::default() };
    let out = evaluate(&files, &loaded.config, expr, &opts);
    let errors: Vec<_> = out
        .diagnostics
        .errors()
        .map(|d| {
            let r = d
                .range
                .as_ref()
                .map(|r| format!("{}:{},{}", r.filename, r.start.line, r.start.column))
                .unwrap_or_default();
            (d.summary.clone(), d.detail.clone(), r)
        })
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(render::console(&out.value.unwrap()))
}

#[test]
fn validation_failure_names_the_rule() {
    let err = run(&[("main.tf", MAIN)], json!({ "n": 1 }), "var.n").unwrap_err();
    assert_eq!(
        err,
        [(
            "Invalid value for variable".to_string(),
            "n must be more than two.\n\nThis was checked by the validation rule at main.tf:3,3-13.".to_string(),
            "main.tf:1,1".to_string()
        )]
    );
}

#[test]
fn api_values_are_reported_as_var_flags() {
    let err = run(&[("main.tf", MAIN)], json!({ "n": 5, "o": { "a": [1] } }), "var.o").unwrap_err();
    assert_eq!(err[0].0, "Invalid value for input variable");
    assert_eq!(err[0].1, "Unsuitable value for var.o set using -var=\"o=...\": attribute \"a\": string required.");
    assert_eq!(err[0].2, "main.tf:8,1");
}

#[test]
fn tfvars_values_point_at_the_value() {
    let err =
        run(&[("main.tf", MAIN), ("terraform.tfvars", "n = 5\no = { a = [1] }\n")], json!({}), "var.o").unwrap_err();
    assert_eq!(
        err[0].1,
        "The given value is not suitable for var.o declared at main.tf:8,1-13: attribute \"a\": string required."
    );
    assert_eq!(err[0].2, "terraform.tfvars:2,5");
}

#[test]
fn module_arguments_point_at_the_argument() {
    let root = "module \"m\" {\n  source = \"./mod\"\n  n = 5\n  o = { a = [1] }\n}\noutput \"x\" {\n  value = module.m.o\n}\n";
    let child = MAIN.to_string() + "output \"o\" {\n  value = var.o\n}\n";
    let err = run(&[("main.tf", root), ("mod/main.tf", &child)], json!({}), "module.m.o").unwrap_err();
    assert_eq!(err[0].1, "The given value is not suitable for module.m.var.o declared at mod/main.tf:8,1-13: attribute \"a\": string required.");
    assert_eq!(err[0].2, "main.tf:4,7");
}

#[test]
fn defaults_are_checked_against_the_type() {
    let err = run(&[("main.tf", "variable \"x\" {\n  type = number\n  default = \"abc\"\n}\n")], json!({}), "var.x")
        .unwrap_err();
    assert_eq!(
        err[0],
        (
            "Invalid default value for variable".to_string(),
            "This default value is not compatible with the variable's type constraint: a number is required."
                .to_string(),
            "main.tf:3,13".to_string()
        )
    );
}

#[test]
fn precedence_and_optional_defaults() {
    let files = [
        ("main.tf", MAIN),
        ("terraform.tfvars", "n = 3\n"),
        ("b.auto.tfvars", "n = 5\n"),
        ("a.auto.tfvars.json", "{\"n\": 4, \"o\": {\"a\": \"y\"}}"),
    ];
    // *.auto.tfvars in lexical order over terraform.tfvars; API values over both.
    assert_eq!(run(&files, json!({}), "var.n").unwrap(), "5");
    assert_eq!(run(&files, json!({ "n": 9 }), "var.n").unwrap(), "9");
    assert_eq!(run(&files, json!({}), "var.o").unwrap(), "{\n  \"a\" = \"y\"\n  \"b\" = 5\n}");
}
