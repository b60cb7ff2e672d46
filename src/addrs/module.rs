//! A module's place in the module tree (Terraform `addrs.Module`).

use serde::Serialize;
use std::fmt;

/// A module's place in the module tree: the call names from the root (`["net", "subnets"]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct ModulePath(pub Vec<String>);

impl ModulePath {
    pub fn root() -> Self {
        ModulePath(Vec::new())
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    pub fn child(&self, name: &str) -> Self {
        let mut v = self.0.clone();
        v.push(name.to_string());
        ModulePath(v)
    }

    /// The key Terraform's `modules.json` manifest uses: call names joined by dots (`vpc.subnets`).
    pub fn manifest_key(&self) -> String {
        self.0.join(".")
    }
}

impl fmt::Display for ModulePath {
    /// `module.net.module.subnets`, or the empty string for the root module.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "module.{name}")?;
        }
        Ok(())
    }
}
