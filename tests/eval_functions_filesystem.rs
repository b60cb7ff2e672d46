#![cfg(not(target_arch = "wasm32"))]
//! The filesystem functions and `templatefile` against Terraform: every case of
//! `tests/fixtures/eval/functions/filesystem.json`, recorded from Terraform 1.11.4 with the
//! fixture's `files` beside main.tf (tfgraph reads them from the loaded files, never a disk).

mod support;
use support::console as harness;

#[test]
fn filesystem_functions_as_terraform_evaluates_them() {
    let n = harness::run("filesystem.json", harness::console);
    assert!(n >= 50, "only {n} cases");
}

/// `path.cwd`, `abspath` and absolute paths in the file functions against Terraform:
/// `tests/fixtures/eval/functions/cwd.json`, recorded from Terraform 1.11.4 run in a scratch
/// folder whose path the fixture writes as `/home/user/infra/envs/prod`. The files are loaded
/// here under `envs/prod/` (the root module's folder among the files) with that working
/// directory given, so relative paths resolve from the root module while errors name them as
/// Terraform does, relative to the working directory.
#[test]
fn working_directory_as_terraform_sees_it() {
    use std::collections::BTreeMap;
    use tfgraph::eval::{evaluate, render, EvalOptions};
    let n = harness::run("cwd.json", |setup, expr| {
        let mut main = String::from("locals {\n");
        for (k, v) in &setup.locals {
            main.push_str(&format!("  {k} = {v}\n"));
        }
        main.push_str("}\n");
        let mut files: BTreeMap<String, String> =
            setup.files.iter().map(|(p, t)| (format!("envs/prod/{p}"), t.clone())).collect();
        files.insert("envs/prod/main.tf".to_string(), main);
        files.insert("modules/x/main.tf".to_string(), "# beside the root, not under it\n".to_string());
        let mut loaded = tfgraph::load(&files, &tfgraph::LoadOptions { root: "envs/prod".into() });
        assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
        loaded.config.cwd = Some("/home/user/infra/envs/prod".into());
        let out = evaluate(&files, &loaded.config, expr, &EvalOptions::default());
        match out.value {
            Some(v) => harness::Outcome::Value {
                json: render::to_json_text(&v),
                ty: v.ty().type_expr(),
                rendered: render::console(&v),
            },
            None => {
                let d = out.diagnostics.errors().next().expect("an error without a diagnostic");
                let r = d.range.as_ref().filter(|r| r.filename == "<console-input>");
                harness::Outcome::Error {
                    summary: d.summary.clone(),
                    detail: d.detail.clone(),
                    start: r.map(|r| r.start.column as usize - 1),
                    end: r.map(|r| r.end.column as usize - 1),
                }
            }
        }
    });
    assert!(n >= 25, "only {n} cases");
}

/// Without a working directory `path.cwd` stays `"."` and `abspath` of a relative path is
/// unknown (there is no absolute path to give).
#[test]
fn no_working_directory_given() {
    use std::collections::BTreeMap;
    use tfgraph::eval::{evaluate, render, EvalOptions};
    let files: BTreeMap<String, String> = [("main.tf".to_string(), String::new())].into();
    let loaded = tfgraph::load(&files, &Default::default());
    let show = |e: &str| render::console(&evaluate(&files, &loaded.config, e, &EvalOptions::default()).value.unwrap());
    assert_eq!(show("path.cwd"), "\".\"");
    assert_eq!(show("abspath(\"x\")"), "(known after apply)");
    assert_eq!(show("abspath(\"/x/../y\")"), "\"/y\"");
}
