// buildGraph and walk as an npm user calls them (pkg/index.js): Terraform's names and String()
// text, edge reasons, renderings, cycles, state-driven graphs, and walking a built graph.

import { test } from "node:test";
import assert from "node:assert/strict";
import { buildGraph, loadConfig, walk, Graph, TfgraphError } from "../../pkg/index.js";

const AWS = 'provider["registry.terraform.io/hashicorp/aws"]';

const CHAIN = {
  "main.tf": `resource "aws_vpc" "main" {}

resource "aws_subnet" "a" {
  vpc_id = aws_vpc.main.id
}

output "subnet" {
  value = aws_subnet.a.id
}
`,
};

test("the plan graph has Terraform's vertex names and String() text", () => {
  const g = buildGraph(CHAIN);
  assert.ok(g instanceof Graph);
  assert.deepEqual(g.diagnostics, []);
  assert.equal(
    g.toString(),
    [
      "aws_subnet.a (expand)",
      "  aws_vpc.main (expand)",
      "aws_vpc.main (expand)",
      `  ${AWS}`,
      "output.subnet (expand)",
      "  aws_subnet.a (expand)",
      AWS,
      `${AWS} (close)`,
      "  aws_subnet.a (expand)",
      "root",
      "  output.subnet (expand)",
      `  ${AWS} (close)`,
      "",
    ].join("\n"),
  );
  const subnet = g.nodes().find((n) => n.name === "aws_subnet.a (expand)");
  assert.equal(subnet.kind, "resource");
  assert.equal(subnet.address, "aws_subnet.a");
  assert.equal(subnet.range.start.line, 3);
});

test("every edge says why it exists, with the expression's position", () => {
  const g = buildGraph(CHAIN);
  const edge = g.edges().find((e) => e.from === "aws_subnet.a (expand)" && e.to === "aws_vpc.main (expand)");
  const why = edge.why[0];
  assert.equal(why.kind, "reference");
  assert.equal(why.context, "vpc_id");
  assert.deepEqual([why.range.start.line, why.range.start.column], [4, 12]);
  assert.match(why.text, /main\.tf:4:12/);
  assert.deepEqual(g.explain("aws_subnet.a (expand)", "aws_vpc.main (expand)"), [why.text]);
  // Reduction removed subnet -> provider; it is kept, explained, among the implied edges.
  assert.ok(g.impliedEdges().some((e) => e.from === "aws_subnet.a (expand)" && e.to === AWS));
});

test("queries by name, and a RangeError for a name the graph lacks", () => {
  const g = buildGraph(CHAIN);
  assert.deepEqual(g.dependencies("aws_subnet.a (expand)"), ["aws_vpc.main (expand)"]);
  assert.deepEqual(g.dependents("aws_vpc.main (expand)"), ["aws_subnet.a (expand)"]);
  assert.ok(g.ancestors("output.subnet (expand)").includes(AWS));
  assert.ok(g.descendants("aws_vpc.main (expand)").includes("root"));
  assert.throws(() => g.dependencies("aws_vpc.nope"), RangeError);
});

test("renders resource-only DOT by default, full DOT and Mermaid on request", () => {
  const g = buildGraph(CHAIN);
  const dot = g.toDot();
  assert.match(dot, /^digraph G \{/);
  assert.match(dot, /"aws_subnet\.a" -> "aws_vpc\.main";/);
  const full = g.toDot({ type: "full" });
  assert.match(full, /^digraph \{\n\tcompound = "true"/);
  assert.match(full, /"\[root\] aws_subnet\.a \(expand\)" \[label = "aws_subnet\.a", shape = "box"\]/);
  assert.match(g.toMermaid(), /^(flowchart|graph)/);
  assert.throws(() => g.toDot({ type: "plan" }), TypeError);
});

test("a buildGraph of loadConfig's result equals a buildGraph of the files", () => {
  const config = loadConfig(CHAIN);
  assert.equal(buildGraph(config).toString(), buildGraph(CHAIN).toString());
});

test("cycles come back drawable, with one deterministic diagnostic per cycle", () => {
  const files = {
    "main.tf": `resource "aws_instance" "a" {
  ami = aws_instance.b.id
}

resource "aws_instance" "b" {
  ami = aws_instance.a.id
}
`,
  };
  const g = buildGraph(files);
  assert.deepEqual(g.cycles(), [["aws_instance.a (expand)", "aws_instance.b (expand)"]]);
  const errors = g.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 1);
  assert.match(errors[0].summary, /^Cycle:/);
  assert.match(errors[0].summary + "\n" + errors[0].detail, /aws_instance\.a \(expand\)/);
  assert.match(errors[0].detail, /main\.tf:(2|6):/);
  assert.equal(buildGraph(files).diagnostics[0].detail, errors[0].detail, "same text on every build");
  assert.match(g.toDot({ type: "full", drawCycles: true }), /color = "red"/);
});

test("configuration errors throw TfgraphError; bad options throw TypeError", () => {
  assert.throws(() => buildGraph({ "main.tf": "resource {" }), TfgraphError);
  assert.throws(() => buildGraph(CHAIN, { operation: "refresh" }), TypeError);
});

test("the apply graph splits a replacement into create and destroy", () => {
  const state = {
    version: 4,
    terraform_version: "1.15.0",
    serial: 1,
    lineage: "00000000-0000-0000-0000-000000000000",
    outputs: {},
    resources: [
      {
        mode: "managed", type: "aws_vpc", name: "main", provider: AWS,
        instances: [{ schema_version: 0, attributes: { id: "vpc-1" }, dependencies: [] }],
      },
      {
        mode: "managed", type: "aws_subnet", name: "a", provider: AWS,
        instances: [{ schema_version: 0, attributes: { id: "subnet-1" }, dependencies: ["aws_vpc.main"] }],
      },
    ],
  };
  const changes = { "aws_vpc.main": ["delete", "create"], "aws_subnet.a": ["delete", "create"] };
  const g = buildGraph(CHAIN, { operation: "apply", state, changes });
  assert.deepEqual(g.diagnostics, []);
  const names = g.nodes().map((n) => n.name);
  for (const n of ["aws_vpc.main", "aws_vpc.main (destroy)", "aws_subnet.a", "aws_subnet.a (destroy)"]) {
    assert.ok(names.includes(n), `${n} in ${names}`);
  }
  // Destroy order is the reverse of create order: the subnet goes before the VPC.
  assert.ok(g.ancestors("aws_vpc.main (destroy)").includes("aws_subnet.a (destroy)"));
  // Destroy-before-create: the new VPC waits for the old one to go.
  assert.ok(g.ancestors("aws_vpc.main").includes("aws_vpc.main (destroy)"));
  // The state and changes as JSON text (a terraform.tfstate read from disk) build the same graph.
  const fromText = buildGraph(CHAIN, { operation: "apply", state: JSON.stringify(state), changes: JSON.stringify(changes) });
  assert.equal(fromText.toString(), g.toString());
  assert.deepEqual(fromText.edges(), g.edges());
  // Malformed state text is the user's input: a TfgraphError with Terraform's diagnostic.
  assert.throws(() => buildGraph(CHAIN, { operation: "apply", state: "{", changes }), (e) =>
    e instanceof TfgraphError && e.diagnostics[0].summary === "Unsupported state file format");
});

test("mode destroy applies a destroy plan: only destroys, what they need and root outputs", () => {
  // Terraform's walkDestroy (Context.Apply: plan.UIMode == plans.DestroyMode); the apply graph
  // of a plan made by `terraform destroy`.
  const state = {
    version: 4, serial: 1, lineage: "00000000-0000-0000-0000-000000000000", outputs: {},
    resources: [
      { mode: "managed", type: "aws_vpc", name: "main", provider: AWS, instances: [{ attributes: {} }] },
      {
        mode: "managed", type: "aws_subnet", name: "a", provider: AWS,
        instances: [{ attributes: {}, dependencies: ["aws_vpc.main"] }],
      },
    ],
  };
  const changes = { "aws_vpc.main": ["delete"], "aws_subnet.a": ["delete"] };
  const normal = buildGraph(CHAIN, { operation: "apply", state, changes });
  const destroy = buildGraph(CHAIN, { operation: "apply", mode: "destroy", state, changes });
  assert.ok(normal.nodes().some((n) => n.name === "aws_vpc.main (expand)"));
  assert.deepEqual(
    destroy.nodes().map((n) => n.name),
    [
      "aws_subnet.a (destroy)", "aws_vpc.main (destroy)", "output.subnet (expand)",
      `provider[${JSON.stringify("registry.terraform.io/hashicorp/aws")}]`,
      `provider[${JSON.stringify("registry.terraform.io/hashicorp/aws")}] (close)`, "root",
    ],
  );
  assert.deepEqual(destroy.dependencies("output.subnet (expand)"), [], "root outputs refer to nothing while destroying");
  assert.ok(destroy.ancestors("aws_vpc.main (destroy)").includes("aws_subnet.a (destroy)"));
  // "plan" with mode "destroy" is "destroy".
  assert.equal(
    buildGraph(CHAIN, { operation: "plan", mode: "destroy", state }).toString(),
    buildGraph(CHAIN, { operation: "destroy", state }).toString(),
  );
  assert.throws(() => buildGraph(CHAIN, { operation: "apply", mode: "refresh-only" }), TypeError);
  assert.throws(() => buildGraph(CHAIN, { operation: "validate", mode: "destroy" }), TypeError);
});

test("a forget change makes a forget node", () => {
  const state = {
    version: 4, serial: 1, lineage: "00000000-0000-0000-0000-000000000000", outputs: {},
    resources: [{ mode: "managed", type: "aws_vpc", name: "old", provider: AWS, instances: [{ attributes: {} }] }],
  };
  const files = { "main.tf": 'removed {\n  from = aws_vpc.old\n  lifecycle {\n    destroy = false\n  }\n}\n' };
  const g = buildGraph(files, { operation: "apply", state, changes: { "aws_vpc.old": ["forget"] } });
  const node = g.nodes().find((n) => n.name === "aws_vpc.old (forget)");
  assert.equal(node?.kind, "resource_instance_forget");
  assert.deepEqual(g.dependencies("aws_vpc.old (forget)"), [`provider[${JSON.stringify("registry.terraform.io/hashicorp/aws")}]`]);
});

test("walk visits a built graph in dependency order", async () => {
  const g = buildGraph(CHAIN);
  const order = [];
  const report = await walk(g, async (node) => {
    order.push(node);
  });
  assert.equal(report.completed.length, g.nodes().length);
  const before = (a, b) => order.indexOf(a) < order.indexOf(b);
  assert.ok(before("aws_vpc.main (expand)", "aws_subnet.a (expand)"));
  assert.ok(before("aws_subnet.a (expand)", "output.subnet (expand)"));
  assert.equal(order.at(-1), "root");
});

test("walk reports failures and skips dependents, as Terraform does", async () => {
  const dag = { nodes: ["1", "2", "3", "4"], edges: [["4", "3"], ["3", "2"], ["2", "1"]] };
  const visited = [];
  const report = await walk(dag, (n) => {
    visited.push(n);
    if (n === "2") throw new Error("boom");
  });
  assert.deepEqual(visited, ["1", "2"]);
  assert.deepEqual(report.failed.map((f) => f.node), ["2"]);
  assert.deepEqual([...report.skipped].sort(), ["3", "4"]);
  await assert.rejects(walk(dag, () => {}, { parallelism: 0 }), TfgraphError);
});
