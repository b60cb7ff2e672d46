// The `tfgraph` command as a user runs it: `node pkg/cli.js ...` in a child process, on
// directories written here and on the shared corpus (skipped with a message without it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(repo, "pkg/cli.js");
const run = (args, input) =>
  spawnSync(process.execPath, [cli, ...args], { input, encoding: "utf8", maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: "1" } });

function dir(files) {
  const d = mkdtempSync(join(tmpdir(), "tfgraph-cli-"));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(d, p)), { recursive: true });
    writeFileSync(join(d, p), text);
  }
  return d;
}

const VPC = dir({
  "main.tf": `variable "n" {
  type    = number
  default = 2
}
resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}
resource "aws_subnet" "a" {
  count  = var.n
  vpc_id = aws_vpc.main.id
}
module "m" {
  source = "./modules/m"
  name   = "x"
}
`,
  "modules/m/main.tf": `variable "name" {}\noutput "upper" {\n  value = "\${var.name}-out"\n}\n`,
  "terraform.tfvars": "n = 3\n",
});

const CYCLE = dir({ "main.tf": `resource "a" "x" {\n  v = b.y.id\n}\nresource "b" "y" {\n  v = a.x.id\n}\n` });
const BROKEN = dir({ "main.tf": `resource "a" "x" {\n  v = \n}\n` });

test("graph prints terraform graph's resource-only DOT by default", () => {
  const r = run(["graph", VPC]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^digraph G \{/);
  assert.match(r.stdout, /"aws_subnet\.a" -> "aws_vpc\.main";/);
});

test("graph formats and types", () => {
  assert.match(run(["graph", VPC, "--format", "text"]).stdout, /aws_subnet\.a \(expand\)\n {2}aws_vpc\.main \(expand\)/);
  assert.match(run(["graph", VPC, "--format", "mermaid"]).stdout, /^(graph|flowchart)/);
  const json = JSON.parse(run(["graph", VPC, "--format", "json"]).stdout);
  assert.ok(json.nodes.length > 3 && json.edges.some((e) => e.why?.length));
  assert.match(run(["graph", VPC, "--type", "validate"]).stdout, /module\.m/);
  assert.match(run(["graph", VPC, "--full"]).stdout, /provider\[/);
  const destroy = run(["graph", VPC, "--type", "plan-destroy"]);
  assert.equal(destroy.status, 0, destroy.stderr);
});

test("graph --draw-cycles marks the loop and exits 1", () => {
  const r = run(["graph", CYCLE, "--full", "--draw-cycles"]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /color = "red"|color="red"/);
});

test("validate: success text, diagnostics with snippets, -json shape, exit codes", () => {
  const ok = run(["validate", VPC]);
  assert.equal(ok.status, 0);
  assert.equal(ok.stdout, "Success! The configuration is valid.\n");
  const bad = run(["validate", BROKEN]);
  assert.equal(bad.status, 1);
  // Byte for byte what terraform validate -no-color (1.11.4) printed for this file.
  assert.equal(bad.stderr, '\nError: Invalid expression\n\n  on main.tf line 2, in resource "a" "x":\n   2:   v = \n   3: }\n\nExpected the start of an expression, but found an invalid expression token.\n');
  const json = JSON.parse(run(["validate", BROKEN, "--json"]).stdout);
  assert.equal(json.format_version, "1.0");
  assert.equal(json.valid, false);
  assert.equal(json.error_count, 1);
  assert.equal(json.diagnostics[0].range.start.line, 2);
});

test("explain and cycles", () => {
  const r = run(["explain", VPC, "aws_subnet.a (expand)", "aws_vpc.main (expand)"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "aws_subnet.a refers to aws_vpc.main (aws_vpc.main.id) in vpc_id at main.tf:10:12\n");
  assert.equal(run(["explain", VPC, "aws_vpc.main (expand)", "aws_subnet.a (expand)"]).status, 1);
  assert.match(run(["explain", VPC, "nope", "aws_vpc.main (expand)"]).stderr, /There is no node "nope"/);
  assert.equal(run(["cycles", VPC]).stdout, "No cycles.\n");
  const c = run(["cycles", CYCLE]);
  assert.equal(c.status, 1);
  assert.match(c.stdout, /Error: Cycle:\n/);
});

test("console evaluates stdin lines with tfvars, --var, --var-file and --state", () => {
  for (const [line, want] of [["var.n", "3"], ["module.m.upper", '"x-out"'], ["0.1 + 0.2", "0.3"], ["aws_vpc.main.id", "(known after apply)"]]) {
    const r = run(["console", VPC], `${line}\n`);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${want}\n`, line);
  }
  assert.equal(run(["console", VPC, "--var", "n=7"], "var.n\n").stdout, "7\n");
  const vf = join(VPC, "..", "extra-" + Date.now() + ".tfvars");
  writeFileSync(vf, "n = 9\n");
  assert.equal(run(["console", VPC, "--var-file", vf], "var.n\n").stdout, "9\n");
  const state = join(VPC, "..", "state-" + Date.now() + ".json");
  writeFileSync(state, JSON.stringify({ version: 4, resources: [{ mode: "managed", type: "aws_vpc", name: "main", instances: [{ attributes: { id: "vpc-1", n: 0 } }] }] }).replace('"n":0', '"n":12345678901234567890'));
  assert.equal(run(["console", VPC, "--state", state], "aws_vpc.main.id\n").stdout, '"vpc-1"\n');
  assert.equal(run(["console", VPC, "--state", state], "aws_vpc.main.n\n").stdout, "12345678901234567890\n", "every digit of the state's number");
  const bad = run(["console", VPC], "var.nope\n");
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /Error: Reference to undeclared input variable/);
});

// What `terraform console -no-color` (1.11.4) printed with these lines piped in: modePiped
// prints only the last result, stops at the first error, and prints nothing after `exit`.
test("console with piped input prints as terraform console does", () => {
  const dir = mkdtempSync(join(tmpdir(), "tfgraph-console-"));
  writeFileSync(join(dir, "main.tf"), "locals {\n  x = 1\n}\n");
  const r = (input) => run(["console", dir], input);
  assert.deepEqual([r("1+1\n2+2\n").stdout, r("1+1\n2+2\n").status], ["4\n", 0]);
  assert.deepEqual([r("1+1\n\n").stdout, r("1+1\n\n").status], ["\n", 0]);
  assert.deepEqual([r("1+1\nexit\n2+2\n").stdout, r("1+1\nexit\n").status], ["", 0]);
  const bad = r("1+1\nvar.nope\n2+2\n");
  assert.deepEqual([bad.stdout, bad.status], ["", 1]);
  assert.equal(
    bad.stderr,
    [
      "",
      "Error: Reference to undeclared input variable",
      "",
      "  on <console-input> line 1:",
      "  (source code not available)",
      "",
      'An input variable with the name "nope" has not been declared. This variable',
      'can be declared with a variable "nope" {} block.',
      "",
      "",
    ].join("\n"),
  );
});

// Recorded from terraform console 1.11.4 with these lines piped in.
test("console: help prints Terraform's help text, exit ends the session", () => {
  const dir = mkdtempSync(join(tmpdir(), "tfgraph-console-"));
  writeFileSync(join(dir, "main.tf"), "");
  const r = (input) => run(["console", dir], input);
  const HELP = [
    "The Terraform console allows you to experiment with Terraform interpolations.",
    "You may access resources in the state (if you have one) just as you would",
    'from a configuration. For example: "aws_instance.foo.id" would evaluate',
    'to the ID of "aws_instance.foo" if it exists in your state.',
    "",
    "Type in the interpolation to test and hit <enter> to see the result.",
    "",
    'To exit the console, type "exit" and hit <enter>, or use Control-C or',
    "Control-D.",
    "",
  ].join("\n");
  for (const [input, stdout] of [["help\n", HELP], ["help", HELP], [" help \n", HELP], ["1+1\nhelp\n", HELP], ["help\n1+1\n", "2\n"], ["help\nexit\n1+1\n", ""], ["exit\n", ""], ["exit", ""]]) {
    const got = r(input);
    assert.deepEqual([got.stdout, got.stderr, got.status], [stdout, "", 0], JSON.stringify(input));
  }
  assert.equal(r("HELP\n").status, 1, "only help, as written");
});

test("console reads --state files", () => {
  const broken = join(VPC, "..", "broken-" + Date.now() + ".json");
  writeFileSync(broken, "{ not json");
  const b = run(["console", VPC, "--state", broken], "1\n");
  assert.equal(b.status, 1);
  assert.match(b.stderr, /is not valid JSON/);
});

test("usage errors, help, version, missing directories, the engine commands' arguments", () => {
  for (const args of [["graph", "--bogus"], ["graph", VPC, "--format", "png"], ["nosuch"], ["explain", VPC]]) {
    const r = run(args);
    assert.equal(r.status, 1, args.join(" "));
    assert.match(r.stderr, /Usage: /);
  }
  assert.equal(run(["graph", "--help"]).status, 0);
  assert.match(run(["--help"]).stdout, /Commands:/);
  const pkg = JSON.parse(readFileSync(join(repo, "pkg/package.json"), "utf8"));
  assert.equal(run(["--version"]).stdout, `tfgraph v${pkg.version}\n`);
  assert.equal(pkg.bin.tfgraph, "cli.js"); // npm publish drops a bin path written "./cli.js"
  const missing = run(["graph", join(VPC, "nope")]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /does not exist/);
  for (const cmd of ["plan", "apply", "destroy"]) {
    const r = run([cmd, VPC, "--parallelism", "x"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /--parallelism must be a positive whole number/);
    assert.match(r.stderr, new RegExp(`Usage: tfgraph ${cmd} `));
    assert.equal(run([cmd, "--help"]).status, 0);
  }
  assert.match(run(["plan", VPC, "--refresh=maybe"]).stderr, /--refresh must be true or false/);
  assert.match(run(["apply", VPC, "extra"]).stderr, /Too many arguments/);
});

test("graph on every corpus root gives DOT that dot -Tsvg accepts", { timeout: 900_000 }, (t) => {
  const corpus = process.env.TFGRAPH_CORPUS ?? join(repo, "../shared/corpus");
  if (!existsSync(join(corpus, "INDEX.tsv"))) return t.skip("no corpus");
  if (spawnSync("dot", ["-V"]).status !== 0) return t.skip("no graphviz");
  const roots = readFileSync(join(corpus, "INDEX.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t")[0]);
  let ok = 0;
  for (const root of roots) {
    const g = run(["graph", join(corpus, root)]);
    // Roots with errors Terraform reports too (the Terragrunt-generated provider aliases of
    // cds-snc, SOURCES.md) exit 1 with the diagnostics on stderr and the graph on stdout.
    if (g.status !== 0) assert.match(g.stderr, /Error: /, `${root}: exit ${g.status}`);
    if (!g.stdout) continue;
    const svg = spawnSync("dot", ["-Tsvg"], { input: g.stdout, encoding: "utf8", maxBuffer: 1 << 28 });
    assert.equal(svg.status, 0, `${root}: ${svg.stderr}`);
    assert.match(svg.stdout, /<svg/);
    ok++;
  }
  assert.ok(ok > roots.length / 2, `only ${ok} of ${roots.length} roots rendered`);
  t.diagnostic(`${ok} of ${roots.length} corpus roots rendered by dot`);
});

test("graph --type apply --plan FILE draws the apply graph of a saved plan (configuration and state from it)", () => {
  const at = join(repo, "tests/fixtures/engine/create-change-destroy/step4");
  const plan = JSON.parse(readFileSync(join(at, "plan.json"), "utf8"));
  plan.tfgraph = {
    root: "",
    files: { "main.tf": readFileSync(join(at, "config/main.tf"), "utf8") },
    variables: {},
    destroy: false,
    state: JSON.parse(readFileSync(join(at, "input.tfstate"), "utf8")),
  };
  const file = join(dir({}), "plan.json");
  writeFileSync(file, JSON.stringify(plan));
  const r = run(["graph", "--type", "apply", "--plan", file, "--format", "text"]);
  assert.equal(r.status, 0, r.stderr);
  // web is replaced (-/+): its destroy node is in the apply graph, after what depends on it.
  assert.match(r.stdout, /^mock_resource\.web \(destroy\)$/m);
  assert.match(run(["graph", "--type", "apply", "--plan", file]).stdout, /^digraph/);
  assert.equal(run(["graph", "--type", "apply"]).status, 1);
  const notPlan = run(["graph", "--type", "apply", "--plan", join(at, "config/main.tf")]);
  assert.equal(notPlan.status, 1);
  assert.match(notPlan.stderr, /Failed to load plan file/);
});

// A configuration that does not load, as `terraform validate` (1.11.4) printed it: -json's
// diagnostics with their snippets, and the text sorted by position with `in BLOCK` contexts
// (tests/fixtures/config/check-rules, check-rules-json and override-conditions: validate.json,
// validate.txt).
for (const fixture of ["check-rules", "check-rules-json", "override-conditions"]) {
  test(`validate prints a configuration's load errors as terraform validate does (${fixture})`, () => {
    const dir = join(repo, "tests/fixtures/config", fixture);
    const json = run(["validate", dir, "--json"]);
    assert.equal(json.status, 1);
    assert.deepEqual(JSON.parse(json.stdout), JSON.parse(readFileSync(join(dir, "validate.json"), "utf8")));
    const text = run(["validate", dir]);
    assert.equal(text.status, 1);
    assert.equal(text.stdout, "");
    assert.equal(text.stderr, readFileSync(join(dir, "validate.txt"), "utf8"));
  });
}

// A warning (tests/fixtures/config/validate-warning, terraform validate 1.11.4): with its
// snippet, once, and the success line for a configuration with warnings.
test("validate prints warnings with snippets as terraform validate does", () => {
  const dir = join(repo, "tests/fixtures/config/validate-warning");
  const json = run(["validate", dir, "--json"]);
  assert.equal(json.status, 0);
  assert.deepEqual(JSON.parse(json.stdout), JSON.parse(readFileSync(join(dir, "validate.json"), "utf8")));
  const text = run(["validate", dir]);
  assert.deepEqual([text.status, text.stderr], [0, ""]);
  assert.equal(text.stdout, readFileSync(join(dir, "validate.txt"), "utf8"));
});

// References to undeclared names (tests/fixtures/config/undeclared, terraform validate 1.11.4).
// Terraform's walk is concurrent: its JSON order, and the text order of two diagnostics at one
// position (a child module called twice), vary from run to run, so those are compared sorted.
// Also what the walk finds while evaluating (evaluation: self, count, each, undeclared module
// outputs) and provider blocks (provider-references).
for (const fixture of ["undeclared", "evaluation", "provider-references"]) test(`validate reports references as terraform validate does (${fixture})`, () => {
  const dir = join(repo, "tests/fixtures/config", fixture);
  const byPlace = (a, b) =>
    a.range.filename.localeCompare(b.range.filename) || a.range.start.byte - b.range.start.byte || a.detail.localeCompare(b.detail);
  const json = run(["validate", dir, "--json"]);
  assert.equal(json.status, 1);
  const got = JSON.parse(json.stdout);
  const want = JSON.parse(readFileSync(join(dir, "validate.json"), "utf8"));
  assert.deepEqual({ ...got, diagnostics: got.diagnostics.sort(byPlace) }, { ...want, diagnostics: want.diagnostics.sort(byPlace) });
  const text = run(["validate", dir]);
  assert.equal(text.status, 1);
  assert.equal(text.stdout, "");
  const blocks = (t) => t.split(/\n(?=Error: )/).sort();
  assert.deepEqual(blocks(text.stderr), blocks(readFileSync(join(dir, "validate.txt"), "utf8")));
  assert.equal(text.stderr.length, readFileSync(join(dir, "validate.txt"), "utf8").length);
  // terraform plan runs the same checks first, and plans nothing.
  const planned = run(["plan", dir]);
  assert.deepEqual([planned.status, planned.stdout], [1, ""]);
  assert.deepEqual(blocks(planned.stderr), blocks(readFileSync(join(dir, "validate.txt"), "utf8")));
});
