// The package as an npm user imports it (pkg/index.js), in Node: no init call, the public
// exports, loadConfig results, TfgraphError, warnings, and API misuse.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as tfgraph from "../../pkg/index.js";
import { loadConfig, TfgraphError, version } from "../../pkg/index.js";

const manifest = JSON.parse(readFileSync(new URL("../../pkg/package.json", import.meta.url), "utf8"));

/** The 1-based line and column of the first occurrence of `needle` in `text`. */
function lineCol(text, needle) {
  const offset = text.indexOf(needle);
  assert.ok(offset >= 0, `${needle} not in text`);
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1).length + 1 };
}

const SMALL = `variable "ami" {
  type = string
}

data "aws_vpc" "main" {
  default = true
}

resource "aws_subnet" "a" {
  vpc_id     = data.aws_vpc.main.id
  cidr_block = "10.0.1.0/24"
}

resource "aws_instance" "web" {
  ami        = var.ami
  subnet_id  = aws_subnet.a.id
  depends_on = [aws_subnet.a]
}
`;

test("exports exactly the documented API", () => {
  assert.deepEqual(Object.keys(tfgraph).sort(), [
    "Graph", "Plan", "TfgraphError", "apply", "buildGraph", "destroy", "evaluate", "expressionContinues", "init",
    "initSync", "loadConfig", "memoryBytes", "plan", "test", "version", "walk",
  ]);
});

test("expressionContinues: open brackets, heredocs and template sequences read on; an empty line ends", () => {
  const { expressionContinues } = tfgraph;
  assert.equal(expressionContinues(["tolist(["]), true);
  assert.equal(expressionContinues(["tolist([", "1])"]), false);
  assert.equal(expressionContinues(["<<EOT", "a ]"]), true);
  assert.equal(expressionContinues(['"${', "  var.x"]), true);
  assert.equal(expressionContinues(["(1", ""]), false);
  assert.equal(expressionContinues(["([)"]), false);
  assert.equal(expressionContinues([]), false);
  assert.throws(() => expressionContinues("x"), TypeError);
  assert.throws(() => expressionContinues([1]), TypeError);
});

test("version is the package.json version", () => {
  assert.equal(version, manifest.version);
  assert.match(version, /^\d+\.\d+\.\d+/);
});

test("loadConfig lists resources in file order with addresses and providers", () => {
  const config = loadConfig({ "main.tf": SMALL });
  assert.deepEqual(config.diagnostics, []);
  const root = config.root;
  assert.equal(root.address, "");
  assert.deepEqual(root.path, []);
  assert.deepEqual(root.files, ["main.tf"]);
  assert.deepEqual(
    root.resources.map((r) => [r.address, r.mode, r.type, r.name]),
    [
      ["data.aws_vpc.main", "data", "aws_vpc", "main"],
      ["aws_subnet.a", "managed", "aws_subnet", "a"],
      ["aws_instance.web", "managed", "aws_instance", "web"],
    ],
  );
  for (const r of root.resources) {
    assert.equal(r.provider.local_name, "aws");
    assert.equal(r.provider.fqn, "registry.terraform.io/hashicorp/aws");
    assert.equal(r.provider.implied, true);
  }
  assert.deepEqual(root.variables.map((v) => [v.name, v.type]), [["ami", "string"]]);
});

test("loadConfig finds references with their positions", () => {
  const config = loadConfig({ "main.tf": SMALL });
  const web = config.root.resources.find((r) => r.address === "aws_instance.web");
  const refs = web.references.map((r) => [r.subject, r.kind, r.in]);
  for (const expected of [
    ["var.ami", "variable", "ami"],
    ["aws_subnet.a", "resource", "subnet_id"],
    ["aws_subnet.a", "resource", "depends_on"],
  ]) {
    assert.ok(refs.some((r) => JSON.stringify(r) === JSON.stringify(expected)), `${expected} not in ${JSON.stringify(refs)}`);
  }
  assert.deepEqual(web.depends_on.map((r) => r.subject), ["aws_subnet.a"]);

  const subnetRef = web.references.find((r) => r.in === "subnet_id");
  assert.equal(subnetRef.traversal, "aws_subnet.a.id");
  assert.equal(subnetRef.range.filename, "main.tf");
  assert.deepEqual(
    { line: subnetRef.range.start.line, column: subnetRef.range.start.column },
    lineCol(SMALL, "aws_subnet.a.id"),
  );
  const subnet = config.root.resources.find((r) => r.address === "aws_subnet.a");
  assert.deepEqual(subnet.references.map((r) => r.subject), ["data.aws_vpc.main"]);
});

test("a syntax error throws TfgraphError with diagnostics and a line:col message", () => {
  const text = 'resource "aws_instance" "web" {\n  ami = "ami-123"\n  instance_type = \n}\n';
  let error;
  try {
    loadConfig({ "main.tf": text });
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof TfgraphError, `expected TfgraphError, got ${error}`);
  assert.ok(error instanceof Error);
  assert.equal(error.name, "TfgraphError");
  const errors = error.diagnostics.filter((d) => d.severity === "error");
  assert.ok(errors.length >= 1);
  const first = errors[0];
  assert.equal(first.range.filename, "main.tf");
  assert.ok(first.range.start.line >= 3 && first.range.start.line <= 4, JSON.stringify(first.range));
  assert.ok(first.range.start.column >= 1);
  const where = `main.tf:${first.range.start.line}:${first.range.start.column}`;
  assert.ok(error.message.includes(`${where}: ${first.summary}`), error.message);
});

test("a registry module source loads with a warning, as an opaque call", () => {
  const text = 'module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.8.1"\n}\n';
  const config = loadConfig({ "main.tf": text });
  const [call] = config.root.module_calls;
  assert.equal(call.address, "module.vpc");
  assert.equal(call.source_kind, "registry");
  assert.equal(call.version, "5.8.1");
  assert.equal(call.module, null);
  assert.ok(config.diagnostics.length >= 1, "expected a warning");
  for (const d of config.diagnostics) assert.equal(d.severity, "warning");
  // Terraform points "Module not installed" at the source argument.
  assert.equal(config.diagnostics[0].range.start.line, 2);
});

test("local module sources are followed within the files", () => {
  const config = loadConfig({
    "main.tf": 'module "net" {\n  source = "./modules/net"\n  cidr   = "10.0.0.0/16"\n}\n',
    "modules/net/main.tf": 'variable "cidr" {}\nresource "aws_vpc" "this" {\n  cidr_block = var.cidr\n}\n',
  });
  const [call] = config.root.module_calls;
  assert.equal(call.source_kind, "local");
  assert.equal(call.module.address, "module.net");
  assert.equal(call.module.dir, "modules/net");
  assert.deepEqual(call.module.resources.map((r) => r.address), ["module.net.aws_vpc.this"]);
});

test("options.root picks the root module's folder", () => {
  const config = loadConfig(
    { "envs/prod/main.tf": 'resource "null_resource" "x" {}\n', "other/main.tf": 'resource "null_resource" "y" {}\n' },
    { root: "envs/prod" },
  );
  assert.equal(config.root.dir, "envs/prod");
  assert.deepEqual(config.root.resources.map((r) => r.address), ["null_resource.x"]);
});

test("API misuse throws TypeError", () => {
  assert.throws(() => loadConfig(42), TypeError);
  assert.throws(() => loadConfig(["main.tf"]), TypeError);
  assert.throws(() => loadConfig({ "main.tf": 1 }), { name: "TypeError", message: /"main\.tf" must be a string/ });
  assert.throws(() => loadConfig({}, { root: 7 }), TypeError);
});

test("TfgraphError lists at most three errors in its message", () => {
  const range = (line) => ({ filename: "a.tf", start: { line, column: 2, byte: 0 }, end: { line, column: 3, byte: 1 } });
  const diags = [1, 2, 3, 4, 5].map((line) => ({ severity: "error", summary: `bad ${line}`, detail: "", range: range(line) }));
  diags.push({ severity: "warning", summary: "meh", detail: "" });
  const e = new TfgraphError(diags);
  assert.equal(e.message, "tfgraph: 5 errors:\n  a.tf:1:2: bad 1\n  a.tf:2:2: bad 2\n  a.tf:3:2: bad 3\n  (and 2 more)");
  assert.equal(e.diagnostics, diags);
  assert.equal(e.config, null);
});
