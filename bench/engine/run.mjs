// The engine benchmark, one command from the repository root: `node bench/engine/run.mjs`.
//
// Builds bench/engine natively (release, its own workspace), then for 1,000, 10,000 and 100,000
// mock resources (bench/engine/src/generate.rs: module instances of 100 resources each, with
// fan-outs, a fan-in, a chain and count) runs one process per size that loads, plans and applies
// with the built-in mock provider at zero latency, and prints time per resource and peak RSS.
// In the same run, Terraform 1.0.3 with the oracle's mock provider (../shared/oracle, set up
// once into target/bench-oracle; PyPI the first time) plans and applies the 1,000-resource
// configuration (`terraform init` not timed), and the ratios are printed.
//
// The package's column (Node, the wasm build in pkg/): `scripts/build` runs first (incremental;
// `scripts/setup` once on a new machine). Times are wall clock; CPU time (user + system) is
// printed beside them, which on a shared machine says what the work cost.
// Options: --sizes 1000,10000 (multiples of 100), --no-terraform, --no-build, --no-node,
// --on-state (Node's apply passes an `onState` that keeps every state it is given, and the
// number of calls is printed: what persisting as it goes costs), --pkg DIR (the Node column from
// another built package, such as a copy of pkg/ from before a change: implies no build for it).
// Results: bench/RESULTS.md ("Engine").

import { oracle } from "../oracle.mjs";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const shared = resolve(repo, "../shared");
const { values: opts } = parseArgs({
  options: { sizes: { type: "string", default: "1000,10000,100000" }, "no-terraform": { type: "boolean" }, "no-build": { type: "boolean" }, "no-node": { type: "boolean" }, "on-state": { type: "boolean" }, pkg: { type: "string" } },
});
const sizes = opts.sizes.split(",").map(Number);
if (sizes.some((n) => !(n > 0 && n % 100 === 0))) throw new Error("--sizes: positive multiples of 100");

// --- tfgraph, natively ------------------------------------------------------------------------
const targetDir = join(process.env.CARGO_TARGET_DIR ?? join(repo, "target"), "bench-engine");
const bin = join(targetDir, "release/tfgraph-bench-engine");
if (!opts["no-build"]) {
  execFileSync("cargo", ["build", "--release", "--quiet", "--manifest-path", join(repo, "bench/engine/Cargo.toml"), "--target-dir", targetDir], { stdio: "inherit" });
  if (!opts["no-node"] && !opts.pkg) execFileSync("bash", [join(repo, "scripts/build")], { stdio: ["ignore", 2, "inherit"] });
}

function native(n) {
  const r = spawnSync(bin, ["run", String(n)], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`tfgraph-bench-engine run ${n}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// --- Node: the wasm package -------------------------------------------------------------------
// The package in Node: a child `node` process per size (so its peak RSS is its own) reads the
// files `tfgraph-bench-engine write N DIR` wrote, then times `await plan(files)` and
// `await apply(plan)` with the built-in mock at zero latency (parallelism 10, as natively).
const pkgDir = resolve(opts.pkg ?? join(repo, "pkg"));
const NODE_CHILD = `
  import { plan, apply } from ${JSON.stringify(join(pkgDir, "node.js"))};
  import { readConfigDir } from ${JSON.stringify(join(pkgDir, "read-dir.js"))};
  const files = await readConfigDir(process.argv[1]);
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  let t = performance.now();
  let c = cpu();
  const p = await plan(files);
  const plan_ms = performance.now() - t;
  const plan_cpu_ms = cpu() - c;
  if (p.errored) throw new Error(JSON.stringify(p.diagnostics).slice(0, 500));
  t = performance.now();
  c = cpu();
  const states = [];
  const r = await apply(p, process.argv[2] === "on-state" ? { onState: (s) => states.push(s) } : {});
  const apply_ms = performance.now() - t;
  const apply_cpu_ms = cpu() - c;
  if (r.diagnostics.some((d) => d.severity === "error")) throw new Error(JSON.stringify(r.diagnostics).slice(0, 500));
  const on_state_calls = process.argv[2] === "on-state" ? states.length : undefined;
  console.log(JSON.stringify({ plan_ms, apply_ms, plan_cpu_ms, apply_cpu_ms, peak_rss_kib: process.resourceUsage().maxRSS, on_state_calls }));
`;
async function node(n) {
  if (!existsSync(join(pkgDir, "tfgraph_bg.wasm"))) return { error: `${pkgDir} is not built (bash scripts/build)` };
  const dir = mkdtempSync(join(tmpdir(), "tfgraph-bench-engine-node-"));
  try {
    execFileSync(bin, ["write", String(n), dir]);
    const args = ["--input-type=module", "-e", NODE_CHILD, dir, ...(opts["on-state"] ? ["on-state"] : [])];
    const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 24 });
    if (r.status !== 0) return { error: `node: ${r.stderr.trim().split("\n").slice(-3).join(" ")}` };
    return { resources: n, ...JSON.parse(r.stdout.trim().split("\n").pop()) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- Terraform 1.0.3 with the oracle's mock provider ------------------------------------------

/** Runs a command under /usr/bin/time: wall ms and the peak RSS (KiB) of it or its largest child. */
function timed(cmd, args, cwd, env) {
  const start = process.hrtime.bigint();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", cmd, ...args], { cwd, env, encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr.slice(-2000)}`);
  const rss = Number(r.stderr.trim().split("\n").pop());
  return { ms, rss };
}

function terraform(n) {
  const orc = oracle();
  if (!orc) return { error: `no ${join(shared, "oracle")}` };
  const dir = mkdtempSync(join(tmpdir(), "tfgraph-bench-engine-"));
  try {
    execFileSync(bin, ["write", String(n), dir]);
    const env = { ...process.env, TF_CLI_CONFIG_FILE: orc.rc, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", MOCK_DELAY_MS: "0" };
    execFileSync(orc.bin, ["init", "-input=false", "-no-color"], { cwd: dir, env, stdio: "ignore" });
    const p = timed(orc.bin, ["plan", "-input=false", "-no-color", "-out=plan.tfplan"], dir, env);
    const a = timed(orc.bin, ["apply", "-input=false", "-no-color", "plan.tfplan"], dir, env);
    return { resources: n, plan_ms: p.ms, apply_ms: a.ms, peak_rss_kib: Math.max(p.rss, a.rss) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// --- the run ----------------------------------------------------------------------------------
const fmt = (x, d = 0) => x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const rows = [];
for (const n of sizes) {
  console.error(`[bench] tfgraph: ${fmt(n)} resources`);
  rows.push({ tool: "tfgraph (native)", ...native(n) });
  if (opts["no-node"]) continue;
  const js = await node(n);
  if (js.error) rows.push({ tool: "tfgraph (Node, wasm)", resources: n, error: js.error });
  else rows.push({ tool: "tfgraph (Node, wasm)", ...js });
}
let tf = null;
if (!opts["no-terraform"]) {
  const n = sizes.includes(1000) ? 1000 : sizes[0];
  console.error(`[bench] Terraform 1.0.3 + the oracle's mock provider: ${fmt(n)} resources (a minute or more)`);
  try {
    tf = { tool: "Terraform 1.0.3 (oracle mock)", ...terraform(n) };
  } catch (e) {
    tf = { tool: "Terraform 1.0.3 (oracle mock)", resources: n, error: String(e.message).split("\n")[0] };
  }
  rows.push(tf);
}

console.log("\nplan + apply of generated mock resources, zero provider latency\n");
console.log("| tool | resources | plan | apply | plan + apply | per resource | CPU plan + apply | peak RSS | RSS per resource |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  if (r.error) {
    console.log(`| ${r.tool} | ${fmt(r.resources)} | ${r.error} | | | | | | |`);
    continue;
  }
  const total = r.plan_ms + r.apply_ms;
  const cpu = r.plan_cpu_ms === undefined ? "—" : `${fmt(r.plan_cpu_ms)} + ${fmt(r.apply_cpu_ms)} ms`;
  console.log(
    `| ${r.tool} | ${fmt(r.resources)} | ${fmt(r.plan_ms)} ms | ${fmt(r.apply_ms)} ms | ${fmt(total)} ms | ${fmt((total * 1000) / r.resources, 1)} µs | ${cpu} | ${fmt(r.peak_rss_kib / 1024, 1)} MB | ${fmt(r.peak_rss_kib / r.resources, 2)} KB |`,
  );
}
for (const r of rows.filter((x) => x.on_state_calls !== undefined)) {
  console.log(`onState (--on-state) at ${fmt(r.resources)} resources: ${fmt(r.on_state_calls)} calls, the apply's times include them`);
}
const ours = rows.find((r) => r.tool === "tfgraph (native)" && r.resources === tf?.resources && !r.error);
if (tf && !tf.error && ours) {
  const t = (x) => x.plan_ms + x.apply_ms;
  console.log(`\nTerraform 1.0.3 / tfgraph native at ${fmt(tf.resources)} resources: plan ${fmt(tf.plan_ms / ours.plan_ms, 1)}×, apply ${fmt(tf.apply_ms / ours.apply_ms, 1)}×, plan + apply ${fmt(t(tf) / t(ours), 1)}×, peak RSS ${fmt(tf.peak_rss_kib / ours.peak_rss_kib, 1)}×`);
}
// Each goal judged on wall time, with the CPU time beside it: on a loaded machine wall time
// waits for the processor.
const verdict = (ms, secs) => (ms < secs * 1000 ? "met" : "NOT met");
for (const [tool, where] of [["tfgraph (native)", "natively"], ["tfgraph (Node, wasm)", "in Node"]]) {
  for (const [n, secs] of [[10000, 2], [100000, 30]]) {
    const r = rows.find((x) => x.tool === tool && x.resources === n && !x.error);
    if (!r) continue;
    const cpu = r.plan_cpu_ms + r.apply_cpu_ms;
    console.log(`goal: ${fmt(n)} plan + apply < ${secs} s: ${verdict(r.plan_ms + r.apply_ms, secs)} ${where} (wall ${fmt(r.plan_ms + r.apply_ms)} ms; CPU ${fmt(cpu)} ms: ${verdict(cpu, secs)})`);
  }
}
console.log(`load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(" ")} on ${os.cpus().length} CPUs`);
