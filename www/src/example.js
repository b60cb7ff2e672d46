// The configuration the editor starts with: a few resources, a data source and a module call.

export const EXAMPLE = `terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

provider "aws" {
  region = var.region
}

variable "region" {
  type    = string
  default = "eu-west-1"
}

data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"]
}

module "network" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.8.1"
  cidr    = "10.0.0.0/16"
}

resource "aws_security_group" "web" {
  name   = "web"
  vpc_id = module.network.vpc_id
}

resource "aws_instance" "web" {
  count                  = 2
  ami                    = data.aws_ami.ubuntu.id
  instance_type          = "t3.micro"
  subnet_id              = module.network.public_subnets[count.index]
  vpc_security_group_ids = [aws_security_group.web.id]
}

resource "aws_eip" "web" {
  count    = 2
  instance = aws_instance.web[count.index].id
}

output "addresses" {
  value = aws_eip.web[*].public_ip
}
`;
