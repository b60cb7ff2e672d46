#![cfg(not(target_arch = "wasm32"))]
//! Every root of the shared corpus: each variable default, local value and output of the root
//! module evaluates without an error diagnostic, the way `terraform validate` evaluates them
//! (required variables without a value are unknown). Skipped, with a message, when the corpus
//! is not there.
//!
//! Expected, and only these: the `cds-snc__notification-terraform/aws/*` roots use variables
//! that Terragrunt generates at run time (`../shared/corpus/SOURCES.md`), so Terraform too
//! reports "Reference to undeclared input variable" there; and provider-defined functions
//! (`provider::assert::ipv4`) cannot be called without the provider, which tfgraph never runs.
//!
//! Until every built-in function is in, a call to one of Terraform's functions that the
//! registry does not have yet is counted and printed, not failed: `PENDING` lists them, and the
//! test fails if a call names a function that is neither registered nor pending (a typo'd
//! name in the corpus is an error Terraform would report too).

mod support;

use std::collections::BTreeMap;
use tfgraph::eval::functions::Registry;
use tfgraph::eval::module_scope::{Inputs, ModuleScope};

/// Terraform 1.15's built-in functions (its function documentation), to tell a function we
/// have not written yet from a call Terraform itself would refuse.
const TERRAFORM_FUNCTIONS: &[&str] = &[
    "abs",
    "abspath",
    "alltrue",
    "anytrue",
    "base64decode",
    "base64encode",
    "base64gzip",
    "base64sha256",
    "base64sha512",
    "basename",
    "bcrypt",
    "can",
    "ceil",
    "chomp",
    "chunklist",
    "cidrcontains",
    "cidrhost",
    "cidrnetmask",
    "cidrsubnet",
    "cidrsubnets",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "convert",
    "csvdecode",
    "dirname",
    "distinct",
    "element",
    "endswith",
    "ephemeralasnull",
    "file",
    "filebase64",
    "filebase64sha256",
    "filebase64sha512",
    "fileexists",
    "filemd5",
    "fileset",
    "filesha1",
    "filesha256",
    "filesha512",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "index",
    "issensitive",
    "join",
    "jsondecode",
    "jsonencode",
    "keys",
    "length",
    "log",
    "lookup",
    "lower",
    "matchkeys",
    "max",
    "md5",
    "merge",
    "min",
    "nonsensitive",
    "one",
    "parseint",
    "pathexpand",
    "plantimestamp",
    "pow",
    "range",
    "regex",
    "regexall",
    "replace",
    "reverse",
    "rsadecrypt",
    "sensitive",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setunion",
    "sha1",
    "sha256",
    "sha512",
    "signum",
    "slice",
    "sort",
    "split",
    "startswith",
    "strcontains",
    "strrev",
    "substr",
    "sum",
    "templatefile",
    "templatestring",
    "textdecodebase64",
    "textencodebase64",
    "timeadd",
    "timecmp",
    "timestamp",
    "title",
    "tobool",
    "tolist",
    "tomap",
    "tonumber",
    "toset",
    "tostring",
    "transpose",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "try",
    "type",
    "upper",
    "urlencode",
    "uuid",
    "uuidv5",
    "values",
    "yamldecode",
    "yamlencode",
    "zipmap",
];

/// Errors Terraform itself reports for these roots with their variables' defaults (root, detail).
const TERRAFORM_ERRORS: &[(&str, &str)] = &[
    ("cloudposse__terraform-aws-components/modules/ecs-service", "lookup failed to find key \"service\""),
    ("cloudposse__terraform-aws-components/modules/ecs-service", "element 0 is null; cannot concatenate null values"),
    ("kube-hetzner__terraform-hcloud-kube-hetzner", "cannot sum an empty list"),
];

#[test]
fn corpus_locals_outputs_and_defaults_evaluate() {
    let Some((corpus, dirs)) = support::corpus_roots() else { return };
    let mut trees = support::RepoFiles::new(&corpus, support::tf_file);
    let funcs = Registry::builtin();
    let vars = BTreeMap::new();
    let (mut evaluated, mut expected, mut missing_files, mut failures) = (0, 0, 0, Vec::new());
    let mut pending: BTreeMap<String, usize> = BTreeMap::new();
    for dir in &dirs {
        let (files, root) = trees.read_root_files(dir);
        let loaded = tfgraph::config::load(files, &tfgraph::LoadOptions { root: root.clone() });
        // The filesystem functions read the repository's loaded files, from the root's folder.
        let file_source = tfgraph::eval::MapFilesystem(files);
        let base_dir = if root.is_empty() { "." } else { root.as_str() };
        let inputs = Inputs {
            planning: true,
            unset_variables_unknown: true,
            base_dir,
            ..Inputs::new(&vars, &file_source, &funcs)
        };
        let scope = ModuleScope::root(&loaded.config, &inputs, &[]);
        let module = scope.module();
        scope.check_variables();
        for local in &module.locals {
            let _ = scope.local(&local.name);
            evaluated += 1;
        }
        for output in &module.outputs {
            let _ = scope.output(&output.name);
            evaluated += 1;
        }
        evaluated += module.variables.len();
        let pending_call =
            |text: &str| TERRAFORM_FUNCTIONS.iter().any(|f| funcs.get(f).is_none() && text.contains(&format!("{f}(")));
        for d in scope.diagnostics.borrow().errors() {
            if dir.starts_with("cds-snc__notification-terraform/aws/")
                && d.summary == "Reference to undeclared input variable"
            {
                expected += 1;
                continue;
            }
            // Terraform fails the same way on these roots' defaults: an empty `containers` map
            // looked up without a default, a null `name` joined, the sum of no node pools.
            if TERRAFORM_ERRORS.iter().any(|(root, detail)| dir.ends_with(root) && d.detail.contains(detail)) {
                expected += 1;
                continue;
            }
            // The corpus keeps only Terraform's own files: templates, scripts and YAML that
            // file()/templatefile() read are not in it (Terraform would stop the same way).
            if d.summary == "Invalid function argument" && d.detail.contains("parameter: no file exists at") {
                missing_files += 1;
                continue;
            }
            if d.summary == "Unknown provider function" {
                expected += 1;
                continue;
            }
            // A validation whose condition calls a function not registered yet (`can(regex(...))`
            // is false while `regex` is missing).
            if d.summary == "Invalid value for variable" {
                let var = loaded
                    .config
                    .modules()
                    .into_iter()
                    .flat_map(|m| &m.variables)
                    .find(|v| Some(&v.range) == d.range.as_ref());
                if var.is_some_and(|v| v.validations.iter().any(|r| pending_call(&r.condition.source))) {
                    *pending.entry("(validation)".to_string()).or_default() += 1;
                    continue;
                }
            }
            if d.summary == "Call to unknown function" {
                let name = d.detail.split('"').nth(1).unwrap_or("");
                if TERRAFORM_FUNCTIONS.contains(&name) && funcs.get(name).is_none() {
                    *pending.entry(name.to_string()).or_default() += 1;
                    continue;
                }
            }
            failures.push(format!("{dir}: {d}"));
        }
    }
    eprintln!("{} roots: {evaluated} defaults, locals and outputs evaluated; {expected} expected errors; {missing_files} reads of files the corpus does not keep; calls to functions not yet registered: {pending:?}", dirs.len());
    assert!(evaluated > 500, "only {evaluated} evaluated");
    assert!(failures.is_empty(), "{} error(s):\n{}", failures.len(), failures.join("\n\n"));
}
