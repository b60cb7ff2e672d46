// evaluate() as a user imports it: values, marks, types, console rendering, variables, state,
// errors as TfgraphError with ranges.
import { test } from "node:test";
import assert from "node:assert/strict";
import { evaluate, loadConfig, TfgraphError } from "../../pkg/index.js";

const files = {
  "main.tf": `
variable "region" {
  type    = string
  default = "eu-west-1"
}
variable "sizes" {
  type = object({ small = number, large = optional(number, 8) })
}
variable "name" {
  type = string
  validation {
    condition     = length(var.name) > 2
    error_message = "The name must be longer than two characters."
  }
  default = "web"
}
variable "secret" {
  type      = string
  default   = "hunter2"
  sensitive = true
}
locals {
  tags = { Name = "\${var.name}-\${var.region}" }
}
resource "aws_instance" "web" {
  count = 2
  ami   = "ami-1"
}
`,
  "terraform.tfvars": `sizes = { small = 1 }\nregion = "us-east-1"\n`,
};

test("numbers, conversions and console rendering as Terraform prints them", () => {
  const r = evaluate(files, "0.1 + 0.2");
  assert.equal(r.rendered, "0.3");
  assert.equal(r.type, "number");
  assert.equal(r.json, "0.3");
  assert.equal(evaluate(files, "12345678901234567890 + 1").json, "12345678901234567891");
  assert.equal(evaluate(files, 'true ? 1 : "x"').rendered, '"1"');
  assert.equal(evaluate(files, "[for x in [1, 2, 3] : x * 2 if x > 1]").rendered, "[\n  4,\n  6,\n]");
});

test("variables: tfvars over defaults, API values over tfvars, optional() defaults", () => {
  assert.deepEqual(evaluate(files, "var.sizes").value, { small: 1, large: 8 });
  assert.equal(evaluate(files, "local.tags.Name").value, "web-us-east-1");
  assert.equal(evaluate(files, "var.region", { variables: { region: "ap-south-1" } }).value, "ap-south-1");
  // A config from loadConfig works too.
  assert.equal(evaluate(loadConfig(files), "var.region").value, "us-east-1");
});

test("sensitive and unknown parts are marked, never silently null", () => {
  const s = evaluate(files, "var.secret");
  assert.equal(s.rendered, "(sensitive value)");
  assert.equal(s.sensitive, true);
  const u = evaluate(files, "{ id = aws_instance.web[0].id, n = 1 }");
  assert.deepEqual(u.value, { id: null, n: 1 });
  assert.deepEqual(u.unknown, { id: true });
  assert.equal(u.json, null);
});

test("resource attributes come from a state v4 object", () => {
  const state = {
    version: 4,
    resources: [
      {
        mode: "managed",
        type: "aws_instance",
        name: "web",
        each: "list",
        instances: [
          { index_key: 0, attributes: { id: "i-0" } },
          { index_key: 1, attributes: { id: "i-1" } },
        ],
      },
    ],
  };
  assert.deepEqual(evaluate(files, "aws_instance.web[*].id", { state }).value, ["i-0", "i-1"]);
});

test("errors are TfgraphError with Terraform's texts and ranges", () => {
  assert.throws(
    () => evaluate(files, "uper(var.name)"),
    (e) =>
      e instanceof TfgraphError &&
      e.diagnostics[0].summary === "Call to unknown function" &&
      e.diagnostics[0].detail === 'There is no function named "uper". Did you mean "upper"?' &&
      e.diagnostics[0].range.start.column === 1,
  );
  assert.throws(
    () => evaluate(files, "var.name", { variables: { name: "ab" } }),
    (e) => e.diagnostics.some((d) => d.summary === "Invalid value for variable" && d.detail.startsWith("The name must be longer than two characters.")),
  );
  assert.throws(() => evaluate(files, 42), TypeError);
});

test("strings are in Unicode normal form C, as cty keeps them", () => {
  assert.equal(evaluate(files, 'strrev("e\\u0301x")').value, "x\u00e9");
  assert.equal(evaluate(files, '"e\\u0301" == "\\u00e9"').value, true);
  assert.equal(evaluate(files, 'length("e\\u0301")').value, 1);
});

test("the working directory: options.cwd, or the directory readConfigDir read (with root)", async () => {
  const { readConfigDir } = await import("../../pkg/read-dir.js");
  const { mkdtempSync, mkdirSync, writeFileSync, realpathSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { plan } = await import("../../pkg/index.js");
  const top = realpathSync(mkdtempSync(join(tmpdir(), "tfgraph-cwd-")));
  mkdirSync(join(top, "envs", "prod"), { recursive: true });
  writeFileSync(join(top, "envs", "prod", "main.tf"), 'locals {\n  name = "ex-${basename(path.cwd)}"\n}\noutput "name" {\n  value = local.name\n}\n');
  writeFileSync(join(top, "envs", "prod", "data.txt"), "hello");
  const read = await readConfigDir(top);
  assert.deepEqual(Object.keys(read).sort(), ["envs/prod/main.tf"]);
  const cwd = `${top.split("\\").join("/")}/envs/prod`;
  assert.equal(evaluate(read, "path.cwd", { root: "envs/prod" }).value, cwd);
  assert.equal(evaluate(read, "local.name", { root: "envs/prod" }).value, "ex-prod");
  assert.equal(evaluate(read, 'abspath("x/../y")', { root: "envs/prod" }).value, `${cwd}/y`);
  // A configuration from loadConfig keeps it; an explicit option wins.
  const config = loadConfig(read, { root: "envs/prod" });
  assert.equal(evaluate(config, "path.cwd").value, cwd);
  assert.equal(evaluate(read, "path.cwd", { root: "envs/prod", cwd: "/srv/app" }).value, "/srv/app");
  // Plain files without a directory: "." as before.
  assert.equal(evaluate({ "main.tf": "" }, "path.cwd").value, ".");
  const p = await plan(read, { root: "envs/prod" });
  assert.equal(p.toJSON().planned_values.outputs.name.value, "ex-prod");
  assert.throws(() => evaluate({ "main.tf": "" }, "path.cwd", { cwd: 7 }), TypeError);
});
