//! Terraform addresses: what a reference can point at, and how Terraform spells it.
//!
//! Mirrors the parts of Terraform's `internal/addrs` that the graph needs. `Display` gives
//! Terraform's `String()` for each address, which is what node names and reference keys use.
//! Addresses are built typed and printed; text is parsed only where it comes from outside
//! (state and plan input: [`InstanceAddr::parse`], [`AbsProviderConfig::parse`]).
//!
//! | file | Terraform | what |
//! |---|---|---|
//! | `module.rs` | `addrs.Module` | [`ModulePath`], a module's place in the tree |
//! | `resource.rs` | `addrs.Resource`, `ResourceMode` | [`ResourceAddr`] with its mode |
//! | `instance.rs` | `addrs.InstanceKey`, `AbsResourceInstance` | [`InstanceKey`], [`InstanceAddr`] and their parsing |
//! | `provider.rs` | `addrs.AbsProviderConfig` | [`AbsProviderConfig`] |
//! | `quote.rs` | Go's `strconv.Quote` | how Terraform quotes strings in addresses and output |
//! | `mod.rs` | `addrs.Referenceable` | [`Subject`], what a reference points at |

mod instance;
mod isprint_table;
mod module;
mod provider;
pub mod quote;
mod resource;

pub use instance::{
    config_resource_text, import_to_resource, index_spans, module_instance_of_address, module_instance_text,
    parse_module_instance, show_key, InstanceAddr, InstanceKey, ScannedAddr,
};
pub use module::ModulePath;
pub use provider::{provider_config_text, write_provider_config, AbsProviderConfig};
pub use quote::{go_escape, go_quote};
pub use resource::{ResourceAddr, ResourceMode};

use serde::{Serialize, Serializer};
use std::fmt;

/// Something a reference points at (Terraform's `addrs.Referenceable`), module-relative.
///
/// Only subjects that can become graph edges are listed; `count.*`, `each.*`, `path.*`,
/// `terraform.*` and `self` are recognised by the reference parser and dropped there.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Subject {
    /// `aws_instance.web` (also `resource.aws_instance.web`, `data.x.y`, `ephemeral.x.y`).
    Resource(ResourceAddr),
    /// `aws_instance.web[0]`, `aws_instance.web["k"]`.
    ResourceInstance(ResourceAddr, InstanceKey),
    /// `module.net`: the whole module call.
    ModuleCall(String),
    /// `module.net[0]`: one whole module instance.
    ModuleCallInstance(String, InstanceKey),
    /// `module.net.vpc_id` or `module.net[0].vpc_id`: one output of a module call.
    ModuleCallOutput { call: String, key: Option<InstanceKey>, output: String },
    /// `var.region`.
    InputVariable(String),
    /// `local.tags`.
    LocalValue(String),
}

impl Subject {
    /// What kind of object this is, as a short stable word for JSON consumers.
    pub fn kind(&self) -> &'static str {
        match self {
            Subject::Resource(r) | Subject::ResourceInstance(r, _) => match r.mode {
                ResourceMode::Managed => "resource",
                ResourceMode::Data => "data",
                ResourceMode::Ephemeral => "ephemeral",
            },
            Subject::ModuleCall(_) | Subject::ModuleCallInstance(..) => "module",
            Subject::ModuleCallOutput { .. } => "module_output",
            Subject::InputVariable(_) => "variable",
            Subject::LocalValue(_) => "local",
        }
    }

    /// The subject without any instance key: `aws_instance.web[0]` gives `aws_instance.web`.
    /// Terraform falls back to this when no node carries the exact instance address.
    pub fn without_key(&self) -> Subject {
        match self {
            Subject::ResourceInstance(r, _) => Subject::Resource(r.clone()),
            Subject::ModuleCallInstance(m, _) => Subject::ModuleCall(m.clone()),
            Subject::ModuleCallOutput { call, output, .. } => {
                Subject::ModuleCallOutput { call: call.clone(), key: None, output: output.clone() }
            }
            other => other.clone(),
        }
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Resource(r) => write!(f, "{r}"),
            Subject::ResourceInstance(r, k) => write!(f, "{r}{k}"),
            Subject::ModuleCall(m) => write!(f, "module.{m}"),
            Subject::ModuleCallInstance(m, k) => write!(f, "module.{m}{k}"),
            Subject::ModuleCallOutput { call, key: None, output } => write!(f, "module.{call}.{output}"),
            Subject::ModuleCallOutput { call, key: Some(k), output } => write!(f, "module.{call}{k}.{output}"),
            Subject::InputVariable(v) => write!(f, "var.{v}"),
            Subject::LocalValue(l) => write!(f, "local.{l}"),
        }
    }
}

impl Serialize for Subject {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn res(mode: ResourceMode, t: &str, n: &str) -> ResourceAddr {
        ResourceAddr { mode, type_name: t.into(), name: n.into() }
    }

    #[test]
    fn subjects_print_as_terraform_does() {
        let cases = [
            (Subject::Resource(res(ResourceMode::Managed, "aws_instance", "web")), "aws_instance.web"),
            (Subject::Resource(res(ResourceMode::Data, "aws_ami", "u")), "data.aws_ami.u"),
            (Subject::ResourceInstance(res(ResourceMode::Managed, "a", "b"), InstanceKey::Int(0)), "a.b[0]"),
            (
                Subject::ResourceInstance(res(ResourceMode::Managed, "a", "b"), InstanceKey::Str("x\"y".into())),
                "a.b[\"x\\\"y\"]",
            ),
            (Subject::ModuleCall("net".into()), "module.net"),
            (Subject::ModuleCallInstance("net".into(), InstanceKey::Int(2)), "module.net[2]"),
            (Subject::ModuleCallOutput { call: "net".into(), key: None, output: "id".into() }, "module.net.id"),
            (
                Subject::ModuleCallOutput {
                    call: "n".into(),
                    key: Some(InstanceKey::Str("a".into())),
                    output: "id".into(),
                },
                "module.n[\"a\"].id",
            ),
            (Subject::InputVariable("x".into()), "var.x"),
            (Subject::LocalValue("y".into()), "local.y"),
        ];
        for (subject, want) in cases {
            assert_eq!(subject.to_string(), want);
        }
    }

    #[test]
    fn module_paths() {
        let p = ModulePath::root().child("vpc").child("subnets");
        assert_eq!(p.to_string(), "module.vpc.module.subnets");
        assert_eq!(p.manifest_key(), "vpc.subnets");
        assert_eq!(ModulePath::root().to_string(), "");
    }
}
