// Plan time and memory per instance through the package in Node (issue #26): how many
// instances a plan holds in wasm32's 4 GiB, what the default limits.instances is measured
// against, and what memory a long-lived process keeps after a large plan.
//
//   node bench/limits/run.mjs [N ...]      (default: 10000 100000)
//
// Each size runs in a fresh Node process: `resource "mock_resource" "a" { count = N, name =
// "a-${count.index}" }` planned once (the plan's JSON and text not rendered), then a
// two-resource plan, then the large Plan dropped and collected and one more small plan (the
// package replaces an idle instance past 256 MiB). Reported: plan time, the module's memory
// (`memoryBytes()`, wasm memory's high water) and the process's peak RSS, per instance.

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const child = process.argv[2] === "--child";
if (child) {
  const v8 = await import("node:v8");
  const vm = await import("node:vm");
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  const { plan, memoryBytes } = await import("../../pkg/index.js");
  const n = Number(process.argv[3]);
  const files = { "main.tf": `resource "mock_resource" "a" {\n  count = ${n}\n  name  = "a-\${count.index}"\n}\n` };
  const small = { "main.tf": 'resource "mock_resource" "b" {\n  count = 2\n}\n' };
  const start = memoryBytes();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let p = await plan(files, { limits: { instances: Math.max(n, 1) } });
  const ms = performance.now() - t0;
  const c1 = process.cpuUsage(c0);
  const cpuMs = (c1.user + c1.system) / 1000;
  const errored = p.errored ? p.diagnostics.find((d) => d.severity === "error")?.summary : null;
  const afterPlan = memoryBytes();
  await plan(small);
  const afterSmall = memoryBytes();
  p = null;
  gc();
  await new Promise((r) => setTimeout(r, 10));
  gc();
  await plan(small);
  const afterIdle = memoryBytes();
  const rss = process.resourceUsage().maxRSS * 1024;
  console.log(JSON.stringify({ n, ms, cpuMs, errored, start, afterPlan, afterSmall, afterIdle, rss }));
} else {
  const sizes = process.argv.slice(2).map(Number);
  const self = fileURLToPath(import.meta.url);
  const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  console.log("| instances | plan (wall) | plan (CPU) | module memory | per instance | peak RSS | after a small plan | after it is collected |");
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const n of sizes.length ? sizes : [10000, 100000]) {
    let r;
    try {
      r = JSON.parse(execFileSync(process.execPath, [self, "--child", String(n)], { encoding: "utf8", maxBuffer: 1 << 20 }));
    } catch (e) {
      console.log(`| ${n.toLocaleString("en")} | failed: ${String(e.stderr ?? e.message).split("\n").find((l) => l.trim()) ?? ""} | | | | | | |`);
      continue;
    }
    const per = (r.afterPlan - r.start) / n;
    console.log(
      `| ${n.toLocaleString("en")} | ${r.errored ?? `${(r.ms / 1000).toFixed(1)} s`} | ${(r.cpuMs / 1000).toFixed(1)} s | ${mb(r.afterPlan)} | ${(per / 1024).toFixed(1)} KiB | ${mb(r.rss)} | ${mb(r.afterSmall)} | ${mb(r.afterIdle)} |`,
    );
  }
}
