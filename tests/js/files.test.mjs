// The `files` object is read lazily: its keys up front, a value only when the loader loads the
// folder holding that file. Passing a whole repository costs what the loaded modules cost.

import { test } from "node:test";
import assert from "node:assert/strict";
import { buildGraph, loadConfig, TfgraphError } from "../../pkg/index.js";

const ROOT = 'module "net" {\n  source = "../../modules/net"\n}\n';
const NET = 'resource "aws_vpc" "main" {}\n';

/** `files` with a getter per key that counts reads (and throws for the keys in `throwing`). */
function counted(entries, throwing = new Set()) {
  const reads = [];
  const files = {};
  for (const [key, value] of Object.entries(entries)) {
    Object.defineProperty(files, key, {
      enumerable: true,
      get() {
        reads.push(key);
        if (throwing.has(key)) throw new Error(`getter of ${key}`);
        return value;
      },
    });
  }
  return { files, reads };
}

test("thousands of unrelated big files are never read", () => {
  const big = "x".repeat(1 << 20); // one string shared by every value: 6 GB passed, 1 MB in memory
  const { files, reads } = counted({ "envs/prod/main.tf": ROOT, "modules/net/main.tf": NET });
  for (let i = 0; i < 3000; i++) {
    files[`vendor/pkg${i}/main.tf`] = big; // .tf files in folders nothing calls
    files[`docs/page${i}.md`] = big;
  }
  const started = performance.now();
  const config = loadConfig(files, { root: "envs/prod" });
  const ms = performance.now() - started;
  assert.deepEqual(config.diagnostics, []);
  assert.equal(config.root.module_calls[0].module.resources[0].address, "module.net.aws_vpc.main");
  assert.deepEqual(reads.sort(), ["envs/prod/main.tf", "modules/net/main.tf"]);
  // Copying 6 GB into wasm would not fit in its memory, let alone in 5 s.
  assert.ok(ms < 5000, `took ${ms} ms`);
});

test("a non-string value is a TypeError only when its file is loaded", () => {
  const unrelated = { "main.tf": NET, "other/main.tf": 42, "README.md": null, "notes.tf.json": NET.length };
  // notes.tf.json is in the root folder: it is read, and is not a string.
  assert.throws(() => loadConfig(unrelated), {
    name: "TypeError",
    message: 'loadConfig: the contents of "notes.tf.json" must be a string',
  });
  delete unrelated["notes.tf.json"];
  assert.equal(loadConfig(unrelated).root.resources.length, 1);
  // A called module's folder is loaded: its files are read.
  const child = { "envs/prod/main.tf": ROOT, "modules/net/main.tf": { text: NET } };
  assert.throws(() => loadConfig(child, { root: "envs/prod" }), {
    name: "TypeError",
    message: 'loadConfig: the contents of "modules/net/main.tf" must be a string',
  });
  assert.throws(() => buildGraph(child, { root: "envs/prod" }), {
    name: "TypeError",
    message: 'buildGraph: the contents of "modules/net/main.tf" must be a string',
  });
});

test("a throwing getter throws through loadConfig only when its file is read", () => {
  const entries = { "envs/prod/main.tf": ROOT, "modules/net/main.tf": NET, "modules/dns/main.tf": NET };
  const lazy = counted(entries, new Set(["modules/dns/main.tf"]));
  assert.equal(loadConfig(lazy.files, { root: "envs/prod" }).diagnostics.length, 0);
  assert.ok(!lazy.reads.includes("modules/dns/main.tf"));

  const failing = counted(entries, new Set(["modules/net/main.tf"]));
  assert.throws(() => loadConfig(failing.files, { root: "envs/prod" }), { message: "getter of modules/net/main.tf" });
  assert.throws(() => buildGraph(failing.files, { root: "envs/prod" }), { message: "getter of modules/net/main.tf" });
});

test("a Proxy sees its keys listed once and only loaded files read", () => {
  const target = { "main.tf": NET, "a/main.tf": NET, "b/main.tf": NET };
  const gets = [];
  let ownKeys = 0;
  const files = new Proxy(target, {
    get(t, key) {
      gets.push(key);
      return t[key];
    },
    ownKeys(t) {
      ownKeys++;
      return Reflect.ownKeys(t);
    },
  });
  assert.equal(loadConfig(files).root.resources.length, 1);
  assert.equal(ownKeys, 1);
  assert.deepEqual(gets, ["main.tf"]);
});

test("keys are matched exactly, whatever characters they hold", () => {
  const files = { "main.tf": NET, "we\u0000ird/x.tf": NET, "ünï/cødé.tf": 'resource "a_b" "c" {}\n' };
  const config = loadConfig(files);
  assert.deepEqual(config.root.files, ["main.tf"]);
  const other = loadConfig(files, { root: "ünï" });
  assert.deepEqual(other.root.files, ["ünï/cødé.tf"]);
  assert.equal(other.root.resources[0].range.filename, "ünï/cødé.tf");
});

test("of two keys naming the same file, the smaller one is loaded, as before", () => {
  const files = { "main.tf": 'resource "a_b" "second" {}\n', "./main.tf": 'resource "a_b" "first" {}\n' };
  assert.deepEqual(loadConfig(files).root.resources.map((r) => r.name), ["first"]);
});

test("errors in a lazily read file are diagnostics as usual", () => {
  const files = { "envs/prod/main.tf": ROOT, "modules/net/main.tf": "resource {" };
  assert.throws(() => loadConfig(files, { root: "envs/prod" }), (e) => {
    assert.ok(e instanceof TfgraphError);
    assert.equal(e.diagnostics[0].range.filename, "modules/net/main.tf");
    return true;
  });
});
