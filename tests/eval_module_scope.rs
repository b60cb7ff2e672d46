#![cfg(not(target_arch = "wasm32"))]
//! `evaluate(..., { module })`: expressions evaluated in a called module's scope, with the
//! values its call passes in, and clear refusals for what has no single scope.

use std::collections::BTreeMap;
use tfgraph::eval::{evaluate, render, EvalOptions};

const FILES: &[(&str, &str)] = &[
    ("main.tf", "module \"net\" {\n  source = \"./modules/net\"\n  cidr   = \"10.0.0.0/16\"\n}\nmodule \"many\" {\n  source = \"./modules/net\"\n  count  = 2\n  cidr   = \"10.1.0.0/16\"\n}\n"),
    ("modules/net/main.tf", "variable \"cidr\" {}\nlocals {\n  name = \"net-${var.cidr}\"\n}\nmodule \"sub\" {\n  source = \"./sub\"\n  parent = local.name\n}\noutput \"name\" {\n  value = local.name\n}\n"),
    ("modules/net/sub/main.tf", "variable \"parent\" {}\nlocals {\n  label = upper(var.parent)\n}\noutput \"label\" {\n  value = local.label\n}\n"),
];

fn eval(module: &str, expr: &str) -> Result<String, String> {
    let files: BTreeMap<String, String> = FILES.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let loaded = tfgraph::load(&files, &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let out = evaluate(&files, &loaded.config, expr, &EvalOptions { module: module.into(), ..Default::default() });
    let first_error = out.diagnostics.errors().next().map(|d| format!("{}: {}", d.summary, d.detail));
    match (out.value, first_error) {
        (Some(v), None) => Ok(render::console(&v)),
        (_, Some(e)) => Err(e),
        (None, None) => panic!("no value and no error"),
    }
}

#[test]
fn module_scopes_see_their_own_names() {
    assert_eq!(eval("", "module.net.name").unwrap(), "\"net-10.0.0.0/16\"");
    assert_eq!(eval("module.net", "var.cidr").unwrap(), "\"10.0.0.0/16\"");
    assert_eq!(eval("module.net", "local.name").unwrap(), "\"net-10.0.0.0/16\"");
    assert_eq!(eval("module.net", "path.module").unwrap(), "\"modules/net\"");
    assert_eq!(eval("module.net.module.sub", "local.label").unwrap(), "\"NET-10.0.0.0/16\"");
    assert_eq!(eval("module.net", "module.sub.label").unwrap(), "\"NET-10.0.0.0/16\"");
}

#[test]
fn scopes_that_do_not_exist_are_refused_clearly() {
    let e = eval("module.nope", "1").unwrap_err();
    assert!(e.starts_with("Reference to undeclared module: No module call named \"nope\""), "{e}");
    let e = eval("module.many", "var.cidr").unwrap_err();
    assert!(e.starts_with("Module scope not available"), "{e}");
    let e = eval("module.many[0]", "var.cidr").unwrap_err();
    assert!(e.starts_with("Module instance scope not supported"), "{e}");
    let e = eval("net", "1").unwrap_err();
    assert!(e.starts_with("Invalid module address"), "{e}");
    let e = eval("module.net", "var.nope").unwrap_err();
    assert!(e.starts_with("Reference to undeclared input variable"), "{e}");
}
