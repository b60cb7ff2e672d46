// The page's pure graph helpers (www/src/model.js, www/src/run.js's makespan, the DOT the graph
// panel writes) checked in Node against the package: the resources view must be exactly the
// graph `terraform graph` draws (the package's toDot({ type: "resources" })), for every gallery
// example; the step texts must parse back into the graph they describe.

import { test } from "node:test";
import assert from "node:assert/strict";
import { buildGraph, plan } from "../../pkg/index.js";
import { GALLERY } from "../../www/src/examples.js";
import { cycleSets, parseGraphText, resourceView, transitiveReduction } from "../../www/src/model.js";
import { dotString, toDot } from "../../www/src/graph-view.js";
import { makespan } from "../../www/src/run.js";

/** Node keys and edges of the package's resource-only DOT. */
function parseResourceDot(dot) {
  const nodes = [...dot.matchAll(/^\s*"((?:[^"\\]|\\.)*)" \[label=/gm)].map((m) => m[1]).sort();
  const edges = [...dot.matchAll(/^\s*"((?:[^"\\]|\\.)*)" -> "((?:[^"\\]|\\.)*)";/gm)].map((m) => `${m[1]} -> ${m[2]}`).sort();
  return { nodes, edges };
}

for (const example of GALLERY) {
  test(`resources view of "${example.id}" equals terraform graph's (the package's resource DOT)`, () => {
    const g = buildGraph(example.files, { state: example.files["terraform.tfstate"] });
    const expected = parseResourceDot(g.toDot({ type: "resources" }));
    const rv = resourceView(g.nodes(), g.edges(), true);
    assert.deepEqual(rv.nodes.map((n) => n.key).sort(), expected.nodes);
    assert.deepEqual(rv.edges.map((e) => `${e.from} -> ${e.to}`).sort(), expected.edges);
    // Every edge's path runs through real edges of the full graph, resource to resource.
    const full = new Set(g.edges().map((e) => `${e.from}\0${e.to}`));
    for (const e of rv.edges) {
      for (let i = 0; i + 1 < e.via.length; i++) assert.ok(full.has(`${e.via[i]}\0${e.via[i + 1]}`), `${e.via[i]} -> ${e.via[i + 1]}`);
    }
    g.free();
  });
}

test('instances fold into their resource in the resources view of an apply graph, a key holding "]" too', async () => {
  const files = { "main.tf": 'resource "aws_x" "y" {\n  for_each = toset(["a]b", "c"])\n  v = each.key\n}\n' };
  const g = buildGraph(files, { operation: "apply", changes: (await plan(files)).toJSON() });
  const rv = resourceView(g.nodes(), g.edges(), true);
  assert.deepEqual(rv.nodes.map((n) => n.key), parseResourceDot(g.toDot({ type: "resources" })).nodes);
  assert.deepEqual(rv.nodes.map((n) => n.key), ["aws_x.y"]);
  g.free();
});

test("cycleSets finds the same cycles as the package", () => {
  const cyc = GALLERY.find((g) => g.id === "cycle");
  const g = buildGraph(cyc.files);
  const mine = cycleSets(g.edges()).map((c) => [...c].sort()).sort();
  const theirs = g.cycles().map((c) => [...c].sort()).sort();
  assert.deepEqual(mine, theirs);
  assert.equal(theirs.length, 1);
});

test("transitive reduction removes exactly the edges the package reports as implied", () => {
  const starter = GALLERY[0];
  const reduced = buildGraph(starter.files);
  const full = buildGraph(starter.files, { reduce: false });
  const key = (e) => `${e.from} -> ${e.to}`;
  const mine = transitiveReduction(full.edges()).map(key).sort();
  assert.deepEqual(mine, reduced.edges().map(key).sort());
  assert.ok(reduced.impliedEdges().length > 0, "the starter has implied edges");
});

test("each build step's text parses back into its node and edge counts", () => {
  const g = buildGraph(GALLERY.find((x) => x.id === "module").files, { traceSteps: true });
  assert.ok(g.steps.length > 10);
  for (const s of g.steps) {
    const parsed = parseGraphText(s.text);
    assert.equal(parsed.nodes.length, s.nodes, s.name);
    assert.equal(parsed.edges.length, s.edges, s.name);
  }
  const last = parseGraphText(g.steps.at(-1).text);
  assert.deepEqual(last.edges.map((e) => `${e.from}\0${e.to}`).sort(), g.edges().map((e) => `${e.from}\0${e.to}`).sort());
});

test("DOT strings escape quotes, backslashes, entities and newlines", () => {
  assert.equal(dotString('a"b\\c&d\ne'), '"a\\"b\\\\c&amp;d\\ne"');
  const dot = toDot({ nodes: [{ id: "n0", label: '<img src=x onerror="alert(1)">', style: "resource", module: "" }], edges: [] });
  assert.match(dot, /label="<img src=x onerror=\\"alert\(1\)\\">"/);
});

test("makespan: a greedy list schedule of the durations", () => {
  const names = ["a", "b", "c", "d"];
  const deps = new Map([["d", ["a", "b", "c"]]]);
  const d = new Map([["a", 10], ["b", 10], ["c", 10], ["d", 5]]);
  assert.equal(makespan(names, deps, d, 1), 35);
  assert.equal(makespan(names, deps, d, 2), 25);
  assert.equal(makespan(names, deps, d, 3), 15);
  assert.equal(makespan(names, deps, d, 32), 15);
});
