// Where loadConfig's time goes, by stage: a CPU profile of the public call, summed per stage.
//
//   scripts/build && node bench/config/stages.mjs [--corpus-only | --generated-only] [--runs N] [--functions N]
//
// Profiles the module wasm-pack left in target/wasm-pack (before wasm-opt strips function
// names) behind pkg/index.js, with Node's own sampling profiler. Each sample goes to the stage
// of the innermost frame that names one (so the syntax tree's drop inside the loader is its
// own stage); samples under loadConfig that name none are "other". Percentages of all samples
// under loadConfig, plus the garbage collector. `--functions N` also lists the N functions with
// the most samples of their own (the innermost frame), for the stage's hot spots.

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { corpusCases, generatedCases } from "./workloads.mjs";

const repoDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const corpusDir = process.env.TFGRAPH_CORPUS ?? join(repoDir, "..", "shared", "corpus");
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const runs = args.includes("--runs") ? Number(args[args.indexOf("--runs") + 1]) : undefined;
const topFunctions = args.includes("--functions") ? Number(args[args.indexOf("--functions") + 1]) : 0;

// The named module with the package's entry point beside it.
const dir = mkdtempSync(join(tmpdir(), "tfgraph-stages-"));
copyFileSync(join(repoDir, "target/wasm-pack/tfgraph.js"), join(dir, "tfgraph.js"));
copyFileSync(join(repoDir, "target/wasm-pack/tfgraph_bg.wasm"), join(dir, "tfgraph_bg.wasm"));
// pkg/api.js imports the glue as scripts/build leaves it: wrapped into a factory of copies.
execFileSync(process.execPath, [join(repoDir, "scripts/wrap-bindings.mjs"), join(dir, "tfgraph.js")]);
// pkg/index.js imports its siblings (api.js, ...): every hand-written module comes along.
for (const f of readdirSync(join(repoDir, "pkg"))) {
  if (f.endsWith(".js") && f !== "tfgraph.js") copyFileSync(join(repoDir, "pkg", f), join(dir, f));
}
const tf = await import(pathToFileURL(join(dir, "index.js")).href);

// Innermost match wins; order breaks ties within one frame.
const STAGES = [
  ["parse: syntax tree (hcl/; .tf.json)", /hcl::(parse_body|parser::|lexer::|template::|unicode::)|config::json::/],
  ["references (references.rs, expr.rs)", /config::references::|config::expr::/],
  ["decode: blocks (decode.rs, syntax.rs, dx.rs)", /config::decode::|config::syntax::|config::dx::/],
  ["drop the syntax tree", /drop_in_place<.*hcl::ast/],
  ["line index and positions (diag::SourceFile)", /diag::SourceFile::|diag::line_starts/],
  ["file contents into wasm (JsFiles::read)", /JsFiles.*::read/],
  ["keys into wasm, folders (JsFiles::new, FileTree::new)", /JsFiles::new|FileTree::new|bindings::read_files/],
  ["resources (resource.rs)", /config::resource::/],
  ["module assembly (load.rs)", /config::load::/],
  ["tape encode (tape.rs)", /tfgraph::bindings::tape::|Serialize for tfgraph::/],
  ["drop the configuration", /drop_in_place<tfgraph::config::model/],
  ["allocator (dlmalloc)", /dlmalloc|__rust_alloc|__rust_dealloc|__rust_realloc|__rdl_/],
  ["tape out of wasm (words copy, text decode)", /Uint32Array|getStringFromWasm0|TextDecoder|decode$/],
  ["tape decode (index.js)", /^(decodeTape|value|builder|define)$/],
  ["loadConfig itself (index.js)", /^loadConfig$/],
  ["garbage collector", /^\(garbage collector\)$/],
];

async function profile(label, cases, passes) {
  const run = () => {
    for (const c of cases) {
      try {
        tf.loadConfig(c.files, { root: c.root });
      } catch (e) {
        if (e?.name !== "TfgraphError") throw e;
      }
    }
  };
  run(); // warm-up
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  const t0 = performance.now();
  for (let i = 0; i < passes; i++) run();
  const ms = (performance.now() - t0) / passes;
  const { profile: prof } = await session.post("Profiler.stop");
  session.disconnect();

  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map();
  const own = new Map();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const names = [];
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) names.push(nodes.get(cur).callFrame.functionName);
    if (!names.includes("loadConfig") && names[0] !== "(garbage collector)") return;
    let stage = "other";
    find: for (const name of names) {
      for (const [s, re] of STAGES) {
        if (re.test(name)) {
          stage = s;
          break find;
        }
      }
    }
    const dt = prof.timeDeltas[i] ?? 0;
    totals.set(stage, (totals.get(stage) ?? 0) + dt);
    own.set(names[0], (own.get(names[0]) ?? 0) + dt);
    total += dt;
  });
  console.log(`${label}: ${passes} passes, ${ms.toFixed(0)} ms per pass while profiling`);
  for (const [s, t] of [...totals].sort((a, b) => b[1] - a[1])) console.log(`  ${((100 * t) / total).toFixed(1).padStart(5)}%  ${s}`);
  if (topFunctions > 0) {
    console.log(`  the ${topFunctions} functions with the most samples of their own:`);
    for (const [f, t] of [...own].sort((a, b) => b[1] - a[1]).slice(0, topFunctions)) {
      console.log(`  ${((100 * t) / total).toFixed(1).padStart(5)}%  ${f.slice(0, 150)}`);
    }
  }
}

if (!flag("--corpus-only")) {
  await profile("generated-10k", generatedCases(), runs ?? 12);
}
if (!flag("--generated-only")) {
  const cases = corpusCases(corpusDir);
  await profile("corpus", cases, runs ?? 3);
}
