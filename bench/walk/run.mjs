// Walker benchmark: tfgraph's `walk` (Rust → wasm) against p-graph 2.0.0 on the same seeded
// DAGs, plus a latency-bound case compared with the offline greedy list schedule.
//
//   node bench/walk/run.mjs [--quick] [--no-build]
//
// One command: it first builds the wasm for Node into target/walk-pkg (`wasm-pack build
// --release --target nodejs`, incremental; with the package.json wasm-pack writes there, which
// keeps the CommonJS output from being read as ES modules under the repository's
// `"type": "module"`) and installs p-graph (`npm ci` here) when missing.
// `--no-build` skips the build; `TFGRAPH_PKG=<dir>` uses another build and skips it too
// (a `--target nodejs` build or a `--target web` one such as pkg/).
// See README.md for what each number means.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import os from "node:os";
import { performance } from "node:perf_hooks";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, "../..");
const require = createRequire(import.meta.url);
const pkgDir = process.env.TFGRAPH_PKG ?? path.join(repo, "target/walk-pkg");

/** Runs a command with its output shown; exits with its status when it fails. */
function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`bench/walk: ${cmd} ${args.join(" ")} failed`);
    process.exit(r.status ?? 1);
  }
}
if (!process.env.TFGRAPH_PKG && !process.argv.includes("--no-build")) {
  console.error("[bench] wasm-pack build --release --target nodejs --out-dir target/walk-pkg");
  run("wasm-pack", ["--log-level", "error", "build", "--release", "--target", "nodejs", "--mode", "no-install", "--out-dir", "target/walk-pkg", "--out-name", "tfgraph", "."], repo);
}
if (!existsSync(path.join(here, "node_modules/p-graph"))) run("npm", ["ci", "--no-audit", "--no-fund"], here);
// A `--target nodejs` build loads with require; a `--target web` one (pkg/, a copy of an older
// pkg/ for a before/after, bench/graph's target/bench-wasm) is an ES module initialised with the
// module's bytes.
const { walk } = await loadWalk(pkgDir);
async function loadWalk(dir) {
  const js = path.join(dir, "tfgraph.js");
  if (!/\binitSync\b/.test(readFileSync(js, "utf8"))) return require(js);
  const web = await import(pathToFileURL(js).href);
  web.initSync({ module: readFileSync(path.join(dir, "tfgraph_bg.wasm")) });
  return web;
}
const { PGraph } = require("p-graph");

const quick = process.argv.includes("--quick");
const SIZES = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const PARALLELISM = 10;

// ---- seeded inputs -------------------------------------------------------------------------

/** SplitMix32-style generator: the same DAGs on every run and machine. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

/** n nodes; each node after the first depends on 2 random earlier nodes (about 2 edges a node).
 *  Returns tfgraph's `{ nodes, edges }` ([from, to]: from depends on to). */
function randomDag(n, seed) {
  const r = rng(seed);
  const nodes = Array.from({ length: n }, (_, i) => `node${i}`);
  const edges = [];
  for (let i = 1; i < n; i++) {
    const a = Math.floor(r() * i);
    let b = Math.floor(r() * i);
    edges.push([nodes[i], nodes[a]]);
    if (b !== a) edges.push([nodes[i], nodes[b]]);
  }
  return { nodes, edges };
}

/** The same DAG as p-graph's inputs: [first, second] means first completes before second. */
function toPGraph(dag) {
  const nodeMap = new Map(dag.nodes.map((n) => [n, {}]));
  const deps = dag.edges.map(([from, to]) => [to, from]);
  return { nodeMap, deps };
}

// ---- runners ---------------------------------------------------------------------------------

const runTfgraph = (dag, visit) => walk(dag, visit, { parallelism: PARALLELISM });
const runPGraph = ({ nodeMap, deps }, visit) =>
  new PGraph(nodeMap, deps).run({ run: visit, concurrency: PARALLELISM, continue: true });

/** The visits alone, in a topological order, one after another: no scheduler at all. */
async function runBaseline(dag, visit) {
  const index = new Map(dag.nodes.map((n, i) => [n, i]));
  const waiting = new Uint32Array(dag.nodes.length);
  const dependents = dag.nodes.map(() => []);
  for (const [from, to] of dag.edges) {
    waiting[index.get(from)]++;
    dependents[index.get(to)].push(index.get(from));
  }
  const order = [];
  for (let i = 0; i < waiting.length; i++) if (waiting[i] === 0) order.push(i);
  for (let k = 0; k < order.length; k++) {
    for (const d of dependents[order[k]]) if (--waiting[d] === 0) order.push(d);
  }
  const t0 = performance.now();
  for (const i of order) await visit(dag.nodes[i]);
  return performance.now() - t0;
}

async function timeIt(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- overhead: trivial async visits ----------------------------------------------------------

async function overhead() {
  const visit = async (_node) => {};
  const rows = [];
  for (const n of SIZES) {
    const dag = randomDag(n, 42 + n);
    const pg = toPGraph(dag);
    // Many short runs for small graphs (their times are a few ms, so noise dominates one run).
    const reps = n >= 100_000 ? 5 : n >= 10_000 ? 15 : 41;
    // Warm up both (JIT, wasm tiering), then alternate so neither gets a quieter machine.
    await runTfgraph(dag, visit);
    await runPGraph(pg, visit);
    await runBaseline(dag, visit);
    const t = { ours: [], pgraph: [], base: [] };
    for (let i = 0; i < reps; i++) {
      let report;
      t.ours.push(await timeIt(async () => (report = await runTfgraph(dag, visit))));
      t.pgraph.push(await timeIt(() => runPGraph(pg, visit)));
      t.base.push(await runBaseline(dag, visit));
      if (report.completed.length !== n) throw new Error(`tfgraph completed ${report.completed.length} of ${n}`);
      if (report.maxConcurrency > PARALLELISM) throw new Error(`tfgraph ran ${report.maxConcurrency} at once`);
    }
    const [ours, pgraph, base] = [median(t.ours), median(t.pgraph), median(t.base)];
    const us = (ms) => (ms * 1000) / n;
    const row = {
      nodes: n,
      edges: dag.edges.length,
      "tfgraph us/node": us(ours).toFixed(2),
      "p-graph us/node": us(pgraph).toFixed(2),
      "visits alone us/node": us(base).toFixed(2),
      "tfgraph overhead us/node": us(ours - base).toFixed(2),
      "p-graph overhead us/node": us(pgraph - base).toFixed(2),
      "overhead ratio (p-graph / tfgraph)": ((pgraph - base) / (ours - base)).toFixed(1),
    };
    rows.push(row);
    console.error(`  ${n} nodes done`);
  }
  return rows;
}

// ---- latency-bound: sleeps of 1-20 ms, makespan vs the greedy list schedule ------------------

/** Greedy list scheduling, simulated: whenever a slot is free, the longest-waiting ready node
 *  starts (FIFO; roots in node order). Returns the makespan in the durations' unit. */
function greedyMakespan(dag, duration, parallelism) {
  const n = dag.nodes.length;
  const index = new Map(dag.nodes.map((name, i) => [name, i]));
  const waiting = new Uint32Array(n);
  const dependents = Array.from({ length: n }, () => []);
  for (const [from, to] of dag.edges) {
    waiting[index.get(from)]++;
    dependents[index.get(to)].push(index.get(from));
  }
  const ready = [];
  for (let i = 0; i < n; i++) if (waiting[i] === 0) ready.push(i);
  let head = 0;
  const running = []; // [end, node], kept sorted by end (n is small here)
  let now = 0;
  for (;;) {
    while (running.length < parallelism && head < ready.length) {
      const v = ready[head++];
      running.push([now + duration[v], v]);
      running.sort((a, b) => a[0] - b[0]);
    }
    if (running.length === 0) return now;
    now = running[0][0];
    while (running.length && running[0][0] <= now) {
      const [, v] = running.shift();
      for (const d of dependents[v]) if (--waiting[d] === 0) ready.push(d);
    }
  }
}

async function latencyBound() {
  const n = quick ? 300 : 1_000;
  const dag = randomDag(n, 7);
  const r = rng(2024);
  const sleepMs = new Map(dag.nodes.map((name) => [name, 1 + Math.floor(r() * 20)]));
  const rows = [];
  for (const [name, run, input] of [
    ["tfgraph", runTfgraph, dag],
    ["p-graph", runPGraph, toPGraph(dag)],
  ]) {
    const actual = new Map();
    const visit = (node) =>
      new Promise((resolve) => {
        const t0 = performance.now();
        setTimeout(() => {
          actual.set(node, performance.now() - t0);
          resolve();
        }, sleepMs.get(node));
      });
    const makespan = await timeIt(() => run(input, visit));
    const nominal = greedyMakespan(dag, dag.nodes.map((v) => sleepMs.get(v)), PARALLELISM);
    // Timers overshoot their delay; the fair ideal uses the durations the visits really took.
    const measured = greedyMakespan(dag, dag.nodes.map((v) => actual.get(v)), PARALLELISM);
    rows.push({
      walker: name,
      nodes: n,
      "makespan ms": makespan.toFixed(1),
      "greedy ideal, actual durations ms": measured.toFixed(1),
      "vs ideal": `${(((makespan - measured) / measured) * 100).toFixed(2)}%`,
      "greedy ideal, nominal sleeps ms": nominal.toFixed(1),
    });
  }
  return rows;
}

// ---- main -----------------------------------------------------------------------------------

console.log(`# walk bench — ${new Date().toISOString()}`);
console.log(`node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
console.log(`parallelism ${PARALLELISM}; visits: async () => {} (overhead), setTimeout 1-20 ms (latency)\n`);
console.log("## Scheduling overhead (trivial async visits)");
console.table(await overhead());
console.log("## Latency-bound makespan (1-20 ms sleeps)");
console.table(await latencyBound());
