//! Resource addresses inside a module (Terraform `addrs.Resource`), with their mode.

use serde::Serialize;
use std::fmt;

/// Managed resources, data sources and ephemeral resources share one address shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ResourceMode {
    Managed,
    Data,
    Ephemeral,
}

impl ResourceMode {
    /// The prefix a reference to this mode starts with (`data.`, `ephemeral.`, or none).
    pub fn prefix(self) -> &'static str {
        match self {
            ResourceMode::Managed => "",
            ResourceMode::Data => "data.",
            ResourceMode::Ephemeral => "ephemeral.",
        }
    }

    /// The mode as state and plan JSON name it (`managed`, `data`, `ephemeral`).
    pub fn as_str(self) -> &'static str {
        match self {
            ResourceMode::Managed => "managed",
            ResourceMode::Data => "data",
            ResourceMode::Ephemeral => "ephemeral",
        }
    }

    /// The keyword of the block that declares it (`resource`, `data`, `ephemeral`).
    pub fn block_type(self) -> &'static str {
        match self {
            ResourceMode::Managed => "resource",
            ResourceMode::Data => "data",
            ResourceMode::Ephemeral => "ephemeral",
        }
    }
}

/// A resource block's address inside its module: `aws_instance.web`, `data.aws_ami.ubuntu`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ResourceAddr {
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
}

impl fmt::Display for ResourceAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}.{}", self.mode.prefix(), self.type_name, self.name)
    }
}
