//! The benchmark's configurations: `n` mock resource instances (n a multiple of 100) in a shape
//! seen in real stacks. The root calls module `stack` with `count = n / 100`; each instance of
//! it holds exactly 100 instances:
//!
//! - `vpc`: one resource reading the module's inputs;
//! - `subnet`: count 9, a fan-out from `vpc`;
//! - `server`: count 80, each reading one subnet (`subnet[count.index % 9]`) and a local;
//! - `chain_0` … `chain_8`: a chain of nine resources (`chain_i` reads `chain_{i-1}`, `chain_0`
//!   reads `vpc`), the long path through the graph;
//! - `join`: one resource reading every server (`server[*].id`), a fan-in.
//!
//! Module instances do not read each other (so the walk has the parallelism real stacks
//! have); the root has one output, from the first instance.

use std::collections::BTreeMap;

const STACK: &str = r#"variable "env" {
  type = string
}

variable "index" {
  type = number
}

locals {
  prefix = "${var.env}-${var.index}"
}

resource "mock_resource" "vpc" {
  name  = "vpc-${local.prefix}"
  input = { env = var.env }
}

resource "mock_resource" "subnet" {
  count = 9
  name  = "subnet-${local.prefix}-${count.index}"
  input = { vpc = mock_resource.vpc.id }
}

resource "mock_resource" "server" {
  count = 80
  name  = "server-${local.prefix}-${count.index}"
  input = {
    subnet = mock_resource.subnet[count.index % 9].id
    prefix = local.prefix
  }
}

resource "mock_resource" "join" {
  name  = "join-${local.prefix}"
  input = { servers = join(",", mock_resource.server[*].id) }
}

output "vpc_id" {
  value = mock_resource.vpc.id
}
"#;

/// The files of the `n`-instance configuration (`main.tf`, `modules/stack/main.tf`).
pub fn files(n: usize) -> BTreeMap<String, String> {
    assert!(n % 100 == 0 && n > 0, "the size must be a positive multiple of 100");
    let root = format!(
        r#"terraform {{
  required_providers {{
    mock = {{ source = "hashicorp/mock" }}
  }}
}}

variable "env" {{
  default = "bench"
}}

module "stack" {{
  source = "./modules/stack"
  count  = {}
  env    = var.env
  index  = count.index
}}

output "first_vpc" {{
  value = module.stack[0].vpc_id
}}
"#,
        n / 100
    );
    let mut stack = STACK.to_string();
    for i in 0..9 {
        let prev =
            if i == 0 { "mock_resource.vpc.id".to_string() } else { format!("mock_resource.chain_{}.id", i - 1) };
        stack.push_str(&format!("\nresource \"mock_resource\" \"chain_{i}\" {{\n  name  = \"chain-${{local.prefix}}-{i}\"\n  input = {{ prev = {prev} }}\n}}\n"));
    }
    let mut out = BTreeMap::new();
    out.insert("main.tf".to_string(), root);
    out.insert("modules/stack/main.tf".to_string(), stack);
    out
}
