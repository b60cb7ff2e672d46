// The npm package as published: its manifest, what `npm pack` would ship, and importing it by
// name from another project.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = fileURLToPath(new URL("../../pkg/", import.meta.url));
const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
const cargoToml = readFileSync(new URL("../../Cargo.toml", import.meta.url), "utf8");

test("the package version is the crate version", () => {
  const crateVersion = cargoToml.match(/^version = "([^"]+)"/m)[1];
  assert.equal(manifest.version, crateVersion);
});

test("the manifest is an ES module package with types", () => {
  assert.equal(manifest.name, "tfgraph");
  assert.equal(manifest.type, "module");
  // Node, Deno and Bun take node.js (it reads the .wasm from disk); browsers and bundlers index.js.
  assert.deepEqual(manifest.exports["."], {
    types: "./index.d.ts",
    node: "./node.js",
    browser: "./index.js",
    default: "./index.js",
  });
  assert.deepEqual(manifest.exports["./init"], { types: "./index.d.ts", node: "./node.js", default: "./api.js" });
  assert.equal(manifest.types, "./index.d.ts");
  // require() of an ES module without top-level await: unflagged since Node 20.19 and 22.12.
  assert.match(manifest.engines.node, />=\s*20\.19/);
  for (const field of ["license", "repository", "keywords", "sideEffects", "files"]) assert.ok(manifest[field], field);
  assert.deepEqual(manifest.sideEffects, ["./index.js", "./node.js"]);
});

test("npm pack ships the entry, the declarations, the wasm and the encodings file", () => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--loglevel=error"], { cwd: pkgDir, encoding: "utf8" });
  const files = JSON.parse(out)[0].files.map((f) => f.path).sort();
  const wanted = ["README.md", "api.js", "cli.js", "fetch-sync.js", "index.d.ts", "index.js", "node.js", "package.json", "read-dir.js"];
  wanted.push("tfgraph.js", "tfgraph_bg.wasm", "tfgraph_encodings.bin"); // the .bin: 49 text encodings, read on first use
  // The command's parts (pkg/cli/).
  for (const f of ["common", "engine", "interrupt", "json-ui", "plan-file", "progress", "prompt", "state-file", "testing", "variables"]) wanted.push(`cli/${f}.js`);
  // Exactly what users need: no build stamp, no stray files, and not wasm-bindgen's own
  // declarations (tfgraph.d.ts, tfgraph_bg.wasm.d.ts): tfgraph.js is not an export, every
  // type users see is in index.d.ts (2.9 KB of the tarball).
  assert.deepEqual(files, wanted.sort());
  assert.ok(!files.some((f) => f.startsWith(".")), `hidden files shipped: ${files}`);
});

test("npm publish --dry-run is clean: nothing corrected, nothing to fix", () => {
  const { status, stdout, stderr } = spawnSync("npm", ["publish", "--dry-run"], { cwd: pkgDir, encoding: "utf8" });
  assert.equal(status, 0, stderr);
  assert.match(stdout, /\+ tfgraph@/);
  // The one warning a dry run always prints (it never logs in) aside, none: no "errors corrected".
  const warnings = stderr.split("\n").filter((l) => /^npm warn publish /.test(l) && !/requires you to be logged in/.test(l));
  assert.deepEqual(warnings, []);
});

/** Runs `code` as `name` in a fresh project that has the package in node_modules; its stdout. */
function inConsumer(name, code) {
  const project = mkdtempSync(join(tmpdir(), "tfgraph-consumer-"));
  try {
    mkdirSync(join(project, "node_modules"));
    symlinkSync(pkgDir, join(project, "node_modules", "tfgraph"), "dir");
    writeFileSync(join(project, "package.json"), "{}\n");
    writeFileSync(join(project, name), code);
    return execFileSync(process.execPath, [name], { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

const CONFIG = JSON.stringify({
  "main.tf": 'resource "null_resource" "a" {}\nresource "null_resource" "b" { triggers = { a = null_resource.a.id } }\n',
});
const USE = `
const files = ${CONFIG};
const config = loadConfig(files);
const graph = buildGraph(config);
const order = [];
walk(graph, async (name) => { order.push(name); }).then(() => {
  console.log(JSON.stringify({ version, resources: config.root.resources.map((r) => r.address), order }));
});
`;
const EXPECTED = {
  version: manifest.version,
  resources: ["null_resource.a", "null_resource.b"],
  order: [
    'provider["registry.terraform.io/hashicorp/null"]',
    "null_resource.a (expand)",
    "null_resource.b (expand)",
    'provider["registry.terraform.io/hashicorp/null"] (close)',
    "root",
  ],
};

test("Node: import from an ES module, no init call", () => {
  const out = inConsumer("main.mjs", `import { buildGraph, loadConfig, version, walk } from "tfgraph";\n${USE}`);
  assert.deepEqual(JSON.parse(out), EXPECTED);
});

test("Node: require from CommonJS, no init call", () => {
  const out = inConsumer("main.cjs", `const { buildGraph, loadConfig, version, walk } = require("tfgraph");\n${USE}`);
  assert.deepEqual(JSON.parse(out), EXPECTED);
});

test("Node: import and require give the same module (one TfgraphError class)", () => {
  const out = inConsumer(
    "main.mjs",
    'import { createRequire } from "node:module";\nimport * as esm from "tfgraph";\n' +
      'const cjs = createRequire(import.meta.url)("tfgraph");\n' +
      "console.log(String(cjs.TfgraphError === esm.TfgraphError && cjs.loadConfig === esm.loadConfig));\n",
  );
  assert.equal(out.trim(), "true");
});

test("Node: tfgraph/init and an explicit await init()", () => {
  const out = inConsumer(
    "main.mjs",
    `import { buildGraph, init, loadConfig, version, walk } from "tfgraph/init";\nawait init();\n${USE}`,
  );
  assert.deepEqual(JSON.parse(out), EXPECTED);
});

test("api.js before init(): a clear error, then init() from a file: URL and from bytes", async () => {
  // api.js is what bundlers resolve "tfgraph/init" to; a fresh copy of it, not yet initialised.
  const api = await import(`../../pkg/api.js?fresh=${Date.now()}`);
  assert.equal(api.version, "");
  assert.throws(() => api.loadConfig({}), /not loaded yet: `await init\(\)` first/);
  await assert.rejects(api.walk({ nodes: [], edges: [] }, () => {}), /not loaded yet/);
  await Promise.all([api.init(), api.init()]);
  assert.equal(api.version, manifest.version);
  assert.deepEqual(api.loadConfig(JSON.parse(CONFIG)).root.resources.map((r) => r.address), EXPECTED.resources);
  const again = await import(`../../pkg/api.js?bytes=${Date.now()}`);
  again.initSync(readFileSync(join(pkgDir, "tfgraph_bg.wasm")));
  assert.equal(again.version, manifest.version);
});

test("another project imports it by name", () => {
  const project = mkdtempSync(join(tmpdir(), "tfgraph-consumer-"));
  try {
    mkdirSync(join(project, "node_modules"));
    symlinkSync(pkgDir, join(project, "node_modules", "tfgraph"), "dir");
    writeFileSync(join(project, "package.json"), '{ "type": "module" }\n');
    writeFileSync(
      join(project, "main.js"),
      'import { version, loadConfig, TfgraphError } from "tfgraph";\n' +
        "console.log(JSON.stringify({ version, loadConfig: typeof loadConfig, TfgraphError: typeof TfgraphError }));\n",
    );
    const out = JSON.parse(execFileSync(process.execPath, ["main.js"], { cwd: project, encoding: "utf8" }));
    assert.deepEqual(out, { version: manifest.version, loadConfig: "function", TfgraphError: "function" });
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
