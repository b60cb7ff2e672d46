// Two builds of the package against each other and against @cdktf/hcl2json, interleaved.
//
//   node bench/config/compare.mjs <pkgA> <pkgB> [--rounds N] [--corpus-only | --generated-only] [--no-hcl2json]
//
// The workloads and files are run.mjs's. On a shared machine the load changes between the
// minutes run.mjs spends on one tool and then the other, and its ratios swing (2.7x to 8.3x for
// one build, 2026-11-21); here every round runs one pass of A, one of B and one of hcl2json
// back to back, and a ratio is taken within each round. Reported: median and minimum pass per
// tool, and the median of the per-round ratios; for each build also the CPU time (user +
// system) of its passes, median and minimum, which a busy machine inflates less than wall time
// (it counts V8's helper threads too). `--no-hcl2json` leaves hcl2json out (A and B only: a
// shorter run on a shared machine). A package folder is a copy of a built pkg/ (index.js,
// tfgraph.js, tfgraph_bg.wasm), e.g. `cp -r pkg /tmp/pkg-before` before a change.

import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { corpusCases, generatedCases } from "./workloads.mjs";

const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
const corpusDir = process.env.TFGRAPH_CORPUS ?? join(dirname(benchDir), "..", "shared", "corpus");
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const opt = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const dirs = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--rounds"));
if (dirs.length !== 2) {
  console.error("usage: node bench/config/compare.mjs <pkgA> <pkgB> [--rounds N] [--corpus-only | --generated-only]");
  process.exit(2);
}
const withHcl2json = !flag("--no-hcl2json");
// Imported only when it runs: `--no-hcl2json` works without bench/node_modules.
const hclParse = withHcl2json ? (await import("@cdktf/hcl2json")).parse : null;
const builds = [];
for (const d of dirs) builds.push({ name: d, tf: await import(pathToFileURL(resolve(d, "index.js")).href), times: [], cpu: [], ratios: [] });
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const load = (tf, c) => {
  try {
    return tf.loadConfig(c.files, { root: c.root });
  } catch (e) {
    if (e?.name !== "TfgraphError") throw e;
    return e.config;
  }
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

async function compare(label, cases, rounds) {
  // hcl2json parses exactly the files the second build loaded, as run.mjs does.
  const jobs = [];
  let bytes = 0;
  for (const c of cases) {
    const visit = (m) => {
      if (!m) return;
      for (const f of m.files ?? []) {
        if (f in c.files) {
          jobs.push([f, c.files[f]]);
          bytes += Buffer.byteLength(c.files[f]);
        }
      }
      for (const call of m.module_calls ?? []) visit(call.module);
    };
    visit(load(builds[1].tf, c)?.root);
  }
  const hcl = async () => {
    for (const [name, text] of jobs) {
      if (name.endsWith(".json")) JSON.parse(text);
      else await hclParse(name, text);
    }
  };
  for (const b of builds) {
    b.times = [];
    b.cpu = [];
    b.ratios = [];
    for (const c of cases) load(b.tf, c); // warm-up
  }
  if (withHcl2json) await hcl();
  const hclTimes = [];
  for (let r = 0; r < rounds; r++) {
    for (const b of builds) {
      const [t0, c0] = [performance.now(), cpuNow()];
      for (const c of cases) load(b.tf, c);
      b.times.push(performance.now() - t0);
      b.cpu.push(cpuNow() - c0);
    }
    if (!withHcl2json) continue;
    const t0 = performance.now();
    await hcl();
    hclTimes.push(performance.now() - t0);
    for (const b of builds) b.ratios.push(hclTimes.at(-1) / b.times.at(-1));
  }
  const mb = bytes / 1e6;
  const row = (name, times) => `${name}: median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}), ${(mb / (median(times) / 1000)).toFixed(1)} MB/s`;
  console.log(`${label}: ${jobs.length} files, ${mb.toFixed(2)} MB parsed, ${rounds} rounds`);
  const cpu = (b) => `CPU median ${median(b.cpu).toFixed(0)} ms (min ${Math.min(...b.cpu).toFixed(0)})`;
  for (const b of builds) {
    const ratio = withHcl2json ? `, hcl2json/tfgraph ${median(b.ratios).toFixed(1)}x` : "";
    console.log(`  ${row(b.name, b.times)}${ratio}; ${cpu(b)}; passes ${b.times.map((t) => t.toFixed(0)).join(" ")}`);
  }
  if (withHcl2json) console.log(`  ${row("hcl2json", hclTimes)}; passes ${hclTimes.map((t) => t.toFixed(0)).join(" ")}`);
}

if (!flag("--generated-only")) {
  const cases = corpusCases(corpusDir);
  await compare("corpus", cases, opt("--rounds", 5));
}
if (!flag("--corpus-only")) {
  await compare("generated-10k", generatedCases(), opt("--rounds", 5) * 2);
}
console.log(`load average at the end: ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")}`);
