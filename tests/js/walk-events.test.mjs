// The apply walk's own events (issue #24): `onWalkEvent` hears every node of the apply graph
// start and end as the walk runs it (providers and their `(close)`, variables, locals, outputs,
// modules' expansion and close, the root), in `walk()`'s shape, in an order that respects every
// edge of the graph `buildGraph` draws for the same plan; the provider operations' `onEvent`
// events nest inside their nodes' and carry Terraform's progress line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { apply, buildGraph, plan } from "../../pkg/index.js";

const FILES = {
  "main.tf": `variable "prefix" {
  default = "p"
}

locals {
  name = "\${var.prefix}-app"
}

provider "mock" {}

module "net" {
  count  = 2
  source = "./modules/net"
  name   = "net-\${count.index}"
}

resource "mock_resource" "app" {
  name  = local.name
  input = { nets = join(",", module.net[*].id) }
}

resource "mock_resource" "side" {
  name = "side"
}

output "app" {
  value = mock_resource.app.id
}
`,
  "modules/net/main.tf": `variable "name" {}

resource "mock_resource" "vpc" {
  name = var.name
}

output "id" {
  value = mock_resource.vpc.id
}
`,
};

const PROVIDER = 'provider["registry.terraform.io/hashicorp/mock"]';

/** Applies `files` with both callbacks; `{ result, walk, ops, all, graph }`. */
async function applied(files, options = {}) {
  const p = await plan(files, options);
  assert.equal(p.errored, false, JSON.stringify(p.diagnostics));
  const walk = [];
  const ops = [];
  const all = [];
  const result = await apply(p, {
    ...options,
    onWalkEvent: (e) => {
      walk.push(e);
      all.push(e);
    },
    onEvent: (e) => {
      ops.push(e);
      all.push(e);
    },
  });
  // The graph the walk walked: graph/'s apply graph of the same plan, every edge (unreduced).
  const graph = buildGraph(files, { operation: "apply", changes: p.toJSON(), reduce: false, ...(options.state ? { state: options.state } : {}) });
  return { result, walk, ops, all, graph };
}

test("every apply-graph node starts once and ends once, in an order that respects the graph's edges", async () => {
  const { result, walk, graph } = await applied(FILES, { mock: { delayMs: 5 } });
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === "error"), []);
  const nodes = graph.nodes().map((n) => n.name);
  for (const name of [PROVIDER, `${PROVIDER} (close)`, "root", "var.prefix", "local.name (expand)", "output.app (expand)", "module.net (expand)", "module.net (close)", "mock_resource.app", "module.net[1].mock_resource.vpc"]) {
    assert.ok(nodes.includes(name), `${name} in the apply graph: ${nodes.join(", ")}`);
  }
  for (const e of walk) {
    assert.deepEqual(Object.keys(e).sort(), ["node", "time", "type"], JSON.stringify(e));
    assert.equal(typeof e.time, "number");
  }
  const starts = new Map();
  const ends = new Map();
  walk.forEach((e, i) => {
    const seen = e.type === "start" ? starts : ends;
    assert.ok(!seen.has(e.node), `${e.node}: one ${e.type} only`);
    seen.set(e.node, i);
    if (e.type !== "start") assert.equal(e.type, "finish", JSON.stringify(e));
  });
  assert.deepEqual([...starts.keys()].sort(), [...nodes].sort(), "every node of the apply graph started, and nothing else");
  assert.deepEqual([...ends.keys()].sort(), [...nodes].sort(), "every node of the apply graph ended");
  for (const n of nodes) assert.ok(starts.get(n) < ends.get(n), `${n} starts before it ends`);
  const edges = graph.edges();
  assert.ok(edges.length > nodes.length / 2, `${edges.length} edges`);
  for (const { from, to } of edges) {
    assert.ok(ends.get(to) < starts.get(from), `${from} depends on ${to}: it starts after ${to} ended`);
  }
  // The provider is configured before its first resource and closed after its last.
  const resources = nodes.filter((n) => /(^|\.)mock_resource\./.test(n) && !n.endsWith("(expand)"));
  for (const r of resources) {
    assert.ok(ends.get(PROVIDER) < starts.get(r), `${PROVIDER} before ${r}`);
    assert.ok(ends.get(r) < starts.get(`${PROVIDER} (close)`), `${r} before the provider's close`);
  }
  // Times are the walk's clock, as the operations' events.
  for (let i = 1; i < walk.length; i++) assert.ok(walk[i].time >= walk[i - 1].time, "times never go back");
  graph.free?.();
});

test("a provider operation's events nest inside its node's, and carry Terraform's progress line", async () => {
  const { all, ops } = await applied(FILES);
  const applyOps = ops.filter((e) => e.phase === "apply");
  assert.equal(applyOps.length, 8, "4 creates, each started and finished");
  for (const e of applyOps) {
    const node = all.findIndex((w) => w.node === e.address && w.type === "start");
    const end = all.findIndex((w) => w.node === e.address && w.type === "finish");
    const at = all.indexOf(e);
    assert.ok(node >= 0 && node < at && at < end, `${e.kind} ${e.address} inside its node's start and end`);
    if (e.kind === "start") assert.equal(e.line, `${e.address}: Creating...`);
    else assert.match(e.line, new RegExp(`^${e.address.replace(/[.[\]]/g, "\\$&")}: Creation complete after 0s \\[id=[^\\]]+\\]$`));
  }
});

test("a failure: the failed node fails, what depends on it is skipped, every node ends once", async () => {
  const { walk, graph, result } = await applied(FILES, { mock: { failAddresses: "module.net[0].mock_resource.vpc" } });
  assert.ok(result.diagnostics.some((d) => d.severity === "error"));
  const last = new Map();
  const count = new Map();
  for (const e of walk) {
    if (e.type === "start") continue;
    last.set(e.node, e.type);
    count.set(e.node, (count.get(e.node) ?? 0) + 1);
  }
  for (const n of graph.nodes().map((n) => n.name)) assert.equal(count.get(n), 1, `${n} ends once`);
  assert.equal(last.get("module.net[0].mock_resource.vpc"), "fail");
  assert.equal(last.get("mock_resource.app"), "skip");
  assert.equal(last.get("mock_resource.side"), "finish", "independent work goes on");
  assert.equal(last.get("module.net[1].mock_resource.vpc"), "finish");
  assert.equal(walk.filter((e) => e.node === "mock_resource.app" && e.type === "start").length, 0, "a skipped node never starts");
});

test("without onWalkEvent, onEvent hears the provider operations only", async () => {
  const events = [];
  await apply(FILES, { onEvent: (e) => events.push(e) });
  assert.ok(events.length > 0);
  assert.ok(events.every((e) => typeof e.kind === "string" && e.node === undefined), JSON.stringify(events.find((e) => e.node !== undefined)));
});

test("onWalkEvent must be a function", async () => {
  await assert.rejects(apply(FILES, { onWalkEvent: 3 }), (e) => e instanceof TypeError && /onWalkEvent/.test(e.message));
});

test("a throwing onWalkEvent halts the apply as on abort", async () => {
  const r = await apply(FILES, {
    onWalkEvent: (e) => {
      if (e.node === "mock_resource.side" && e.type === "start") throw new Error("enough");
    },
  });
  assert.ok(r.diagnostics.some((d) => d.severity === "error" && /enough/.test(d.detail)), JSON.stringify(r.diagnostics));
});
