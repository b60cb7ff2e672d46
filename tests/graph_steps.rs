#![cfg(not(target_arch = "wasm32"))]
//! Terraform's transformer-level tests, replayed with our transformers: the same
//! configurations, the same subset of steps, and the expected `String()` copied verbatim from
//! hashicorp/terraform v1.15.0 (`internal/terraform/transform_*_test.go`; the configurations are
//! its `testdata/` folders or inline modules).
//!
//! Terraform's tests build resources with a bare `ConfigTransformer` (no `Concrete`), whose
//! nodes are named without ` (expand)`: that is our validate operation's resource kind, so
//! these tests run with `Operation::Validate`.

use std::collections::BTreeMap;
use tfgraph::graph::transform::{self, *};
use tfgraph::graph::{BuildOptions, Operation, TfGraph};

fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[track_caller]
fn check(list: &[(&str, &str)], steps: Vec<Step>, want: &str) {
    let loaded = tfgraph::config::load(&files(list), &Default::default());
    assert!(!loaded.diagnostics.has_errors(), "{:?}", loaded.diagnostics);
    let options = BuildOptions { operation: Operation::Validate, ..Default::default() };
    let cx = BuildContext::new(&loaded.config, &options);
    let mut g = TfGraph::new();
    let (_, diags) = transform::run(&steps, &mut g, &cx);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(g.to_string().trim(), want.trim(), "\n--- got:\n{g}");
}

/// `ConfigTransformer` as the validate builder sets it up.
const VALIDATE_CONFIG: ConfigTransformer = ConfigTransformer { validate: true, only_ephemeral: false };

fn step(t: impl Transform + 'static) -> Step {
    Step::new(t, "test")
}

/// `transformProviders(...)`: the four provider steps.
fn providers() -> Vec<Step> {
    vec![
        step(ProviderConfigTransformer),
        step(MissingProviderTransformer),
        step(ProviderTransformer),
        step(PruneProviderTransformer),
    ]
}

fn with(mut first: Vec<Step>, rest: Vec<Step>) -> Vec<Step> {
    first.extend(rest);
    first
}

const BASIC: &[(&str, &str)] = &[("main.tf", "provider \"aws\" {}\nresource \"aws_instance\" \"web\" {}\n")];

/// `TestProviderTransformer` (testTransformProviderBasicStr).
#[test]
fn provider_basic() {
    check(
        BASIC,
        vec![step(VALIDATE_CONFIG), step(MissingProviderTransformer), step(ProviderTransformer)],
        r#"
aws_instance.web
  provider["registry.terraform.io/hashicorp/aws"]
provider["registry.terraform.io/hashicorp/aws"]"#,
    );
}

/// `TestProviderTransformer_fqns` with `transform-provider-fqns-module` (a local name mapped to
/// hashicorp/aws in the root and, differently named, in a child).
#[test]
fn provider_fqns() {
    let root = "terraform {\n  required_providers {\n    my-aws = {\n      source = \"hashicorp/aws\"\n    }\n  }\n}\n\nresource \"aws_instance\" \"web\" {\n  provider = my-aws\n}\n";
    check(
        &[("main.tf", root)],
        vec![step(VALIDATE_CONFIG), step(MissingProviderTransformer), step(ProviderTransformer)],
        r#"
aws_instance.web
  provider["registry.terraform.io/hashicorp/aws"]
provider["registry.terraform.io/hashicorp/aws"]"#,
    );
}

/// `TestCloseProviderTransformer` (testTransformCloseProviderBasicStr).
#[test]
fn close_provider() {
    check(
        BASIC,
        vec![
            step(VALIDATE_CONFIG),
            step(MissingProviderTransformer),
            step(ProviderTransformer),
            step(CloseProviderTransformer),
        ],
        r#"
aws_instance.web
  provider["registry.terraform.io/hashicorp/aws"]
provider["registry.terraform.io/hashicorp/aws"]
provider["registry.terraform.io/hashicorp/aws"] (close)
  aws_instance.web
  provider["registry.terraform.io/hashicorp/aws"]"#,
    );
}

/// `TestMissingProviderTransformer` (testTransformMissingProviderBasicStr).
#[test]
fn missing_provider() {
    check(
        &[(
            "main.tf",
            "provider \"aws\" {}\nresource \"aws_instance\" \"web\" {}\nresource \"foo_instance\" \"web\" {}\n",
        )],
        vec![
            step(VALIDATE_CONFIG),
            step(MissingProviderTransformer),
            step(ProviderTransformer),
            step(CloseProviderTransformer),
        ],
        r#"
aws_instance.web
  provider["registry.terraform.io/hashicorp/aws"]
foo_instance.web
  provider["registry.terraform.io/hashicorp/foo"]
provider["registry.terraform.io/hashicorp/aws"]
provider["registry.terraform.io/hashicorp/aws"] (close)
  aws_instance.web
  provider["registry.terraform.io/hashicorp/aws"]
provider["registry.terraform.io/hashicorp/foo"]
provider["registry.terraform.io/hashicorp/foo"] (close)
  foo_instance.web
  provider["registry.terraform.io/hashicorp/foo"]"#,
    );
}

/// `TestMissingProviderTransformer_grandchildMissing` (testTransformMissingGrandchildProviderStr):
/// an unaliased configuration in `module.sub` serves its grandchild; `bar` falls back to the
/// implied root default.
#[test]
fn missing_provider_grandchild() {
    check(
        &[
            ("main.tf", "module \"sub\" {\n    source = \"./sub\"\n}\n"),
            ("sub/main.tf", "provider \"foo\" {}\n\nmodule \"subsub\" {\n    source = \"./subsub\"\n}\n"),
            ("sub/subsub/main.tf", "resource \"foo_instance\" \"one\" {}\nresource \"bar_instance\" \"two\" {}\n"),
        ],
        with(with(vec![step(VALIDATE_CONFIG)], providers()), vec![step(TransitiveReductionTransformer)]),
        r#"
module.sub.module.subsub.bar_instance.two
  provider["registry.terraform.io/hashicorp/bar"]
module.sub.module.subsub.foo_instance.one
  module.sub.provider["registry.terraform.io/hashicorp/foo"]
module.sub.provider["registry.terraform.io/hashicorp/foo"]
provider["registry.terraform.io/hashicorp/bar"]"#,
    );
}

/// `TestProviderConfigTransformer_parentProviders` (`transform-provider-inherit`,
/// testTransformModuleProviderConfigStr): `providers = { aws.bar = aws.foo }`.
#[test]
fn provider_passed_to_child() {
    check(
        &[
            ("main.tf", "provider \"aws\" {\n  alias = \"foo\"\n  value = \"config\"\n}\n\nmodule \"child\" {\n  source = \"./child\"\n  providers = {\n    aws.bar = aws.foo\n  }\n}\n"),
            ("child/main.tf", "provider \"aws\" {\n    alias = \"bar\"\n}\n\nresource \"aws_instance\" \"thing\" {\n    provider = aws.bar\n}\n"),
        ],
        with(vec![step(VALIDATE_CONFIG)], providers()),
        r#"
module.child.aws_instance.thing
  provider["registry.terraform.io/hashicorp/aws"].foo
provider["registry.terraform.io/hashicorp/aws"].foo"#,
    );
}

/// `TestProviderConfigTransformer_grandparentProviders` (`transform-provider-grandchild-inherit`,
/// testTransformModuleProviderGrandparentStr): an alias passed down two levels (a proxy of a proxy).
#[test]
fn provider_passed_to_grandchild() {
    check(
        &[
            ("main.tf", "provider \"aws\" {\n  alias = \"foo\"\n  value = \"config\"\n}\n\nmodule \"child\" {\n  source = \"./child\"\n  providers = {\n    aws.bar = aws.foo\n  }\n}\n"),
            ("child/main.tf", "provider \"aws\" {\n  alias = \"bar\"\n}\n\nmodule \"grandchild\" {\n  source = \"./grandchild\"\n  providers = {\n    aws.baz = aws.bar\n  }\n}\n"),
            ("child/grandchild/main.tf", "provider \"aws\" {\n  alias = \"baz\"\n}\n\nresource \"aws_instance\" \"baz\" {\n  provider = aws.baz\n}\n"),
        ],
        with(vec![step(VALIDATE_CONFIG)], providers()),
        r#"
module.child.module.grandchild.aws_instance.baz
  provider["registry.terraform.io/hashicorp/aws"].foo
provider["registry.terraform.io/hashicorp/aws"].foo"#,
    );
}

/// `TestProviderConfigTransformer_inheritOldSkool`: a root configuration inherited by a child
/// module's implied provider.
#[test]
fn provider_inherited_without_passing() {
    check(
        &[
            (
                "main.tf",
                "provider \"test\" {\n  test_string = \"config\"\n}\n\nmodule \"moda\" {\n  source = \"./moda\"\n}\n",
            ),
            ("moda/main.tf", "resource \"test_object\" \"a\" {\n}\n"),
        ],
        with(vec![step(VALIDATE_CONFIG)], providers()),
        r#"
module.moda.test_object.a
  provider["registry.terraform.io/hashicorp/test"]
provider["registry.terraform.io/hashicorp/test"]"#,
    );
}

/// `TestProviderConfigTransformer_nestedModuleProviders`: a module's own block serves its
/// children, and a `configuration_aliases` alias resolves to the root's `.z`.
#[test]
fn provider_configuration_aliases() {
    check(
        &[
            ("main.tf", "terraform {\n  required_providers {\n    test = {\n      source = \"registry.terraform.io/hashicorp/test\"\n\t}\n  }\n}\n\nprovider \"test\" {\n  alias = \"z\"\n  test_string = \"config\"\n}\n\nmodule \"moda\" {\n  source = \"./moda\"\n  providers = {\n    test.x = test.z\n  }\n}\n"),
            ("moda/main.tf", "terraform {\n  required_providers {\n    test = {\n      source = \"registry.terraform.io/hashicorp/test\"\n      configuration_aliases = [ test.x ]\n\t}\n  }\n}\n\nprovider \"test\" {\n  test_string = \"config\"\n}\n\nresource \"test_object\" \"a\" {\n}\n\nresource \"test_object\" \"x\" {\n  provider = test.x\n}\n\nmodule \"modb\" {\n  source = \"./modb\"\n}\n"),
            ("moda/modb/main.tf", "# this should end up with the provider from the parent module\nresource \"test_object\" \"a\" {\n}\n"),
        ],
        with(vec![step(VALIDATE_CONFIG)], providers()),
        r#"
module.moda.module.modb.test_object.a
  module.moda.provider["registry.terraform.io/hashicorp/test"]
module.moda.provider["registry.terraform.io/hashicorp/test"]
module.moda.test_object.a
  module.moda.provider["registry.terraform.io/hashicorp/test"]
module.moda.test_object.x
  provider["registry.terraform.io/hashicorp/test"].z
provider["registry.terraform.io/hashicorp/test"].z"#,
    );
}

/// `TestProviderConfigTransformer_duplicateLocalName`: two local names for one source address
/// make one node.
#[test]
fn provider_duplicate_local_name() {
    check(
        &[("main.tf", "terraform {\n  required_providers {\n    dupe = {\n      source = \"registry.terraform.io/hashicorp/test\"\n    }\n  }\n}\n\nprovider \"test\" {\n}\n")],
        vec![step(ProviderConfigTransformer)],
        r#"provider["registry.terraform.io/hashicorp/test"]"#,
    );
}

/// `TestTransitiveReductionTransformer` (`transform-trans-reduce-basic`,
/// testTransformTransReduceBasicStr): `C -> A` is implied by `C -> B -> A`. Oracle case 14.
#[test]
fn transitive_reduction_basic() {
    check(
        &[(
            "main.tf",
            "resource \"aws_instance\" \"A\" {}\n\nresource \"aws_instance\" \"B\" {\n    A = \"${aws_instance.A.id}\"\n}\n\nresource \"aws_instance\" \"C\" {\n    A = \"${aws_instance.A.id}\"\n    B = \"${aws_instance.B.id}\"\n}\n",
        )],
        vec![step(VALIDATE_CONFIG), step(ReferenceTransformer), step(TransitiveReductionTransformer)],
        r#"
aws_instance.A
aws_instance.B
  aws_instance.A
aws_instance.C
  aws_instance.B"#,
    );
}

/// `TestVariableValidationTransformer` (transform_variable_validation_test.go): one
/// `(validation)` node per variable with rules, depending on its variable. Terraform's test uses
/// fake variable nodes named `var.x (test fake)`; ours are the real `NodeRootVariable`s.
/// Its rules name other variables only; a loaded module must also name its own (1.9+), so
/// each rule here names both, which leaves the expected references the same.
#[test]
fn variable_validation() {
    let tf = r#"
variable "foo" {
  validation {
    condition     = var.foo
    error_message = "wrong"
  }
}
variable "bar" {
  validation {
    condition     = var.bar == var.foo
    error_message = "wrong"
  }
}
variable "baz" {
  validation {
    condition     = var.baz != ""
    error_message = var.foo
  }
}
variable "plain" {}
"#;
    check(
        &[("main.tf", tf)],
        vec![step(RootVariableTransformer), step(VariableValidationTransformer { skip: false })],
        r#"
var.bar
var.bar (validation)
  var.bar
var.baz
var.baz (validation)
  var.baz
var.foo
var.foo (validation)
  var.foo
var.plain"#,
    );
    // The references of the validation nodes: the rules minus the variable itself. A reference
    // to `var.foo` reaches both `var.foo` and `var.foo (validation)` (both are keyed `var.foo`).
    check(
        &[("main.tf", tf)],
        vec![
            step(RootVariableTransformer),
            step(VariableValidationTransformer { skip: false }),
            step(ReferenceTransformer),
        ],
        r#"
var.bar
var.bar (validation)
  var.bar
  var.foo
  var.foo (validation)
var.baz
var.baz (validation)
  var.baz
  var.foo
  var.foo (validation)
var.foo
var.foo (validation)
  var.foo
var.plain"#,
    );
}
