// The loading benchmarks' two workloads, shared by run.mjs, compare.mjs and stages.mjs.
//
// corpus: every root of shared/corpus/INDEX.tsv, each given its whole repository (every .tf and
// .tf.json file, as a user passes a checkout) with `root` naming the root's folder.
// generated-10k: generate.mjs's configuration, seed 42, 10,000 resources.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { generate } from "./generate.mjs";

/** Every .tf / .tf.json file under `dir`, keyed by slash-separated path relative to `dir`. */
export function readTree(dir) {
  const files = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".tf") || name.endsWith(".tf.json")) files[relative(dir, p).split("\\").join("/")] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return files;
}

/** `[{ files, root }]` for every corpus root; roots of one repository share its files object. */
export function corpusCases(corpusDir) {
  const index = readFileSync(join(corpusDir, "INDEX.tsv"), "utf8").trim().split("\n").slice(1);
  const trees = new Map();
  return index.map((line) => {
    const [repo, ...rest] = line.split("\t")[0].split("/");
    if (!trees.has(repo)) trees.set(repo, readTree(join(corpusDir, repo)));
    return { files: trees.get(repo), root: rest.join("/") };
  });
}

/** `[{ files, root }]` of the generated 10,000-resource configuration. */
export function generatedCases() {
  const gen = generate({ seed: 42, resources: 10000 });
  return [{ files: gen.files, root: gen.root }];
}
