//! The rules Terraform applies to condition blocks while it loads a module, before anything is
//! evaluated (Terraform 1.15, `internal/configs/checks.go` and `named_values.go`):
//!
//! * a `condition` that refers to nothing (HCL's `Variables()` is empty: literals, functions
//!   and `for` iterators only) is an error in every condition block, "Invalid BLOCK
//!   expression" (since 1.2 for preconditions and postconditions, 1.5 for `check` asserts;
//!   variable validations have had it since 0.13). An `assert` with that error is dropped, so
//!   a `check` left with none also gets "Zero assert blocks";
//! * a variable validation's condition must refer to the variable itself: 1.9 let it refer to
//!   other objects too (before, it could refer to nothing else), and 1.9.0 kept the
//!   requirement that it name `var.NAME`;
//! * a resource's precondition or postcondition may not refer to its own resource (it reads
//!   `self` instead): "Invalid reference in BLOCK";
//! * an output takes preconditions only: "Postconditions are not allowed".
//!
//! Checked against `terraform validate -json` 1.11.4 (tests/fixtures/config/check-rules).

use super::dx::Dx;
use super::model::{Condition, Reference};
use super::syntax::{Block, Ex};
use crate::addrs::Subject;
use crate::diag::{Diagnostic, Diagnostics, SourceRange};

impl Dx<'_, '_> {
    /// `decodeCheckRuleBlock`'s rule: whether `condition` refers to anything; when it does
    /// not, the error is pushed. `block_type` is the condition block's type.
    pub fn condition_refers_to_something(&mut self, condition: &Ex, block_type: &str) -> bool {
        // Only the count matters; syntax errors inside JSON strings were reported already.
        let refers = !condition.traversals(self.f, &[], &mut Diagnostics::new()).is_empty();
        if !refers {
            self.diags.push(
                Diagnostic::error(
                    format!("Invalid {block_type} expression"),
                    "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
                )
                .with_range(self.range(condition.span())),
            );
        }
        refers
    }

    /// "Postconditions are not allowed" for each `postcondition` block of an output.
    pub fn output_postconditions<'b, 'c: 'b>(&mut self, blocks: impl Iterator<Item = &'b Block<'c>>) {
        for b in blocks {
            self.diags.push(
                Diagnostic::error(
                    "Postconditions are not allowed",
                    "Output values can only have preconditions, not postconditions.",
                )
                .with_range(self.range(b.kind_span.clone())),
            );
        }
    }
}

/// "Zero assert blocks": a `check` with no valid `assert`, at the block's header.
pub fn zero_asserts(check_range: SourceRange) -> Diagnostic {
    Diagnostic::error("Zero assert blocks", "Check blocks must have at least one assert block.").with_range(check_range)
}

/// `checkVariableValidationBlock` (1.9+): a validation whose condition does not name
/// `var.NAME` cannot test the incoming value.
pub fn validation_without_self(variable: &str, v: &Condition) -> Option<Diagnostic> {
    let names_self =
        v.condition.references.iter().any(|r| matches!(&r.subject, Subject::InputVariable(n) if n == variable));
    (!names_self).then(|| {
        Diagnostic::error(
            "Invalid variable validation condition",
            format!("The condition for variable \"{variable}\" must refer to var.{variable} in order to test incoming values."),
        )
        .with_range(v.condition.range.clone())
    })
}

/// `CheckRule.validateSelfReferences`: a resource's precondition or postcondition that names
/// the resource itself (`resource_address` as `aws_instance.web` or `data.aws_ami.u`), one
/// error per expression (condition, then error message) that does.
pub fn self_references(block_type: &str, resource_address: &str, c: &Condition) -> Diagnostics {
    let mut out = Diagnostics::new();
    for e in std::iter::once(&c.condition).chain(c.error_message.as_ref()) {
        if e.references.iter().any(|r| names_resource(r, resource_address)) {
            out.push(
                Diagnostic::error(
                    format!("Invalid reference in {block_type}"),
                    format!("Configuration for {resource_address} may not refer to itself."),
                )
                .with_range(e.range.clone()),
            );
        }
    }
    out
}

fn names_resource(r: &Reference, address: &str) -> bool {
    match &r.subject {
        Subject::Resource(a) | Subject::ResourceInstance(a, _) => a.to_string() == address,
        _ => false,
    }
}
