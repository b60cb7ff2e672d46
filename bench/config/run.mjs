// Configuration-loading benchmark: tfgraph (the built npm package, used as users use it) against
// @cdktf/hcl2json (Terraform's own HCL parser compiled to wasm by HashiCorp), same files, same run.
//
//   node bench/config/run.mjs [--runs N] [--hcl2json-runs N] [--corpus-only | --generated-only] [--no-build]
//
// (a) corpus: every root of shared/corpus/INDEX.tsv. tfgraph gets what a user would pass: every
//     .tf/.tf.json file of the repository folder, with `root` = the subfolder; it parses the root
//     module and the local modules it calls, and extracts references. hcl2json parses exactly the
//     files tfgraph loaded for that root (the same bytes: `parse(filename, contents)` per .tf file,
//     `JSON.parse` for .tf.json as hcl2json's own `convertFiles` does).
// (b) generated: bench/config/generate.mjs, 10,000 resources (seed 42), every file parsed by both.
//
// Timing: one warm-up pass of each tool, then N timed passes (default 5 for tfgraph, 3 for hcl2json);
// the median pass is reported. MB/s counts the bytes of the files parsed. The measured call is the
// public `loadConfig(files, { root })` of pkg/index.js (a `TfgraphError` thrown for error diagnostics
// is caught and counted; the time still counts). hcl2json is awaited file by file (its API is async).

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import os from "node:os";
import { corpusCases, generatedCases } from "./workloads.mjs";

const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
const repoDir = dirname(benchDir);
const corpusDir = process.env.TFGRAPH_CORPUS ?? join(repoDir, "..", "shared", "corpus");
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const tfRuns = opt("--runs", 5);
const hcRuns = Math.max(1, Math.min(tfRuns, opt("--hcl2json-runs", 3)));

// --- set-up: bench-only deps and the built package -------------------------------------------
if (!existsSync(join(benchDir, "node_modules", "@cdktf", "hcl2json"))) {
  console.error("bench: installing bench/ dependencies (npm ci)…");
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: benchDir, stdio: "inherit" });
}
const pkgDir = join(repoDir, "pkg");
const wasmFile = () => (existsSync(pkgDir) ? readdirSync(pkgDir).find((f) => f.endsWith(".wasm")) : undefined);
// scripts/build is incremental (it says "up to date" in a second), so always let it decide.
const build = join(repoDir, "scripts", "build");
if (existsSync(build) && !flag("--no-build")) {
  execFileSync(build, [], { cwd: repoDir, stdio: ["ignore", process.stderr, "inherit"] });
} else if (!existsSync(join(pkgDir, "index.js")) || !wasmFile()) {
  console.error("bench: pkg/ is not built (run scripts/setup and scripts/build)");
  process.exit(2);
}
const tf = await import(pathToFileURL(join(pkgDir, "index.js")).href);
for (const init of [tf.init, tf.default]) if (typeof init === "function" && init !== tf.loadConfig) await init();
const { parse: hclParse } = await import("@cdktf/hcl2json");

// --- helpers ---------------------------------------------------------------------------------
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const mb = (bytes) => bytes / 1e6;
const bytesOf = (s) => Buffer.byteLength(s, "utf8");

/** One tfgraph load; returns the result, or the error's partial result when it threw. */
function tfLoad(files, root) {
  try {
    return { ok: true, result: tf.loadConfig(files, { root }) };
  } catch (e) {
    if (e && e.name === "TfgraphError") return { ok: false, result: e };
    throw e;
  }
}

/** The files tfgraph loaded for a root (root module and every loaded child module). */
function loadedFiles(config, files) {
  const out = [];
  const visit = (m) => {
    if (!m) return;
    for (const f of m.files ?? []) {
      const key = f in files ? f : m.dir ? `${m.dir}/${f}` : f;
      if (key in files) out.push(key);
    }
    for (const call of m.module_calls ?? []) visit(call.module);
  };
  visit(config?.root);
  return out;
}

function countRefs(config) {
  let resources = 0;
  let refs = 0;
  const visit = (m) => {
    if (!m) return;
    for (const r of m.resources ?? []) {
      resources++;
      refs += r.references?.length ?? 0;
    }
    for (const o of m.outputs ?? []) refs += o.references?.length ?? 0;
    for (const l of m.locals ?? []) refs += l.expr?.references?.length ?? 0;
    for (const call of m.module_calls ?? []) {
      refs += call.references?.length ?? 0;
      for (const a of call.arguments ?? []) refs += a.expr?.references?.length ?? 0;
      visit(call.module);
    }
  };
  visit(config?.root);
  return { resources, refs };
}

async function hclParseAll(jobs) {
  for (const [name, text] of jobs) {
    if (name.endsWith(".json")) JSON.parse(text);
    else await hclParse(name, text);
  }
}

/**
 * Benchmark one workload: `cases` = [{ files, root }]. Returns timings and sizes.
 */
async function measure(label, cases) {
  // Warm-up pass of tfgraph, which also tells which files each root loads.
  let errors = 0;
  let resources = 0;
  let refs = 0;
  const hcJobs = [];
  let parsedBytes = 0;
  let passedBytes = 0;
  for (const c of cases) {
    const { ok, result } = tfLoad(c.files, c.root);
    if (!ok) errors++;
    const config = ok ? result : result.config; // loadConfig returns { ...config, diagnostics }
    const counts = countRefs(config);
    resources += counts.resources;
    refs += counts.refs;
    const loaded = config ? loadedFiles(config, c.files) : Object.keys(c.files);
    for (const f of loaded) {
      hcJobs.push([f, c.files[f]]);
      parsedBytes += bytesOf(c.files[f]);
    }
    for (const t of Object.values(c.files)) passedBytes += bytesOf(t);
  }
  const tfTimes = [];
  for (let i = 0; i < tfRuns; i++) {
    const t0 = performance.now();
    for (const c of cases) tfLoad(c.files, c.root);
    tfTimes.push(performance.now() - t0);
  }
  await hclParseAll(hcJobs); // warm-up
  const hcTimes = [];
  for (let i = 0; i < hcRuns; i++) {
    const t0 = performance.now();
    await hclParseAll(hcJobs);
    hcTimes.push(performance.now() - t0);
  }
  const tfMs = median(tfTimes);
  const hcMs = median(hcTimes);
  return { label, roots: cases.length, files: hcJobs.length, parsedBytes, passedBytes, errors, resources, refs, tfMs, hcMs, tfTimes, hcTimes };
}

// --- workloads ----------------------------------------------------------------------------------
const results = [];
if (!flag("--generated-only")) {
  const cases = corpusCases(corpusDir);
  results.push(await measure("corpus", cases));
}
if (!flag("--corpus-only")) {
  results.push(await measure("generated-10k", generatedCases()));
}

// --- report ---------------------------------------------------------------------------------------
const wasmName = wasmFile();
const wasm = readFileSync(join(pkgDir, wasmName));
const wasmGz = gzipSync(wasm, { level: 9 });
const pkgVersion = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).version;
const hcVersion = JSON.parse(readFileSync(join(benchDir, "node_modules", "@cdktf", "hcl2json", "package.json"), "utf8")).version;

const fmt = (x, d = 1) => x.toFixed(d);
console.log(`tfgraph ${pkgVersion} (pkg/index.js loadConfig) vs @cdktf/hcl2json ${hcVersion} (parse per file)`);
console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? "?"} x${os.cpus().length}, ${new Date().toISOString()}`);
console.log(`median of ${tfRuns} (tfgraph) / ${hcRuns} (hcl2json) passes after one warm-up pass each\n`);
const rows = [["workload", "roots", "files", "MB parsed", "tfgraph ms", "tfgraph MB/s", "hcl2json ms", "hcl2json MB/s", "speed-up"]];
for (const r of results) {
  rows.push([
    r.label,
    String(r.roots),
    String(r.files),
    fmt(mb(r.parsedBytes), 2),
    fmt(r.tfMs),
    fmt(mb(r.parsedBytes) / (r.tfMs / 1000)),
    fmt(r.hcMs),
    fmt(mb(r.parsedBytes) / (r.hcMs / 1000)),
    `${fmt(r.hcMs / r.tfMs)}x`,
  ]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
for (const row of rows) console.log(row.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  "));
console.log("");
for (const r of results) {
  console.log(
    `${r.label}: tfgraph found ${r.resources} resources and ${r.refs} references; ${r.errors} root(s) threw TfgraphError; ` +
      `${fmt(mb(r.passedBytes), 2)} MB passed to loadConfig in total; passes (ms): tfgraph ${r.tfTimes.map((t) => fmt(t, 0)).join(" ")}, hcl2json ${r.hcTimes.map((t) => fmt(t, 0)).join(" ")}`,
  );
}
console.log(`\nwasm: pkg/${wasmName} ${wasm.length} bytes (${fmt(wasm.length / 1024)} KiB), gzip -9 ${wasmGz.length} bytes (${fmt(wasmGz.length / 1024)} KiB); goal < 400 KB gzipped: ${wasmGz.length < 400_000 ? "met" : "NOT met"}`);
const goal = results.every((r) => r.hcMs / r.tfMs >= 10);
console.log(`goal tfgraph >= 10x faster than hcl2json on every workload: ${goal ? "met" : "NOT met"}`);
