// Graph-build benchmark in Node (wasm), one command:
//
//   node bench/graph/run.mjs [--build] [--runs N] [--only plan|apply|destroy|corpus] [--sizes 1000,10000]
//                            [--wasm DIR] [--inputs text|objects]
//   node bench/graph/run.mjs --compare DIR_A DIR_B [--rounds 3] [--runs N] [--only ...] [--sizes ...]
//
// Builds the wasm module into target/bench-wasm (wasm-pack --release --target web, the same
// profile as scripts/build; skipped when it exists, --build forces it; pkg/ is never touched;
// --wasm DIR runs another build, e.g. a copy of an older one for a before/after), then runs
// each case in its own Node process so its peak RSS is its own:
//   * plan graphs of generated configurations: 1,000 / 3,000 / 10,000 / 100,000 resources
//     (the generator of bench/graph/src/main.rs, same seed: 1–3 references to the 20 resources
//     declared before, N/100 modules of 90 resources chained through the root, count, for_each,
//     depends_on);
//   * apply and plan-destroy graphs of generated states: 10,000 / 100,000 resources (N/100
//     calls to a module of 100 resources in chains of ten; a third updated, a third replaced,
//     the rest deleted — bench/graph/src/main.rs `generate_state`);
//   * the plan graph of every root of the shared corpus (/work/shared/corpus/INDEX.tsv, or
//     $TFGRAPH_CORPUS).
// Printed per case, medians over the runs: `total`, the wall time of `buildGraphRaw` from JS;
// `input`, the part of it before the graph build (loading the HCL, reading state and changes,
// the crossings into wasm); `build`, the graph build alone (the sum of the steps' own times);
// `free`, releasing the graph (`free()`); then peak process RSS, the wasm linear memory, and for
// plan sizes Terraform 1.0.3 (`terraform graph -type=plan`) and the ratio. State and changes
// cross as JSON text, as pkg/index.js passes them (--inputs objects: as JS objects, which is
// what builds before 2026-11-21 accept).
// --compare runs two builds (web-target folders such as pkg/ or a copy of an older pkg/)
// case by case, alternating A and B for --rounds child processes each, so both see the same
// machine; printed per build: the median and minimum of `total` and of the CPU time (user +
// system, V8's helper threads included) over the rounds, then B's change in minimum CPU.

import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, dirname, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
const argv = process.argv.slice(2);
const arg = (name, d) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : d);
const out = resolve(arg("--wasm", join(repo, "target", "bench-wasm")));
const inputsAsText = arg("--inputs", "text") === "text";

// Terraform 1.0.3, `terraform graph -type=plan` on these generated configurations (seconds, GB).
const TERRAFORM = { 1000: [3.0, 0.14], 3000: [33, 0.63], 10000: [444, 5.7] };

// ---- generators (ports of bench/graph/src/main.rs, same xorshift seed) ----

const MASK = (1n << 64n) - 1n;
class Rng {
  constructor(seed) {
    this.s = seed;
  }
  next() {
    let s = this.s;
    s ^= (s << 13n) & MASK;
    s ^= s >> 7n;
    s ^= (s << 17n) & MASK;
    this.s = s;
    return s;
  }
  below(n) {
    return Number(this.next() % BigInt(n));
  }
}

function resources(out, rng, prefix, count, inputs) {
  for (let i = 0; i < count; i++) {
    out.push(`resource "aws_instance" "${prefix}${i}" {\n`);
    if (i % 10 === 3) out.push("  count = 2\n");
    else if (i % 20 === 7) out.push('  for_each = toset(["a", "b"])\n');
    out.push('  ami = "ami-123"\n');
    if (i > 0) {
      const refs = 1 + rng.below(3);
      for (let r = 0; r < refs; r++) {
        const j = i - 1 - rng.below(Math.min(i, 20));
        const splat = j % 10 === 3 ? "[*]" : j % 20 === 7 ? '["a"]' : "";
        out.push(`  tag_${r} = aws_instance.${prefix}${j}${splat}.id\n`);
      }
    }
    if (inputs.length > 0 && i % 30 === 0) out.push(`  input = var.${inputs[Math.floor(i / 30) % inputs.length]}\n`);
    if (i % 50 === 49) out.push(`  depends_on = [aws_instance.${prefix}${i - 40}]\n`);
    out.push("}\n");
  }
}

export function generatePlan(n) {
  const rng = new Rng(0x9e3779b97f4a7c15n);
  const files = {};
  const modules = Math.floor(n / 100);
  const perModule = 90;
  const root = [];
  const rootCount = n - modules * perModule;
  resources(root, rng, "r", rootCount, []);
  for (let m = 0; m < modules; m++) {
    const src = `modules/m${m}`;
    const a = rng.below(Math.max(rootCount, 1));
    const inB = m > 0 ? `module.m${m - 1}.out` : '"x"';
    root.push(`module "m${m}" {\n  source = "./${src}"\n  in_a = aws_instance.r${a}.id\n  in_b = ${inB}\n}\n`);
    const body = ['variable "in_a" {}\nvariable "in_b" {}\n'];
    resources(body, rng, "x", perModule, ["in_a", "in_b"]);
    body.push(`output "out" {\n  value = aws_instance.x${perModule - 1}.id\n}\n`);
    files[`${src}/main.tf`] = body.join("");
  }
  root.push(`output "last" {\n  value = aws_instance.r${Math.max(rootCount - 1, 0)}.id\n}\n`);
  files["main.tf"] = root.join("");
  return files;
}

export function generateState(n) {
  const modules = Math.max(1, Math.floor(n / 100));
  const root = [];
  for (let m = 0; m < modules; m++) root.push(`module "m${m}" {\n  source = "./m"\n}\n`);
  const child = [];
  for (let r = 0; r < 100; r++) {
    if (r % 10 === 0) child.push(`resource "test_object" "r${r}" {}\n`);
    else child.push(`resource "test_object" "r${r}" {\n  test_string = test_object.r${r - 1}.id\n}\n`);
  }
  const resources = [];
  const changes = {};
  for (let m = 0; m < modules; m++) {
    for (let r = 0; r < 100; r++) {
      const deps = [];
      for (let d = r - (r % 10); d < r; d++) deps.push(`module.m${m}.test_object.r${d}`);
      resources.push({
        module: `module.m${m}`, mode: "managed", type: "test_object", name: `r${r}`,
        provider: 'provider["registry.terraform.io/hashicorp/test"]',
        instances: [{ schema_version: 0, attributes: { id: `${m}-${r}` }, dependencies: deps }],
      });
      const k = (m + r) % 3;
      changes[`module.m${m}.test_object.r${r}`] =
        k === 0 ? ["update"] : k === 1 && r % 10 === 0 ? ["create", "delete"] : k === 1 ? ["delete", "create"] : ["delete"];
    }
  }
  const state = { version: 4, serial: 1, lineage: "perf", outputs: {}, resources };
  return { files: { "main.tf": root.join(""), "m/main.tf": child.join("") }, state, changes };
}

// ---- one case, in a child process ----

async function loadWasm() {
  const mod = await import(pathToFileURL(join(out, "tfgraph.js")).href);
  const exports = await mod.default({ module_or_path: readFileSync(join(out, "tfgraph_bg.wasm")) });
  return { raw: mod, memory: exports.memory };
}

function readTree(base, dir, files) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!name.startsWith(".")) readTree(base, p, files);
    } else if (name.endsWith(".tf") || name.endsWith(".tf.json")) {
      files[relative(base, p).split("\\").join("/")] = readFileSync(p, "utf8");
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** This process's CPU time so far (user + system, every thread), in ms. */
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function runCase(kind, n, runs) {
  const { raw, memory } = await loadWasm();
  const result = { kind, n };
  if (kind === "corpus") {
    const corpus = process.env.TFGRAPH_CORPUS || "/work/shared/corpus";
    const lines = readFileSync(join(corpus, "INDEX.tsv"), "utf8").trim().split("\n").slice(1);
    const trees = new Map();
    const times = [];
    const builds = [];
    const frees = [];
    const cpus = [];
    for (let run = 0; run < runs; run++) {
      const c0 = cpuNow();
      let [total, build, free] = [0, 0, 0];
      let slowest = [0, ""];
      for (const line of lines) {
        const dir = line.split("\t")[0];
        const [repoName, ...rest] = dir.split("/");
        if (!trees.has(repoName)) {
          const files = {};
          readTree(join(corpus, repoName), join(corpus, repoName), files);
          trees.set(repoName, files);
        }
        const t = performance.now();
        const h = raw.buildGraphRaw(trees.get(repoName), { root: rest.join("/") });
        const took = performance.now() - t;
        build += h.steps().reduce((s, x) => s + (x.micros ?? 0), 0) / 1e3;
        const f = performance.now();
        h.free();
        free += performance.now() - f;
        total += took;
        if (took > slowest[0]) slowest = [took, dir];
      }
      times.push(total);
      builds.push(build);
      frees.push(free);
      cpus.push(cpuNow() - c0);
      result.roots = lines.length;
      result.slowest = `${slowest[1]} ${slowest[0].toFixed(1)} ms`;
    }
    result.ms = median(times);
    result.buildMs = median(builds);
    result.freeMs = median(frees);
    result.cpuMs = median(cpus);
  } else {
    let files;
    let options;
    if (kind === "plan") {
      files = generatePlan(n);
      options = { operation: "plan" };
    } else {
      const g = generateState(n);
      files = g.files;
      options = { operation: kind, state: g.state, changes: g.changes };
    }
    const times = [];
    const builds = [];
    const frees = [];
    const cpus = [];
    for (let run = 0; run < runs; run++) {
      const c0 = cpuNow();
      const t = performance.now();
      // What pkg/index.js does: state and changes cross as JSON text (timed: it is part of the call).
      const opts = inputsAsText && options.state
        ? { ...options, state: JSON.stringify(options.state), changes: JSON.stringify(options.changes) }
        : options;
      const h = raw.buildGraphRaw(files, opts);
      times.push(performance.now() - t);
      const steps = h.steps();
      const diags = h.diagnostics();
      if (diags.some((d) => d.severity === "error")) throw new Error(`${kind} ${n}: ${diags[0].summary}`);
      builds.push(steps.reduce((s, x) => s + (x.micros ?? 0), 0) / 1e3);
      const last = steps[steps.length - 1];
      result.nodes = last.nodes;
      result.edges = last.edges;
      if (run === runs - 1) {
        result.slowSteps = [...steps].sort((a, b) => (b.micros ?? 0) - (a.micros ?? 0)).slice(0, 3)
          .map((s) => `${s.name} ${((s.micros ?? 0) / 1e3).toFixed(0)} ms`).join(", ");
      }
      const f = performance.now();
      h.free();
      frees.push(performance.now() - f);
      cpus.push(cpuNow() - c0);
    }
    result.ms = median(times);
    result.buildMs = median(builds);
    result.freeMs = median(frees);
    result.cpuMs = median(cpus);
  }
  result.rssMB = process.resourceUsage().maxRSS / 1024;
  result.wasmMB = memory.buffer.byteLength / 2 ** 20;
  process.stdout.write(JSON.stringify(result) + "\n");
}

// ---- the driver ----

function buildWasm() {
  console.log("building target/bench-wasm (wasm-pack build --release --target web) ...");
  const r = spawnSync("wasm-pack", ["--log-level", "error", "build", "--release", "--target", "web", "--mode", "no-install",
    "--no-pack", "--out-dir", "target/bench-wasm", "--out-name", "tfgraph", "."], { cwd: repo, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** One case in a child process (its peak RSS is its own); the child's JSON result. */
function child(kind, n, runs, wasm) {
  const passOn = ["--wasm", wasm, "--inputs", inputsAsText ? "text" : "objects"];
  const r = spawnSync(process.execPath, ["--max-old-space-size=8192", fileURLToPath(import.meta.url), "--case", kind, String(n), String(runs), ...passOn],
    { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${kind} ${n} with ${wasm}: failed\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

/** `--compare A B`: each case alternately with A and B, `rounds` child processes each. */
function compareBuilds(cases, runs, rounds) {
  const i = argv.indexOf("--compare");
  const dirs = [argv[i + 1], argv[i + 2]].map((d) => resolve(d));
  const os = process.getBuiltinModule?.("node:os");
  console.log(`node ${process.version}, ${rounds} rounds of ${runs} run(s) per case and build, A ${dirs[0]}, B ${dirs[1]}`);
  console.log("| case | A total median (min) | A CPU median (min) | B total median (min) | B CPU median (min) | B − A, min CPU |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  const ms = (v) => `${Math.round(v).toLocaleString("en-US")}`;
  for (const [kind, n] of cases) {
    const got = dirs.map(() => ({ ms: [], cpu: [] }));
    for (let r = 0; r < rounds; r++) {
      dirs.forEach((d, k) => {
        const x = child(kind, n, kind === "plan" && n >= 100000 ? Math.min(runs, 2) : runs, d);
        got[k].ms.push(x.ms);
        got[k].cpu.push(x.cpuMs);
      });
    }
    const cell = (xs) => `${ms(median(xs))} (${ms(Math.min(...xs))}) ms`;
    const [a, b] = got.map((g) => Math.min(...g.cpu));
    const name = kind === "corpus" ? "corpus" : `${kind} ${n.toLocaleString("en")}`;
    console.log(`| ${name} | ${cell(got[0].ms)} | ${cell(got[0].cpu)} | ${cell(got[1].ms)} | ${cell(got[1].cpu)} | ${(((b - a) / a) * 100).toFixed(1)}% |`);
  }
  console.log(`load average at the end: ${os?.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

async function main() {
  const args = argv;
  if (args[0] === "--case") return runCase(args[1], Number(args[2]), Number(args[3]));
  const flag = (name) => args.includes(name);
  const value = arg;
  const runs = Number(value("--runs", 3));
  const only = value("--only", null);
  const sizes = value("--sizes", null)?.split(",").map(Number);
  const cases = [
    ...[1000, 3000, 10000, 100000].map((n) => ["plan", n]),
    ...[10000, 100000].flatMap((n) => [["apply", n], ["destroy", n]]),
    ["corpus", 0],
  ].filter(([k, n]) => (!only || k === only) && (!sizes || k === "corpus" || sizes.includes(n)));
  if (flag("--compare")) return compareBuilds(cases, runs, Number(value("--rounds", 3)));
  if (flag("--build") || !existsSync(join(out, "tfgraph_bg.wasm"))) buildWasm();
  console.log(`node ${process.version}, ${runs} run(s) per case (medians), wasm ${relative(repo, out) || out}, state and changes as ${inputsAsText ? "JSON text" : "objects"}`);
  console.log("case                    total      input      build     free  nodes    edges    peak RSS  wasm memory  vs Terraform 1.0.3");
  for (const [kind, n] of cases) {
    const passOn = ["--wasm", out, "--inputs", inputsAsText ? "text" : "objects"];
    const r = spawnSync(process.execPath, ["--max-old-space-size=8192", fileURLToPath(import.meta.url), "--case", kind, String(n), String(kind === "plan" && n >= 100000 ? Math.min(runs, 2) : runs), ...passOn],
      { encoding: "utf8", maxBuffer: 1 << 26 });
    if (r.status !== 0) {
      console.log(`${kind} ${n}: failed\n${r.stderr}`);
      continue;
    }
    const x = JSON.parse(r.stdout.trim().split("\n").pop());
    const name = kind === "corpus" ? `corpus (${x.roots} roots)` : `${kind} ${n.toLocaleString("en")}`;
    let vs = "";
    const tf = kind === "plan" && TERRAFORM[n];
    if (tf) vs = `${tf[0]} s / ${tf[1]} GB: ${(tf[0] * 1000 / x.ms).toFixed(0)}x faster, ${(tf[1] * 1024 / x.rssMB).toFixed(0)}x less memory`;
    const ms = (v) => (v === undefined ? "" : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(0)} ms`);
    const input = x.buildMs === undefined ? undefined : x.ms - x.buildMs;
    console.log(
      `${name.padEnd(20)} ${ms(x.ms).padStart(9)} ${ms(input).padStart(10)} ${ms(x.buildMs).padStart(10)} ${ms(x.freeMs).padStart(8)}  ${String(x.nodes ?? "").padEnd(8)} ${String(x.edges ?? "").padEnd(8)} ${(x.rssMB.toFixed(0) + " MB").padStart(8)}  ${(x.wasmMB.toFixed(0) + " MB").padStart(10)}   ${vs}`,
    );
    if (x.slowSteps) console.log(`${"".padEnd(21)}slowest steps: ${x.slowSteps}`);
    if (x.slowest) console.log(`${"".padEnd(21)}slowest root: ${x.slowest}`);
  }
}

await main();
