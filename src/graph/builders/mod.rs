//! The builders: for each graph Terraform builds, its ordered list of transformers, each with
//! the reason it sits where it does and the setup the walk gives it, as Terraform's
//! `PlanGraphBuilder.Steps()` and `ApplyGraphBuilder.Steps()` fill in their transformers' fields.
//! The transformers themselves never ask which operation is running.

pub mod apply;
pub mod plan;
