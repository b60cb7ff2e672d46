// The raw loading export alone, for two or more builds of the package, interleaved: the time
// and CPU time of `loadConfigTape` (what `loadConfig` calls: loading in wasm, the tape's encoding
// and its crossing into JS), without `pkg/api.js`'s decoding of the tape. It tells a loss inside
// the wasm module from one on the JavaScript side (bench/RESULTS.md, 2026-11-27 19:55).
//
//   node bench/config/raw.mjs <pkgA> <pkgB> [...]   (7 rounds; medians and minimums)

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { corpusCases, generatedCases } from "./workloads.mjs";

const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
const corpusDir = process.env.TFGRAPH_CORPUS ?? join(dirname(benchDir), "..", "shared", "corpus");
const dirs = process.argv.slice(2);
if (dirs.length < 2) {
  console.error("usage: node bench/config/raw.mjs <pkgA> <pkgB> [...]");
  process.exit(2);
}
const builds = [];
for (const d of dirs) {
  await import(pathToFileURL(resolve(d, "index.js")).href);
  const raw = await import(pathToFileURL(resolve(d, "tfgraph.js")).href);
  // Since #26 the glue exports an instance of its own only once initialised (the package's
  // entries make theirs); older builds instantiate on import.
  if (typeof raw.initSync === "function") raw.initSync({ module: readFileSync(resolve(d, "tfgraph_bg.wasm")) });
  builds.push({ d, raw, t: [], c: [] });
}
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const ROUNDS = 7;
const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
for (const [label, cases] of [["corpus", corpusCases(corpusDir)], ["generated-10k", generatedCases()]]) {
  for (const b of builds) {
    b.t = [];
    b.c = [];
    for (const c of cases) b.raw.loadConfigTape(c.files, { root: c.root }); // warm-up
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const b of builds) {
      const [t0, c0] = [performance.now(), cpu()];
      for (const c of cases) b.raw.loadConfigTape(c.files, { root: c.root });
      b.t.push(performance.now() - t0);
      b.c.push(cpu() - c0);
    }
  }
  const ms = (xs) => `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)})`;
  for (const b of builds) console.log(`${label}: ${b.d}: wall ${ms(b.t)}, CPU ${ms(b.c)}`);
}
console.log(`load average at the end: ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")}`);
