// The package in each JS toolchain, as a new user meets it: a tiny browser app under
// tests/bundlers/<tool>/ (its own package.json and lockfile, the package copied in from pkg/ by
// `npm ci`) imports "tfgraph" by name, builds with the tool's defaults, and runs in headless
// Chromium from a server on 127.0.0.1. Each test checks what the app printed against the same
// calls made here in Node, that the .wasm came from the app's own origin as an emitted asset,
// and that nothing was logged as an error.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildGraph, evaluate, loadConfig, version, walk } from "../../pkg/node.js";
import { close, here, install, launch, openApp, run, runScript, serve, start } from "./harness.mjs";

const PAGE_FILES = {
  "main.tf": `
resource "null_resource" "a" {}
resource "null_resource" "b" {
  triggers = { a = null_resource.a.id }
}
`,
};
const WORKER_FILES = { "main.tf": 'resource "null_resource" "w" {}\nresource "null_resource" "x" { depends_on = [null_resource.w] }\n' };

/** What the apps print, computed here in Node with the same calls. */
async function expected() {
  const config = loadConfig(PAGE_FILES);
  const graph = buildGraph(config);
  const order = [];
  await walk(graph, async (name) => {
    order.push(name);
  });
  const page = {
    version,
    resources: config.root.resources.map((r) => r.address),
    edges: graph.edges().map((e) => `${e.from} -> ${e.to}`),
    order,
    // x/text's Shift_JIS, from tfgraph_encodings.bin beside the module (read on first use).
    shiftJis: evaluate({ "main.tf": "" }, 'textencodebase64("日本語", "Shift_JIS")').value,
  };
  const worker = { version, edges: buildGraph(WORKER_FILES).edges().map((e) => `${e.from} -> ${e.to}`) };
  return { page, worker };
}

let want;

before(async () => {
  want = await expected();
  // The facts themselves, so the comparison cannot pass on two empty results.
  assert.deepEqual(want.page.resources, ["null_resource.a", "null_resource.b"]);
  assert.equal(want.page.shiftJis, "k/qWe4zq");
  assert.ok(want.page.edges.includes("null_resource.b (expand) -> null_resource.a (expand)"));
  assert.ok(want.page.order.indexOf("null_resource.a (expand)") < want.page.order.indexOf("null_resource.b (expand)"));
  assert.ok(want.worker.edges.includes("null_resource.x (expand) -> null_resource.w (expand)"));
  await launch();
});

after(close);

/** The app's output matches Node's; the .wasm was fetched from `origin` and nothing else failed. */
function check({ result, requests, problems }, origin, { worker = false } = {}) {
  assert.deepEqual(problems, []);
  assert.deepEqual(result.page, want.page);
  if (worker) assert.deepEqual(result.worker, want.worker);
  const wasm = requests.filter((r) => new URL(r.url).pathname.endsWith(".wasm"));
  assert.ok(wasm.length > 0, `no .wasm request among ${JSON.stringify(requests)}`);
  for (const r of requests) {
    assert.ok(r.url.startsWith(origin), `request outside the app's origin: ${r.url}`);
    assert.ok(r.status < 400, `${r.url}: HTTP ${r.status}`);
  }
}

/** The .wasm files a build emitted into `dist`, byte-identical to the package's. */
function emittedWasm(dist) {
  const all = readdirSync(dist, { recursive: true }).filter((f) => String(f).endsWith(".wasm"));
  const original = readFileSync(new URL("../../pkg/tfgraph_bg.wasm", import.meta.url));
  for (const f of all) assert.ok(readFileSync(join(dist, f)).equals(original), `${f} differs from pkg/tfgraph_bg.wasm`);
  return all;
}

describe("Vite 6", () => {
  before(() => install("vite"));

  test("vite build with the defaults, then the built app in Chromium (page and worker)", async () => {
    const out = run("vite", "vite", ["build"]);
    assert.match(out, /built in/);
    assert.equal(emittedWasm(join(here, "vite", "dist")).length, 1);
    const server = await serve(join(here, "vite", "dist"));
    try {
      check(await openApp(server.url), server.url, { worker: true });
    } finally {
      server.close();
    }
  });

  test("the vite dev server, page and worker", async () => {
    const dev = await start("vite", "vite", ["--host", "127.0.0.1", "--port", "0", "--clearScreen", "false"], /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/);
    try {
      const url = dev.match[1];
      check(await openApp(url), url, { worker: true });
    } finally {
      dev.stop();
    }
  });
});

/** Serves a fixture's dist/ and checks the app at `page` in it. */
async function checkBuilt(app, page = "", options) {
  const server = await serve(join(here, app, "dist"));
  try {
    check(await openApp(server.url + page), server.url, options);
  } finally {
    server.close();
  }
}

describe("webpack 5", () => {
  before(() => install("webpack"));

  test("webpack with no configuration file (page and worker)", async () => {
    runScript("webpack", "build");
    // Emitted as an asset under its content hash, as webpack does with new URL(..., import.meta.url).
    assert.match(emittedWasm(join(here, "webpack", "dist")).join(), /^[0-9a-f]{20}\.wasm$/);
    await checkBuilt("webpack", "", { worker: true });
  });
});

describe("esbuild", () => {
  before(() => install("esbuild"));

  test("esbuild --bundle with the defaults (an IIFE script), the .wasm beside it", async () => {
    runScript("esbuild", "build");
    await checkBuilt("esbuild");
  });

  test("tfgraph/init with --format=esm --loader:.wasm=file: esbuild emits the .wasm, the app awaits init()", async () => {
    runScript("esbuild", "build:init");
    assert.ok(emittedWasm(join(here, "esbuild", "dist", "init")).some((f) => /^tfgraph_bg-\w+\.wasm$/.test(f)));
    await checkBuilt("esbuild", "init.html");
  });
});

describe("Rollup 4", () => {
  before(() => install("rollup"));

  test("rollup with @rollup/plugin-node-resolve, the .wasm beside the bundle", async () => {
    runScript("rollup", "build");
    await checkBuilt("rollup");
  });
});

describe("Deno and Bun (their npm packages, binaries shipped inside the registry packages)", () => {
  before(() => install("runtimes"));

  const json = (out) => JSON.parse(out.trim().split("\n").at(-1));

  test("deno run: import by name, no init call", () => {
    const out = run("runtimes", "deno", ["run", "--no-lock", "--allow-read", "main.js"], { env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" } });
    assert.deepEqual(json(out), want.page);
  });

  test("bun: import by name, no init call", () => {
    assert.deepEqual(json(run("runtimes", "bun", ["main.js"])), want.page);
  });

  test("bun: require by name from CommonJS", () => {
    assert.deepEqual(json(run("runtimes", "bun", ["main.cjs"])), want.worker);
  });
});
