// The Plan / Apply panel's pure helpers (www/src/engine-model.js) in Node: which drawn node an
// engine event animates in each view, how instances add up to one node's colour, progress
// lines, and the plan's symbols.
import { test } from "node:test";
import assert from "node:assert/strict";
import { actionSymbol, createNodeStates, nodeForEvent, progressLine, summariseChanges } from "../../www/src/engine-model.js";

const ev = (address, operation = "create", deposed = null) => ({ address, operation, deposed });

test("events find their node in the apply graph, the plan graph and the resources view", () => {
  const apply = new Set(["mock_resource.subnet[0]", "mock_resource.web (destroy)", "mock_resource.base (destroy deposed 00000001)", "mock_resource.web"]);
  assert.equal(nodeForEvent(apply, ev("mock_resource.subnet[0]")), "mock_resource.subnet[0]");
  assert.equal(nodeForEvent(apply, ev("mock_resource.web", "delete")), "mock_resource.web (destroy)");
  assert.equal(nodeForEvent(apply, ev("mock_resource.web", "create")), "mock_resource.web");
  assert.equal(nodeForEvent(apply, ev("mock_resource.base", "delete", "00000001")), "mock_resource.base (destroy deposed 00000001)");
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

test("progress lines as terraform apply prints them", () => {
  const base = { deposed: null, priorId: null, id: null, phase: "apply" };
  assert.equal(progressLine({ ...base, kind: "start", operation: "create", address: "a.b" }), "a.b: Creating...");
  assert.equal(progressLine({ ...base, kind: "finish", operation: "create", address: "a.b", id: "x", elapsedMs: 300 }), "a.b: Creation complete after 0s [id=x]");
  assert.equal(progressLine({ ...base, kind: "start", operation: "delete", address: "a.b", deposed: "00000001", priorId: "x" }), "a.b (deposed object 00000001): Destroying... [id=x]");
  assert.equal(progressLine({ ...base, kind: "finish", operation: "delete", address: "a.b", deposed: "00000001", elapsedMs: 1600 }), "a.b: Destruction complete after 2s");
  assert.equal(progressLine({ ...base, phase: "plan", kind: "start", operation: "read", address: "a.b", priorId: "x" }), "a.b: Refreshing state... [id=x]");
  assert.equal(progressLine({ ...base, phase: "plan", kind: "finish", operation: "read", address: "a.b", priorId: "x" }), null);
  assert.equal(progressLine({ ...base, kind: "skip", operation: "create", address: "a.b" }), null);
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
