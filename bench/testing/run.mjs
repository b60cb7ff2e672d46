// The test-runner bench, one command from the repository root: `node bench/testing/run.mjs`.
//
// Generates a suite (bench/testing/suite.mjs: a 100-resource module on the mock provider and
// --files test files of 10 runs each, plan and apply runs with assertions, `mock_provider` in
// every file) and times, interleaved round by round in one run:
//   - tfgraph: the package's `test()` in a child `node` (pkg/node.js, the wasm build), on all
//     --files files; the call is timed inside the child (wall and CPU), beside the whole process;
//   - Terraform: `terraform test` (the `terraform` on PATH, 1.11.4 here) on the first
//     --terraform-files of them (Terraform takes ~4 s a run: the full 50 files is ~35 min), with
//     the oracle's mock provider served offline from its filesystem mirror (../shared/oracle set
//     up once into target/bench-oracle, bench/oracle.mjs); `terraform init` timed separately.
// Both sides are also reported per run (files × 10), the figure the ratios compare. CPU is
// user + system of the process and its children (Terraform's provider plugin included), from
// /usr/bin/time; on a shared machine wall time also says how busy the machine was.
// Both sides' statuses are checked: every run must pass in each.
//
// Options: --files N (50), --terraform-files M (5; 0 = no Terraform), --rounds R (3), --no-build,
// --pkg DIR (the tfgraph column from another built package, for before/after runs), --base DIR
// (a second tfgraph column from another built package, run right before this one in each round:
// before/after interleaved in one run),
// --write DIR (write the suite to DIR and stop). Results: bench/RESULTS.md ("Test runner").

import { oracle } from "../oracle.mjs";
import { suite } from "./suite.mjs";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values: opts } = parseArgs({
  options: {
    files: { type: "string", default: "50" },
    "terraform-files": { type: "string", default: "5" },
    rounds: { type: "string", default: "3" },
    "no-build": { type: "boolean" },
    pkg: { type: "string" },
    base: { type: "string" },
    write: { type: "string" },
  },
});
const nFiles = Number(opts.files);
const tfFiles = Math.min(Number(opts["terraform-files"]), nFiles);
const rounds = Number(opts.rounds);
const RUNS_PER_FILE = 10;

function writeSuite(dir, files) {
  for (const [path, text] of Object.entries(suite(files))) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

if (opts.write) {
  writeSuite(resolve(opts.write), nFiles);
  console.log(`wrote ${nFiles} test files × ${RUNS_PER_FILE} runs and the module to ${opts.write}`);
  process.exit(0);
}

if (!opts["no-build"] && !opts.pkg) execFileSync("bash", [join(repo, "scripts/build")], { stdio: ["ignore", 2, "inherit"] });
const pkgDir = resolve(opts.pkg ?? join(repo, "pkg"));

/** Runs a command under /usr/bin/time: wall ms, CPU ms (user + system, children included), stdout. */
function timed(cmd, args, options = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync("/usr/bin/time", ["-f", "TIME %U %S", cmd, ...args], { encoding: "utf8", maxBuffer: 1 << 28, ...options });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const m = /TIME ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  const cpu = m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN;
  return { wall, cpu, status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/TIME [\d.]+ [\d.]+\s*$/, "") };
}

// --- tfgraph: test() in a child node ------------------------------------------------------------
const child = (dir) => `
  import { test } from ${JSON.stringify(join(dir, "node.js"))};
  import { suite } from ${JSON.stringify(join(repo, "bench/testing/suite.mjs"))};
  const files = suite(Number(process.argv[1]));
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const t = performance.now(), c = cpu();
  const r = await test(files);
  const wall = performance.now() - t, used = cpu() - c;
  const runs = r.files.flatMap((f) => f.runs);
  const passed = runs.filter((x) => x.status === "pass").length;
  console.log(JSON.stringify({ wall, cpu: used, runs: runs.length, passed, status: r.status, first: r.status === "pass" ? "" : r.stdout + r.stderr }));
`;
function tfgraph(files, dir = pkgDir) {
  const t = timed(process.execPath, ["--input-type=module", "-e", child(dir), String(files)]);
  if (t.status !== 0) throw new Error(`tfgraph test(): ${t.stderr}`);
  const r = JSON.parse(t.stdout);
  if (r.passed !== files * RUNS_PER_FILE) throw new Error(`tfgraph: ${r.passed} of ${files * RUNS_PER_FILE} runs passed\n${r.first}`);
  return { call: { wall: r.wall, cpu: r.cpu }, process: { wall: t.wall, cpu: t.cpu } };
}

// --- Terraform: init once, then terraform test ----------------------------------------------------
let tfDir = null;
let tfEnv = null;
let init = null;
if (tfFiles > 0) {
  const o = oracle();
  if (!o) throw new Error("../shared/oracle is not there: run with --terraform-files 0");
  tfDir = mkdtempSync(join(tmpdir(), "tfgraph-bench-testing-"));
  writeSuite(tfDir, tfFiles);
  tfEnv = { ...process.env, TF_CLI_CONFIG_FILE: o.rc, TF_IN_AUTOMATION: "1", CHECKPOINT_DISABLE: "1" };
  init = timed("terraform", ["init", "-input=false", "-no-color"], { cwd: tfDir, env: tfEnv });
  if (init.status !== 0) throw new Error(`terraform init: ${init.stdout}${init.stderr}`);
}
function terraform() {
  const t = timed("terraform", ["test", "-no-color"], { cwd: tfDir, env: tfEnv });
  const want = `Success! ${tfFiles * RUNS_PER_FILE} passed, 0 failed.`;
  if (t.status !== 0 || !t.stdout.includes(want)) throw new Error(`terraform test did not pass every run:\n${t.stdout}${t.stderr}`);
  return t;
}

const version = spawnSync("terraform", ["version"], { encoding: "utf8" }).stdout?.split("\n")[0] ?? "terraform ?";
console.log(`suite: a 100-resource module, tfgraph ${nFiles} files × ${RUNS_PER_FILE} runs, ${version} ${tfFiles} files × ${RUNS_PER_FILE} runs; ${rounds} rounds interleaved`);
console.log(`load average at start: ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}; node ${process.version}`);
if (init) console.log(`terraform init (once, not in the ratios): wall ${(init.wall / 1000).toFixed(2)} s, CPU ${(init.cpu / 1000).toFixed(2)} s`);

const samples = { call: [], process: [], terraform: [], base: [] };
for (let i = 0; i < rounds; i++) {
  let line = `round ${i + 1}: `;
  if (opts.base) {
    const b = tfgraph(nFiles, resolve(opts.base));
    samples.base.push(b.call);
    line += `base test() ${b.call.wall.toFixed(0)} ms wall / ${b.call.cpu.toFixed(0)} ms CPU; `;
  }
  const g = tfgraph(nFiles);
  samples.call.push(g.call);
  samples.process.push(g.process);
  line += `tfgraph test() ${g.call.wall.toFixed(0)} ms wall / ${g.call.cpu.toFixed(0)} ms CPU (process ${g.process.wall.toFixed(0)} / ${g.process.cpu.toFixed(0)})`;
  if (tfDir) {
    const t = terraform();
    samples.terraform.push(t);
    line += `; terraform test ${(t.wall / 1000).toFixed(1)} s wall / ${(t.cpu / 1000).toFixed(1)} s CPU`;
  }
  console.log(line);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const per = (list, key, runs) => median(list.map((x) => x[key])) / runs;
const rows = [
  ["tfgraph test() (the call)", samples.call, nFiles],
  ["tfgraph (whole node process)", samples.process, nFiles],
];
if (opts.base) rows.unshift([`base test() (${opts.base})`, samples.base, nFiles]);
if (tfDir) rows.push([`terraform test (${version})`, samples.terraform, tfFiles]);
console.log(`\nmedian of ${rounds} | files | runs | wall | CPU | wall per run | CPU per run`);
for (const [name, list, files] of rows) {
  const runs = files * RUNS_PER_FILE;
  console.log(`${name} | ${files} | ${runs} | ${(median(list.map((x) => x.wall)) / 1000).toFixed(2)} s | ${(median(list.map((x) => x.cpu)) / 1000).toFixed(2)} s | ${per(list, "wall", runs).toFixed(2)} ms | ${per(list, "cpu", runs).toFixed(2)} ms`);
}
if (opts.base) {
  const ratio = (key) => median(samples.base.map((x) => x[key])) / median(samples.call.map((x) => x[key]));
  console.log(`\nbase ÷ tfgraph: ${ratio("wall").toFixed(3)}× wall, ${ratio("cpu").toFixed(3)}× CPU`);
}
if (tfDir) {
  const tfRuns = tfFiles * RUNS_PER_FILE;
  const gRuns = nFiles * RUNS_PER_FILE;
  const ratio = (key, list) => per(samples.terraform, key, tfRuns) / per(list, key, gRuns);
  console.log(`\nTerraform ÷ tfgraph per run: the call ${ratio("wall", samples.call).toFixed(1)}× wall, ${ratio("cpu", samples.call).toFixed(1)}× CPU; the whole process ${ratio("wall", samples.process).toFixed(1)}× wall, ${ratio("cpu", samples.process).toFixed(1)}× CPU (goal: 100×)`);
  rmSync(tfDir, { recursive: true, force: true });
}
console.log(`load average at end: ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
