//! Every message the loader emits, worded as Terraform (or HCL) words it.
//!
//! Sources: `internal/configs/*.go`, `internal/addrs/parse_ref.go`, `hcl/hclsyntax/structure.go`,
//! `hcl/json/{parser,structure}.go`, `hcl/traversal_for_expr.go`. One constructor per message so
//! tests and callers never spell a message twice.

use crate::diag::{Diagnostic, SourceRange};

fn err(summary: impl Into<String>, detail: impl Into<String>, range: SourceRange) -> Diagnostic {
    Diagnostic::error(summary, detail).with_range(range)
}

// ---- files and modules -------------------------------------------------------------------

/// `terraform init` / `validate` on a folder without `.tf` files (`configload`, `command/meta_config.go`).
pub fn no_configuration_files(dir: &str) -> Diagnostic {
    let shown = if dir.is_empty() { "." } else { dir };
    Diagnostic::error(
        "No configuration files",
        format!("The directory {shown} contains no Terraform configuration files."),
    )
}

/// A local module source whose folder holds no configuration files (`initwd/module_install.go`).
pub fn module_dir_missing(name: &str, dir: &str, call: &SourceRange, range: SourceRange) -> Diagnostic {
    let shown = if dir.is_empty() { "." } else { dir };
    err(
        "Unreadable module directory",
        format!(
            "The directory {shown} could not be read for module {name:?} at {}:{}.",
            call.filename, call.start.line
        ),
        range,
    )
}

/// A local source climbing above the given files.
pub fn module_dir_outside(name: &str, source: &str, range: SourceRange) -> Diagnostic {
    err(
        "Invalid module source address",
        format!("The module \"{name}\" has source {source:?}, which points outside the loaded files."),
        range,
    )
}

/// A module that calls itself, directly or through other modules.
pub fn module_recursion(name: &str, chain: &[String], range: SourceRange) -> Diagnostic {
    err(
        "Module recursion",
        format!(
            "The module call \"{name}\" would load a module that is already being loaded by one of its callers: {}. A module cannot call itself, directly or indirectly.",
            chain.join(" -> ")
        ),
        range,
    )
}

pub fn too_many_modules(limit: usize, range: SourceRange) -> Diagnostic {
    err(
        "Too many modules",
        format!("This configuration loads more than {limit} module instances through its module calls; loading stopped here."),
        range,
    )
}

/// Terraform's `Module not installed` (`internal/configs/configload/loader_load.go`).
pub fn module_not_installed(range: SourceRange) -> Diagnostic {
    Diagnostic::warning(
        "Module not installed",
        "This module is not yet installed. Run \"terraform init\" to install all modules required by this configuration.",
    )
    .with_range(range)
}

/// A manifest record's folder holds no configuration (`loader_load.go`, `moduleWalkerLoad`).
pub fn module_cache_missing(dir: &str, range: SourceRange) -> Diagnostic {
    Diagnostic::warning(
        "Module not installed",
        format!("This module's local cache directory {dir} could not be read. Run \"terraform init\" to install all modules required by this configuration."),
    )
    .with_range(range)
}

/// The call's source differs from the one recorded at install time (`loader_load.go`).
pub fn module_source_changed(range: SourceRange) -> Diagnostic {
    err(
        "Module source has changed",
        "The source address was changed since this module was installed. Run \"terraform init\" to install all modules required by this configuration.",
        range,
    )
}

/// The call's `version` constraint rejects the installed version (`loader_load.go`).
pub fn module_version_changed(installed: Option<&str>, range: SourceRange) -> Diagnostic {
    let what = match installed {
        Some(v) => format!("the installed version ({v}) is no longer acceptable"),
        None => "the installed version is no longer acceptable".to_string(),
    };
    err(
        "Module version requirements have changed",
        format!("The version requirements have changed since this module was installed and {what}. Run \"terraform init\" to install all modules required by this configuration."),
        range,
    )
}

pub fn invalid_utf8(file: &str) -> Diagnostic {
    Diagnostic::error(
        "Invalid character encoding",
        format!("The file {file} is not valid UTF-8. All input files must be UTF-8 encoded."),
    )
}

// ---- syntax ------------------------------------------------------------------------------

pub fn too_deeply_nested(limit: usize, range: SourceRange) -> Diagnostic {
    err(
        "Expression too deeply nested",
        format!("This expression nests more than {limit} levels deep, which is more than this tool supports."),
        range,
    )
}

/// A native-syntax parse error: the parser gives HCL's own summary and detail (`hclsyntax`).
pub fn syntax_error(summary: &str, detail: &str, range: SourceRange) -> Diagnostic {
    err(summary, detail, range)
}

pub fn json_syntax_error(summary: &str, detail: &str, range: SourceRange) -> Diagnostic {
    err(summary, detail, range)
}

// ---- body schema (hclsyntax/structure.go, json/structure.go) ---------------------------------

pub fn unsupported_block_type(kind: &str, suggestion: Option<&str>, range: SourceRange) -> Diagnostic {
    let hint = suggestion.map(|s| format!(" Did you mean {s:?}?")).unwrap_or_default();
    err("Unsupported block type", format!("Blocks of type {kind:?} are not expected here.{hint}"), range)
}

pub fn unsupported_argument(name: &str, suggestion: Option<&str>, range: SourceRange) -> Diagnostic {
    let hint = suggestion.map(|s| format!(" Did you mean {s:?}?")).unwrap_or_default();
    err("Unsupported argument", format!("An argument named {name:?} is not expected here.{hint}"), range)
}

pub fn extraneous_json_property(name: &str, suggestion: Option<&str>, range: SourceRange) -> Diagnostic {
    let hint = suggestion.map(|s| format!(" Did you mean {s:?}?")).unwrap_or_default();
    err("Extraneous JSON object property", format!("No argument or block type is named {name:?}.{hint}"), range)
}

/// An `import` block with neither or both of `id` and `identity` (Terraform 1.12+).
pub fn invalid_import_block(detail: &str, range: SourceRange) -> Diagnostic {
    err("Invalid import block", detail.to_string(), range)
}

pub fn missing_required_argument(name: &str, range: SourceRange) -> Diagnostic {
    err("Missing required argument", format!("The argument {name:?} is required, but no definition was found."), range)
}

pub fn missing_label(kind: &str, label_names: &[&str], missing: usize, range: SourceRange) -> Diagnostic {
    err(
        format!("Missing {} for {kind}", label_names[missing.min(label_names.len() - 1)]),
        format!("All {kind} blocks must have {} labels ({}).", label_names.len(), label_names.join(", ")),
        range,
    )
}

pub fn extraneous_label(kind: &str, label_names: &[&str], range: SourceRange) -> Diagnostic {
    let detail = if label_names.is_empty() {
        format!("No labels are expected for {kind} blocks.")
    } else {
        format!("Only {} labels ({}) are expected for {kind} blocks.", label_names.len(), label_names.join(", "))
    };
    err(format!("Extraneous label for {kind}"), detail, range)
}

pub fn missing_json_block_label(kind: &str, label: &str, range: SourceRange) -> Diagnostic {
    err(
        "Missing block label",
        format!("At least one object property is required, whose name represents the {kind} block's {label}."),
        range,
    )
}

pub fn json_block_type(kind: &str, range: SourceRange) -> Diagnostic {
    err(
        "Incorrect JSON value type",
        format!("Either a JSON object or a JSON array is required, representing the contents of one or more {kind:?} blocks."),
        range,
    )
}

pub fn json_body_type(range: SourceRange) -> Diagnostic {
    err(
        "Incorrect JSON value type",
        "Either a JSON object or JSON array of objects is required here, to define arguments and child blocks.",
        range,
    )
}

pub fn json_label_type(label: &str, range: SourceRange) -> Diagnostic {
    err(
        "Incorrect JSON value type",
        format!(
            "Either a JSON object or JSON array of objects is required here, to specify {label} labels for this block."
        ),
        range,
    )
}

pub fn duplicate_argument(name: &str, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err("Duplicate argument", format!("The argument {name:?} was already set at {previous}."), range)
}

pub fn required_providers_outside_terraform(range: SourceRange) -> Diagnostic {
    err(
        "Invalid required_providers block",
        "A \"required_providers\" block must be nested inside a \"terraform\" block.",
        range,
    )
}

// ---- duplicates (configs/module.go) --------------------------------------------------------

pub fn duplicate_resource(
    mode_word: &str,
    type_name: &str,
    name: &str,
    previous: &SourceRange,
    range: SourceRange,
) -> Diagnostic {
    let (summary_word, what) = match mode_word {
        "data" => ("data", "data resource"),
        "ephemeral" => ("ephemeral", "ephemeral resource"),
        _ => ("resource", "resource"),
    };
    err(
        format!("Duplicate {summary_word} {type_name:?} configuration"),
        format!("A {type_name} {what} named {name:?} was already declared at {previous}. Resource names must be unique per type in each module."),
        range,
    )
}

pub fn duplicate_variable(name: &str, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err(
        "Duplicate variable declaration",
        format!("A variable named {name:?} was already declared at {previous}. Variable names must be unique within a module."),
        range,
    )
}

pub fn duplicate_local(name: &str, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err(
        "Duplicate local value definition",
        format!("A local value named {name:?} was already defined at {previous}. Local value names must be unique within a module."),
        range,
    )
}

pub fn duplicate_output(name: &str, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err(
        "Duplicate output definition",
        format!(
            "An output named {name:?} was already defined at {previous}. Output names must be unique within a module."
        ),
        range,
    )
}

pub fn duplicate_module_call(name: &str, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err(
        "Duplicate module call",
        format!("A module call named {name:?} was already defined at {previous}. Module calls must have unique names within a module."),
        range,
    )
}

pub fn duplicate_provider(name: &str, alias: Option<&str>, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    let detail = match alias {
        None => format!("A default (non-aliased) provider configuration for {name:?} was already given at {previous}. If multiple configurations are required, set the \"alias\" argument for alternative configurations."),
        Some(a) => format!("A provider configuration for {name:?} with alias {a:?} was already given at {previous}. Each configuration for the same provider must have a distinct alias."),
    };
    err("Duplicate provider configuration", detail, range)
}

pub fn duplicate_required_providers(previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err(
        "Duplicate required providers configuration",
        format!("A module may have only one required providers configuration. The required providers were previously configured at {previous}."),
        range,
    )
}

/// `provider_requirements.go`: the same local name twice in `required_providers`.
pub fn duplicate_required_provider(name: &str, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err("Duplicate required provider", format!("Provider {name} was already required at {previous}."), range)
}

pub fn duplicate_check(name: &str, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err(
        format!("Duplicate check {name:?} configuration"),
        format!("A check block named {name:?} was already declared at {previous}. Check blocks must be unique within each module."),
        range,
    )
}

pub fn duplicate_import(to: &str, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err(
        format!("Duplicate import configuration for {to:?}"),
        format!("An import block for the resource {to:?} was already declared at {previous}. A resource can have only one import block."),
        range,
    )
}

pub fn duplicate_block(kind: &str, what: &str, previous: &SourceRange, range: SourceRange) -> Diagnostic {
    err(format!("Duplicate {kind} block"), format!("This {what} already has a {kind} block at {previous}."), range)
}

// ---- override files (configs/module.go mergeFile) ---------------------------------------------

pub fn missing_base(what: &str, detail: String, range: SourceRange) -> Diagnostic {
    err(what.to_string(), detail, range)
}

pub fn cannot_override(kind: &str, detail: &str, range: SourceRange) -> Diagnostic {
    err(format!("Cannot override '{kind}' blocks"), detail, range)
}

/// `decodeCheckRuleBlock` in an override file: condition blocks cannot be overridden.
pub fn cannot_override_condition(block_type: &str, range: SourceRange) -> Diagnostic {
    err(
        format!("Can't override {block_type} blocks"),
        format!("Override files cannot override {block_type:?} blocks."),
        range,
    )
}

/// `decodeCheckBlock` in an override file.
pub fn cannot_override_check(range: SourceRange) -> Diagnostic {
    err("Can't override check blocks", "Override files cannot override check blocks.", range)
}

// ---- provider configurations (configs/provider_validation.go) --------------------------------

/// A caller passes a configuration for a provider the child module configures itself.
pub fn cannot_override_provider(module: &str, name: &str, parent: &str, range: SourceRange) -> Diagnostic {
    err(
        "Cannot override provider configuration",
        format!(
            "The configuration of {module} has its own local configuration for {name}, and so it cannot accept an overridden configuration provided by {parent}."
        ),
        range,
    )
}

/// `provider` blocks in a module called (directly or further up) with count, for_each or
/// depends_on. `source` is the module's source address as Terraform prints it.
pub fn module_incompatible_with_repetition(module: &str, source: &str, range: SourceRange) -> Diagnostic {
    err(
        "Module is incompatible with count, for_each, and depends_on",
        format!(
            "The module at {module} is a legacy module which contains its own local provider configurations, and so calls to it may not use the count, for_each, or depends_on arguments.\n\nIf you also control the module {source:?}, consider updating this module to instead expect provider configurations to be passed by its caller."
        ),
        range,
    )
}

/// A configuration alias the child module declares is neither configured there nor passed in.
pub fn missing_provider_alias(provider: &str, name: &str, range: SourceRange) -> Diagnostic {
    err(
        "Missing required provider configuration",
        format!(
            "The child module requires an additional configuration for provider {provider}, with the local name {name:?}.\n\nRefer to the module's documentation to understand the intended purpose of this additional provider configuration, and then add an entry for {name} in the \"providers\" meta-argument in the module block to choose which provider configuration the module should use for that purpose."
        ),
        range,
    )
}

/// A module passes on, under a name it declares, a configuration its own caller did not pass.
pub fn missing_inherited_provider(
    module: &str,
    provider: &str,
    name: &str,
    parent: &str,
    call: &str,
    range: SourceRange,
) -> Diagnostic {
    Diagnostic::warning(
        "Missing required provider configuration",
        format!(
            "The configuration for {module} expects to inherit a configuration for provider {provider} with local name {name:?}, but {parent} doesn't pass a configuration under that name.\n\nTo satisfy this requirement, add an entry for {name:?} to the \"providers\" argument in the module {call:?} block."
        ),
    )
    .with_range(range)
}

/// A `providers` value names a provider its module does not declare.
pub fn undefined_provider_in_parent(
    name: &str,
    module: &str,
    provider: &str,
    parent: &str,
    range: SourceRange,
) -> Diagnostic {
    Diagnostic::warning(
        "Reference to undefined provider",
        format!(
            "There is no explicit declaration for local provider name {name:?} in {module}, so Terraform is assuming you mean to pass a configuration for provider {provider:?}.\n\nTo clarify your intent and silence this warning, add to {parent} a required_providers entry named {name:?} with source = {provider:?}, or a different source address if appropriate."
        ),
    )
    .with_range(range)
}

/// A `providers` key names a provider the child module does not declare: a warning for a
/// default (`hashicorp/`) provider, an error otherwise.
pub fn undefined_provider_in_child(
    name: &str,
    module: &str,
    provider: &str,
    default: bool,
    range: SourceRange,
) -> Diagnostic {
    if default {
        Diagnostic::warning(
            "Reference to undefined provider",
            format!(
                "There is no explicit declaration for local provider name {name:?} in {module}, so Terraform is assuming you mean to pass a configuration for {provider:?}.\n\nIf you also control the child module, add a required_providers entry named {name:?} with the source address {provider:?}."
            ),
        )
        .with_range(range)
    } else {
        err(
            "Reference to undefined provider",
            format!(
                "The child module does not declare any provider requirement with the local name {name:?}.\n\nIf you also control the child module, you can add a required_providers entry named {name:?} with the source address {provider:?} to accept this provider configuration."
            ),
            range,
        )
    }
}

/// A passed configuration is for another provider than the child's, which declares the passed
/// one under `other_name`.
pub fn provider_type_mismatch_other_name(
    parent_provider: &str,
    child_name: &str,
    parent: &str,
    child_provider: &str,
    other_name: &str,
    range: SourceRange,
) -> Diagnostic {
    err(
        "Provider type mismatch",
        format!(
            "The assigned configuration is for provider {parent_provider:?}, but local name {child_name:?} in {parent} represents {child_provider:?}.\n\nTo pass this configuration to the child module, use the local name {other_name:?} instead."
        ),
        range,
    )
}

/// A passed configuration is for another provider than the child's, which does not require it.
pub fn provider_type_mismatch(
    in_parent: &str,
    parent: &str,
    parent_provider: &str,
    in_child: &str,
    module: &str,
    child_provider: &str,
    range: SourceRange,
) -> Diagnostic {
    err(
        "Provider type mismatch",
        format!(
            "The local name {in_parent:?} in {parent} represents provider {parent_provider:?}, but {in_child:?} in {module} represents {child_provider:?}.\n\nEach provider has its own distinct configuration schema and provider types, so this module's {in_child:?} can be assigned only a configuration for {child_provider}, which is not required by {module}."
        ),
        range,
    )
}

/// Empty `provider` blocks in a child module, one warning per local name with the
/// `required_providers` entry to write instead.
pub fn redundant_empty_provider(
    name: &str,
    module: &str,
    source: &str,
    configs: &[String],
    aliased: bool,
    range: SourceRange,
) -> Diagnostic {
    let mut d = format!(
        "Earlier versions of Terraform used empty provider blocks (\"proxy provider configurations\") for child modules to declare their need to be passed a provider configuration by their callers. That approach was ambiguous and is now deprecated.\n\nIf you control this module, you can migrate to the new declaration syntax by removing all of the empty provider {name:?} blocks and then adding or updating an entry like the following to the required_providers block of {module}:\n"
    );
    d.push_str(&format!("    {name} = {{\n      source = {source:?}\n"));
    if aliased {
        d.push_str("      configuration_aliases = [\n");
        for c in configs {
            d.push_str(&format!("        {c},\n"));
        }
        d.push_str("      ]\n");
    }
    d.push_str("    }");
    Diagnostic::warning("Redundant empty provider block", d).with_range(range)
}

/// The same provider type required under two local names.
pub fn duplicate_required_provider_type(provider: &str, name: &str, previous: &str, range: SourceRange) -> Diagnostic {
    Diagnostic::warning(
        "Duplicate required provider",
        format!("Provider {provider} with the local name {name:?} was previously required as {previous:?}. A provider can only be required once within required_providers."),
    )
    .with_range(range)
}

/// A default provider required under another local name and configured under its type name.
pub fn duplicate_required_provider_block(
    provider: &str,
    name: &str,
    type_name: &str,
    range: SourceRange,
) -> Diagnostic {
    Diagnostic::warning(
        "Duplicate required provider",
        format!("Provider {provider} with the local name {name:?} was implicitly required via a configuration block as {type_name:?}. The provider configuration block name must match the name used in required_providers."),
    )
    .with_range(range)
}

/// A resource's implied provider is required under another local name.
pub fn duplicate_required_provider_resource(
    provider: &str,
    resource: &str,
    name: &str,
    range: SourceRange,
) -> Diagnostic {
    Diagnostic::warning(
        "Duplicate required provider",
        format!("Provider {provider:?} was implicitly required via resource {resource:?}, but listed in required_providers as {name:?}. Either the local name in required_providers must match the resource name, or the {name:?} provider must be assigned within the resource block."),
    )
    .with_range(range)
}

/// A resource type whose prefix is not a valid provider name (`addrs.ParseProviderPart`).
pub fn invalid_implied_provider_name(name: &str, reason: &str, range: SourceRange) -> Diagnostic {
    err("Invalid provider local name", format!("{name:?} is an invalid implied provider local name: {reason}"), range)
}

// ---- meta-arguments ---------------------------------------------------------------------------

pub fn count_and_for_each(range: SourceRange) -> Diagnostic {
    err(
        "Invalid combination of \"count\" and \"for_each\"",
        "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.",
        range,
    )
}

/// `hcl.AbsTraversalForExpr` (depends_on entries, ignore_changes, moved/removed addresses...).
pub fn static_traversal_required(range: SourceRange) -> Diagnostic {
    err(
        "Invalid expression",
        "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
        range,
    )
}

/// `hcl.ExprList`.
pub fn list_required(range: SourceRange) -> Diagnostic {
    err("Invalid expression", "A static list expression is required.", range)
}

/// `hcl.ExprMap`.
pub fn map_required(range: SourceRange) -> Diagnostic {
    err("Invalid expression", "A static map expression is required.", range)
}

/// `validateDependsOn` (`internal/terraform/node_resource_validate.go`): a depends_on entry with
/// anything after the object's address.
pub fn invalid_depends_on(range: SourceRange) -> Diagnostic {
    err(
        "Invalid depends_on reference",
        "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.",
        range,
    )
}

pub fn provider_in_quotes(range: SourceRange) -> Diagnostic {
    err(
        "Invalid provider configuration reference",
        "A provider configuration reference must not be given in quotes.",
        range,
    )
}

pub fn provider_ref_shape(arg: &str, range: SourceRange) -> Diagnostic {
    err(
        "Invalid provider configuration reference",
        format!("The {arg} argument requires a provider type name, optionally followed by a period and then a configuration alias."),
        range,
    )
}

pub fn provider_alias_shape(range: SourceRange) -> Diagnostic {
    err(
        "Invalid provider configuration reference",
        "Provider name must either stand alone or be followed by a period and then a configuration alias.",
        range,
    )
}

pub fn quoted_reference_deprecated(range: SourceRange) -> Diagnostic {
    Diagnostic::warning(
        "Quoted references are deprecated",
        "In this context, references are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this reference to silence this warning.",
    )
    .with_range(range)
}

pub fn quoted_keyword_deprecated(range: SourceRange) -> Diagnostic {
    Diagnostic::warning(
        "Quoted keywords are deprecated",
        "In this context, keywords are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this keyword to silence this warning.",
    )
    .with_range(range)
}

pub fn invalid_ignore_changes_wildcard(range: SourceRange) -> Diagnostic {
    err(
        "Invalid ignore_changes wildcard",
        "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.",
        range,
    )
}

pub fn invalid_provisioner_when(range: SourceRange) -> Diagnostic {
    err(
        "Invalid \"when\" keyword",
        "The \"when\" argument requires one of the following keywords: create or destroy.",
        range,
    )
}

pub fn invalid_provisioner_on_failure(range: SourceRange) -> Diagnostic {
    err(
        "Invalid \"on_failure\" keyword",
        "The \"on_failure\" argument requires one of the following keywords: continue or fail.",
        range,
    )
}

pub fn expected_string(what: &str, range: SourceRange) -> Diagnostic {
    err("Invalid value", format!("The {what} must be a literal string."), range)
}

pub fn expected_bool(what: &str, range: SourceRange) -> Diagnostic {
    err("Invalid value", format!("The {what} argument must be a literal boolean: true or false."), range)
}

pub fn invalid_module_source(range: SourceRange) -> Diagnostic {
    err(
        "Invalid value for module argument",
        "The source argument must be a literal string, because it is needed before expressions can be evaluated.",
        range,
    )
}

// ---- references (addrs/parse_ref.go) -------------------------------------------------------

pub fn invalid_reference(detail: impl Into<String>, range: SourceRange) -> Diagnostic {
    err("Invalid reference", detail, range)
}

pub fn invalid_index_key(what: &str, reason: &str, range: SourceRange) -> Diagnostic {
    err("Invalid index key", format!("Invalid index for {what}: {reason}."), range)
}

pub fn reserved_symbol(name: &str, range: SourceRange) -> Diagnostic {
    err(
        "Reserved symbol name",
        format!("The symbol name {name:?} is reserved for use in a future Terraform version. If you are using a provider that already uses this as a resource type name, add the prefix \"resource.\" to force interpretation as a resource type name."),
        range,
    )
}

pub fn invalid_count_attr(name: &str, range: SourceRange) -> Diagnostic {
    err(
        "Invalid \"count\" attribute",
        format!("The \"count\" object does not have an attribute named {name:?}. The only supported attribute is count.index, which is the index of each instance of a resource block that has the \"count\" argument set."),
        range,
    )
}

pub fn invalid_each_attr(name: &str, range: SourceRange) -> Diagnostic {
    err(
        "Invalid \"each\" attribute",
        format!("The \"each\" object does not have an attribute named {name:?}. The supported attributes are each.key and each.value, the current key and value pair of the \"for_each\" attribute set."),
        range,
    )
}

pub fn invalid_path_attr(name: &str, range: SourceRange) -> Diagnostic {
    err(
        "Invalid \"path\" attribute",
        format!("The \"path\" object does not have an attribute named {name:?}. The supported attributes are path.module (the path to the current module), path.root (the path to the root module), and path.cwd (the current working directory)."),
        range,
    )
}

pub fn invalid_terraform_attr(name: &str, range: SourceRange) -> Diagnostic {
    err(
        "Invalid \"terraform\" attribute",
        format!("The \"terraform\" object does not have an attribute named {name:?}. The only supported attribute is terraform.workspace, the name of the currently-selected workspace."),
        range,
    )
}

pub fn invalid_name(what: &str, range: SourceRange) -> Diagnostic {
    err(
        format!("Invalid {what}"),
        "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.",
        range,
    )
}
