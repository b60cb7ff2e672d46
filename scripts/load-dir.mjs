// Run tfgraph on a directory after `terraform init`: reads every .tf / .tf.json file under
// `dir` (including .terraform/modules/, where init installs registry and git modules, and its
// modules.json manifest) into the `{ path: contents }` object loadConfig takes.
//
//   node scripts/load-dir.mjs path/to/root      prints each loaded module and its resources
//
// As a library: import { readConfigDir } from "./scripts/load-dir.mjs".

import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SKIP_DIRS = new Set([".git", "node_modules", ".terragrunt-cache"]);
const WANTED = /(\.tf|\.tf\.json)$|(^|\/)\.terraform\/modules\/modules\.json$/;

/** `{ relative/path: contents }` for the configuration files and module manifest under `dir`. */
export async function readConfigDir(dir) {
  const files = {};
  async function walk(d) {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        // .terraform holds providers too (large binaries): only modules/ is configuration.
        const rel = relative(dir, p).split(sep).join("/");
        if (SKIP_DIRS.has(e.name) || (rel.includes(".terraform") && !/(^|\/)\.terraform(\/modules(\/|$)|$)/.test(rel))) continue;
        await walk(p);
      } else {
        const rel = relative(dir, p).split(sep).join("/");
        if (WANTED.test(rel)) files[rel] = await readFile(p, "utf8");
      }
    }
  }
  await walk(dir);
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { loadConfig, TfgraphError } = await import("../pkg/index.js");
  const dir = process.argv[2] ?? ".";
  let config;
  try {
    config = loadConfig(await readConfigDir(dir));
  } catch (e) {
    if (!(e instanceof TfgraphError)) throw e;
    config = { ...e.config, diagnostics: e.diagnostics };
    process.exitCode = 1;
  }
  const show = (m) => {
    console.log(`${m.address || "(root)"}  ${m.dir || "."}  ${m.resources.length} resources`);
    for (const r of m.resources) console.log(`  ${r.address}`);
    for (const c of m.module_calls) if (c.module) show(c.module);
  };
  show(config.root);
  for (const d of config.diagnostics ?? []) console.log(`${d.severity}: ${d.summary}${d.range ? ` (${d.range.filename}:${d.range.start.line})` : ""}`);
}
