// The gallery: configurations that each teach one idea of how Terraform orders work. Each is
// `{ id, title, teaches, view?, files }`; a `terraform.tfstate` among the files is the prior state.

import { EXAMPLE } from "./example.js";

const AWS = `terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}
`;

/**
 * A terraform.tfstate (v4) holding one object per `[type, name, attributes, dependencies?]`
 * (`attributes`: the object's, or just its id), served by `provider` (hashicorp/aws unless
 * given); the dependencies are what Terraform records at apply, and what orders a destroy.
 */
function stateOf(resources, provider = "hashicorp/aws") {
  return JSON.stringify(
    {
      version: 4,
      terraform_version: "1.11.4",
      serial: 3,
      lineage: "0d0c8e3a-6f0e-4b7c-9a55-tfgraph-demo",
      outputs: {},
      resources: resources.map(([type, name, attributes, dependencies]) => ({
        mode: "managed",
        type,
        name,
        provider: `provider["registry.terraform.io/${provider}"]`,
        instances: [{ schema_version: 0, attributes: typeof attributes === "string" ? { id: attributes } : attributes, sensitive_attributes: [], ...(dependencies ? { dependencies } : {}) }],
      })),
      check_results: null,
    },
    null,
    2,
  ) + "\n";
}

function fanOut(n) {
  const blocks = [`${AWS}\nresource "aws_vpc" "hub" {\n  cidr_block = "10.0.0.0/8"\n}\n`];
  for (let i = 0; i < n; i++) {
    blocks.push(`resource "aws_subnet" "s${i}" {\n  vpc_id     = aws_vpc.hub.id\n  cidr_block = "10.${Math.floor(i / 250)}.${i % 250}.0/24"\n}\n`);
  }
  return blocks.join("\n");
}

/** The module of the Tests examples (tests/fixtures/test/gallerypass: what Terraform 1.11.4 did with it). */
// The Tests examples' test file (tests/fixtures/test/gallerypass, recorded with Terraform), and
// the failing one made from it by breaking two assertions (galleryfail).
const PASSING_TESTS = `# terraform test runs these runs in order. mock_provider serves hashicorp/mock with made-up
# values (ids from the defaults below, other computed strings generated at apply).
mock_provider "mock" {
  mock_resource "mock_resource" {
    defaults = {
      id = "net-0001"
    }
  }
}

run "plan_defaults" {
  command = plan

  assert {
    condition     = length(mock_resource.web) == 2
    error_message = "Two web servers by default."
  }

  assert {
    condition     = mock_resource.net.name == "dev-net"
    error_message = "The network is named after the environment."
  }
}

run "apply_prod" {
  variables {
    env      = "prod"
    replicas = 3
  }

  assert {
    condition     = output.web_names == ["prod-web-0", "prod-web-1", "prod-web-2"]
    error_message = "One web server per replica, named after the environment."
  }

  assert {
    condition     = mock_resource.web[0].input.net == output.net_id
    error_message = "Web servers join the network."
  }
}

run "scale_from_previous_run" {
  variables {
    env      = "prod"
    replicas = length(run.apply_prod.web_names) + 1
  }

  assert {
    condition     = length(output.web_names) == 4
    error_message = "One more web server than the previous run."
  }
}

run "rejects_unknown_env" {
  command = plan

  variables {
    env = "staging"
  }

  expect_failures = [var.env]
}
`;
const FAILING_TESTS = PASSING_TESTS
  .replace('["prod-web-0", "prod-web-1", "prod-web-2"]', '["prod-web-1", "prod-web-2", "prod-web-3"]')
  .replace(
    'length(output.web_names) == 4\n    error_message = "One more web server than the previous run."',
    'length(output.web_names) == 3\n    error_message = "Expected ${length(output.web_names)} to be 3."',
  );

const TESTED_MODULE = `terraform {
  required_providers {
    mock = {
      source = "hashicorp/mock"
    }
  }
}

variable "env" {
  type    = string
  default = "dev"

  validation {
    condition     = contains(["dev", "prod"], var.env)
    error_message = "env must be dev or prod."
  }
}

variable "replicas" {
  type    = number
  default = 2
}

resource "mock_resource" "net" {
  name  = "\${var.env}-net"
  input = { env = var.env }
}

resource "mock_resource" "web" {
  count = var.replicas
  name  = "\${var.env}-web-\${count.index}"
  input = { net = mock_resource.net.id }
}

output "net_id" {
  value = mock_resource.net.id
}

output "web_names" {
  value = mock_resource.web[*].name
}
`;

export const GALLERY = [
  {
    id: "starter",
    title: "Starter: a data source, a module call, count",
    teaches: "References make edges: the instances wait for the AMI lookup, the security group and the module's outputs.",
    files: { "main.tf": EXAMPLE },
  },
  {
    id: "plan-apply",
    title: "Plan and apply with the mock provider",
    teaches: "In the Plan / Apply tab: Plan, then Apply (the walk runs on the graph), then change net's cidr or web's force_new and Plan again for an update or a replacement; Destroy removes everything in reverse order. The mock provider is Terraform's own test provider, value for value.",
    files: {
      "main.tf": `terraform {
  required_providers {
    mock = {
      source = "hashicorp/mock"
    }
  }
}

variable "env" {
  type    = string
  default = "dev"
}

resource "mock_resource" "net" {
  name  = "net"
  input = { env = var.env, cidr = "10.0.0.0/16" }
}

resource "mock_resource" "subnet" {
  count = 2
  name  = "subnet-\${count.index}"
  input = {
    net   = mock_resource.net.id
    index = count.index
  }
}

resource "mock_resource" "web" {
  name      = "web"
  force_new = "v1"
  input = {
    subnets = join(",", mock_resource.subnet[*].output)
  }
}

output "web_id" {
  value = mock_resource.web.id
}
`,
    },
  },
  {
    id: "vpc",
    title: "VPC, subnet and instances with count",
    teaches: "A chain of references orders the work: VPC, then subnet, then both instances (count expands after the graph is built).",
    files: {
      "main.tf": `${AWS}
provider "aws" {
  region = var.region
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "public" {
  vpc_id     = aws_vpc.main.id
  cidr_block = cidrsubnet(aws_vpc.main.cidr_block, 8, 1)
}

resource "aws_instance" "web" {
  count         = 2
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
  subnet_id     = aws_subnet.public.id
  tags = {
    Name = "web-\${count.index}"
  }
}

output "instance_ids" {
  value = aws_instance.web[*].id
}
`,
    },
  },
  {
    id: "depends-on",
    title: "depends_on: an ordering no reference expresses",
    teaches: "The role policy must exist before the instance starts, though the instance never refers to it: depends_on adds the edge.",
    files: {
      "main.tf": `${AWS}
resource "aws_iam_role" "app" {
  name               = "app"
  assume_role_policy = "{}"
}

resource "aws_iam_role_policy" "app" {
  role   = aws_iam_role.app.id
  policy = "{}"
}

resource "aws_iam_instance_profile" "app" {
  role = aws_iam_role.app.name
}

resource "aws_instance" "app" {
  ami                  = "ami-0123456789abcdef0"
  instance_type        = "t3.micro"
  iam_instance_profile = aws_iam_instance_profile.app.name

  # The software on the instance calls AWS with the policy's permissions at boot.
  depends_on = [aws_iam_role_policy.app]
}
`,
    },
  },
  {
    id: "provider-alias",
    title: "A provider alias: two regions",
    teaches: "Each resource waits for the provider configuration it uses; the replica uses aws.west, whose region comes from a variable.",
    view: "plan",
    files: {
      "main.tf": `${AWS}
variable "west_region" {
  default = "us-west-2"
}

provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "west"
  region = var.west_region
}

resource "aws_s3_bucket" "primary" {
  bucket = "tfgraph-primary"
}

resource "aws_s3_bucket" "replica" {
  provider = aws.west
  bucket   = "\${aws_s3_bucket.primary.bucket}-replica"
}
`,
    },
  },
  {
    id: "module",
    title: "A module with inputs and outputs",
    teaches: "A module is a cluster: its variables wait for the caller's arguments, its outputs for its resources, and the caller's resources wait for the outputs they use.",
    view: "plan",
    files: {
      "main.tf": `${AWS}
module "network" {
  source = "./modules/network"
  cidr   = "10.1.0.0/16"
  azs    = ["eu-west-1a", "eu-west-1b"]
}

resource "aws_instance" "app" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
  subnet_id     = module.network.subnet_ids[0]
}

output "vpc_id" {
  value = module.network.vpc_id
}
`,
      "modules/network/main.tf": `resource "aws_vpc" "this" {
  cidr_block = var.cidr
}

resource "aws_subnet" "this" {
  count             = length(var.azs)
  vpc_id            = aws_vpc.this.id
  availability_zone = var.azs[count.index]
  cidr_block        = cidrsubnet(var.cidr, 8, count.index)
}
`,
      "modules/network/variables.tf": `variable "cidr" {
  type = string
}

variable "azs" {
  type = list(string)
}
`,
      "modules/network/outputs.tf": `output "vpc_id" {
  value = aws_vpc.this.id
}

output "subnet_ids" {
  value = aws_subnet.this[*].id
}
`,
    },
  },
  {
    id: "orphan",
    title: "An orphan: applied, then removed from the configuration",
    teaches: "aws_instance.old is in the state but no longer in the configuration: the plan graph gets an orphan node that plans its destruction.",
    view: "plan",
    files: {
      "main.tf": `${AWS}
resource "aws_instance" "new" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
}
`,
      "terraform.tfstate": stateOf([
        // As applied from this configuration, so the plan changes nothing else.
        ["aws_instance", "new", { ami: "ami-0123456789abcdef0", id: "i-0aaaaaaaaaaaaaaa1", instance_type: "t3.micro" }],
        ["aws_instance", "old", "i-0bbbbbbbbbbbbbbb2"],
      ]),
    },
  },
  {
    id: "replace",
    title: "A replacement, with and without create_before_destroy",
    teaches: "A new image replaces both objects (the built-in mock's force_new forces replacement, as a new AMI does for aws_instance). Blue is destroyed first (the default, -/+); green has create_before_destroy, so its new object exists before the old one goes (+/-), and the attachment that reads it waits in between. Plan, then Apply in the apply view to watch the order.",
    view: "destroy",
    files: {
      "main.tf": `variable "image" {
  default = "v2"
}

resource "mock_resource" "blue" {
  name      = "blue"
  force_new = var.image
}

resource "mock_resource" "green" {
  name      = "green"
  force_new = var.image

  lifecycle {
    create_before_destroy = true
  }
}

resource "mock_resource" "green_attachment" {
  name  = "green-attachment"
  input = { target = mock_resource.green.id }
}
`,
      "terraform.tfstate": stateOf(
        [
          ["mock_resource", "blue", { force_new: "v1", id: "blue-v1", input: null, name: "blue", output: "blue[]" }],
          ["mock_resource", "green", { force_new: "v1", id: "green-v1", input: null, name: "green", output: "green[]" }],
          ["mock_resource", "green_attachment", { force_new: null, id: "green-attachment-1", input: { target: "green-v1" }, name: "green-attachment", output: "green-attachment[target=green-v1]" }, ["mock_resource.green"]],
        ],
        "hashicorp/mock",
      ),
    },
  },
  {
    id: "cycle",
    title: "A dependency cycle",
    teaches: "The two security groups refer to each other: Terraform cannot order them. The cycle is drawn in red and explained edge by edge; the fix is a separate aws_security_group_rule.",
    files: {
      "main.tf": `${AWS}
resource "aws_security_group" "app" {
  name = "app"
  ingress {
    from_port       = 5432
    to_port         = 5432
    protocol        = "tcp"
    security_groups = [aws_security_group.db.id]
  }
}

resource "aws_security_group" "db" {
  name = "db"
  ingress {
    from_port       = 5432
    to_port         = 5432
    protocol        = "tcp"
    security_groups = [aws_security_group.app.id]
  }
}

resource "aws_instance" "app" {
  ami                    = "ami-0123456789abcdef0"
  instance_type          = "t3.micro"
  vpc_security_group_ids = [aws_security_group.app.id]
}
`,
    },
  },
  {
    id: "failure",
    title: "A failure in the middle of an apply",
    teaches: "When the database fails, everything that depends on it is skipped and the rest goes on: select aws_db_instance.main on the graph, then “fail selected” and Apply in the Plan / Apply tab (or Walk in the Run tab).",
    files: {
      "main.tf": `${AWS}
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "a" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.1.0/24"
}

resource "aws_subnet" "b" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.2.0/24"
}

resource "aws_db_subnet_group" "main" {
  subnet_ids = [aws_subnet.a.id, aws_subnet.b.id]
}

resource "aws_db_instance" "main" {
  engine               = "postgres"
  instance_class       = "db.t3.micro"
  db_subnet_group_name = aws_db_subnet_group.main.name
}

resource "aws_instance" "api" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
  subnet_id     = aws_subnet.a.id
  user_data     = "DB=\${aws_db_instance.main.address}"
}

resource "aws_instance" "worker" {
  ami           = "ami-0123456789abcdef0"
  instance_type = "t3.micro"
  subnet_id     = aws_subnet.b.id
}
`,
    },
  },
  {
    id: "tests",
    title: "Tests: terraform test with a mock provider",
    teaches: "In the Tests tab: Run tests runs tests/main.tftest.hcl as terraform test does (no init): a plan run, apply runs whose state carries over, a run reading an earlier run's output, an expected validation failure. Open a run's plan or state; break an assertion and run again.",
    view: "resources",
    files: {
      "main.tf": TESTED_MODULE,
      "tests/main.tftest.hcl": PASSING_TESTS,
    },
  },
  {
    id: "tests-failing",
    title: "Tests: failing assertions",
    teaches: "In the Tests tab: two assertions fail; each failure's message links to its condition in the editor. A failed assertion does not stop the file: the runs after it still run.",
    view: "resources",
    files: {
      "main.tf": TESTED_MODULE,
      "tests/main.tftest.hcl": FAILING_TESTS,
    },
  },
  {
    id: "fan-out",
    title: "A 500-resource fan-out",
    teaches: "500 subnets all wait for one VPC, then run 10 at a time (the default parallelism).",
    files: { "main.tf": fanOut(500) },
  },
];
