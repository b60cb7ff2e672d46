// Fuzzing exhaustion (issue #26): random configurations whose count, for_each, nested module
// counts and function-made sizes are mutated from tiny to absurd, planned (and the small ones
// applied) through the package. Every call must settle within seconds, with a Plan (or an
// apply's result) or a TfgraphError, never an uncaught exception, a hang or a dead module; and
// a normal plan must work after each.
//
// Seeded: in the suite, a fixed seed for about three seconds; `LIMITS_FUZZ_SEED=N` and
// `LIMITS_FUZZ_SECONDS=S` for longer runs. The limits are lowered (20,000 instances, 2,000
// module instances) so that plans within them stay quick. With the default limits, seed 90210
// found a module count 1000 × a leaf count 1000: a million instances, a legitimate plan of
// five minutes (bench/limits), not a hang. With the lowered limits, the same seed for 240 s
// found one call past 60 s (170 s): `join("", [for i in range(1024) : format("%01000000d", i)])`,
// a gigabyte built from 1024 strings each within format's own width limit. join now stops
// at 64 MiB as templates do, and the list the for expression builds first is spent from the
// expression's budget (limits.bytes, src/eval/limits.rs), lowered here with limits.elements
// as the instance limits are. Nested for expressions, chains of locals and deep literals are
// drawn too.

import { test } from "node:test";
import assert from "node:assert/strict";
import { apply, plan, TfgraphError } from "../../pkg/index.js";

/** xorshift32. */
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
  return { below: (n) => next() % Math.max(1, n), pick: (list) => list[next() % list.length] };
}

/** A size from tiny to absurd, weighted to small ones. */
function size(r) {
  return r.pick([0, 1, 2, 3, 10, 100, 1000, 1024, 1025, 5000, 65536, 1e5, 1e6, 1e6 + 1, 3e6, 1e8, 2 ** 31, 1e15]);
}

/** One random configuration: resources with count / for_each, a module tree, function-made sizes. */
function configuration(r) {
  const files = {};
  const lines = [];
  const n = 1 + r.below(3);
  for (let i = 0; i < n; i++) {
    const kind = r.below(10);
    const a = Math.min(size(r), 2000);
    const b = Math.min(size(r), 2000);
    const arg = [
      () => `count = ${size(r)}`,
      () => `for_each = toset([for i in range(${Math.min(size(r), 1024)}) : tostring(i)])`,
      () => `for_each = toset([for p in setproduct(range(${Math.min(a, 1024)}), range(${Math.min(b, 1024)})) : join("-", p)])`,
      () => `count = length(format("%0${size(r)}d", 1))`,
      () => `count = length(join("", [for i in range(${Math.min(a, 1024)}) : format("%0${Math.min(size(r), 1e6)}d", i)]))`,
      () => `count = length("%{for i in range(${Math.min(a, 1024)})}%{for j in range(${Math.min(b, 1024)})}${"x".repeat(r.below(64))}%{endfor}%{endfor}")`,
      () => `count = length(flatten([for i in range(${Math.min(a, 1024)}) : range(${Math.min(b, 1024)})]))`,
      () => {
        const k = r.below(3) * 200;
        return `name = jsonencode(${"[".repeat(k)}"x"${"]".repeat(k)})`;
      },
      () => `count = length([for i in range(${Math.min(a, 1024)}) : [for j in range(${Math.min(b, 1024)}) : [for k in range(${Math.min(size(r), 1024)}) : k]]])`,
      () => {
        const n = r.pick([1, 10, 32, 33, 200, 3000]);
        let text = `locals {\n  c${i}_0 = 1\n`;
        for (let j = 1; j < n; j++) text += `  c${i}_${j} = local.c${i}_${j - 1} + 1\n`;
        lines.push(`${text}}`);
        return `count = local.c${i}_${n - 1} % 3`;
      },
    ][kind]();
    lines.push(`resource "mock_resource" "r${i}" {\n  ${arg}\n}`);
  }
  // A module tree: each level's count multiplies.
  const depth = r.below(4);
  let dir = "";
  for (let level = 0; level < depth; level++) {
    files[`${dir}main.tf`] = `module "m" {\n  source = "./m"\n  count  = ${Math.min(size(r), 1e7)}\n}\n`;
    dir += "m/";
  }
  if (depth > 0) files[`${dir}main.tf`] = `resource "mock_resource" "leaf" {\n  count = ${Math.min(size(r), 1e6)}\n}\n`;
  files["main.tf"] = (files["main.tf"] ?? "") + lines.join("\n") + "\n";
  return files;
}

const small = { "main.tf": 'resource "mock_resource" "ok" {\n  name = "ok"\n}\n' };

test("random sizes: every call settles with a Plan or a TfgraphError, and the module lives on", { timeout: 3600000 }, async () => {
  const seed = Number(process.env.LIMITS_FUZZ_SEED ?? 2611);
  const seconds = Number(process.env.LIMITS_FUZZ_SECONDS ?? 3);
  const uncaught = [];
  const onUncaught = (e) => uncaught.push(e);
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
  const r = rng(seed);
  const end = Date.now() + seconds * 1000;
  const tally = { calls: 0, plans: 0, errored: 0, stopped: 0, applied: 0, slowest: 0 };
  try {
    while (Date.now() < end) {
      const files = configuration(r);
      const t0 = Date.now();
      let p = null;
      try {
        // Limits lowered, so that a plan within them takes a second, not the minutes a
        // million instances take: the sizes exercise the checks, not the machine.
        p = await plan(files, { limits: { instances: 20000, moduleInstances: 2000, elements: 1 << 20, bytes: 16 << 20 } });
        tally.plans++;
        if (p.errored) tally.errored++;
      } catch (e) {
        assert.ok(e instanceof TfgraphError, `${JSON.stringify(files)}: ${e?.stack ?? e}`);
        // A configuration error (the validate walk) or a module that stopped: within the
        // lowered limits, none may stop (pkg/api.js's "While planning, the WebAssembly module").
        const trapped = e.diagnostics.some((d) => /^While planning, the WebAssembly module/.test(d.detail ?? ""));
        assert.ok(!trapped, `${JSON.stringify(files).slice(0, 2000)}: ${JSON.stringify(e.diagnostics)}`);
        tally.stopped++;
      }
      tally.calls++;
      tally.slowest = Math.max(tally.slowest, Date.now() - t0);
      assert.ok(Date.now() - t0 < 60000, `${JSON.stringify(files)} took ${Date.now() - t0} ms`);
      if (p && !p.errored && p.changes.length <= 200) {
        const result = await apply(p, { limits: { elements: 1 << 20, bytes: 16 << 20 } });
        assert.ok(Array.isArray(result.diagnostics));
        tally.applied++;
      }
      const after = await plan(small);
      assert.equal(after.errored, false);
    }
  } finally {
    process.off("uncaughtException", onUncaught);
    process.off("unhandledRejection", onUncaught);
  }
  assert.deepEqual(uncaught, []);
  console.log(`limits fuzz: seed ${seed}, ${seconds} s: ${JSON.stringify(tally)}`);
  assert.ok(tally.calls > 0);
});
