//! The diagnostics of reading a state, one named constructor each, with Terraform's summaries
//! (`internal/states/statefile/version4.go`, `read.go`). The reader decides when; the words
//! are here.

use crate::diag::Diagnostic;
use std::fmt::Display;

const UNSUPPORTED: &str = "Unsupported state file format";
const BAD_INSTANCE: &str = "Invalid resource instance metadata in state";

/// The text is not JSON, with the position where serde_json stopped. Nesting past serde_json's
/// 128 levels is named as such: Go's encoding/json, which Terraform reads the state with, stops
/// at 10,000, so such a state is one Terraform reads and tfgraph does not.
pub fn not_json(e: &serde_json::Error) -> Diagnostic {
    let at = (e.is_syntax() || e.is_eof()).then(|| (e.line(), e.column()));
    let detail = match at {
        Some((line, column)) if e.to_string().starts_with("recursion limit exceeded") => format!(
            "The state file could not be read: its JSON nests more than 128 levels deep at line {line} column {column}, more than tfgraph reads (Terraform reads up to 10,000)."
        ),
        Some((line, column)) => {
            format!("The state file could not be parsed as JSON: syntax error at line {line} column {column}.")
        }
        None => "The state file could not be parsed as JSON.".to_string(),
    };
    Diagnostic::error(UNSUPPORTED, detail)
}

pub fn missing_version() -> Diagnostic {
    Diagnostic::error(
        UNSUPPORTED,
        "The state file does not have a \"version\" attribute, which is required to identify the format version.",
    )
}

pub fn version_zero() -> Diagnostic {
    Diagnostic::error(UNSUPPORTED, "The state file uses JSON syntax but has a version number of zero. There was never a JSON-based state format zero, so this state file is invalid and cannot be processed.")
}

/// Versions 1 to 3, which Terraform upgrades but this reader does not.
pub fn version_too_old(version: u64) -> Diagnostic {
    Diagnostic::error(
        UNSUPPORTED,
        format!("The state file uses format version {version}, which tfgraph does not read. Terraform upgrades it to version 4 when it next writes the state (`terraform state pull` with Terraform 0.12 or later shows the upgraded state)."),
    )
}

pub fn version_too_new(version: u64) -> Diagnostic {
    Diagnostic::error(
        UNSUPPORTED,
        format!("The state file uses format version {version}, which is not supported by Terraform 1.15. This state file may have been created by a newer version of Terraform."),
    )
}

/// `version` is not a positive whole number: Go's description of it (`string`, `number 4.5`).
pub fn version_not_a_number(version: &str) -> Diagnostic {
    Diagnostic::error(
        UNSUPPORTED,
        format!("The version in the state file is {version}. A positive whole number is required."),
    )
}

pub fn resources_not_array() -> Diagnostic {
    Diagnostic::error(UNSUPPORTED, "The state file's \"resources\" must be an array.")
}

pub fn invalid_mode(mode: &str, type_name: &str, name: &str) -> Diagnostic {
    Diagnostic::error(
        "Invalid resource mode in state",
        format!("State contains a resource with mode {mode:?} ({type_name:?} {name:?}) which is not supported."),
    )
}

pub fn invalid_module_instance(module: &str, error: &str) -> Diagnostic {
    Diagnostic::error(
        "Invalid module instance address in state",
        format!("State contains an invalid module instance address {module:?}: {error}."),
    )
}

pub fn missing_type_or_name(type_name: &str, name: &str) -> Diagnostic {
    Diagnostic::error(
        "Invalid resource in state",
        format!("State contains a resource with type {type_name:?} and name {name:?}; both are required."),
    )
}

/// The summary of [`invalid_provider`]. Terraform's `readStateV4` drops this diagnostic (its
/// `diags.Append` result is unused) and skips the resource, so a state read for its values
/// (plan, evaluate) is not refused for it.
pub const INVALID_PROVIDER: &str = "Invalid provider config address in state";

pub fn invalid_provider(provider: &str, type_name: &str, name: &str) -> Diagnostic {
    Diagnostic::error(
        INVALID_PROVIDER,
        format!("State contains an invalid provider config address {provider:?} for {type_name}.{name}."),
    )
}

/// `resource` has an instance whose `index_key` (printed as JSON; Go prints an object or array
/// as `%#v`) does not fit its `each`.
pub fn invalid_instance_key(resource: impl Display, key: &str) -> Diagnostic {
    Diagnostic::error(BAD_INSTANCE, format!("Resource {resource} has an instance with the invalid instance key {key}."))
}

pub fn invalid_status(instance: impl Display, status: &str) -> Diagnostic {
    Diagnostic::error(BAD_INSTANCE, format!("Instance {instance} has invalid status {status:?}."))
}

pub fn invalid_deposed_key(instance: impl Display, key: &str) -> Diagnostic {
    Diagnostic::error(
        BAD_INSTANCE,
        format!("Instance {instance} has an object with deposed key {key:?}, which is not correctly formatted."),
    )
}

pub fn duplicate_instance(instance: impl Display, deposed: Option<&str>) -> Diagnostic {
    let detail = match deposed {
        Some(dk) => format!("Instance {instance} deposed object {dk:?} appears multiple times in the state file."),
        None => format!("Instance {instance} appears multiple times in the state file."),
    };
    Diagnostic::error("Duplicate resource instance in state", detail)
}

pub fn invalid_dependency(instance: impl Display, dependency: &str, error: &str) -> Diagnostic {
    Diagnostic::error(BAD_INSTANCE, format!("Instance {instance} has invalid dependency {dependency:?}: {error}."))
}
