// Exhaustion and traps (issue #26): every call settles with an answer, and the module lives on.
// Configurations that would expand past what a wasm32 module's 4 GiB hold are diagnostics at
// the argument, within seconds; a call that traps anyway (a panic, a failed allocation: limits
// raised on purpose here) rejects with a TfgraphError saying what ran out and where, never an
// uncaught exception, and the next call in the same import works on a fresh instance.

import { test } from "node:test";
import assert from "node:assert/strict";
import { apply, buildGraph, evaluate, loadConfig, memoryBytes, plan, Plan, TfgraphError, walk } from "../../pkg/index.js";

const small = { "main.tf": 'resource "mock_resource" "a" {\n  count = 2\n  name  = "a${count.index}"\n}\n' };

/** A normal plan right after: the module still answers. */
async function stillWorks() {
  const p = await plan(small);
  assert.equal(p.errored, false, JSON.stringify(p.diagnostics));
  assert.deepEqual(p.changes.map((c) => c.address), ["mock_resource.a[0]", "mock_resource.a[1]"]);
  assert.equal(loadConfig(small).root.resources.length, 1);
}

/** Runs `f` and returns its time in ms, failing past `seconds`. */
async function within(seconds, f) {
  const t0 = performance.now();
  const out = await f();
  const ms = performance.now() - t0;
  assert.ok(ms < seconds * 1000, `took ${Math.round(ms)} ms`);
  return out;
}

function only(p, summary) {
  const errors = p.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0].summary, summary, JSON.stringify(errors[0]));
  return errors[0];
}

test("count = 100000000: an error at the count argument, within seconds", async () => {
  const files = { "main.tf": 'resource "mock_resource" "a" {\n  count = 100000000\n}\n' };
  const p = await within(5, () => plan(files));
  const d = only(p, "Too many instances");
  assert.deepEqual([d.range.filename, d.range.start.line, d.range.start.column], ["main.tf", 2, 11]);
  assert.match(d.detail, /makes 100,000,000 instances of mock_resource\.a, more than the 1,000,000/);
  await stillWorks();
});

test("the instance limit counts every resource of the plan, in modules too", async () => {
  const files = {
    "main.tf": 'resource "mock_resource" "a" {\n  count = 600\n}\nmodule "m" {\n  source = "./m"\n}\n',
    "m/main.tf": 'resource "mock_resource" "b" {\n  for_each = toset([for i in range(1000) : tostring(i)])\n}\n',
  };
  const p = await plan(files, { limits: { instances: 1500 } });
  const d = only(p, "Too many instances");
  assert.equal(d.range.filename, "m/main.tf");
  assert.match(d.detail, /for_each.*1,000 instances of module\.m\.mock_resource\.b after the 600 planned before it/s);
  await stillWorks();
});

test("limits.instances raises the limit", async () => {
  const files = { "main.tf": 'resource "mock_resource" "a" {\n  count = 30\n}\n' };
  only(await plan(files, { limits: { instances: 29 } }), "Too many instances");
  assert.equal((await plan(files, { limits: { instances: 30 } })).changes.length, 30);
});

test("a module tree whose instances multiply to 10^9: an error at the call's count", async () => {
  const level = (child) => `module "m" {\n  source = "./${child}"\n  count  = 1000\n}\n`;
  const files = {
    "main.tf": level("l1"),
    "l1/main.tf": level("l2"),
    "l1/l2/main.tf": level("l3"),
    "l1/l2/l3/main.tf": 'resource "mock_resource" "leaf" {\n  count = 1\n}\n',
  };
  const p = await within(20, () => plan(files));
  const d = only(p, "Too many module instances");
  // Depth first, as the plan expands: the third level's call passes the limit.
  assert.equal(d.range.filename, "l1/l2/main.tf");
  assert.match(d.detail, /"count" argument of module\.m\.module\.m\.module\.m makes/);
  await stillWorks();
});

test("a for_each over a 10-million-element set from setproduct: an error at the call", async () => {
  const files = {
    "main.tf":
      'resource "mock_resource" "a" {\n  for_each = toset([for p in setproduct(range(1000), range(1000), range(10)) : join("-", p)])\n}\n',
  };
  const p = await within(5, () => plan(files));
  const d = only(p, "Error in function call");
  assert.match(d.detail, /setproduct/);
  await stillWorks();
});

test("a template producing 1 GB: an error at the template", async () => {
  const files = { "main.tf": 'locals {\n  kb = join("", [for i in range(1024) : "x"])\n}\n' };
  const expression = '"%{for i in range(1000)}%{for j in range(1000)}${local.kb}%{endfor}%{endfor}"';
  await within(10, async () => {
    assert.throws(() => evaluate(files, `length(${expression})`), (e) => e instanceof TfgraphError && /Template result too long/.test(e.message));
  });
  const p = await within(10, () => plan({ ...files, "r.tf": `resource "mock_resource" "a" {\n  name = ${expression}\n}\n` }));
  only(p, "Template result too long");
  await stillWorks();
});

test("a 10,000-deep nested expression: a diagnostic, not a stack overflow", async () => {
  const deep = "(".repeat(10000) + "1" + ")".repeat(10000);
  assert.throws(() => evaluate({ "main.tf": "" }, deep), (e) => e instanceof TfgraphError && /too deeply nested/.test(e.message));
  const list = "[".repeat(10000) + "1" + "]".repeat(10000);
  const p = await within(5, () => plan({ "main.tf": `resource "mock_resource" "a" {\n  name = ${list}\n}\n` }));
  assert.ok(p.errored);
  assert.match(p.diagnostics[0].summary, /too deeply nested/);
  await stillWorks();
});

test("a 400 MB state string: an answer within seconds", { timeout: 120000 }, async () => {
  // Near the longest string V8 holds (512 MiB - 24 characters): one resource with a huge attribute.
  const big = "x".repeat(400 * 1024 * 1024);
  const state = `{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"l","outputs":{},"resources":[{"mode":"managed","type":"mock_resource","name":"a","provider":"provider[\\"registry.terraform.io/hashicorp/mock\\"]","instances":[{"schema_version":0,"attributes":{"id":"a","name":"${big}"}}]}]}`;
  let answer;
  try {
    answer = await within(60, () => plan({ "main.tf": 'resource "mock_resource" "a" {\n  name = "a"\n}\n' }, { state }));
  } catch (e) {
    answer = e;
  }
  // Either a plan (the state fits) or a TfgraphError saying what ran out: never a hang or a trap.
  if (answer instanceof Error) assert.ok(answer instanceof TfgraphError, String(answer));
  else assert.ok(answer instanceof Plan);
  await stillWorks();
});

test("a trap inside plan rejects with a TfgraphError, and the next call works", async () => {
  // With the limit raised past what memory holds, the expansion itself fails in the module.
  const files = { "main.tf": 'resource "mock_resource" "a" {\n  count = 100000000\n}\n' };
  const before = await plan(small);
  const graph = buildGraph(small);
  const error = await within(60, () => plan(files, { limits: { instances: 1e9 } }).then(() => null, (e) => e));
  assert.ok(error instanceof TfgraphError, String(error));
  const d = error.diagnostics[0];
  assert.match(d.summary, /Out of memory|Internal error/);
  assert.match(d.detail, /While planning, the WebAssembly module/);
  assert.match(d.detail, /mock_resource\.a/, "says where");
  assert.deepEqual([d.range?.filename, d.range?.start.line], ["main.tf", 1]);
  // What the stopped instance made is gone, with a clear error.
  assert.throws(() => before.toString(), (e) => e instanceof TfgraphError && /Plan is gone/.test(e.message));
  assert.throws(() => graph.nodes(), (e) => e instanceof TfgraphError && /Graph is gone/.test(e.message));
  await assert.rejects(apply(before), (e) => e instanceof TfgraphError && /Plan is gone/.test(e.message));
  graph.free(); // harmless
  await stillWorks();
  assert.equal(evaluate(small, "1 + 1").value, 2);
  assert.deepEqual((await walk({ nodes: ["a", "b"], edges: [["b", "a"]] }, async () => {})).order ?? [], []);
});

test("an apply that runs out of memory midway rejects with the state onState last had", { timeout: 600000, skip: !process.env.TFGRAPH_SLOW && "slow: TFGRAPH_SLOW=1" }, async () => {
  const files = { "main.tf": 'resource "mock_resource" "a" {\n  count = 400000\n  name  = "n${count.index}"\n}\n' };
  let states = 0;
  const error = await apply(files, { limits: { instances: 1e7 }, onState: () => states++ }).then(() => null, (e) => e);
  assert.ok(error instanceof TfgraphError, String(error));
  assert.equal(error.diagnostics[0].summary, "Out of memory");
  if (states > 0) assert.ok(error.state.resources.length > 0);
  await stillWorks();
});

test("options of the wrong type are TypeErrors naming the option", async () => {
  const cases = [
    [{ mock: 5 }, /options\.mock/],
    [{ mock: [] }, /options\.mock/],
    [{ mock: { delayMs: "x" } }, /options\.mock\.delayMs/],
    [{ mock: { failNames: "a" } }, /options\.mock\.failNames/],
    [{ mock: { rateLimit: 2 } }, /options\.mock\.rateLimit/],
    [{ parallelism: "ten" }, /options\.parallelism/],
    [{ variables: [] }, /options\.variables/],
    [{ variables: "x" }, /options\.variables/],
    [{ limits: 5 }, /options\.limits/],
    [{ limits: { instances: "many" } }, /options\.limits\.instances/],
    [{ limits: { instances: 0 } }, /options\.limits\.instances/],
    [{ limits: { resources: 5 } }, /options\.limits\.resources/],
  ];
  for (const [options, message] of cases) {
    await assert.rejects(plan(small, options), (e) => e instanceof TypeError && message.test(e.message), JSON.stringify(options));
    await assert.rejects(apply(small, options), (e) => e instanceof TypeError && message.test(e.message), JSON.stringify(options));
  }
  await stillWorks();
});

test("memory after a big plan: a small one reuses it, and the instance is replaced when idle and large", async () => {
  const files = { "main.tf": 'resource "mock_resource" "a" {\n  count = 20000\n}\n' };
  let p = await plan(files);
  assert.equal(p.changes.length, 20000);
  const big = memoryBytes();
  p = null;
  await stillWorks();
  assert.ok(memoryBytes() <= big, `${memoryBytes()} > ${big}`);
});
