// What a long-lived process keeps, run over run (issue #26 "memory back after big runs"): five
// rounds of a large plan followed by three small ones, in one Node process, through the package.
//
//   node bench/limits/reuse.mjs [N] [held|freed|dropped] [rounds]      (default: 100000 held 5)
//
// held:    the last large Plan stays reachable until the next one is made (a page that keeps
//          its last plan to apply it): the instance is never idle, so it is never replaced, and
//          the question is whether dlmalloc reuses the freed memory or the module grows again.
// freed:   as held, and the Plan it replaces is freed (`Plan.free()`).
// dropped: each Plan is dropped and collected after the round: the package replaces the idle
//          instance past 256 MiB (pkg/api.js RETIRE_BYTES).
// Printed per step: wasm memory (`memoryBytes()`, which never shrinks), the process's RSS now,
// and the CPU of the call.

import v8 from "node:v8";
import vm from "node:vm";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const { plan, memoryBytes } = await import("../../pkg/index.js");

const n = Number(process.argv[2] ?? 100000);
const mode = process.argv[3] ?? "held";
const rounds = Number(process.argv[4] ?? 5);
const large = { "main.tf": `resource "mock_resource" "a" {\n  count = ${n}\n  name  = "a-\${count.index}"\n}\n` };
const small = { "main.tf": 'resource "mock_resource" "b" {\n  count = 2\n}\n' };
const mib = (b) => (b / 2 ** 20).toFixed(0);

async function step(label, files) {
  const c0 = process.cpuUsage();
  const p = await plan(files, { limits: { instances: Math.max(n, 1) } });
  const c = process.cpuUsage(c0);
  if (p.errored) throw new Error(JSON.stringify(p.diagnostics));
  console.log(`| ${label} | ${mib(memoryBytes())} | ${mib(process.memoryUsage().rss)} | ${((c.user + c.system) / 1000).toFixed(0)} |`);
  return mode === "dropped" ? null : p;
}

console.log(`${n.toLocaleString("en")} instances, ${mode}`);
console.log("| step | wasm memory (MiB) | RSS (MiB) | CPU (ms) |");
console.log("| --- | ---: | ---: | ---: |");
let kept = null;
for (let round = 1; round <= rounds; round++) {
  if (mode === "dropped") {
    // The last round's Plans are unreachable by now: collected, the instance is idle.
    gc();
    await new Promise((r) => setTimeout(r, 10));
    gc();
  }
  const p = await step(`round ${round}: ${n.toLocaleString("en")}`, large);
  if (mode === "freed") kept?.free();
  kept = p;
  for (let i = 1; i <= 3; i++) await step(`round ${round}: small ${i}`, small);
}
kept = null;
