// The TypeScript declarations (pkg/index.d.ts): they type-check a strict usage file, they
// declare every runtime export, and they use no `any`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as tfgraph from "../../pkg/index.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const dts = readFileSync(new URL("../../pkg/index.d.ts", import.meta.url), "utf8");

test("usage.ts type-checks with tsc --noEmit --strict", () => {
  const tsc = `${repo}node_modules/typescript/bin/tsc`;
  try {
    execFileSync(process.execPath, [tsc, "-p", "tests/js", "--noEmit", "--strict"], { cwd: repo, encoding: "utf8" });
  } catch (e) {
    assert.fail(`tsc reported errors:\n${e.stdout}${e.stderr}`);
  }
});

test("every runtime export is declared", () => {
  const declared = [...dts.matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(declared, Object.keys(tfgraph).sort());
});

test("the declarations use no `any`", () => {
  const code = dts.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  assert.doesNotMatch(code, /\bany\b/);
});
