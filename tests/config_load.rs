#![cfg(not(target_arch = "wasm32"))]
//! Loading: files and folders, the module tree, every block type decoded into the model,
//! override files, and the JSON syntax (including equivalence with native syntax).

use std::collections::BTreeMap;
use std::path::Path;
use tfgraph::config::{load, IgnoreChanges, LoadOptions, Loaded, Module};

mod support;

fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn load_at(list: &[(&str, &str)], root: &str) -> Loaded {
    load(&files(list), &LoadOptions { root: root.to_string() })
}

/// Every file of a fixture folder under `tests/fixtures/config/<case>/`.
fn fixture(case: &str) -> BTreeMap<String, String> {
    support::read_fixture(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/config").join(case))
}

fn no_diags(l: &Loaded) {
    assert!(l.diagnostics.is_empty(), "{:#?}", l.diagnostics);
}

#[test]
fn folders_files_and_paths() {
    let l = load_at(
        &[
            ("./envs\\prod//main.tf", "resource \"a_b\" \"c\" {}\n"),
            ("envs/prod/b.tf.json", "{\"locals\": {\"x\": 1}}"),
            ("envs/prod/a.tftest.hcl", "this is not loaded"),
            ("envs/prod/terraform.tfvars", "x = 1"),
            ("envs/prod/notes.md", "#"),
            ("envs/prod/sub/other.tf", "resource \"x\" {}"),
            ("main.tf", "broken {"),
        ],
        "envs/prod/",
    );
    no_diags(&l);
    assert_eq!(l.config.root.dir, "envs/prod");
    assert_eq!(l.config.root.files, ["envs/prod/b.tf.json", "envs/prod/main.tf"]);
    assert_eq!(l.config.root.resources[0].address, "a_b.c");
    assert_eq!(l.config.root.locals[0].name, "x");
}

#[test]
fn empty_root_is_an_error() {
    let l = load_at(&[("main.tf", "")], "nothing/here");
    let d: Vec<_> = l.diagnostics.iter().collect();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].summary, "No configuration files");
    assert_eq!(d[0].detail, "The directory nothing/here contains no Terraform configuration files.");
    // An empty file is still a configuration file.
    no_diags(&load_at(&[("main.tf", "")], ""));
}

#[test]
fn module_tree_from_fixture() {
    let l = load(&fixture("modules"), &LoadOptions { root: "envs/prod".into() });
    let warnings: Vec<_> =
        l.diagnostics.iter().map(|d| (d.severity, d.summary.as_str(), d.range.as_ref().unwrap().to_string())).collect();
    assert_eq!(
        warnings,
        [
            (tfgraph::Severity::Warning, "Module not installed", "envs/prod/main.tf:11,13-44".to_string()),
            (tfgraph::Severity::Warning, "Module not installed", "envs/prod/main.tf:15,12-61".to_string()),
        ]
    );
    let modules: Vec<(String, String)> =
        l.config.modules().iter().map(|m| (m.address.clone(), m.dir.clone())).collect();
    assert_eq!(
        modules,
        [
            ("".to_string(), "envs/prod".to_string()),
            ("module.net".into(), "modules/net".into()),
            ("module.net.module.subnets".into(), "modules/net/subnets".into()),
        ]
    );
    let root = &l.config.root;
    let kinds: Vec<(&str, &str, bool)> =
        root.module_calls.iter().map(|c| (c.name.as_str(), c.source_kind.as_str(), c.module.is_some())).collect();
    assert_eq!(kinds, [("net", "local", true), ("vpc", "registry", false), ("remote", "git", false)]);
    let net = root.module_calls[0].module.as_ref().unwrap();
    let sub = net.module_calls[0].module.as_ref().unwrap();
    assert_eq!(sub.resources[0].address, "module.net.module.subnets.aws_subnet.s");
    assert_eq!(sub.path.0, ["net", "subnets"]);
    assert_eq!(net.providers[0].address, "module.net.provider[\"registry.terraform.io/hashicorp/aws\"]");
    assert_eq!(root.module_calls[1].version.as_deref(), Some("5.0.0"));
}

#[test]
fn missing_and_recursive_modules() {
    let l = load_at(
        &[
            ("main.tf", "module \"a\" {\n  source = \"./a\"\n}\nmodule \"gone\" {\n  source = \"./gone\"\n}\nmodule \"self\" {\n  source = \"./\"\n}\nmodule \"up\" {\n  source = \"../x\"\n}\n"),
            ("a/main.tf", "module \"b\" {\n  source = \"../b\"\n}\n"),
            ("b/main.tf", "module \"a\" {\n  source = \"../a\"\n}\n"),
        ],
        "",
    );
    let got: Vec<(String, String, String)> = l
        .diagnostics
        .iter()
        .map(|d| (d.summary.clone(), d.detail.clone(), d.range.as_ref().unwrap().to_string()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "Module recursion".to_string(),
                "The module call \"a\" would load a module that is already being loaded by one of its callers: a -> b -> a. A module cannot call itself, directly or indirectly.".to_string(),
                "b/main.tf:2,12-18".to_string()
            ),
            (
                "Unreadable module directory".to_string(),
                "The directory gone could not be read for module \"gone\" at main.tf:4.".to_string(),
                "main.tf:5,12-20".to_string()
            ),
            (
                "Module recursion".to_string(),
                "The module call \"self\" would load a module that is already being loaded by one of its callers: . -> .. A module cannot call itself, directly or indirectly.".to_string(),
                "main.tf:8,12-16".to_string()
            ),
            (
                "Invalid module source address".to_string(),
                "The module \"up\" has source \"../x\", which points outside the loaded files.".to_string(),
                "main.tf:11,12-18".to_string()
            ),
        ]
    );
    // The part that could load did.
    let a = l.config.root.module_calls[0].module.as_ref().unwrap();
    assert!(a.module_calls[0].module.as_ref().unwrap().module_calls[0].module.is_none());
}

#[test]
fn providers_and_requirements() {
    let l = load(&fixture("providers"), &LoadOptions::default());
    no_diags(&l);
    let root = &l.config.root;
    let rp: Vec<(&str, Option<&str>, &str, Option<&str>, Vec<String>)> = root
        .required_providers
        .iter()
        .map(|r| {
            (
                r.name.as_str(),
                r.source.as_deref(),
                r.fqn.as_str(),
                r.version.as_deref(),
                r.configuration_aliases.clone(),
            )
        })
        .collect();
    assert_eq!(
        rp,
        [
            (
                "aws",
                Some("hashicorp/aws"),
                "registry.terraform.io/hashicorp/aws",
                Some("~> 5.0"),
                vec!["aws.east".to_string()]
            ),
            ("mycloud", Some("example.com/acme/MyCloud"), "example.com/acme/mycloud", None, vec![]),
            ("google", None, "registry.terraform.io/hashicorp/google", Some(">= 4.0"), vec![]),
        ]
    );
    assert_eq!(root.required_version.as_deref(), Some(">= 1.5"));
    let res: Vec<(&str, &str, Option<&str>, &str, bool)> = root
        .resources
        .iter()
        .map(|r| {
            (
                r.address.as_str(),
                r.provider.local_name.as_str(),
                r.provider.alias.as_deref(),
                r.provider.fqn.as_str(),
                r.provider.implied,
            )
        })
        .collect();
    assert_eq!(
        res,
        [
            ("aws_instance.a", "aws", None, "registry.terraform.io/hashicorp/aws", true),
            ("aws_instance.b", "aws", Some("west"), "registry.terraform.io/hashicorp/aws", false),
            ("mycloud_thing.c", "mycloud", None, "example.com/acme/mycloud", true),
            ("terraform_data.d", "terraform", None, "terraform.io/builtin/terraform", true),
            ("google_beta_thing.e", "google", None, "registry.terraform.io/hashicorp/google", true),
            ("data.http.f", "http", None, "registry.terraform.io/hashicorp/http", true),
        ]
    );
    let provs: Vec<(&str, &str)> = root.providers.iter().map(|p| (p.address.as_str(), p.fqn.as_str())).collect();
    assert_eq!(
        provs,
        [
            ("provider[\"registry.terraform.io/hashicorp/aws\"]", "registry.terraform.io/hashicorp/aws"),
            ("provider[\"registry.terraform.io/hashicorp/aws\"].west", "registry.terraform.io/hashicorp/aws"),
            ("provider[\"example.com/acme/mycloud\"]", "example.com/acme/mycloud"),
        ]
    );
    assert_eq!(root.providers[1].references[0].subject.to_string(), "var.west_region");
    assert_eq!(root.providers[1].references[0].context, "region");
}

#[test]
fn every_block_type_is_decoded() {
    let l = load(&fixture("blocks"), &LoadOptions::default());
    no_diags(&l);
    let m: &Module = &l.config.root;
    let v = &m.variables[0];
    assert_eq!(v.name, "subnets");
    assert_eq!(v.type_expr.as_deref(), Some("list(object({ cidr = string }))"));
    assert_eq!(v.default.as_ref().unwrap().source, "[]");
    assert_eq!(v.description.as_deref(), Some("The subnets.\n"));
    assert!(v.sensitive && !v.nullable && !v.ephemeral);
    assert_eq!(v.validations[0].condition.references[0].subject.to_string(), "var.subnets");
    assert_eq!(v.validations[0].condition.references[0].context, "validation.condition");

    let r = &m.resources[0];
    assert_eq!(r.lifecycle.create_before_destroy, Some(true));
    assert_eq!(r.lifecycle.prevent_destroy, Some(false));
    assert_eq!(r.lifecycle.ignore_changes, IgnoreChanges::Attributes(vec!["tags".into(), "tags[\"Name\"]".into()]));
    assert_eq!(m.resources[1].lifecycle.ignore_changes, IgnoreChanges::All);
    assert_eq!(r.for_each.as_ref().unwrap().source, "toset(var.names)");
    let p = &r.provisioners[0];
    assert_eq!((p.type_name.as_str(), p.on_failure.as_str()), ("remote-exec", "continue"));
    assert!(p.connection.is_some());
    assert_eq!(m.resources[1].provisioners[0].when, tfgraph::config::ProvisionerWhen::Destroy);
    assert_eq!(m.resources[2].mode, tfgraph::addrs::ResourceMode::Ephemeral);
    assert_eq!(m.resources[2].address, "ephemeral.random_password.p");

    let o = &m.outputs[0];
    assert!(o.sensitive);
    assert_eq!(o.description.as_deref(), Some("ids"));
    assert_eq!(o.preconditions.len(), 1);

    assert_eq!((m.moved[0].from.as_str(), m.moved[0].to.as_str()), ("aws_instance.old", "aws_instance.web"));
    let im = &m.imports[0];
    assert_eq!(im.to, "aws_instance.web[\"a\"]");
    assert_eq!(im.id.as_ref().unwrap().source, "\"i-123\"");
    assert_eq!(im.provider.as_deref(), Some("aws.west"));
    let rm = &m.removed[0];
    assert_eq!((rm.from.as_str(), rm.destroy), ("aws_instance.gone", false));
    assert_eq!(rm.provisioners[0].when, tfgraph::config::ProvisionerWhen::Destroy);
    let c = &m.checks[0];
    assert_eq!(c.name, "health");
    assert_eq!(c.data.as_ref().unwrap().address, "data.http.h");
    assert_eq!(c.references.iter().map(|r| r.subject.to_string()).collect::<Vec<_>>(), ["data.http.h"]);
}

#[test]
fn override_files_merge() {
    let l = load(&fixture("override"), &LoadOptions::default());
    let got: Vec<(String, String)> =
        l.diagnostics.iter().map(|d| (d.summary.clone(), d.range.as_ref().unwrap().to_string())).collect();
    assert_eq!(
        got,
        [
            ("Missing resource to override".to_string(), "override.tf:9,1-34".to_string()),
            ("Cannot override 'moved' blocks".to_string(), "override.tf:11,1-6".to_string()),
        ]
    );
    let m = &l.config.root;
    let r = &m.resources[0];
    // The override replaced `ami` and the lifecycle flag, kept `instance_type`, replaced count by for_each.
    assert!(r.count.is_none());
    assert_eq!(r.for_each.as_ref().unwrap().source, "var.set");
    assert_eq!(r.lifecycle.create_before_destroy, Some(true));
    let subjects: Vec<String> = r.references.iter().map(|x| format!("{} ({})", x.subject, x.context)).collect();
    assert_eq!(subjects, ["var.set (for_each)", "var.type (instance_type)", "var.new_ami (ami)"]);
    assert_eq!(m.variables[0].default.as_ref().unwrap().source, "\"b\"");
    assert_eq!(m.locals[0].expr.source, "var.region");
    assert_eq!(m.files, ["main.tf", "override.tf"]);
}

/// A normalised dump of a module: the same for native and JSON syntax (ranges aside).
fn dump(m: &Module) -> Vec<String> {
    let mut out = Vec::new();
    // Terraform keeps resources in maps: order across block types carries no meaning.
    let mut resources: Vec<_> = m.resources.iter().collect();
    resources.sort_by(|a, b| a.address.cmp(&b.address));
    for r in resources {
        out.push(format!(
            "resource {} provider={} {:?} count={} lifecycle={:?}",
            r.address,
            r.provider.fqn,
            r.provider.alias,
            r.count.is_some(),
            r.lifecycle.ignore_changes
        ));
        for x in &r.references {
            out.push(format!("  {} <- {} [{}]", x.subject, x.traversal, x.context));
        }
        for p in &r.provisioners {
            out.push(format!("  provisioner {} {:?} {}", p.type_name, p.when, p.references.len()));
        }
    }
    for c in &m.module_calls {
        out.push(format!(
            "module {} {} {:?}",
            c.address,
            c.source,
            c.providers.iter().map(|p| format!("{}={}", p.in_child, p.in_parent)).collect::<Vec<_>>()
        ));
        for a in &c.arguments {
            out.push(format!(
                "  arg {} {:?}",
                a.name,
                a.expr.references.iter().map(|r| r.subject.to_string()).collect::<Vec<_>>()
            ));
        }
    }
    for v in &m.variables {
        out.push(format!("variable {} {:?} {:?} {}", v.name, v.type_expr, v.description, v.validations.len()));
    }
    for l in &m.locals {
        out.push(format!(
            "local {} {:?}",
            l.name,
            l.expr.references.iter().map(|r| format!("{} {}", r.subject, r.traversal)).collect::<Vec<_>>()
        ));
    }
    for o in &m.outputs {
        out.push(format!(
            "output {} {:?}",
            o.name,
            o.references.iter().map(|r| format!("{} {}", r.subject, r.context)).collect::<Vec<_>>()
        ));
    }
    for p in &m.providers {
        out.push(format!(
            "provider {} {:?}",
            p.address,
            p.references.iter().map(|r| r.subject.to_string()).collect::<Vec<_>>()
        ));
    }
    for r in &m.required_providers {
        out.push(format!("requires {} {} {:?}", r.name, r.fqn, r.version));
    }
    out
}

#[test]
fn json_and_native_syntax_load_the_same() {
    let native = load(&fixture("equivalence/native"), &LoadOptions::default());
    let json = load(&fixture("equivalence/json"), &LoadOptions::default());
    // module.net takes `aws` without declaring it: Terraform's "Reference to undefined provider"
    // warning (validateProviderConfigs), the same from both syntaxes, and nothing else.
    let summaries = |l: &Loaded| l.diagnostics.iter().map(|d| d.summary.clone()).collect::<Vec<_>>();
    assert_eq!(summaries(&native), ["Reference to undefined provider"], "{:#?}", native.diagnostics);
    assert_eq!(summaries(&json), summaries(&native), "{:#?}", json.diagnostics);
    let (a, b) = (dump(&native.config.root), dump(&json.config.root));
    assert!(a.len() > 20, "{a:#?}");
    assert_eq!(a, b);
}

#[test]
fn json_reference_ranges_point_into_the_json_file() {
    let text = "{\"locals\": {\"a\": \"\\\"q\\\" ${var.region}\", \"b\": \"\\u00e9 ${local.a}\"}}";
    let l = load_at(&[("main.tf.json", text)], "");
    no_diags(&l);
    for local in &l.config.root.locals {
        let r = &local.expr.references[0];
        let span = r.range.start.byte as usize..r.range.end.byte as usize;
        assert_eq!(&text[span], r.traversal, "{}", local.name);
    }
    assert_eq!(l.config.root.locals[1].expr.references[0].range.to_string(), "main.tf.json:1,56-63");
}

#[test]
fn json_specific_rules() {
    let text = r#"{
  "//": "a comment",
  "resource": [
    {"aws_instance": {"a": [{"ami": "${var.x}"}, {"ami": "$${not.a.reference}"}]}},
    {"aws_instance": {"b": {"//": "ignored", "depends_on": ["aws_instance.a"], "provider": "aws.west", "lifecycle": {"ignore_changes": "all"}}}}
  ],
  "output": {"o": {"value": ["${aws_instance.a.id}", {"k": "${var.y}"}]}}
}"#;
    let l = load_at(&[("main.tf.json", text)], "");
    // Two blocks named aws_instance.a: the JSON array form makes repeated blocks.
    let d: Vec<_> = l.diagnostics.iter().map(|d| d.summary.clone()).collect();
    assert_eq!(d, ["Duplicate resource \"aws_instance\" configuration"]);
    let m = &l.config.root;
    assert_eq!(m.resources[0].references.len(), 1);
    let b = &m.resources[1];
    assert_eq!(b.depends_on[0].subject.to_string(), "aws_instance.a");
    assert_eq!(b.provider.alias.as_deref(), Some("west"));
    assert_eq!(b.lifecycle.ignore_changes, IgnoreChanges::All);
    let outs: Vec<String> = m.outputs[0].references.iter().map(|r| r.subject.to_string()).collect();
    assert_eq!(outs, ["aws_instance.a", "var.y"]);
}

/// `load_model_from` (loadConfig, buildGraph) gives what `load` gives, native and JSON syntax,
/// errors included, and keeps no syntax tree; `load` keeps the native files' trees.
#[test]
fn loading_without_kept_trees_gives_the_same_configuration() {
    use tfgraph::config::{files::MapFiles, load_model_from};
    let cases = [
        ("blocks", ""),
        ("modules", "envs/prod"),
        ("override", ""),
        ("equivalence/native", ""),
        ("equivalence/json", ""),
        ("check-rules", ""),
        ("undeclared", ""),
    ];
    for (case, root) in cases {
        let files = fixture(case);
        let options = LoadOptions { root: root.to_string() };
        let kept = load(&files, &options);
        let model = match load_model_from(&MapFiles::new(&files), &options) {
            Ok(loaded) => loaded,
            Err(never) => match never {},
        };
        let json = |l: &Loaded| serde_json::to_string(&(&l.config, &l.diagnostics)).unwrap();
        assert_eq!(json(&kept), json(&model), "{case}");
        let trees = |l: &Loaded| {
            l.config
                .modules()
                .iter()
                .map(|m| m.syntax.len() + m.resources.iter().filter(|r| r.body.is_some()).count())
                .sum::<usize>()
        };
        assert_eq!(trees(&model), 0, "{case}: load_model_from kept trees");
        let native = files.keys().any(|f| f.ends_with(".tf"));
        assert_eq!(trees(&kept) > 0, native, "{case}: load keeps the trees of native files only");
    }
}
