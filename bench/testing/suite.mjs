// The test-runner bench's suite (bench/testing/run.mjs): a 100-resource module on the mock
// provider (hashicorp/mock, the oracle's; tfgraph serves it in memory) and N test files of 10
// runs each, alternating plan and apply runs with assertions on known-at-plan values, on
// `mock_provider` defaults and generated values after apply, on outputs, and a run output fed to
// a later run's variables. Every run passes under `terraform test` 1.11.4 and tfgraph alike.

/** The module under test: 1 + 48 + 48 + 1 resources, a data source, outputs. */
export function moduleFiles() {
  const main = `terraform {
  required_providers {
    mock = {
      source = "hashicorp/mock"
    }
  }
}

variable "prefix" {
  type    = string
  default = "bench"
}

variable "tier" {
  type    = number
  default = 1
}

data "mock_data" "zone" {
  name = "\${var.prefix}-zone"
}

resource "mock_resource" "base" {
  name  = var.prefix
  input = { zone = data.mock_data.zone.name, tier = tostring(var.tier) }
}

# A fan-out reading the base, then a second tier reading the first one by one.
resource "mock_resource" "a" {
  count = 48
  name  = "\${var.prefix}-a-\${count.index}"
  input = { parent = mock_resource.base.id }
}

resource "mock_resource" "b" {
  count = 48
  name  = "\${var.prefix}-b-\${count.index}"
  input = { parent = mock_resource.a[count.index].id, out = mock_resource.a[count.index].output }
}

# A fan-in over every second-tier object.
resource "mock_resource" "sum" {
  name  = "\${var.prefix}-sum"
  input = { ids = join(",", mock_resource.b[*].id) }
}

output "base_id" {
  value = mock_resource.base.id
}

output "names" {
  value = mock_resource.a[*].name
}

output "sum_ids" {
  value = mock_resource.sum.input.ids
}
`;
  return { "main.tf": main };
}

/** Test file `i` (0-based): 10 runs, 5 plan and 5 apply, about 3 assertions each. */
export function testFile(i) {
  const p = `t${i}`;
  const runs = [];
  for (let r = 0; r < 10; r++) {
    const prefix = `${p}-r${r}`;
    if (r % 2 === 0) {
      runs.push(`run "plan_${r}" {
  command = plan

  variables {
    prefix = "${prefix}"
  }

  assert {
    condition     = mock_resource.base.name == "${prefix}"
    error_message = "base name"
  }

  assert {
    condition     = length(mock_resource.a) == 48 && mock_resource.b[47].name == "${prefix}-b-47"
    error_message = "fan-out"
  }

  assert {
    condition     = output.names[3] == "${prefix}-a-3"
    error_message = "names output"
  }
}`);
    } else {
      const fromPrevious = r >= 3 ? `\n    tier   = length(run.apply_${r - 2}.names)` : "";
      runs.push(`run "apply_${r}" {
  variables {
    prefix = "${prefix}"${fromPrevious}
  }

  assert {
    condition     = output.base_id == "fixed-id"
    error_message = "mock default"
  }

  assert {
    condition     = length(mock_resource.a[5].output) == 8
    error_message = "generated output"
  }

  assert {
    condition     = length(split(",", output.sum_ids)) == 48
    error_message = "fan-in"
  }
}`);
    }
  }
  return `# Bench test file ${i}: 10 runs.
mock_provider "mock" {
  mock_resource "mock_resource" {
    defaults = {
      id = "fixed-id"
    }
  }
}

variables {
  tier = 2
}

${runs.join("\n\n")}
`;
}

/** The whole suite: the module and `files` test files under tests/. */
export function suite(files) {
  const out = moduleFiles();
  for (let i = 0; i < files; i++) out[`tests/t${String(i).padStart(3, "0")}.tftest.hcl`] = testFile(i);
  return out;
}
