// The Plan / Apply panel's pure helpers (www/src/engine-model.js) in Node: which drawn node an
// engine event animates in each view, how instances add up to one node's colour, progress
// lines, the plan's symbols, the settings, the instances an address names ("fail / replace selected"), and the timeline.
import { test } from "node:test";
import assert from "node:assert/strict";
import { actionSymbol, addAddresses, addressContains, createNodeStates, DEFAULT_SETTINGS, engineOptions, instancesOf, isData, nodeForEvent, progressLine, readSettings, summariseChanges, timelineRows } from "../../www/src/engine-model.js";
import { apply, plan } from "../../pkg/index.js";

const ev = (address, operation = "create", deposed = null) => ({ address, operation, deposed });

test("events find their node in the apply graph, the plan graph and the resources view", () => {
  const apply = new Set(["mock_resource.subnet[0]", "mock_resource.web (destroy)", "mock_resource.base (destroy deposed 00000001)", "mock_resource.web"]);
  assert.equal(nodeForEvent(apply, ev("mock_resource.subnet[0]")), "mock_resource.subnet[0]");
  assert.equal(nodeForEvent(apply, ev("mock_resource.web", "delete")), "mock_resource.web (destroy)");
  assert.equal(nodeForEvent(apply, ev("mock_resource.web", "create")), "mock_resource.web");
  assert.equal(nodeForEvent(apply, ev("mock_resource.base", "delete", "00000001")), "mock_resource.base (destroy deposed 00000001)");
  // The graph's deposed key is its own (derived from the address); the apply's is another.
  const cbd = new Set(["mock_resource.green", "mock_resource.green (destroy deposed 0beb6dcd)", "mock_resource.greener (destroy deposed 1a2b3c4d)"]);
  assert.equal(nodeForEvent(cbd, ev("mock_resource.green", "delete", "00000001")), "mock_resource.green (destroy deposed 0beb6dcd)");
  assert.equal(nodeForEvent(cbd, ev("mock_resource.green", "create")), "mock_resource.green");
  assert.equal(nodeForEvent(new Set(["mock_resource.green"]), ev("mock_resource.green", "delete", "00000001")), "mock_resource.green", "the resources view: the resource's node");
  const resources = new Set(["mock_resource.subnet", "module.net.mock_resource.vpc", "data.mock_data.d"]);
  assert.equal(nodeForEvent(resources, ev("mock_resource.subnet[1]")), "mock_resource.subnet");
  assert.equal(nodeForEvent(resources, ev('module.net[0].mock_resource.vpc["a"]')), "module.net.mock_resource.vpc");
  assert.equal(nodeForEvent(resources, ev("data.mock_data.d", "read")), "data.mock_data.d");
  const plan = new Set(["mock_resource.subnet (expand)"]);
  assert.equal(nodeForEvent(plan, ev("mock_resource.subnet[0]")), "mock_resource.subnet (expand)");
  assert.equal(nodeForEvent(plan, ev("mock_resource.other")), null);
});

test("a node's colour from its instances' events", () => {
  const s = createNodeStates();
  assert.equal(s.record("n", "start"), "running");
  assert.equal(s.record("n", "start"), "running");
  assert.equal(s.record("n", "finish"), "running");
  assert.equal(s.record("n", "finish"), "done");
  assert.equal(s.record("m", "skip"), "skipped");
  assert.equal(s.record("f", "start"), "running");
  assert.equal(s.record("f", "fail"), "failed");
  assert.equal(s.record("c", "cancel"), "cancelled");
  assert.deepEqual(s.entries(), [["n", "done"], ["m", "skipped"], ["f", "failed"], ["c", "cancelled"]]);
});

test("data source addresses, module keys holding ']' or '.' too", () => {
  for (const [address, yes] of [["data.a.b", true], ['module.m["k]"].data.a.b', true], ["module.m[0].module.n.data.a.b[1]", true], ["a.data", false], ["module.data.a.b", false], ['module.m["k].data.x"].a.b', false]]) {
    assert.equal(isData(address), yes, address);
  }
});

test("the log's lines: the engine's progress line (src/engine/render/progress.rs writes them), the page's own for a failure", () => {
  const base = { deposed: null, priorId: null, id: null, phase: "apply", address: "a.b", operation: "create" };
  assert.equal(progressLine({ ...base, kind: "start", line: "a.b: Creating..." }), "a.b: Creating...");
  assert.equal(progressLine({ ...base, kind: "finish", id: "x", line: "a.b: Creation complete after 0s [id=x]" }), "a.b: Creation complete after 0s [id=x]");
  assert.equal(progressLine({ ...base, phase: "plan", kind: "finish", operation: "read" }), null, "a refresh's end: no line");
  assert.equal(progressLine({ ...base, kind: "fail", diagnostics: [{ severity: "error", summary: "Mock failure" }] }), "a.b: Mock failure");
  assert.equal(progressLine({ ...base, kind: "skip" }), null);
});

test("plan symbols and counts", () => {
  assert.equal(actionSymbol(["delete", "create"]), "-/+");
  assert.equal(actionSymbol(["create", "delete"]), "+/-");
  assert.equal(actionSymbol(["read"]), "<=");
  const s = summariseChanges([
    { address: "a", actions: ["create"] },
    { address: "b", actions: ["no-op"] },
    { address: "c", actions: ["delete", "create"] },
    { address: "d", actions: ["update"] },
    { address: "e", actions: ["delete"] },
  ]);
  assert.deepEqual([s.add, s.change, s.destroy], [2, 1, 2]);
  assert.deepEqual(s.rows.map((r) => r.symbol), ["+", "-/+", "~", "-"]);
});

test("settings from a share link or the inputs: bounded numbers, trimmed names and addresses, defaults for the rest", () => {
  const defaults = readSettings(undefined);
  assert.deepEqual(defaults, { ...DEFAULT_SETTINGS, failNames: [], failAddresses: "", failOps: ["create"], targets: "", replace: "" });
  assert.deepEqual(
    readSettings({
      parallelism: "3",
      delayMs: 12.7,
      jitterMs: -4,
      seed: 2 ** 40,
      rateLimit: 0.25,
      maxRetries: 99,
      failNames: " a, b ,,a",
      failAddresses: ' x.y["a,b"], x.y[0] ',
      failOps: "delete,create,bogus",
      targets: ["module.m", " a.b ", 3],
      replace: "a.b[1],,a.b[1]",
    }),
    {
      parallelism: 3,
      delayMs: 12,
      jitterMs: 0,
      seed: 2 ** 32 - 1,
      rateLimit: 0.25,
      maxRetries: 32,
      failNames: ["a", "b"],
      // Address lists stay text (the package splits them); a list from an older link is joined.
      failAddresses: 'x.y["a,b"], x.y[0]',
      failOps: ["create", "delete"],
      targets: "module.m, a.b",
      replace: "a.b[1],,a.b[1]",
    },
  );
  assert.deepEqual(readSettings({ parallelism: 0, seed: "x", rateLimit: 7, failNames: [1, " c "], failOps: ["nope"] }), { ...defaults, parallelism: 1, rateLimit: 1, failNames: ["c"] });
  assert.deepEqual(engineOptions({ parallelism: 2, jitterMs: 50, seed: 9, failNames: ["w"], failAddresses: 'a.b["x,y"], c.d' }), {
    parallelism: 2,
    mock: { delayMs: 300, jitterMs: 50, seed: 9, rateLimit: 0, maxRetries: 4, failNames: ["w"], failAddresses: 'a.b["x,y"], c.d', failOps: ["create"] },
  });
  // -target, -replace and failAddresses only when given.
  assert.deepEqual(engineOptions({ targets: "a.b", replace: ["a.b[0]"] }).targets, "a.b");
  assert.deepEqual(engineOptions({ targets: "a.b", replace: ["a.b[0]"] }).replace, "a.b[0]");
  assert.equal("targets" in engineOptions({}), false);
  assert.equal("failAddresses" in engineOptions({}).mock, false);
});

test("the selected node's address joins an address list's text once", () => {
  assert.equal(addAddresses("", ["a.b"]), "a.b");
  assert.equal(addAddresses(' a.b["x,y"] ', ["a.b", 'a.b["x,y"]', "a.b"]), 'a.b["x,y"], a.b');
  assert.equal(addAddresses("a.b, c.d", ["c.d", "a.bc", "a.b[0]"]), "a.b, c.d, a.bc, a.b[0]");
});

const COUNTED = {
  "main.tf": 'resource "mock_resource" "a" {\n  count = 2\n  name  = "a-${count.index}"\n}\n\nresource "mock_resource" "b" {\n  name  = "b"\n  input = { a = mock_resource.a[0].id }\n}\n',
};

test("which planned instances an address names: keys where given, any key where not", async () => {
  for (const [address, instance, yes] of [
    ["mock_resource.a", "mock_resource.a[1]", true],
    ["mock_resource.a[1]", "mock_resource.a[1]", true],
    ["mock_resource.a[0]", "mock_resource.a[1]", false],
    ["mock_resource.a", "mock_resource.ab", false],
    ["module.m.x.y", 'module.m["k.1"].x.y[0]', true],
    ["module.m[0].x.y", "module.m[1].x.y", false],
    ["x.y", "data.x.y", false],
    ["data.x.y", "data.x.y[2]", true],
    ['x.y["a.b"]', 'x.y["a.b"]', true],
  ]) assert.equal(addressContains(address, instance), yes, `${address} ${instance}`);
  const p = await plan(COUNTED);
  assert.deepEqual(instancesOf(p.changes, "mock_resource.a"), ["mock_resource.a[0]", "mock_resource.a[1]"]);
  assert.deepEqual(instancesOf(p.changes, "mock_resource.b"), ["mock_resource.b"]);
  assert.deepEqual(instancesOf(p.changes, "mock_resource.c"), []);
  assert.deepEqual(instancesOf([{ address: "x.y", deposed: "00000001" }, { address: "x.y" }], "x.y"), ["x.y"], "not a deposed object");
});

test("the apply's timeline: one row per operation, start to end, failures marked", async () => {
  const r = await apply(COUNTED, { mock: { delayMs: 30, failNames: ["b"] } });
  const rows = timelineRows(r.report.events);
  assert.deepEqual(
    rows.map((x) => `${x.operation} ${x.address}${x.failed ? " failed" : ""}`),
    ["create mock_resource.a[0]", "create mock_resource.a[1]", "create mock_resource.b failed"],
  );
  for (const x of rows) assert.ok(x.end - x.start >= 25, JSON.stringify(x));
  const b = rows.find((x) => x.address === "mock_resource.b");
  const a0 = rows.find((x) => x.address === "mock_resource.a[0]");
  assert.ok(b.start >= a0.end, "b waits for a");
  // Two deposed objects of one address deleted at once: each row ends with its own key.
  const cbd = [
    { phase: "apply", kind: "start", operation: "delete", address: "x.y", deposed: "00000001", time: 5 },
    { phase: "apply", kind: "start", operation: "delete", address: "x.y", deposed: "00000002", time: 6 },
    { phase: "apply", kind: "fail", operation: "delete", address: "x.y", deposed: "00000002", time: 9 },
    { phase: "apply", kind: "finish", operation: "delete", address: "x.y", deposed: "00000001", time: 12 },
  ];
  assert.deepEqual(timelineRows(cbd).map((x) => [x.deposed, x.start, x.end, x.failed]), [["00000001", 5, 12, false], ["00000002", 6, 9, true]]);
  // Plan-phase events and an operation without an end are no rows.
  assert.deepEqual(timelineRows([{ phase: "plan", kind: "start", operation: "read", address: "x", time: 0 }, { phase: "apply", kind: "start", operation: "create", address: "y", time: 1 }]), []);
});
