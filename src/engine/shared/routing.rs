//! Which provider configuration serves each resource: the answer of the graph's
//! `ProviderTransformer` (the `provider` argument's local name and alias, else the type's
//! prefix, through `required_providers`; unaliased configurations inherited from parent
//! modules; `providers = { ... }` passing followed to the configuration it stands for; an
//! implied empty configuration where none is written). The plan walk builds the validate graph
//! anyway (a cycle refuses the plan), so routing reads its resource nodes instead of resolving
//! a second time.
//!
//! Terraform records that configuration's address on every state resource (`provider`) and its
//! source address in the plan JSON (`provider_name`).

use crate::addrs::AbsProviderConfig;
use crate::graph::TfGraph;
use std::collections::HashMap;

/// Resource config address (`module.a.aws_instance.web`, no instance keys) → provider
/// configuration address (`provider["registry.terraform.io/hashicorp/aws"].west`).
#[derive(Clone, Debug, Default)]
pub struct Routing {
    by_resource: HashMap<String, String>,
}

impl Routing {
    /// Reads the resolved provider of every resource node of `graph` (a validate or plan graph).
    pub fn from_graph(graph: &TfGraph) -> Routing {
        let mut by_resource = HashMap::new();
        for id in graph.ids() {
            let node = graph.node(id);
            let (Some(addr), Some(provider)) = (node.config_resource_address(), node.resolved_provider.as_ref()) else {
                continue;
            };
            by_resource.entry(addr).or_insert_with(|| provider.to_string());
        }
        Routing { by_resource }
    }

    /// The configuration serving the resource at `config_address`, if the graph resolved one.
    pub fn provider_config(&self, config_address: &str) -> Option<&str> {
        self.by_resource.get(config_address).map(String::as_str)
    }
}

/// The source address of a provider configuration address
/// (`module.a.provider["registry.terraform.io/hashicorp/aws"].west` →
/// `registry.terraform.io/hashicorp/aws`); the text itself when it is not one.
pub fn source_of(config_address: &str) -> String {
    AbsProviderConfig::parse(config_address).map(|p| p.provider).unwrap_or_else(|| config_address.to_string())
}

/// The configuration address Terraform implies for a source with no configuration written
/// (`provider["registry.terraform.io/hashicorp/mock"]`).
pub fn default_config(source: &str) -> String {
    crate::addrs::provider_config_text(&crate::addrs::ModulePath::root(), source, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routing(files: &[(&str, &str)]) -> Routing {
        let files: std::collections::BTreeMap<String, String> =
            files.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let loaded = crate::load(&files, &Default::default());
        let built = crate::graph::build(
            &loaded.config,
            &crate::graph::BuildOptions {
                operation: crate::graph::Operation::Validate,
                reduce: false,
                ..Default::default()
            },
        );
        Routing::from_graph(&built.graph)
    }

    #[test]
    fn aliases_inheritance_and_passing() {
        let r = routing(&[
            (
                "main.tf",
                r#"
provider "aws" { region = "us-east-1" }
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}
resource "aws_vpc" "east" {}
resource "aws_vpc" "west" { provider = aws.west }
data "google_project" "p" {}
module "net" {
  source    = "./net"
  providers = { aws = aws.west }
}
module "inherit" { source = "./net" }
"#,
            ),
            ("net/main.tf", "resource \"aws_subnet\" \"s\" {}\n"),
        ]);
        let aws = "provider[\"registry.terraform.io/hashicorp/aws\"]";
        assert_eq!(r.provider_config("aws_vpc.east"), Some(aws));
        assert_eq!(r.provider_config("aws_vpc.west"), Some(format!("{aws}.west").as_str()));
        assert_eq!(
            r.provider_config("data.google_project.p"),
            Some("provider[\"registry.terraform.io/hashicorp/google\"]")
        );
        assert_eq!(r.provider_config("module.net.aws_subnet.s"), Some(format!("{aws}.west").as_str()));
        assert_eq!(r.provider_config("module.inherit.aws_subnet.s"), Some(aws));
    }

    #[test]
    fn sources_of_addresses() {
        assert_eq!(
            source_of("module.a.provider[\"registry.terraform.io/hashicorp/aws\"].west"),
            "registry.terraform.io/hashicorp/aws"
        );
        assert_eq!(
            default_config("registry.terraform.io/hashicorp/mock"),
            "provider[\"registry.terraform.io/hashicorp/mock\"]"
        );
    }
}
