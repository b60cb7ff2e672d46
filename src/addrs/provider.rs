//! Provider configuration addresses (Terraform `addrs.AbsProviderConfig`):
//! `module.a.provider["registry.terraform.io/hashicorp/aws"].west`.
//!
//! The graph builds them from their parts ([`write_provider_config`], [`AbsProviderConfig`]'s
//! `Display`); only text that comes from outside (a state object's `provider`) is parsed.

use super::ModulePath;
use std::fmt;

/// A provider configuration in a module: the provider's source address (`fqn`) and an
/// optional alias.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AbsProviderConfig {
    pub module: ModulePath,
    /// The provider's source address: `registry.terraform.io/hashicorp/aws`.
    pub provider: String,
    pub alias: Option<String>,
}

impl AbsProviderConfig {
    /// Reads `module.a.provider["fqn"].alias` (Terraform `ParseAbsProviderConfigStr`, lenient
    /// where that is strict: module instance keys are dropped, since a provider configuration
    /// belongs to the module, not to one of its instances). `None` if it is not one.
    pub fn parse(addr: &str) -> Option<AbsProviderConfig> {
        let start = addr.find("provider[\"")?;
        let module_text = addr[..start].trim_end_matches('.');
        let mut path = Vec::new();
        let mut rest = module_text;
        while let Some(r) = rest.strip_prefix("module.") {
            let end = r.find(".module.").unwrap_or(r.len());
            let name = &r[..end];
            path.push(name.split('[').next().unwrap_or(name).to_string());
            rest = r[end..].trim_start_matches('.');
        }
        let after = &addr[start + "provider[\"".len()..];
        let close = after.find("\"]")?;
        let provider = after[..close].to_string();
        let alias = after[close + 2..].strip_prefix('.').map(str::to_string);
        Some(AbsProviderConfig { module: ModulePath(path), provider, alias })
    }
}

/// Writes Terraform's `AbsProviderConfig.String()` from its parts, for callers that hold the
/// parts shared rather than an [`AbsProviderConfig`].
pub fn write_provider_config(
    out: &mut impl fmt::Write,
    module: &ModulePath,
    fqn: &str,
    alias: Option<&str>,
) -> fmt::Result {
    if !module.is_root() {
        write!(out, "{module}.")?;
    }
    write!(out, "provider[\"{fqn}\"]")?;
    if let Some(a) = alias {
        write!(out, ".{a}")?;
    }
    Ok(())
}

/// [`write_provider_config`] into a new string.
pub fn provider_config_text(module: &ModulePath, fqn: &str, alias: Option<&str>) -> String {
    let mut s = String::with_capacity(fqn.len() + 16);
    let _ = write_provider_config(&mut s, module, fqn, alias);
    s
}

impl fmt::Display for AbsProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_provider_config(f, &self.module, &self.provider, self.alias.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_configs_round_trip() {
        let a = AbsProviderConfig {
            module: ModulePath(vec!["a".into(), "b".into()]),
            provider: "registry.terraform.io/hashicorp/aws".into(),
            alias: Some("west".into()),
        };
        let s = a.to_string();
        assert_eq!(s, "module.a.module.b.provider[\"registry.terraform.io/hashicorp/aws\"].west");
        assert_eq!(AbsProviderConfig::parse(&s), Some(a));
        assert_eq!(
            AbsProviderConfig::parse("provider[\"terraform.io/builtin/terraform\"]"),
            Some(AbsProviderConfig {
                module: ModulePath::root(),
                provider: "terraform.io/builtin/terraform".into(),
                alias: None
            })
        );
        assert_eq!(
            AbsProviderConfig::parse("module.m[0].provider[\"x/y/z\"]").map(|p| p.module),
            Some(ModulePath(vec!["m".into()]))
        );
        assert_eq!(AbsProviderConfig::parse("aws_instance.web"), None);
    }
}
