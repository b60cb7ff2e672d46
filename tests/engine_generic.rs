//! Providers other than `hashicorp/mock`: the generic mock plans, applies and re-plans to no
//! changes the seeds' VPC/subnet/instance example and configurations with several providers,
//! aliases, module provider passing, nested and `dynamic` blocks and `.tf.json` files; each
//! object is served by, and recorded under, the provider configuration Terraform resolves
//! (state `provider`, plan JSON `provider_name`, as Terraform 1.11.4 wrote them for the same
//! shapes with the oracle's mock provider: tests/fixtures/engine/provider-addresses/).
//! Through the engine's session (`engine::session`, by `support/session.rs`), as the package calls it.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/session.rs"]
mod session;

use serde_json::{json, Value};
use std::collections::BTreeMap;

fn files(list: &[(&str, &str)]) -> BTreeMap<String, String> {
    list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

/// Plans and applies `files` from `state` with `request`'s extra fields: the engine's answer.
#[track_caller]
fn run(files: &BTreeMap<String, String>, state: Option<&Value>, extra: Value) -> Value {
    let loaded = tfgraph::load(files, &Default::default());
    let mut request = json!({"apply": true, "state": state});
    if let (Some(r), Some(e)) = (request.as_object_mut(), extra.as_object()) {
        r.extend(e.clone());
    }
    session::run(files, &loaded.config, loaded.diagnostics, &request)
}

fn errors(out: &Value) -> Vec<String> {
    let mut all = Vec::new();
    for d in [&out["diagnostics"], &out["apply"]["diagnostics"]] {
        for e in d.as_array().into_iter().flatten().filter(|e| e["severity"] == "error") {
            all.push(format!("{}: {}", e["summary"].as_str().unwrap_or(""), e["detail"].as_str().unwrap_or("")));
        }
    }
    all
}

/// Plan, apply, then plan again from the new state: the second plan must change nothing.
/// Returns the first run and the state.
#[track_caller]
fn converge(files: &BTreeMap<String, String>) -> (Value, Value) {
    // A delay, so that the virtual clock separates the apply's waves.
    let first = run(files, None, json!({"mock": {"delayMs": 100}}));
    assert_eq!(errors(&first), Vec::<String>::new(), "plan/apply errors; plan:\n{}", first["planText"]);
    let state = first["apply"]["state"].clone();
    let second = run(files, Some(&state), json!({"apply": false}));
    assert_eq!(errors(&second), Vec::<String>::new());
    let changed: Vec<String> = second["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["actions"] != json!(["no-op"]))
        .map(|c| format!("{} {}", c["address"], c["actions"]))
        .collect();
    assert_eq!(changed, Vec::<String>::new(), "the re-plan has changes:\n{}", second["planText"]);
    assert!(second["planText"].as_str().unwrap().contains("No changes."), "{}", second["planText"]);
    (first, state)
}

/// state resource address → (provider, instances' attributes).
fn resources(state: &Value) -> BTreeMap<String, (String, Vec<Value>)> {
    state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let module = r["module"].as_str().map(|m| format!("{m}.")).unwrap_or_default();
            let data = if r["mode"] == "data" { "data." } else { "" };
            let addr = format!("{module}{data}{}.{}", r["type"].as_str().unwrap(), r["name"].as_str().unwrap());
            let attrs = r["instances"].as_array().unwrap().iter().map(|i| i["attributes"].clone()).collect();
            (addr, (r["provider"].as_str().unwrap().to_string(), attrs))
        })
        .collect()
}

const SEEDS: &str = r#"
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "app" {
  vpc_id     = aws_vpc.main.id
  cidr_block = "10.0.1.0/24"
}

resource "aws_instance" "web" {
  count     = 2
  subnet_id = aws_subnet.app.id
  ami       = "ami-123456"
}
"#;

#[test]
fn the_seeds_vpc_subnet_instances_example() {
    let f = files(&[("main.tf", SEEDS)]);
    let (first, state) = converge(&f);
    let text = first["planText"].as_str().unwrap();
    assert!(text.contains("Plan: 4 to add, 0 to change, 0 to destroy."), "{text}");
    assert!(text.contains("+ id         = (known after apply)"), "{text}");
    // The apply order is the seeds': the VPC, the subnet, both instances together.
    let waves = &first["apply"]["report"]["waves"];
    assert_eq!(
        waves,
        &json!([
            ["create aws_vpc.main"],
            ["create aws_subnet.app"],
            ["create aws_instance.web[0]", "create aws_instance.web[1]"]
        ])
    );
    let r = resources(&state);
    let aws = "provider[\"registry.terraform.io/hashicorp/aws\"]";
    assert!(r.values().all(|(p, _)| p == aws), "{r:?}");
    let vpc_id = r["aws_vpc.main"].1[0]["id"].as_str().unwrap().to_string();
    assert!(vpc_id.starts_with("vpc-"), "{vpc_id}");
    assert_eq!(r["aws_subnet.app"].1[0]["vpc_id"], json!(vpc_id));
    let subnet_id = r["aws_subnet.app"].1[0]["id"].as_str().unwrap();
    assert!(subnet_id.starts_with("subnet-"));
    for i in &r["aws_instance.web"].1 {
        assert_eq!(i["subnet_id"], json!(subnet_id));
        assert!(i["id"].as_str().unwrap().starts_with("i-"));
        assert_eq!(i["ami"], "ami-123456");
    }
    // plan JSON names the provider by source.
    let rc = first["plan"]["resource_changes"].as_array().unwrap();
    assert!(rc.iter().all(|c| c["provider_name"] == "registry.terraform.io/hashicorp/aws"));
    assert_eq!(rc[0]["change"]["after_unknown"]["id"], json!(true));
}

#[test]
fn a_change_updates_in_place_and_keeps_computed_attributes() {
    let f = files(&[("main.tf", SEEDS)]);
    let (_, state) = converge(&f);
    let changed = files(&[("main.tf", &SEEDS.replace("ami-123456", "ami-999"))]);
    let out = run(&changed, Some(&state), json!({}));
    assert_eq!(errors(&out), Vec::<String>::new());
    let actions: Vec<(String, Value)> = out["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["address"].as_str().unwrap().to_string(), c["actions"].clone()))
        .collect();
    assert_eq!(
        actions,
        vec![
            ("aws_instance.web[0]".to_string(), json!(["update"])),
            ("aws_instance.web[1]".to_string(), json!(["update"])),
            ("aws_subnet.app".to_string(), json!(["no-op"])),
            ("aws_vpc.main".to_string(), json!(["no-op"])),
        ]
    );
    let before = resources(&state);
    let after = resources(&out["apply"]["state"]);
    assert_eq!(before["aws_instance.web"].1[0]["id"], after["aws_instance.web"].1[0]["id"], "an update keeps the id");
    assert_eq!(after["aws_instance.web"].1[0]["ami"], "ami-999");
}

const PROVIDERS: &str = r#"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
    gcp = { source = "hashicorp/google" }
  }
}

provider "aws" {
  region = "us-east-1"
}

provider "aws" {
  alias  = "west"
  region = "us-west-2"
}

resource "aws_s3_bucket" "east" {
  bucket = "logs-east"
}

resource "aws_s3_bucket" "west" {
  provider = aws.west
  bucket   = "logs-west"
}

resource "google_storage_bucket" "b" {
  provider = gcp
  name     = "assets"
  location = "EU"
}

resource "random_pet" "p" {}

module "passed" {
  source    = "./net"
  providers = { aws = aws.west }
  name      = "passed"
}

module "inherited" {
  source = "./net"
  name   = "inherited"
}

module "own" {
  source = "./own"
}

output "arns" {
  value = [aws_s3_bucket.east.arn, aws_s3_bucket.west.arn, module.passed.vpc_arn, module.own.vpc_arn]
}
"#;

const NET: &str = r#"
variable "name" {}

resource "aws_vpc" "v" {
  cidr_block = "10.0.0.0/16"
  tags       = { Name = var.name }
}

output "vpc_arn" {
  value = aws_vpc.v.arn
}
"#;

const OWN: &str = r#"
provider "aws" {
  region = "eu-west-1"
}

resource "aws_vpc" "v" {
  cidr_block = "10.9.0.0/16"
}

output "vpc_arn" {
  value = aws_vpc.v.arn
}
"#;

#[test]
fn aliases_module_passing_and_several_providers() {
    let f = files(&[("main.tf", PROVIDERS), ("net/main.tf", NET), ("own/main.tf", OWN)]);
    let (first, state) = converge(&f);
    let r = resources(&state);
    let aws = "provider[\"registry.terraform.io/hashicorp/aws\"]";
    let got: BTreeMap<&str, &str> = r.iter().map(|(k, (p, _))| (k.as_str(), p.as_str())).collect();
    let want: BTreeMap<&str, String> = [
        ("aws_s3_bucket.east", aws.to_string()),
        ("aws_s3_bucket.west", format!("{aws}.west")),
        ("google_storage_bucket.b", "provider[\"registry.terraform.io/hashicorp/google\"]".to_string()),
        ("random_pet.p", "provider[\"registry.terraform.io/hashicorp/random\"]".to_string()),
        ("module.passed.aws_vpc.v", format!("{aws}.west")),
        ("module.inherited.aws_vpc.v", aws.to_string()),
        ("module.own.aws_vpc.v", format!("module.own.{aws}")),
    ]
    .into_iter()
    .collect();
    assert_eq!(got, want.iter().map(|(k, v)| (*k, v.as_str())).collect());
    let names: BTreeMap<String, String> = first["plan"]["resource_changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["address"].as_str().unwrap().to_string(), c["provider_name"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(names["aws_s3_bucket.west"], "registry.terraform.io/hashicorp/aws");
    assert_eq!(names["google_storage_bucket.b"], "registry.terraform.io/hashicorp/google");
    let arns = &state["outputs"]["arns"]["value"];
    assert_eq!(arns[0], "arn:aws:s3:::logs-east");
    // The region of the configuration serving it: module.passed is given aws.west.
    assert!(arns[2].as_str().unwrap().starts_with("arn:aws:ec2:us-west-2:123456789012:vpc/vpc-"), "{arns}");
    assert!(arns[3].as_str().unwrap().starts_with("arn:aws:ec2:eu-west-1:"), "module.own's own configuration: {arns}");
}

#[test]
fn removed_resources_are_destroyed_by_the_provider_their_state_names() {
    let f = files(&[("main.tf", PROVIDERS), ("net/main.tf", NET), ("own/main.tf", OWN)]);
    let (_, state) = converge(&f);
    let renamed = PROVIDERS
        .replace("\"aws_s3_bucket\" \"west\"", "\"aws_s3_bucket\" \"west2\"")
        .replace("aws_s3_bucket.west.arn", "aws_s3_bucket.west2.arn");
    let fewer = files(&[("main.tf", renamed.as_str()), ("net/main.tf", NET), ("own/main.tf", OWN)]);
    let out = run(&fewer, Some(&state), json!({}));
    assert_eq!(errors(&out), Vec::<String>::new());
    let deleted: Vec<&Value> = out["plan"]["resource_changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["change"]["actions"] == json!(["delete"]))
        .collect();
    let created: Vec<&Value> = out["plan"]["resource_changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["change"]["actions"] == json!(["create"]))
        .collect();
    assert_eq!(created.len(), 1);
    assert_eq!(deleted.len(), 1);
    assert_eq!(deleted[0]["address"], "aws_s3_bucket.west");
    assert_eq!(deleted[0]["provider_name"], "registry.terraform.io/hashicorp/aws");
    let r = resources(&out["apply"]["state"]);
    assert!(!r.contains_key("aws_s3_bucket.west"));
    assert_eq!(r["aws_s3_bucket.west2"].0, "provider[\"registry.terraform.io/hashicorp/aws\"].west");
}

const BLOCKS: &str = r#"
variable "ports" {
  default = { http = 80, https = 443 }
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_security_group" "web" {
  name   = "web"
  vpc_id = aws_vpc.main.id

  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
  }

  dynamic "ingress" {
    for_each = var.ports
    iterator = port
    content {
      from_port   = port.value
      to_port     = port.value
      protocol    = "tcp"
      cidr_blocks = ["0.0.0.0/0"]
      description = port.key
    }
  }

  dynamic "egress" {
    for_each = toset(["0.0.0.0/0"])
    content {
      cidr_blocks = [egress.value]
    }
  }
}

output "sg" {
  value = aws_security_group.web.id
}
"#;

const JSON_TF: &str = r#"{
  "resource": {
    "aws_instance": {
      "app": {
        "count": 2,
        "ami": "ami-1",
        "subnet_id": "${aws_vpc.main.id}",
        "tags": { "Name": "app-${count.index}" },
        "root_block_device": [{ "volume_size": 20 }]
      }
    }
  },
  "output": {
    "ips": { "value": "${aws_instance.app[*].private_ip}" }
  }
}"#;

#[test]
fn nested_dynamic_blocks_and_json_files() {
    let f = files(&[("main.tf", BLOCKS), ("app.tf.json", JSON_TF)]);
    let (first, state) = converge(&f);
    let r = resources(&state);
    let sg = &r["aws_security_group.web"].1[0];
    let ingress = sg["ingress"].as_array().unwrap();
    assert_eq!(ingress.len(), 3, "{sg}");
    assert_eq!(ingress[0]["from_port"], 22);
    assert_eq!((ingress[1]["description"].clone(), ingress[1]["from_port"].clone()), (json!("http"), json!(80)));
    assert_eq!(ingress[2]["to_port"], 443);
    assert_eq!(ingress[0]["description"], Value::Null, "a block leaves what another block writes null");
    assert_eq!(sg["egress"], json!([{"cidr_blocks": ["0.0.0.0/0"]}]));
    let apps = &r["aws_instance.app"].1;
    assert_eq!(apps.len(), 2);
    assert_eq!(apps[1]["tags"], json!({"Name": "app-1"}));
    assert_eq!(apps[0]["root_block_device"], json!([{"volume_size": 20}]));
    let ips = state["outputs"]["ips"]["value"].as_array().unwrap();
    assert!(ips.iter().all(|ip| ip.as_str().unwrap().starts_with("10.")), "{ips:?}");
    assert!(first["planText"].as_str().unwrap().contains("ingress {"), "{}", first["planText"]);
}

const DATA: &str = r#"
data "aws_availability_zones" "available" {
  state = "available"
}

data "aws_caller_identity" "current" {}

resource "aws_subnet" "az" {
  count             = length(data.aws_availability_zones.available.names)
  availability_zone = data.aws_availability_zones.available.names[count.index]
  cidr_block        = cidrsubnet("10.0.0.0/16", 8, count.index)
  tags              = { Owner = data.aws_caller_identity.current.account_id }
}
"#;

#[test]
fn data_sources_are_read_during_plan_with_plausible_values() {
    let f = files(&[("main.tf", DATA)]);
    let (first, state) = converge(&f);
    assert!(first["planText"].as_str().unwrap().contains("Plan: 3 to add"), "{}", first["planText"]);
    let r = resources(&state);
    assert_eq!(r["aws_subnet.az"].1.len(), 3);
    assert_eq!(r["aws_subnet.az"].1[2]["tags"]["Owner"], "123456789012");
    assert_eq!(r["data.aws_caller_identity.current"].0, "provider[\"registry.terraform.io/hashicorp/aws\"]");
}

#[test]
fn seeded_jitter_and_rate_limits_are_deterministic_and_retried_by_the_provider() {
    let f = files(&[("main.tf", "resource \"aws_vpc\" \"v\" {\n  count = 6\n  cidr_block = \"10.${count.index}.0.0/16\"\n  name = \"v${count.index}\"\n}\n")]);
    let mock = json!({"delayMs": 100, "jitterMs": 40, "seed": 3, "rateLimit": 0.4});
    let a = run(&f, None, json!({"mock": mock}));
    let b = run(&f, None, json!({"mock": mock}));
    assert_eq!(a["apply"]["report"]["events"], b["apply"]["report"]["events"], "one seed, one timeline");
    let finishes: Vec<u64> = a["apply"]["report"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "finish")
        .map(|e| e["time"].as_u64().unwrap())
        .collect();
    assert_eq!(finishes.len() + errors(&a).len(), 6, "{:?}", errors(&a));
    // Throttled attempts are retried inside the provider: some operations take 100 ms ± 40
    // plus their backoffs, none fails for a rate limit it could retry through.
    assert!(finishes.iter().any(|&t| t > 140), "{finishes:?}");
    assert!(finishes.iter().all(|&t| t >= 60));
    let other = run(&f, None, json!({"mock": {"delayMs": 100, "jitterMs": 40, "seed": 4, "rateLimit": 0.4}}));
    assert_ne!(a["apply"]["report"]["events"], other["apply"]["report"]["events"], "another seed, another timeline");
    // Every attempt throttled: the provider gives up and the walker does not retry.
    let hopeless = run(&f, None, json!({"mock": {"rateLimit": 1.0, "maxRetries": 2}}));
    let errs = errors(&hopeless);
    assert_eq!(errs.len(), 6, "{errs:?}");
    assert!(errs[0].starts_with("Rate exceeded: ") && errs[0].contains("retried 2 times"), "{errs:?}");
}

#[test]
fn fail_addresses_fail_instances_by_address_on_both_mocks() {
    let f = files(&[
        ("main.tf", "resource \"aws_instance\" \"web\" {\n  count = 2\n  ami = \"ami-1\"\n}\nresource \"mock_resource\" \"m\" {\n  input = { web = aws_instance.web[0].id }\n}\nmodule \"net\" {\n  source = \"./net\"\n}\n"),
        ("net/main.tf", "resource \"aws_subnet\" \"s\" {\n  for_each = toset([\"a\", \"b\"])\n  cidr_block = each.key\n}\n"),
    ]);
    // An entry that is no address is refused before planning, as a bad -target is.
    let bad = run(&f, None, json!({"mock": {"failAddresses": ["aws_instance.web[0]", "aws_instance"]}}));
    assert_eq!(errors(&bad), ["Invalid failAddresses entry \"aws_instance\": The mock fails resource instances by address, such as aws_instance.web[1] or module.m.aws_subnet.a[\"x\"] (a resource's address: all its instances). Resource specification must include a resource type and name."]);
    assert_eq!(bad["apply"], Value::Null);
    let out =
        run(&f, None, json!({"mock": {"failAddresses": ["aws_instance.web[0]", "module.net.aws_subnet.s[\"b\"]"]}}));
    let mut errs = errors(&out);
    errs.sort();
    assert_eq!(errs, vec![
        "mock: injected failure creating 'aws_instance.web[0]': MOCK_FAIL_ADDRESS contains 'aws_instance.web[0]'".to_string(),
        "mock: injected failure creating 'module.net.aws_subnet.s[\"b\"]': MOCK_FAIL_ADDRESS contains 'module.net.aws_subnet.s[\"b\"]'".to_string(),
    ]);
    let events = out["apply"]["report"]["events"].as_array().unwrap();
    let of = |kind: &str| -> Vec<String> {
        let mut v: Vec<String> =
            events.iter().filter(|e| e["kind"] == kind).map(|e| e["address"].as_str().unwrap().to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(of("fail"), ["aws_instance.web[0]", "module.net.aws_subnet.s[\"b\"]"]);
    assert!(!of("start").contains(&"mock_resource.m".to_string()), "what depends on a failed instance never starts");
    assert_eq!(out["apply"]["report"]["added"], 2);
    let failed =
        out["apply"]["diagnostics"].as_array().unwrap().iter().find(|d| d["address"] == "aws_instance.web[0]").unwrap();
    assert_eq!(failed["range"]["start"]["line"], 1, "at the resource's block, as a failure by name is");

    // The built-in mock by address too (a resource's address: every instance), and failOps'
    // updates, which keep the prior object.
    let (_, state) = converge(&f);
    let changed = files(&[
        ("main.tf", &f["main.tf"].replace("ami-1", "ami-2").replace("web[0].id }", "web[0].id, v = \"2\" }")),
        ("net/main.tf", &f["net/main.tf"]),
    ]);
    let upd =
        run(&changed, Some(&state), json!({"mock": {"failAddresses": ["mock_resource.m"], "failOps": ["update"]}}));
    assert_eq!(
        errors(&upd),
        ["mock: injected failure updating 'mock_resource.m': MOCK_FAIL_ADDRESS contains 'mock_resource.m'"]
    );
    let after = resources(&upd["apply"]["state"]);
    assert_eq!(after["aws_instance.web"].1[1]["ami"], "ami-2");
    assert_eq!(after["mock_resource.m"].1[0]["input"]["v"], Value::Null, "a failed update keeps the prior object");
    // The generic mock's too. mock_resource.m reads aws_instance.web[0] only, so it waits for
    // that instance alone and is updated though web[1] fails (as Terraform 1.11.4 does:
    // tests/fixtures/engine/instance-reference-failure).
    let upd =
        run(&changed, Some(&state), json!({"mock": {"failAddresses": ["aws_instance.web[1]"], "failOps": ["update"]}}));
    assert_eq!(
        errors(&upd),
        ["mock: injected failure updating 'aws_instance.web[1]': MOCK_FAIL_ADDRESS contains 'aws_instance.web[1]'"]
    );
    let after = resources(&upd["apply"]["state"]);
    assert_eq!(
        (&after["aws_instance.web"].1[0]["ami"], &after["aws_instance.web"].1[1]["ami"]),
        (&json!("ami-2"), &json!("ami-1"))
    );
    assert_eq!(after["mock_resource.m"].1[0]["input"]["v"], "2");
}

/// A recorded step's config/ folder as a files map (paths relative to config/).
fn read_config(dir: &std::path::Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

/// A state's resources as Terraform writes them, minus what differs between runs.
fn state_resources(state: &Value) -> Vec<Value> {
    let mut rs: Vec<Value> = state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let instances: Vec<Value> = r["instances"].as_array().unwrap().iter().map(|i| json!({"attributes": i["attributes"], "dependencies": i.get("dependencies")})).collect();
            json!({"module": r.get("module"), "mode": r["mode"], "type": r["type"], "name": r["name"], "provider": r["provider"], "instances": instances})
        })
        .collect();
    rs.sort_by_key(|r| r.to_string());
    rs
}

/// Each resource change's address, provider_name and actions.
fn plan_routes(plan: &Value) -> Vec<(String, String, Value)> {
    let mut out: Vec<(String, String, Value)> = plan["resource_changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["address"].as_str().unwrap().to_string(),
                c["provider_name"].as_str().unwrap().to_string(),
                c["change"]["actions"].clone(),
            )
        })
        .collect();
    out.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    out
}

#[test]
fn provider_addresses_match_terraform() {
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/providers/provider-addresses");
    let mut state: Option<Value> = None;
    for step in ["step1", "step2"] {
        let dir = scenario.join(step);
        let f = read_config(&dir.join("config"));
        let want_plan: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
        let want_state: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("state.tfstate")).unwrap()).unwrap();
        let out = run(&f, state.as_ref(), json!({}));
        assert_eq!(errors(&out), Vec::<String>::new(), "{step}");
        assert_eq!(plan_routes(&out["plan"]), plan_routes(&want_plan), "{step}: plan JSON");
        let got = out["apply"]["state"].clone();
        assert_eq!(state_resources(&got), state_resources(&want_state), "{step}: state");
        state = Some(got);
    }
}

#[test]
fn a_provider_the_configuration_no_longer_uses_still_destroys_its_objects() {
    let both = files(&[("main.tf", "resource \"aws_vpc\" \"v\" { cidr_block = \"10.0.0.0/16\" }\nresource \"google_storage_bucket\" \"b\" { name = \"b\" }\n")]);
    let (_, state) = converge(&both);
    let aws_only = files(&[("main.tf", "resource \"aws_vpc\" \"v\" { cidr_block = \"10.0.0.0/16\" }\n")]);
    let out = run(&aws_only, Some(&state), json!({}));
    assert_eq!(errors(&out), Vec::<String>::new());
    let actions: Vec<(String, Value)> = out["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["address"].as_str().unwrap().to_string(), c["actions"].clone()))
        .collect();
    assert_eq!(
        actions,
        vec![("aws_vpc.v".to_string(), json!(["no-op"])), ("google_storage_bucket.b".to_string(), json!(["delete"]))]
    );
    assert_eq!(out["plan"]["resource_changes"][1]["provider_name"], "registry.terraform.io/hashicorp/google");
    assert_eq!(resources(&out["apply"]["state"]).keys().collect::<Vec<_>>(), vec!["aws_vpc.v"]);
}

/// Write-only attributes (`*_wo`, Terraform 1.11+): the configured value reaches the provider
/// but the plan and the state hold null, as Terraform requires of real providers; the plan's
/// text says `(write-only attribute)`, and planning again changes nothing.
#[test]
fn write_only_attributes_stay_out_of_plan_and_state() {
    let files = files(&[(
        "main.tf",
        "resource \"aws_db_instance\" \"db\" {\n  identifier          = \"db\"\n  password_wo         = \"s3cret-value\"\n  password_wo_version = 1\n  settings {\n    token_wo = \"t0ken-value\"\n  }\n}\n",
    )]);
    let (first, state) = converge(&files);
    let planned = [&first["plan"]["planned_values"], &first["plan"]["resource_changes"]];
    for (what, text) in [("planned values", format!("{planned:?}")), ("state", state.to_string())] {
        assert!(
            !text.contains("s3cret-value") && !text.contains("t0ken-value"),
            "{what} holds a write-only value: {text}"
        );
    }
    let after = &first["plan"]["resource_changes"][0]["change"]["after"];
    assert_eq!(after["password_wo"], Value::Null, "{after}");
    assert_eq!(after["password_wo_version"], json!(1), "{after}");
    let attrs = &state["resources"][0]["instances"][0]["attributes"];
    assert_eq!(attrs["password_wo"], Value::Null, "{attrs}");
    assert_eq!(attrs["settings"][0]["token_wo"], Value::Null, "{attrs}");
    let text = first["planText"].as_str().unwrap();
    assert!(text.contains("password_wo") && text.contains("(write-only attribute)"), "{text}");
}

/// A create_before_destroy replacement destroys the object it deposed itself, not an older
/// deposed object of the same instance (which its own `(deposed KEY)` node destroys), even
/// when that older object's delete is still running or holds the key the engine would choose:
/// Terraform pre-allocates a fresh key for the create to depose under and hands it to the
/// replacement's destroy node (`DiffTransformer`).
#[test]
fn a_replacement_destroys_the_object_it_deposed_not_an_older_deposed_one() {
    let config = |force: &str| {
        files(&[(
            "main.tf",
            &format!(
                "resource \"mock_resource\" \"base\" {{\n  name      = \"base\"\n  force_new = \"{force}\"\n  lifecycle {{\n    create_before_destroy = true\n  }}\n}}\n"
            ),
        )])
    };
    let (_, mut state) = converge(&config("1"));
    // An older object of the instance, deposed by an earlier apply that failed to destroy it,
    // under the key the engine itself would choose first.
    let instances = state["resources"][0]["instances"].as_array_mut().unwrap();
    let mut old = instances[0].clone();
    old["deposed"] = json!("00000001");
    old["attributes"]["name"] = json!("old");
    old["attributes"]["id"] = json!("old-id");
    instances.insert(0, old);
    // The older object's delete outlasts the replacement's create.
    let out = run(&config("2"), Some(&state), json!({"mock": {"delayMs": 100, "delayByName": {"old": 1000}}}));
    assert_eq!(errors(&out), Vec::<String>::new(), "plan:\n{}", out["planText"]);
    let after = &out["apply"]["state"]["resources"][0]["instances"];
    let left: Vec<(Value, Value)> = after
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["deposed"].clone(), i["attributes"]["force_new"].clone()))
        .collect();
    assert_eq!(left, vec![(Value::Null, json!("2"))], "state after the apply: {after:#}");
    assert_eq!(out["apply"]["report"]["destroyed"], json!(2), "{:#}", out["apply"]["report"]);
}
