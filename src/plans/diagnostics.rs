//! The diagnostics of reading planned changes and of building the apply graph from them, one
//! named constructor each. The readers decide when; the words are here.

use crate::diag::Diagnostic;

const INVALID: &str = "Invalid planned change";

/// The changes are not JSON.
pub fn not_json(error: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(INVALID, format!("The changes could not be parsed as JSON: {error}."))
}

/// The changes are neither a map of actions nor a plan.
pub fn not_an_object() -> Diagnostic {
    Diagnostic::error(
        INVALID,
        "The changes must be an object mapping instance addresses to action lists, or a plan with resource_changes.",
    )
}

/// One entry cannot be read (`what` is its key or address).
pub fn unreadable_change(what: &str, error: &str) -> Diagnostic {
    Diagnostic::error(INVALID, format!("The change for {what:?} cannot be read: {error}."))
}

/// A deposed object planned for anything but removal (Terraform `DiffTransformer`).
pub fn deposed_not_removed(instance: &str, deposed: &str) -> Diagnostic {
    Diagnostic::error(
        "Invalid planned change for deposed object",
        format!("The plan contains a non-remove change for {instance} deposed object {deposed}. The only valid actions for a deposed object are to destroy it or remove it from state, so this is a bug in Terraform."),
    )
}

/// A create-before-destroy replacement of an object the state does not have (Terraform
/// `DiffTransformer`).
pub fn replace_of_missing(instance: &str) -> Diagnostic {
    Diagnostic::error(
        INVALID,
        format!(
            "The plan contains a replace change for {instance}, which doesn't exist yet. This is a bug in Terraform."
        ),
    )
}
