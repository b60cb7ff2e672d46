#![cfg(not(target_arch = "wasm32"))]
//! Registry and git modules through Terraform's module manifest
//! (`.terraform/modules/modules.json`), as `terraform init` lays them out: key lookup (dotted
//! for nested calls), `Dir` relative to the root module, local sources inside installed
//! modules, source and version checks (`configload/loader_load.go`), malformed manifests, and
//! the graphs the loaded modules produce.

use std::collections::BTreeMap;
use std::path::Path;
use tfgraph::config::{load, LoadOptions, Loaded, Module};
use tfgraph::graph::{build, BuildOptions};
use tfgraph::Severity;

mod support;

/// Every file of a fixture folder under `tests/fixtures/config/<case>/`, dot-folders included.
fn fixture(case: &str) -> BTreeMap<String, String> {
    support::read_fixture(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/config").join(case))
}

fn load_root(files: &BTreeMap<String, String>, root: &str) -> Loaded {
    load(files, &LoadOptions { root: root.into() })
}

/// Every loaded module: (address, folder, resource addresses).
fn modules(m: &Module, out: &mut Vec<(String, String, Vec<String>)>) {
    out.push((m.address.clone(), m.dir.clone(), m.resources.iter().map(|r| r.address.clone()).collect()));
    for c in &m.module_calls {
        if let Some(child) = &c.module {
            modules(child, out);
        }
    }
}

fn summaries(l: &Loaded) -> Vec<(Severity, String, String, String)> {
    l.diagnostics
        .iter()
        .map(|d| {
            (
                d.severity,
                d.summary.clone(),
                d.detail.clone(),
                d.range.as_ref().map(|r| r.to_string()).unwrap_or_default(),
            )
        })
        .collect()
}

fn graph_names(l: &Loaded) -> Vec<String> {
    let built = build(&l.config, &BuildOptions::default());
    assert!(!built.diagnostics.has_errors(), "{:#?}", built.diagnostics);
    built.graph.nodes().into_iter().map(|n| n.name).collect()
}

#[test]
fn installed_modules_load_from_the_manifest() {
    let l = load_root(&fixture("manifest-installed"), "");
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let mut all = Vec::new();
    modules(&l.config.root, &mut all);
    let want: Vec<(&str, &str, Vec<&str>)> = vec![
        ("", "", vec![]),
        ("module.vpc", ".terraform/modules/vpc", vec!["module.vpc.aws_vpc.this"]),
        (
            "module.vpc.module.subnets",
            ".terraform/modules/vpc.subnets",
            vec!["module.vpc.module.subnets.aws_subnet.this"],
        ),
        (
            "module.vpc.module.flow",
            ".terraform/modules/vpc/modules/flow-log",
            vec!["module.vpc.module.flow.aws_flow_log.this"],
        ),
        ("module.vpc.module.flow.module.common", ".terraform/modules/vpc/shared", vec![]),
        ("module.sg", ".terraform/modules/sg", vec!["module.sg.aws_security_group.this"]),
        ("module.role", ".terraform/modules/role/modules/iam-role", vec!["module.role.aws_iam_role.this"]),
        (
            "module.role.module.policy",
            ".terraform/modules/role/modules/iam-policy",
            vec!["module.role.module.policy.aws_iam_role_policy.this"],
        ),
        ("module.app", "modules/app", vec!["module.app.aws_instance.web"]),
        (
            "module.app.module.label",
            ".terraform/modules/app.label",
            vec!["module.app.module.label.null_resource.label"],
        ),
    ];
    let got: Vec<(&str, &str, Vec<&str>)> =
        all.iter().map(|(a, d, r)| (a.as_str(), d.as_str(), r.iter().map(String::as_str).collect())).collect();
    assert_eq!(got, want);
    // The installed modules' files carry their real paths (diagnostics point into them).
    let vpc = l.config.root.module_calls.iter().find(|c| c.name == "vpc").unwrap().module.as_ref().unwrap();
    assert_eq!(vpc.files, [".terraform/modules/vpc/main.tf"]);
}

#[test]
fn installed_modules_build_full_graphs() {
    let l = load_root(&fixture("manifest-installed"), "");
    let names = graph_names(&l);
    for want in [
        "module.vpc.aws_vpc.this (expand)",
        "module.vpc.module.subnets.aws_subnet.this (expand)",
        "module.vpc.module.flow.aws_flow_log.this (expand)",
        "module.sg.aws_security_group.this (expand)",
        "module.role.aws_iam_role.this (expand)",
        "module.role.module.policy.aws_iam_role_policy.this (expand)",
        "module.app.module.label.null_resource.label (expand)",
        "module.app.aws_instance.web (expand)",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} not in {names:#?}");
    }
    // The same configuration without its manifest: every non-local call is an opaque stand-in.
    let mut bare = fixture("manifest-installed");
    bare.retain(|k, _| !k.starts_with(".terraform/"));
    let l = load_root(&bare, "");
    let warnings: Vec<_> = summaries(&l).into_iter().map(|(s, sum, _, at)| (s, sum, at)).collect();
    assert_eq!(
        warnings,
        [
            (Severity::Warning, "Module not installed".to_string(), "main.tf:3,13-44".to_string()),
            (Severity::Warning, "Module not installed".to_string(), "main.tf:9,12-61".to_string()),
            (Severity::Warning, "Module not installed".to_string(), "main.tf:14,13-84".to_string()),
            (Severity::Warning, "Module not installed".to_string(), "modules/app/main.tf:4,13-30".to_string()),
        ]
    );
    let names = graph_names(&l);
    assert!(!names.iter().any(|n| n.starts_with("module.vpc.aws_vpc")), "{names:#?}");
}

#[test]
fn root_in_a_subfolder_and_unnormalised_paths() {
    // The manifest sits under the root module's folder; Dir is relative to that folder.
    let files: BTreeMap<String, String> =
        fixture("manifest-installed").into_iter().map(|(k, v)| (format!("./envs\\prod/{k}"), v)).collect();
    let l = load_root(&files, "envs/prod");
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    let mut all = Vec::new();
    modules(&l.config.root, &mut all);
    assert_eq!(all.len(), 10);
    assert!(all
        .iter()
        .any(|(a, d, _)| a == "module.vpc.module.subnets" && d == "envs/prod/.terraform/modules/vpc.subnets"));
    // A manifest elsewhere (not under the root module's folder) is not this root's manifest.
    let l = load_root(&files, "envs/prod/modules/app");
    assert_eq!(summaries(&l).iter().filter(|d| d.1 == "Module not installed").count(), 1);
}

#[test]
fn manifest_sources_with_or_without_the_registry_host() {
    let mut files = fixture("manifest-installed");
    let m = files.get_mut(".terraform/modules/modules.json").unwrap();
    // Old manifests hold sources as written; Terraform normalises them on read (modsdir/manifest.go).
    *m = m
        .replace("registry.terraform.io/acme/subnets/aws", "acme/subnets/aws")
        .replace("\"terraform-aws-modules/vpc/aws\"", "\"registry.terraform.io/terraform-aws-modules/vpc/aws\"");
    let l = load_root(&files, "");
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
}

#[test]
fn negative_cases_match_terraform() {
    let l = load_root(&fixture("manifest-negative"), "");
    let init = "Run \"terraform init\" to install all modules required by this configuration.";
    assert_eq!(
        summaries(&l),
        [
            (Severity::Warning, "Module not installed".into(), format!("This module is not yet installed. {init}"), "main.tf:2,12-30".into()),
            (
                Severity::Warning,
                "Module not installed".into(),
                format!("This module's local cache directory .terraform/modules/gone could not be read. {init}"),
                "main.tf:6,12-27".into()
            ),
            (
                Severity::Error,
                "Module source has changed".into(),
                format!("The source address was changed since this module was installed. {init}"),
                "main.tf:10,12-26".into()
            ),
            (
                Severity::Error,
                "Module version requirements have changed".into(),
                format!("The version requirements have changed since this module was installed and the installed version (1.4.0) is no longer acceptable. {init}"),
                "main.tf:14,13-30".into()
            ),
            (
                Severity::Error,
                "Module version requirements have changed".into(),
                format!("The version requirements have changed since this module was installed and the installed version is no longer acceptable. {init}"),
                "main.tf:19,13-29".into()
            ),
        ]
    );
    // As in Terraform, a changed source or version is reported but the installed module still loads.
    let loaded: Vec<(&str, bool)> =
        l.config.root.module_calls.iter().map(|c| (c.name.as_str(), c.module.is_some())).collect();
    assert_eq!(loaded, [("missing", false), ("gone", false), ("changed", true), ("pinned", true), ("nover", true)]);
}

#[test]
fn malformed_manifests_are_errors_in_modules_json() {
    let l = load_root(&fixture("manifest-malformed"), "");
    let d = summaries(&l);
    assert_eq!(d.len(), 2, "{d:#?}");
    assert_eq!(d[0].0, Severity::Error);
    assert_eq!(d[0].1, "Failed to read modules manifest file");
    assert!(
        d[0].2.starts_with("Error reading manifest for .terraform/modules: error unmarshalling snapshot: "),
        "{}",
        d[0].2
    );
    assert_eq!(d[0].3, ".terraform/modules/modules.json:2,93-94");
    // The manifest is then ignored: the call stays opaque.
    assert_eq!(d[1].1, "Module not installed");
    assert!(l.config.root.module_calls[0].module.is_none());

    let with = |json: &str| {
        let mut f = fixture("manifest-malformed");
        f.insert(".terraform/modules/modules.json".into(), json.into());
        summaries(&load_root(&f, ""))
    };
    let cases = [
        (r#"[1]"#, "json: cannot unmarshal array into Go value of type modsdir.manifestSnapshotFile", "1,1-4"),
        (
            r#"{"Modules": {"Key": "vpc"}}"#,
            "cannot unmarshal object into Go struct field manifestSnapshotFile.Modules of type []modsdir.Record",
            "1,13-27",
        ),
        (
            r#"{"Modules": [{"Key": 1}]}"#,
            "cannot unmarshal number into Go struct field manifestSnapshotFile.Modules.Key of type string",
            "1,22-23",
        ),
        (r#"{"Modules": [{"Key": "vpc", "Version": "one"}]}"#, "invalid version \"one\" for vpc", "1,40-45"),
        (
            r#"{"Modules": [{"Key": "vpc"}, {"Key": "vpc"}]}"#,
            "snapshot file contains two records for path vpc",
            "1,30-44",
        ),
    ];
    for (json, detail, at) in cases {
        let d = with(json);
        assert_eq!(d[0].1, "Failed to read modules manifest file", "{json}");
        assert!(d[0].2.contains(detail), "{json}: {}", d[0].2);
        assert_eq!(d[0].3, format!(".terraform/modules/modules.json:{at}"), "{json}");
    }
    // Tolerated as Terraform tolerates them: an empty file, null, lower-case field names.
    for json in [
        "",
        "null",
        "{}",
        r#"{"modules": [{"key": "vpc", "source": "terraform-aws-modules/vpc/aws", "dir": ".terraform/modules/vpc"}]}"#,
    ] {
        let d = with(json);
        assert!(d.iter().all(|d| d.0 == Severity::Warning), "{json}: {d:#?}");
    }
    assert!(with(
        r#"{"modules": [{"key": "vpc", "source": "terraform-aws-modules/vpc/aws", "dir": ".terraform/modules/vpc"}]}"#
    )
    .is_empty());
}

#[test]
fn git_sources_match_in_their_canonical_form() {
    let mut files = fixture("manifest-installed");
    // The GitHub shorthand is stored expanded, with the subdir before the query.
    files.insert("main.tf".into(), "module \"gh\" {\n  source = \"github.com/acme/net//modules/x?ref=v2\"\n}\n".into());
    files.insert(".terraform/modules/gh/modules/x/main.tf".into(), "resource \"a_b\" \"c\" {}\n".into());
    files.insert(
        ".terraform/modules/modules.json".into(),
        r#"{"Modules":[{"Key":"gh","Source":"git::https://github.com/acme/net.git//modules/x?ref=v2","Dir":".terraform/modules/gh/modules/x"}]}"#.into(),
    );
    let l = load_root(&files, "");
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
    assert_eq!(l.config.root.module_calls[0].module.as_ref().unwrap().resources[0].address, "module.gh.a_b.c");
}
