// Run tfgraph on a directory after `terraform init`: prints each loaded module and its resources.
//
//   node scripts/load-dir.mjs path/to/root
//
// The directory reader itself ships in the package (pkg/read-dir.js, `tfgraph/read-dir`); this
// script re-exports it for callers of the old path.

import { fileURLToPath } from "node:url";
import { readConfigDir } from "../pkg/read-dir.js";

export { readConfigDir };

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
