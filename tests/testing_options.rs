//! The runner's options: `-var-file` and `-var` values below the test files' own, `-filter`,
//! `-test-directory`; a run's variable that the module does not declare stays a test-only
//! variable (readable in assertions, never given to the module).

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use tfgraph::testing::runner::{run, Options, Status};

const MAIN: &str = "variable \"name\" {\n  type    = string\n  default = \"d\"\n}\n\nresource \"mock_resource\" \"a\" {\n  name = var.name\n}\n\noutput \"name\" {\n  value = mock_resource.a.name\n}\n";

fn files(test: &str) -> BTreeMap<String, String> {
    BTreeMap::from([("main.tf".to_string(), MAIN.to_string()), ("tests/a.tftest.hcl".to_string(), test.to_string())])
}

fn statuses(f: &BTreeMap<String, String>, o: &Options) -> Vec<Status> {
    run(f, o, &mut |_| {}).files.iter().flat_map(|f| f.runs.iter().map(|r| r.status)).collect()
}

#[test]
fn var_files_and_vars_sit_below_the_test_files() {
    let test = "run \"a\" {\n  command = plan\n\n  assert {\n    condition     = output.name == \"from-file\"\n    error_message = \"name\"\n  }\n}\n";
    let f = files(test);
    let with_file =
        Options { var_files: vec![("x.tfvars".into(), "name = \"from-file\"\n".into())], ..Default::default() };
    assert_eq!(statuses(&f, &with_file), vec![Status::Pass]);
    // -var wins over -var-file.
    let with_var =
        Options { variables: BTreeMap::from([("name".to_string(), serde_json::json!("v"))]), ..with_file.clone() };
    assert_eq!(statuses(&f, &with_var), vec![Status::Fail]);
    // The file's variables win over both.
    let f2 = files(&format!("variables {{\n  name = \"from-file\"\n}}\n\n{test}"));
    assert_eq!(statuses(&f2, &with_var), vec![Status::Pass]);
}

#[test]
fn test_only_variables_are_readable_in_assertions() {
    let f = files("run \"a\" {\n  command = plan\n\n  variables {\n    expected = \"d\"\n  }\n\n  assert {\n    condition     = output.name == var.expected\n    error_message = \"name\"\n  }\n}\n");
    assert_eq!(statuses(&f, &Options::default()), vec![Status::Pass]);
}

#[test]
fn filter_and_test_directory() {
    let mut f = files("run \"a\" {\n  command = plan\n}\n");
    f.insert("spec/b.tftest.hcl".into(), "run \"b\" {\n  command = plan\n}\n".into());
    f.insert("c.tftest.hcl".into(), "run \"c\" {\n  command = plan\n}\n".into());
    let paths = |o: &Options| run(&f, o, &mut |_| {}).files.iter().map(|x| x.path.clone()).collect::<Vec<_>>();
    assert_eq!(paths(&Options::default()), vec!["c.tftest.hcl", "tests/a.tftest.hcl"]);
    assert_eq!(
        paths(&Options { test_directory: Some("spec".into()), ..Default::default() }),
        vec!["c.tftest.hcl", "spec/b.tftest.hcl"]
    );
    assert_eq!(
        paths(&Options { filter: vec!["tests/a.tftest.hcl".into()], ..Default::default() }),
        vec!["tests/a.tftest.hcl"]
    );
}

#[test]
fn plan_run_outputs_unknown_after_apply_are_refused_downstream() {
    // `id` is known only after apply: a later run reading it from a plan run is an error.
    let main = format!("{MAIN}\noutput \"id\" {{\n  value = mock_resource.a.id\n}}\n");
    let f = BTreeMap::from([
        ("main.tf".to_string(), main),
        ("tests/a.tftest.hcl".to_string(), "run \"p\" {\n  command = plan\n}\n\nrun \"q\" {\n  command = plan\n\n  variables {\n    name = run.p.id\n  }\n}\n".to_string()),
    ]);
    let suite = run(&f, &Options::default(), &mut |_| {});
    let q = &suite.files[0].runs[1];
    assert_eq!(q.status, Status::Error);
    assert_eq!(q.diagnostics.iter().next().map(|d| d.summary.as_str()), Some("Reference to unknown value"));
}

/// `variable` blocks in test files (Terraform 1.13.0, hashicorp/terraform#37195; 1.11.4 cannot
/// record them): the value from `-var` / `-var-file`, else the default, converted to the type;
/// no value and no default is an error; a name both in a `variable` block and in `variables`
/// is refused at load.
#[test]
fn variable_blocks_take_values_from_outside_else_their_default() {
    let test = "variable \"wanted\" {\n  type    = string\n  default = \"d\"\n}\n\nrun \"a\" {\n  command = plan\n\n  variables {\n    name = var.wanted\n  }\n\n  assert {\n    condition     = output.name == \"d\"\n    error_message = \"name\"\n  }\n}\n";
    let f = files(test);
    assert_eq!(statuses(&f, &Options::default()), vec![Status::Pass]);
    let given =
        Options { variables: BTreeMap::from([("wanted".to_string(), serde_json::json!("v"))]), ..Default::default() };
    assert_eq!(statuses(&f, &given), vec![Status::Fail]);
    // A number given for a string is converted; a list is refused.
    let number =
        Options { variables: BTreeMap::from([("wanted".to_string(), serde_json::json!(5))]), ..Default::default() };
    assert_eq!(statuses(&f, &number), vec![Status::Fail]);
    let list =
        Options { variables: BTreeMap::from([("wanted".to_string(), serde_json::json!(["x"]))]), ..Default::default() };
    let suite = run(&f, &list, &mut |_| {});
    assert_eq!(suite.files[0].runs[0].status, Status::Error);
    let d = &suite.files[0].runs[0].diagnostics;
    assert!(
        d.iter().any(|d| d.summary == "Invalid value for variable" && d.detail.contains("string required")),
        "{d:?}"
    );
    // No default and no value.
    let required = files(&test.replace("  default = \"d\"\n", ""));
    let suite = run(&required, &Options::default(), &mut |_| {});
    assert_eq!(suite.files[0].runs[0].status, Status::Error);
    assert!(suite.files[0].runs[0].diagnostics.iter().any(|d| d.summary == "No value for required variable"));
    // The same name in `variables` and a `variable` block.
    let dup = files(&format!("variables {{\n  wanted = \"x\"\n}}\n\n{test}"));
    let suite = run(&dup, &Options::default(), &mut |_| {});
    assert!(suite.diagnostics.iter().any(|d| d.summary == "Duplicate \"variable\" block names"));
    assert_eq!(suite.exit_code(), 1);
}
