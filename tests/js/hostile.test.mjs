// The engine's JS boundary under hostile input: plan() and apply() of the package called with
// options of the wrong types, huge and odd numbers, cyclic objects, BigInts, functions, and
// states that are garbage (random text, valid states with one field broken). Each call must
// resolve (bad input reported in `diagnostics`) or reject with an Error (a TypeError for
// misuse), never with a non-Error and never with a wasm trap; the plan it returns must read
// (changes, JSON, text); and the module must still plan a good configuration afterwards (a
// trap would leave the instance unusable).
//
// Seeded: in the suite, a fixed seed for about three seconds; `JS_FUZZ_SEED=N` and
// `JS_FUZZ_SECONDS=S` for longer runs (`JS_FUZZ_SECONDS=150 node --test tests/js/hostile.test.mjs`).
// Last long run (2026-11-27, seed 777000, 150 s): 36,288 calls, 27,912 rejected with a
// TypeError, RangeError or TfgraphError, the rest resolved; no trap, no non-Error.

import { test } from "node:test";
import assert from "node:assert/strict";
import { apply, plan, Plan } from "../../pkg/index.js";

/** xorshift32: small and seedable. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  return { below: (n) => next() % Math.max(1, n), chance: (p) => next() % 100 < p, pick: (list) => list[next() % list.length] };
}

const CONFIG = {
  "main.tf": `
variable "v" {
  default = "x"
}

resource "mock_resource" "a" {
  count = 2
  name  = "a-\${count.index}"
  input = { v = var.v }
}

resource "mock_resource" "b" {
  name  = "b"
  input = { a = join(",", mock_resource.a[*].id) }
}

data "mock_data" "d" {
  name = "d"
}

output "o" {
  value = mock_resource.b.id
}
`,
};

function cyclic() {
  const o = { version: 4, resources: [] };
  o.self = o;
  o.resources.push(o);
  return o;
}

function deep(n) {
  let v = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

/** Values of every kind JSON and the bindings might trip on. */
const HOSTILE = [
  undefined, null, true, false, 0, -0, -1, 1.5, 2 ** 53 + 1, 1e308, -1e308, Infinity, -Infinity, NaN,
  "", "x", "{", "}", "null", "[]", "{}", '{"version":4}', '{"version":"4"}', "\u0000", "\ud800", "a".repeat(100000),
  [], [1, 2], [null], ["mock_resource.a[0]"], ["mock_resource.a[99999999999999999999]"], ["module.[\"x"], [""],
  {}, { a: 1 }, { version: 4 }, { resources: {} }, Object.create(null), new Date(0), /re/g, new Map([[1, 2]]),
  10n, () => 1, Symbol("s"),
];

function hostile(r) {
  switch (r.below(12)) {
    case 0: return cyclic();
    case 1: return deep(r.pick([10, 1000, 100000]));
    case 2: return new Array(r.pick([3, 100000]));
    default: return r.pick(HOSTILE);
  }
}

/** A valid state of CONFIG, made once. */
let goodState;

/** A copy of `v` with one field removed, retyped or replaced. */
function corrupt(r, v) {
  const copy = JSON.parse(JSON.stringify(v));
  let node = copy;
  for (let depth = 0; depth < 1 + r.below(6); depth++) {
    const keys = node && typeof node === "object" ? Object.keys(node) : [];
    if (keys.length === 0) break;
    const k = r.pick(keys);
    const child = node[k];
    if (child && typeof child === "object" && r.chance(70)) {
      node = child;
      continue;
    }
    if (r.chance(20) && !Array.isArray(node)) delete node[k];
    else node[k] = r.pick([null, -1, 1.5, 1e308, "x", [], {}, true, "module.[\"x", [{ value: {} }], "mock_resource.a[0]"]);
    break;
  }
  return copy;
}

function state(r) {
  switch (r.below(5)) {
    case 0: return hostile(r);
    case 1: return JSON.stringify(corrupt(r, goodState));
    case 2: return JSON.stringify(goodState).slice(0, r.below(JSON.stringify(goodState).length));
    default: return corrupt(r, goodState);
  }
}

function mock(r) {
  if (r.chance(30)) return hostile(r);
  const m = {};
  // Delays stay small: a huge one is a legitimate request to wait.
  for (const key of ["delayMs", "jitterMs", "seed", "rateLimit", "maxRetries"]) {
    if (r.chance(30)) m[key] = r.pick([-1, 0, 1, NaN, "x", null, [], {}, 1.5, 2 ** 53 + 1, 10n]);
  }
  for (const key of ["failNames", "failAddresses", "failOps", "delayByName"]) {
    if (r.chance(30)) m[key] = hostile(r);
  }
  return m;
}

function options(r) {
  if (r.chance(5)) return hostile(r);
  const o = {};
  if (r.chance(50)) o.state = state(r);
  if (r.chance(30)) o.variables = r.chance(50) ? hostile(r) : { v: hostile(r) };
  for (const key of ["destroy", "refresh", "targets", "replace", "parallelism", "root"]) {
    if (r.chance(20)) o[key] = hostile(r);
  }
  if (r.chance(30)) o.mock = mock(r);
  return o;
}

/** Whether the module still plans and applies CONFIG as it should. */
async function stillWorks(what) {
  const p = await plan(CONFIG);
  assert.equal(p.errored, false, `${what}: the module no longer plans a good configuration: ${JSON.stringify(p.diagnostics)}`);
  assert.equal(p.changes.filter((c) => c.actions.includes("create")).length, 3, what);
}

/** Runs one call; returns what it did, failing on a non-Error rejection or a trap. */
async function call(what, f) {
  try {
    const out = await f();
    return { out };
  } catch (e) {
    assert.ok(e instanceof Error, `${what}: rejected with a non-Error: ${String(e)}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError), `${what}: a wasm trap: ${e.stack}`);
    assert.ok(e.message.length > 0, `${what}: an Error without a message`);
    return { error: e };
  }
}

function describe(o) {
  try {
    return JSON.stringify(o, (_, v) => (typeof v === "bigint" ? `${v}n` : typeof v === "string" && v.length > 80 ? `${v.slice(0, 80)}…` : v))?.slice(0, 600);
  } catch {
    return "(not printable: cyclic, too deep or a BigInt)";
  }
}

test("plan() and apply() under hostile options and states: data or an Error, never a trap", async () => {
  goodState = (await apply(CONFIG)).state;
  assert.equal(goodState.resources.length, 3);
  const seed = Number(process.env.JS_FUZZ_SEED ?? 20261127);
  const seconds = Number(process.env.JS_FUZZ_SECONDS ?? 3);
  const deadline = Date.now() + seconds * 1000;
  let calls = 0;
  let rejected = 0;
  for (let n = 0; Date.now() < deadline; n++) {
    const r = rng(seed + n);
    const o = options(r);
    const what = `seed ${seed + n} (JS_FUZZ_SEED=${seed + n} JS_FUZZ_SECONDS=0.001 replays it), options ${describe(o)}`;
    const planned = await call(`${what}: plan`, () => plan(CONFIG, o));
    calls++;
    if (planned.out) {
      const p = planned.out;
      assert.ok(p instanceof Plan, what);
      assert.ok(Array.isArray(p.diagnostics), what);
      for (const d of p.diagnostics) assert.ok(typeof d.summary === "string" && d.summary.length > 0, `${what}: ${JSON.stringify(d)}`);
      assert.ok(Array.isArray(p.changes), what);
      assert.equal(typeof p.toString(), "string", what);
      assert.equal(typeof p.toJSON(), "object", what);
      if (!p.errored && r.chance(30)) {
        // Apply the plan, with hostile apply options of its own.
        const applied = await call(`${what}: apply`, () => apply(p, { parallelism: r.chance(50) ? hostile(r) : undefined, state: r.chance(30) ? o?.state : undefined }));
        calls++;
        if (applied.out) assert.ok(Array.isArray(applied.out.diagnostics), what);
        else rejected++;
      }
    } else {
      rejected++;
      // Misuse is a TypeError (a RangeError: JSON.stringify on a too deeply nested value);
      // anything else the input caused is a TfgraphError.
      assert.ok(planned.error instanceof TypeError || planned.error instanceof RangeError || planned.error.name === "TfgraphError", `${what}: ${planned.error.stack}`);
    }
    if (n % 25 === 0) await stillWorks(what);
  }
  await stillWorks("at the end");
  console.log(`hostile boundary: ${calls} calls from seed ${seed}, ${rejected} rejected with an Error, the rest resolved`);
  assert.ok(calls > 0);
});
