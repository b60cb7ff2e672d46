//! How a node points at its configuration object: indices, never copies. Below the build
//! context and the nodes, which both use it.

use serde::Serialize;

/// Which configuration object a node stands for: indices into the module list of the
/// [`BuildContext`](super::context::BuildContext) (`Config::modules()` order, root = 0), never
/// copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "object", rename_all = "snake_case")]
pub enum ConfigRef {
    /// `modules[module].resources[index]`.
    Resource { module: u32, index: u32 },
    /// The scoped `data` block of `modules[module].checks[check]`.
    CheckData { module: u32, check: u32 },
    /// `modules[module].variables[index]`.
    Variable { module: u32, index: u32 },
    /// A child module's input: the call `modules[parent].module_calls[call]`, the declared
    /// variable in the child (absent for an opaque module) and the call's argument (absent when
    /// the variable is not set).
    ModuleVariable { parent: u32, call: u32, variable: Option<(u32, u32)>, argument: Option<u32> },
    /// `modules[module].locals[index]`.
    Local { module: u32, index: u32 },
    /// `modules[module].outputs[index]`.
    Output { module: u32, index: u32 },
    /// `modules[module].providers[index]`.
    Provider { module: u32, index: u32 },
    /// `modules[parent].module_calls[call]`.
    ModuleCall { parent: u32, call: u32 },
    /// `modules[module].checks[index]`.
    Check { module: u32, index: u32 },
}
