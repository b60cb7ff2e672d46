// `tfgraph graph` against `terraform graph`, as a user runs them: whole processes, side by side
// in one run, on generated directories of mock resources (the only provider Terraform can
// install offline here: the oracle's mock), plus the largest corpus root for tfgraph alone
// (Terraform would need its providers downloaded first). Prints medians and ratios.
//
//   node bench/cli/run.mjs [--no-build] [--runs N] [--sizes 1000,10000]
//
// Terraform: the `terraform` on PATH (if any) and the oracle's 1.0.3, with the oracle's mock
// provider installed from its filesystem mirror (`../shared/oracle/setup`, run once into
// target/bench-oracle; it needs PyPI the first time). `terraform init` is not timed.

import { oracle } from "../oracle.mjs";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values: opts } = parseArgs({
  options: { "no-build": { type: "boolean" }, runs: { type: "string", default: "3" }, sizes: { type: "string", default: "1000,10000" } },
});
const runs = Number(opts.runs);
const sizes = opts.sizes.split(",").map(Number);
const shared = process.env.TFGRAPH_SHARED ?? resolve(repo, "../shared");

if (!opts["no-build"]) execFileSync("bash", [join(repo, "scripts/build")], { stdio: "inherit" });
const cli = join(repo, "pkg/cli.js");

// --- Terraform with the oracle's mock provider --------------------------------------------
const orc = oracle();
const terraforms = [];
if (orc) {
  const onPath = spawnSync("terraform", ["version"], { encoding: "utf8" });
  if (onPath.status === 0) terraforms.push({ name: onPath.stdout.split("\n")[0], bin: "terraform" });
  terraforms.push({ name: "Terraform v1.0.3 (oracle)", bin: orc.bin });
} else {
  console.error(`[bench] no ${join(shared, "oracle")}: timing tfgraph alone`);
}
const tfEnv = orc && { ...process.env, TF_CLI_CONFIG_FILE: orc.rc, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1" };

// --- workloads ------------------------------------------------------------------------------
/** N mock resources in a tree: resource i reads the id of resource (i-1)/2, so the graph has
 * N nodes and N-1 reference edges (and a module with a few more, to cross module boundaries). */
function generate(n) {
  const dir = mkdtempSync(join(tmpdir(), `tfgraph-bench-cli-${n}-`));
  let main = 'terraform {\n  required_providers {\n    mock = { source = "hashicorp/mock" }\n  }\n}\n';
  for (let i = 0; i < n; i++) {
    const parent = i === 0 ? "" : `\n  input = { parent = mock_resource.r${(i - 1) >> 1}.id }`;
    main += `resource "mock_resource" "r${i}" {\n  name = "r${i}"${parent}\n}\n`;
  }
  main += 'module "m" {\n  source = "./m"\n  seed   = mock_resource.r0.id\n}\n';
  writeFileSync(join(dir, "main.tf"), main);
  mkdirSync(join(dir, "m"));
  writeFileSync(
    join(dir, "m/main.tf"),
    'terraform {\n  required_providers {\n    mock = { source = "hashicorp/mock" }\n  }\n}\nvariable "seed" {}\nresource "mock_resource" "a" {\n  name  = "a"\n  input = { seed = var.seed }\n}\nresource "mock_resource" "b" {\n  name  = "b"\n  input = { a = mock_resource.a.id }\n}\noutput "b" {\n  value = mock_resource.b.id\n}\n',
  );
  return dir;
}

/** The corpus roots, the most .tf bytes under their folder first. */
function corpusRootsBySize() {
  const corpus = process.env.TFGRAPH_CORPUS ?? join(shared, "corpus");
  const index = join(corpus, "INDEX.tsv");
  if (!existsSync(index)) return [];
  const roots = readFileSync(index, "utf8").trim().split("\n").slice(1).map((l) => l.split("\t")[0]);
  const size = (d) => readdirSync(d).reduce((s, f) => (f.endsWith(".tf") ? s + statSync(join(d, f)).size : s), 0);
  return roots
    .map((root) => ({ root, dir: join(corpus, root) }))
    .filter((r) => existsSync(r.dir))
    .map((r) => ({ ...r, bytes: size(r.dir) }))
    .sort((a, b) => b.bytes - a.bytes);
}

// --- timing ---------------------------------------------------------------------------------
function time(cmd, args, cwd, env) {
  const samples = [];
  let out = "";
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", maxBuffer: 1 << 30 });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed in ${cwd}:\n${r.stderr}`);
    samples.push(ms);
    out = r.stdout;
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[samples.length >> 1], out };
}

/** The `"a" -> "b"` edges of a resource-only DOT, normalised ("[root] " prefixes dropped). */
function edges(dot) {
  const set = new Set();
  for (const m of dot.matchAll(/"([^"]+)"\s*->\s*"([^"]+)"/g)) set.add(`${m[1].replace(/^\[root\] /, "")} -> ${m[2].replace(/^\[root\] /, "")}`);
  return set;
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const rows = [];
for (const n of sizes) {
  const dir = generate(n);
  try {
    const ours = time(process.execPath, [cli, "graph", dir], dir, process.env);
    const row = { workload: `generated-${n}`, tfgraph: ours.ms, peers: [] };
    for (const tf of terraforms) {
      const init = spawnSync(tf.bin, ["init", "-input=false", "-no-color"], { cwd: dir, env: tfEnv, encoding: "utf8" });
      if (init.status !== 0) {
        row.peers.push({ name: tf.name, error: init.stderr.split("\n").find((l) => l.trim()) ?? "init failed" });
        continue;
      }
      const theirs = time(tf.bin, ["graph"], dir, tfEnv);
      // The default graphs of Terraform ≥ 1.7 are resource-only, as ours: compare their edges.
      const a = edges(ours.out);
      const b = edges(theirs.out);
      const same = a.size === b.size && [...a].every((e) => b.has(e));
      // Before 1.7 `terraform graph` printed the whole plan graph: nothing to compare.
      const [maj, min] = (tf.name.match(/v(\d+)\.(\d+)/) ?? [0, 0, 0]).slice(1).map(Number);
      const comparable = maj > 1 || (maj === 1 && min >= 7);
      row.peers.push({ name: tf.name, ms: theirs.ms, edges: b.size, same: comparable ? same : null });
      rmSync(join(dir, ".terraform"), { recursive: true, force: true });
      rmSync(join(dir, ".terraform.lock.hcl"), { force: true });
    }
    row.edges = edges(ours.out).size;
    rows.push(row);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
// The largest corpus root that graphs (Terraform refuses the larger ones too: they are
// Terragrunt roots whose provider configurations come from elsewhere).
for (const big of corpusRootsBySize()) {
  const ok = spawnSync(process.execPath, [cli, "graph", big.dir], { encoding: "utf8", maxBuffer: 1 << 30 }).status === 0;
  if (!ok) continue;
  const ours = time(process.execPath, [cli, "graph", big.dir], big.dir, process.env);
  rows.push({ workload: `corpus: ${big.root} (${(big.bytes / 1024).toFixed(0)} KB of .tf)`, tfgraph: ours.ms, edges: edges(ours.out).size, peers: [{ name: "terraform", error: "needs its providers downloaded (terraform init): not offline" }] });
  break;
}

console.log(`\ntfgraph graph vs terraform graph: median of ${runs} runs, whole processes (node startup included)\n`);
console.log("| workload | tfgraph | peer | peer time | ratio | same edges |");
console.log("| --- | ---: | --- | ---: | ---: | --- |");
for (const r of rows) {
  for (const p of r.peers.length ? r.peers : [{ name: "-", error: "no peer" }]) {
    const cells = p.error
      ? [r.workload, fmt(r.tfgraph), p.name, p.error, "", ""]
      : [r.workload, fmt(r.tfgraph), p.name, fmt(p.ms), `${(p.ms / r.tfgraph).toFixed(1)}× faster`, p.same === null ? "n/a (whole plan graph)" : p.same ? `yes (${r.edges})` : `NO (${r.edges} vs ${p.edges})`];
    console.log(`| ${cells.join(" | ")} |`);
  }
}
