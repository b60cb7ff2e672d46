// Node only: reads a Terraform directory into the `{ path: contents }` object that loadConfig,
// buildGraph and evaluate take — every .tf / .tf.json file under `dir`, the .tfvars files, and
// .terraform/modules/ (where `terraform init` installs registry and git modules) with its
// modules.json manifest. Provider binaries under .terraform are never read.

import { readdir, readFile } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";

const SKIP_DIRS = new Set([".git", "node_modules", ".terragrunt-cache"]);
const WANTED = /(\.tf|\.tf\.json|\.tfvars|\.tfvars\.json)$|(^|\/)\.terraform\/modules\/modules\.json$/;

/**
 * `{ relative/path: contents }` for the configuration files and module manifest under `dir`.
 * The object also carries, not enumerable, the absolute path of `dir` (slash-separated, as
 * Terraform's `path.cwd`): plan, evaluate and buildGraph take it as the working directory
 * (joined with `options.root`) unless `options.cwd` says otherwise.
 */
export async function readConfigDir(dir) {
  const files = {};
  Object.defineProperty(files, Symbol.for("tfgraph.dir"), { value: resolve(dir).split(sep).join("/") });
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
