// loadConfig's result crosses from wasm as a tape (src/bindings/tape.rs), decoded in
// pkg/index.js. It must give exactly what JSON.parse of the raw JSON export gives: same values,
// same key order, for results and for TfgraphError's contents. That export writes the same tape
// as JSON in Rust (`tape::to_json`), which tests/corpus.rs checks against serde_json's text.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { loadConfig } from "../../pkg/index.js";
import * as raw from "../../pkg/tfgraph.js";
// The raw bindings' own instance (the package's entries make theirs: see scripts/wrap-bindings.mjs).
raw.initSync({ module: readFileSync(new URL("../../pkg/tfgraph_bg.wasm", import.meta.url)) });
import { generate } from "../../bench/config/generate.mjs";

const here = new URL(".", import.meta.url).pathname;
const fixtures = join(here, "..", "fixtures");
const corpus = process.env.TFGRAPH_CORPUS ?? join(here, "..", "..", "..", "shared", "corpus");

/** Every file under `dir`, keyed by slash-separated relative path. */
function readTree(dir, keep = () => true) {
  const files = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (keep(name)) files[relative(dir, p).split("\\").join("/")] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return files;
}

/** What loadConfig gives (or throws), and what JSON.parse of loadConfigRaw's text says it should be. */
function both(files, options = {}) {
  const { config, diagnostics } = JSON.parse(raw.loadConfigRaw(files, options));
  const errors = diagnostics.some((d) => d.severity === "error");
  let got;
  try {
    got = loadConfig(files, options);
  } catch (e) {
    if (e.name !== "TfgraphError") throw e;
    got = { thrown: true, config: e.config, diagnostics: e.diagnostics };
  }
  const want = errors ? { thrown: true, config, diagnostics } : { ...config, diagnostics };
  return { got, want };
}

/** Equal values, and the same text (so the same key order). */
function assertSame(files, options, what) {
  const { got, want } = both(files, options);
  assert.deepStrictEqual(got, want, what);
  assert.equal(JSON.stringify(got), JSON.stringify(want), what);
}

test("strings of every kind cross intact (UTF-16 lengths, escapes, repeats, long ones)", () => {
  const tricky = 'é ü 🦀 \u2028 " \\\\ \\n \\t ${"x"} %{ if true }y%{ endif }';
  const long = "x".repeat(5000);
  const files = {
    "main.tf": `variable "v" {\n  description = "${tricky}"\n}\n\nlocals {\n  a = "${long}"\n  b = var.v\n  c = [var.v, var.v, local.a]\n}\n`,
    "ünï/🦀.tf": 'output "o" {\n  value = "${var.v}"\n}\n',
    "big.tf.json": JSON.stringify({ locals: { n: 12345678901, f: 1.5, neg: -3, t: true, nul: null, nested: { k: ["é", "🦀"] } } }),
  };
  assertSame(files, {}, "tricky strings");
  assertSame(files, { root: "ünï" }, "non-ASCII folder");
});

test("every fixture folder decodes as JSON.parse does", () => {
  let folders = 0;
  const visit = (dir) => {
    const names = readdirSync(dir);
    if (names.some((n) => n.endsWith(".tf") || n.endsWith(".tf.json"))) {
      assertSame(readTree(dir), {}, dir);
      folders++;
    }
    for (const n of names) if (statSync(join(dir, n)).isDirectory()) visit(join(dir, n));
  };
  visit(fixtures);
  assert.ok(folders > 20, `only ${folders} fixture folders`);
});

test("a generated configuration decodes as JSON.parse does", () => {
  const { files, root } = generate({ seed: 7, resources: 1500 });
  assertSame(files, { root }, "generated");
});

// A third of the roots (every repository is reached): all of them take ~13 s here.
test("corpus roots decode as JSON.parse does", { skip: !existsSync(join(corpus, "INDEX.tsv")) && "no corpus" }, () => {
  const all = readFileSync(join(corpus, "INDEX.tsv"), "utf8").trim().split("\n").slice(1).map((l) => l.split("\t")[0]);
  const roots = all.filter((dir, i) => i % 3 === 0 || dir.split("/")[0] !== all[i - 1]?.split("/")[0]);
  const trees = new Map();
  for (const dir of roots) {
    const [repo, ...rest] = dir.split("/");
    if (!trees.has(repo)) trees.set(repo, readTree(join(corpus, repo), (n) => n.endsWith(".tf") || n.endsWith(".tf.json") || n === "modules.json"));
    assertSame(trees.get(repo), { root: rest.join("/") }, dir);
  }
});
