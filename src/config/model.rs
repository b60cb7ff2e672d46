//! The loaded configuration: every module with its objects, their references and source ranges.
//!
//! This is what `loadConfig` returns to JavaScript (field names in Terraform's snake_case, as in
//! Terraform's own JSON) and what the graph builder consumes. Nothing here is evaluated: an
//! expression is kept as its source text, its range, the references found in it and (native
//! syntax) its syntax tree, which eval reads without parsing again (`kept.rs`).
//!
//! The derived `Serialize` defines the JSON shape (serde_json's text natively) and drives the
//! tape `loadConfig` decodes (`src/bindings/tape.rs`), which `loadConfigRaw` writes as JSON.

use super::kept::{KeptBody, KeptExpr, SyntaxFile};
use crate::addrs::{ModulePath, ResourceMode, Subject};
use crate::diag::SourceRange;
use serde::Serialize;
use std::sync::Arc;

/// A whole configuration: the root module and, through its calls, every module below it.
#[derive(Clone, Debug, Serialize)]
pub struct Config {
    pub root: Module,
    /// The absolute path of the directory Terraform would run in (the root module's), when
    /// the caller gave one (the API's `cwd` option): what `path.cwd` and `abspath` see. `None`:
    /// `path.cwd` is `"."` and `abspath` of a relative path is unknown. Loading never sets it.
    #[serde(skip)]
    pub cwd: Option<String>,
}

impl Config {
    /// Every loaded module, depth-first in call order, the root first.
    pub fn modules(&self) -> Vec<&Module> {
        let mut out = Vec::new();
        let mut stack = vec![&self.root];
        while let Some(m) = stack.pop() {
            out.push(m);
            for call in m.module_calls.iter().rev() {
                if let Some(child) = &call.module {
                    stack.push(child);
                }
            }
        }
        out
    }
}

/// One module: a folder of `.tf` / `.tf.json` files.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Module {
    /// Call names from the root (`["net", "subnets"]`); empty for the root module.
    pub path: ModulePath,
    /// `module.net.module.subnets`; empty for the root module.
    pub address: String,
    /// The folder within the given files (`""` for the top level, `modules/net`).
    pub dir: String,
    /// The files loaded for this module, in load order (sorted by name, as Terraform does).
    pub files: Vec<String>,
    pub resources: Vec<Resource>,
    pub providers: Vec<ProviderConfig>,
    pub module_calls: Vec<ModuleCall>,
    pub variables: Vec<Variable>,
    pub locals: Vec<Local>,
    pub outputs: Vec<Output>,
    pub required_providers: Vec<RequiredProvider>,
    pub required_version: Option<String>,
    pub moved: Vec<Moved>,
    pub imports: Vec<Import>,
    pub removed: Vec<Removed>,
    pub checks: Vec<Check>,
    /// The native-syntax files' syntax trees, kept from loading, in load order (none from
    /// `load_model_from`). Not serialized.
    #[serde(skip)]
    pub syntax: Vec<Arc<SyntaxFile>>,
}

/// An expression as written, with the references found in it.
#[derive(Clone, Debug, Serialize)]
pub struct Expr {
    /// The expression's source text.
    pub source: String,
    pub range: SourceRange,
    pub references: Vec<Reference>,
    /// The parsed expression, kept from loading (native syntax; `None` in `.tf.json`, for an
    /// expression that is not written, and from `load_model_from`). Not serialized.
    #[serde(skip)]
    pub tree: Option<KeptExpr>,
}

/// One reference from an expression to an object that can be a graph node.
#[derive(Clone, Debug, Serialize)]
pub struct Reference {
    /// What is referenced, as Terraform prints it: `aws_instance.web`, `module.net.vpc_id`.
    pub subject: Subject,
    /// The kind of subject: `resource`, `data`, `ephemeral`, `module`, `module_output`,
    /// `variable` or `local` (`Subject::kind`).
    pub kind: &'static str,
    /// The static traversal as written, up to the first dynamic step: `aws_instance.web[0].id`.
    pub traversal: String,
    /// Where the subject part of the traversal is written (Terraform's `Reference.SourceRange`).
    pub range: SourceRange,
    /// Where in the object it was found: `ami`, `count`, `depends_on`,
    /// `lifecycle.replace_triggered_by`, `network_interface.subnet_id`,
    /// `provisioner "local-exec".command`, `connection.host`, ... The page explains edges with it.
    #[serde(rename = "in")]
    pub context: String,
}

impl Reference {
    pub fn new(subject: Subject, traversal: String, range: SourceRange, context: String) -> Self {
        let kind = subject.kind();
        Reference { subject, kind, traversal, range, context }
    }
}

/// A `resource`, `data` or `ephemeral` block.
#[derive(Clone, Debug, Serialize)]
pub struct Resource {
    /// Absolute address of the block: `aws_instance.web`, `module.net.data.aws_ami.u`.
    pub address: String,
    pub mode: ResourceMode,
    #[serde(rename = "type")]
    pub type_name: String,
    pub name: String,
    pub provider: ProviderRef,
    pub count: Option<Expr>,
    pub for_each: Option<Expr>,
    pub depends_on: Vec<Reference>,
    pub lifecycle: Lifecycle,
    pub provisioners: Vec<Provisioner>,
    pub connection: Option<BlockRefs>,
    /// Every reference Terraform's `NodeAbstractResource.References()` would list: depends_on,
    /// count, for_each, replace_triggered_by, the body (every attribute and nested or dynamic
    /// block: there are no provider schemas here), the connection block, create-time
    /// provisioners, and pre/postconditions. Destroy-time provisioners' references are only on
    /// their [`Provisioner`], because only the destroy node uses them.
    pub references: Vec<Reference>,
    /// The block header: `resource "aws_instance" "web"`.
    pub range: SourceRange,
    /// The block's body, kept from loading (native syntax), which the engine evaluates. Not
    /// serialized.
    #[serde(skip)]
    pub body: Option<KeptBody>,
}

impl Resource {
    /// Its address within its module (`aws_instance.web`, `data.aws_ami.u`).
    pub fn addr(&self) -> crate::addrs::ResourceAddr {
        crate::addrs::ResourceAddr { mode: self.mode, type_name: self.type_name.clone(), name: self.name.clone() }
    }
}

/// Which provider configuration a resource (or module-passed provider) uses.
#[derive(Clone, Debug, Serialize)]
pub struct ProviderRef {
    /// The provider's local name in this module (`aws`).
    pub local_name: String,
    pub alias: Option<String>,
    /// The fully qualified source address from `required_providers`, or the implied
    /// `registry.terraform.io/hashicorp/<name>`: `registry.terraform.io/hashicorp/aws`.
    pub fqn: String,
    /// True when there was no `provider` argument and the name came from the type prefix.
    pub implied: bool,
    /// The `provider = ...` argument, when written.
    pub range: Option<SourceRange>,
}

/// The `lifecycle` block of a resource.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Lifecycle {
    pub create_before_destroy: Option<bool>,
    pub prevent_destroy: Option<bool>,
    pub ignore_changes: IgnoreChanges,
    pub replace_triggered_by: Vec<Expr>,
    pub preconditions: Vec<Condition>,
    pub postconditions: Vec<Condition>,
}

/// `ignore_changes`: the keyword `all`, or a list of attribute paths as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum IgnoreChanges {
    #[default]
    #[serde(serialize_with = "empty_list")]
    None,
    #[serde(serialize_with = "all_keyword")]
    All,
    Attributes(Vec<String>),
}

fn empty_list<S: serde::Serializer>(s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    s.serialize_seq(Some(0))?.end()
}

fn all_keyword<S: serde::Serializer>(s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str("all")
}

/// A `precondition`, `postcondition`, variable `validation` or check `assert` block.
#[derive(Clone, Debug, Serialize)]
pub struct Condition {
    pub condition: Expr,
    pub error_message: Option<Expr>,
    pub range: SourceRange,
}

/// When a provisioner runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProvisionerWhen {
    Create,
    Destroy,
}

/// A `provisioner` block.
#[derive(Clone, Debug, Serialize)]
pub struct Provisioner {
    #[serde(rename = "type")]
    pub type_name: String,
    pub when: ProvisionerWhen,
    /// `fail` (the default) or `continue`.
    pub on_failure: String,
    pub connection: Option<BlockRefs>,
    /// References in the provisioner's body and its connection block.
    pub references: Vec<Reference>,
    pub range: SourceRange,
}

/// A nested block kept only for its references (`connection`).
#[derive(Clone, Debug, Serialize)]
pub struct BlockRefs {
    pub references: Vec<Reference>,
    pub range: SourceRange,
}

/// A `provider` block.
#[derive(Clone, Debug, Serialize)]
pub struct ProviderConfig {
    /// The local name: `provider "aws"` gives `aws`.
    pub name: String,
    pub alias: Option<String>,
    pub fqn: String,
    /// Terraform's address of this configuration in its module:
    /// `provider["registry.terraform.io/hashicorp/aws"].west` (prefixed with the module address).
    pub address: String,
    pub references: Vec<Reference>,
    /// Whether the block has nothing but the `alias` and `version` meta-arguments
    /// (`provider "aws" {}`). In a child module such a block is a *proxy* configuration
    /// (deprecated): a configuration the calling module passes in under its name replaces it
    /// (`ProviderConfigTransformer`'s `proxiable`, `internal/terraform/transform_provider.go`);
    /// a non-empty one cannot be overridden ("Cannot override provider configuration").
    pub empty: bool,
    /// Whether the block sets the (deprecated) `version` argument: such a block counts as
    /// configured when validating passed-in providers (`validateProviderConfigs`). Not serialized.
    #[serde(skip)]
    pub has_version: bool,
    pub range: SourceRange,
    /// The block's body, kept from loading (native syntax), which the engine evaluates to
    /// configure the provider. Not serialized.
    #[serde(skip)]
    pub body: Option<KeptBody>,
}

/// A `module` block.
#[derive(Clone, Debug, Serialize)]
pub struct ModuleCall {
    pub name: String,
    /// Absolute address of the call: `module.net`, `module.net.module.subnets`.
    pub address: String,
    pub source: String,
    /// `local`, `registry`, `git`, `http`, `s3`, `gcs`, `mercurial`, `github`, `bitbucket` or `other`.
    pub source_kind: String,
    pub version: Option<String>,
    pub count: Option<Expr>,
    pub for_each: Option<Expr>,
    pub depends_on: Vec<Reference>,
    /// `providers = { aws.bar = aws.foo }`.
    pub providers: Vec<PassedProvider>,
    /// Every other argument: the child's input variables.
    pub arguments: Vec<Argument>,
    /// What the call's expansion node references: depends_on, count and for_each.
    pub references: Vec<Reference>,
    /// The loaded child module; `None` when the source is not local (an opaque call).
    pub module: Option<Box<Module>>,
    /// The whole first static traversal of `depends_on` (Terraform's `DependsOn[0].SourceRange()`,
    /// where "Module is incompatible with count, for_each, and depends_on" points). Not serialized.
    #[serde(skip)]
    pub depends_on_range: Option<SourceRange>,
    pub range: SourceRange,
}

/// One entry of a module call's `providers` map.
#[derive(Clone, Debug, Serialize)]
pub struct PassedProvider {
    /// The name the child uses (`aws.bar`).
    pub in_child: String,
    /// The parent's configuration passed in (`aws.foo`).
    pub in_parent: String,
    pub range: SourceRange,
    /// Where the value starts (the parent-side name; its opening quote in JSON, where HCL starts
    /// the traversal it parses from the string). Not serialized.
    #[serde(skip)]
    pub in_parent_start: crate::diag::Pos,
}

/// A module call argument (an input variable of the child).
#[derive(Clone, Debug, Serialize)]
pub struct Argument {
    pub name: String,
    pub expr: Expr,
}

/// A `variable` block.
#[derive(Clone, Debug, Serialize)]
pub struct Variable {
    pub name: String,
    /// The type constraint as written (`list(string)`).
    #[serde(rename = "type")]
    pub type_expr: Option<String>,
    /// The type constraint's syntax tree, kept from loading (native syntax). Not serialized.
    #[serde(skip)]
    pub type_tree: Option<KeptExpr>,
    pub default: Option<Expr>,
    pub description: Option<String>,
    pub sensitive: bool,
    pub nullable: bool,
    pub ephemeral: bool,
    pub validations: Vec<Condition>,
    pub range: SourceRange,
}

/// One entry of a `locals` block.
#[derive(Clone, Debug, Serialize)]
pub struct Local {
    pub name: String,
    pub expr: Expr,
    pub range: SourceRange,
}

/// An `output` block.
#[derive(Clone, Debug, Serialize)]
pub struct Output {
    pub name: String,
    pub value: Expr,
    pub depends_on: Vec<Reference>,
    pub sensitive: bool,
    pub ephemeral: bool,
    pub description: Option<String>,
    pub preconditions: Vec<Condition>,
    /// value, depends_on and precondition references together.
    pub references: Vec<Reference>,
    pub range: SourceRange,
}

/// One entry of `terraform { required_providers { ... } }`.
#[derive(Clone, Debug, Serialize)]
pub struct RequiredProvider {
    pub name: String,
    pub source: Option<String>,
    pub fqn: String,
    pub version: Option<String>,
    pub configuration_aliases: Vec<String>,
    pub range: SourceRange,
    /// The entry's value expression (Terraform's `RequiredProvider.DeclRange`, where "Duplicate
    /// required provider" points). Not serialized.
    #[serde(skip)]
    pub expr_range: SourceRange,
}

/// A `moved` block.
#[derive(Clone, Debug, Serialize)]
pub struct Moved {
    pub from: String,
    pub to: String,
    pub range: SourceRange,
}

/// An `import` block.
#[derive(Clone, Debug, Serialize)]
pub struct Import {
    pub to: String,
    /// The `to` expression's range (what Terraform's import diagnostics point at).
    pub to_range: SourceRange,
    pub id: Option<Expr>,
    /// `identity = { ... }` (Terraform 1.12+), in place of `id`. Not serialized.
    #[serde(skip)]
    pub identity: Option<Expr>,
    pub for_each: Option<Expr>,
    pub provider: Option<String>,
    pub references: Vec<Reference>,
    pub range: SourceRange,
}

/// A `removed` block.
#[derive(Clone, Debug, Serialize)]
pub struct Removed {
    pub from: String,
    /// `lifecycle { destroy = ... }`; Terraform's default is true.
    pub destroy: bool,
    pub provisioners: Vec<Provisioner>,
    pub range: SourceRange,
}

/// A `check` block.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    pub name: String,
    /// The scoped `data` block, if any.
    pub data: Option<Resource>,
    pub asserts: Vec<Condition>,
    pub references: Vec<Reference>,
    pub range: SourceRange,
}
