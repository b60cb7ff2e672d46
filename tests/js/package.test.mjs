// The npm package as published: its manifest, what `npm pack` would ship, and importing it by
// name from another project.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
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
  assert.deepEqual(manifest.exports["."], { types: "./index.d.ts", default: "./index.js" });
  assert.equal(manifest.types, "./index.d.ts");
  assert.match(manifest.engines.node, />=\s*20/);
});

test("npm pack ships the entry, the declarations and the wasm", () => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--loglevel=error"], { cwd: pkgDir, encoding: "utf8" });
  const files = JSON.parse(out)[0].files.map((f) => f.path).sort();
  for (const f of ["index.js", "index.d.ts", "package.json", "README.md", "tfgraph.js", "tfgraph.d.ts", "tfgraph_bg.wasm", "tfgraph_bg.wasm.d.ts"]) {
    assert.ok(files.includes(f), `${f} missing from ${files.join(", ")}`);
  }
  assert.ok(!files.some((f) => f.startsWith(".")), `hidden files shipped: ${files}`);
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
