// The playground's speed in Debian's headless Chromium (playwright-core), served by
// scripts/serve.mjs from this checkout:
//
//   1. time to interactive: navigation start to the first graph on screen (median of N loads,
//      each a new page; the server sends no-store, so every asset is fetched again);
//   2. a 300-node graph: Graphviz's layout time, and edit-to-drawn time (the package's load and
//      build, the resources view, Graphviz, the SVG in the DOM);
//   3. the longest main-thread stall while a 500-node walk at parallelism 10 animates (the
//      fan-out example, 20 ms simulated latency): the longest long task (PerformanceObserver
//      "longtask") and the longest gap between animation frames;
//   4. 2,000 resources: load-and-draw time in the resources view and in the full plan view;
//   5. with 2,000 resources drawn: how long search, zoom and selecting a node take to answer;
//      and, where the page draws large graphs compact, asking for the labelled drawing.
//
//   node bench/page/run.mjs [--runs N] [--compare REF] [--only tti,300,walk,2000]
//   (after scripts/build; prints a Markdown table; --only measures just the parts named)
//
// --compare REF measures the page (www/ and scripts/serve.mjs) as committed at REF beside this
// checkout's, in the same run, each measurement alternating between the two, so that both see the
// same machine load. Both serve this checkout's pkg/ and www/vendor/viz.js.
//
// Goals (issue #12): interactive < 1 s, 300 nodes rendered < 0.5 s, no stall > 100 ms.

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir, cpus } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { fileURLToPath } from "node:url";
import { startServer } from "../../scripts/serve.mjs";
import { encodeSession } from "../../www/src/state.js";
import { layered } from "./configs.mjs";

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const runs = Number(arg("--runs")) || 5;
const compare = arg("--compare");
const only = arg("--only")?.split(",");
const measures = (part) => !only || only.includes(part);
const repo = fileURLToPath(new URL("../../", import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Waits until `selector` matches, with a MutationObserver in the page: playwright's own
 * waitForSelector polls with querySelectorAll on every frame, which on a 2,000-node page costs
 * the main thread hundreds of milliseconds and would be counted as the page's own stalls.
 */
function waitFor(page, selector, timeout = 300_000) {
  const wait = page.evaluate(
    (sel) =>
      new Promise((resolve) => {
        const observer = new MutationObserver(() => done());
        const done = () => document.querySelector(sel) && (observer.disconnect(), resolve(true));
        observer.observe(document.documentElement, { attributes: true, subtree: true, attributeFilter: ["data-graph-ready", "data-walk", "data-interactive-ms"] });
        done();
      }),
    selector,
  );
  let timer;
  const limit = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${selector}`)), timeout)));
  return Promise.race([wait, limit]).finally(() => clearTimeout(timer));
}


/** A checkout of REF's page in a temporary folder, served by its own serve.mjs. */
async function serveRef(ref, dir) {
  const tar = execFileSync("git", ["-C", repo, "archive", ref, "www", "scripts/serve.mjs"], { maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  symlinkSync(join(repo, "pkg"), join(dir, "pkg"));
  mkdirSync(join(dir, "www/vendor"), { recursive: true });
  cpSync(join(repo, "www/vendor/viz.js"), join(dir, "www/vendor/viz.js"));
  const { startServer: start } = await import(join(dir, "scripts/serve.mjs"));
  return start({ port: 0 });
}

const variants = [];
const temp = mkdtempSync(join(tmpdir(), "tfgraph-bench-ref-"));
if (compare) {
  const sha = execFileSync("git", ["-C", repo, "rev-parse", "--short", compare]).toString().trim();
  variants.push({ name: `before (${sha.startsWith(compare) ? sha : `${compare} ${sha}`})`, ...(await serveRef(compare, temp)) });
}
const head = execFileSync("git", ["-C", repo, "rev-parse", "--short", "HEAD"]).toString().trim();
const dirty = execFileSync("git", ["-C", repo, "status", "--porcelain", "www", "scripts/serve.mjs"]).toString().trim() !== "";
variants.push({ name: compare ? `after (${head}${dirty ? "+changes" : ""})` : `this checkout (${head}${dirty ? "+changes" : ""})`, ...(await startServer({ port: 0 })) });

const profile = mkdtempSync(join(tmpdir(), "tfgraph-bench-"));
const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 820 } });
/** what → { goal, values: { [variant name]: text } } */
const results = new Map();
const record = (what, variant, value, goal) => {
  if (!results.has(what)) results.set(what, { goal, values: {} });
  results.get(what).values[variant.name] = value;
  console.error(`${variant.name} · ${what}: ${value}`);
};
const list = (xs) => xs.map((x) => x.toFixed(0)).join(", ");
/** Long tasks (ms) in the page since `t` (page time), longest first; needs the init script below. */
const tasksSince = (page, t) => page.evaluate((t) => window.__tasks.filter((x) => x.start >= t).map((x) => x.duration).sort((a, b) => b - a), t);
const observeLongTasks = (page) =>
  page.addInitScript(() => {
    window.__tasks = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  });
/** Runs `source` (a function's text) in the page; ms until the frame after it was painted. */
const timeToFrame = (page, source, arg) =>
  page.evaluate(
    async ([source, arg]) => {
      const start = performance.now();
      await (0, eval)(source)(arg);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      return performance.now() - start;
    },
    [source, arg],
  );

/** 1. Time to interactive: one load. */
async function interactive(v) {
  const page = await context.newPage();
  await page.goto(v.url);
  await waitFor(page, "body[data-interactive-ms]");
  const ms = Number(await page.evaluate(() => document.body.dataset.interactiveMs));
  await page.close();
  return ms;
}

/** 2. A 300-node graph: `runs` edits, each drawn. */
async function graph300(v) {
  const page = await context.newPage();
  await page.goto(v.url + encodeSession({ files: { "main.tf": layered(300) }, open: "main.tf", view: "resources", reduce: true }));
  await waitFor(page, "body[data-graph-ready=true]");
  const nodes = await page.locator("[data-testid=graph-node]").count();
  const layout = [];
  const editToDrawn = [];
  for (let i = 0; i < runs; i++) {
    // An edit that changes the graph each time (a comment's length changes nothing; a new resource does).
    const t = await page.evaluate(async (k) => {
      const ta = document.querySelector("[data-testid=editor]");
      const before = document.body.dataset.renders;
      const start = performance.now();
      ta.value += `\nresource "aws_s3_bucket" "extra${k}" {}\n`;
      ta.dispatchEvent(new Event("input"));
      // The editor debounces input by 120 ms; measure from when the change is handed over.
      await new Promise((r) => {
        const check = () => (document.body.dataset.renders !== before ? r() : requestAnimationFrame(check));
        requestAnimationFrame(check);
      });
      return { total: performance.now() - start - 120, layout: Number(document.body.dataset.renderMs) };
    }, i);
    layout.push(t.layout);
    editToDrawn.push(t.total);
  }
  await page.close();
  return { nodes, layout, editToDrawn };
}

/** 3. The fan-out's walk at parallelism 10, 20 ms latency. */
async function walk500(v) {
  const page = await context.newPage();
  await observeLongTasks(page);
  await page.goto(v.url);
  await waitFor(page, "body[data-graph-ready=true]");
  await page.getByTestId("gallery").selectOption("fan-out");
  await waitFor(page, "body[data-graph-ready=true][data-renders='2']");
  await page.getByTestId("tab-run").click();
  await page.getByTestId("latency").fill("20");
  await page.getByTestId("parallelism").fill("10");
  const start = await page.evaluate(() => {
    window.__gap = 0;
    let last = performance.now();
    const frame = (t) => {
      window.__gap = Math.max(window.__gap, t - last);
      last = t;
      if (!window.__stop) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    return performance.now();
  });
  const started = Date.now();
  await page.getByTestId("walk").click();
  await waitFor(page, "[data-testid=run][data-walk=done]");
  const walkMs = Date.now() - started;
  const gap = await page.evaluate(() => ((window.__stop = true), window.__gap));
  const tasks = await tasksSince(page, start);
  const nodes = await page.locator("[data-testid=graph-node]").count();
  await page.close();
  return { nodes, tasks, gap, walkMs };
}

/** 4 and 5. 2,000 resources in `view`: load, then interactions, then (if offered) the labelled drawing. */
async function big(v, view) {
  const page = await context.newPage();
  await observeLongTasks(page);
  const start = Date.now();
  await page.goto(v.url + encodeSession({ files: { "main.tf": layered(2000, 40) }, open: "main.tf", view, reduce: true }));
  await waitFor(page, "body[data-graph-ready=true]");
  const loadMs = Date.now() - start;
  const drawn = await page.locator("[data-testid=graph-node]").count();
  const graphviz = await page.evaluate(() => Number(document.body.dataset.renderMs ?? NaN));
  const compact = await page.evaluate(() => document.body.dataset.compact === "true");
  await page.waitForTimeout(500);
  const loadTasks = await tasksSince(page, 0);
  const t0 = await page.evaluate(() => performance.now());
  const search = await timeToFrame(page, `(q) => { const s = document.querySelector("[data-testid=search]"); s.value = q; s.dispatchEvent(new Event("input")); }`, "r1999");
  const zoom = await timeToFrame(page, `() => { const g = document.querySelector("[data-testid=graph]"); const r = g.getBoundingClientRect(); g.dispatchEvent(new WheelEvent("wheel", { deltaY: -300, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true })); }`);
  const select = await timeToFrame(page, `(q) => { const s = document.querySelector("[data-testid=search]"); s.value = q; s.dispatchEvent(new Event("input")); s.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true })); }`, "aws_instance.r1234");
  const selected = await page.evaluate(() => document.querySelector("[data-testid=graph-node].selected")?.dataset.name ?? null);
  const interactionTasks = await tasksSince(page, t0);
  let labels = null;
  if (compact) {
    const t1 = await page.evaluate(() => performance.now());
    const before = await page.evaluate(() => document.body.dataset.renders);
    const s = Date.now();
    await page.getByTestId("full-view").click();
    await waitFor(page, `body[data-graph-ready=true]:not([data-renders="${before}"])`);
    labels = { ms: Date.now() - s, tasks: await tasksSince(page, t1) };
  }
  await page.close();
  return { loadMs, drawn, graphviz, compact, loadTasks, search, zoom, select, selected, interactionTasks, labels };
}

try {
  const tti = new Map(measures("tti") ? variants.map((v) => [v, []]) : []);
  for (let i = 0; i < runs; i++) for (const v of tti.keys()) tti.get(v).push(await interactive(v));
  for (const [v, xs] of tti) record("time to interactive (first graph on screen), median ms", v, `${median(xs).toFixed(0)} (${list(xs)})`, "< 1000");

  for (const v of measures("300") ? variants : []) {
    const r = await graph300(v);
    record(`${r.nodes}-node graph: Graphviz layout (in the worker), median ms`, v, `${median(r.layout).toFixed(0)} (${list(r.layout)})`, "< 500");
    record(`${r.nodes}-node graph: edit to drawn (load, build, view, layout, SVG in the DOM), median ms`, v, `${median(r.editToDrawn).toFixed(0)} (${list(r.editToDrawn)})`, "< 500");
  }

  const walks = new Map(measures("walk") ? variants.map((v) => [v, []]) : []);
  for (let i = 0; i < Math.max(1, Math.min(runs, 3)); i++) for (const v of walks.keys()) walks.get(v).push(await walk500(v));
  for (const [v, rs] of walks) {
    record(`${rs[0].nodes}-node walk at parallelism 10: longest main-thread long task, ms (each walk)`, v, rs.map((r) => (r.tasks[0] ?? 0).toFixed(0)).join(", ") + ` (long tasks: ${rs.map((r) => r.tasks.length).join(", ")})`, "< 100");
    record(`${rs[0].nodes}-node walk: longest gap between animation frames, ms (each walk; walk duration)`, v, rs.map((r) => `${r.gap.toFixed(0)} (${r.walkMs} ms)`).join(", "), "< 100");
  }

  for (const view of measures("2000") ? ["resources", "plan"] : []) {
    for (const v of variants) {
      const r = await big(v, view);
      const tag = `2,000 resources, ${view} view`;
      record(`${tag}: page load to drawn, ms; nodes drawn`, v, `${r.loadMs}; ${r.drawn}${r.compact ? " compact" : ""}; Graphviz ${Number.isNaN(r.graphviz) ? "–" : r.graphviz.toFixed(0)} ms`, "responsive");
      record(`${tag}: main-thread long tasks during the load, longest first (count)`, v, `${list(r.loadTasks.slice(0, 5))} (${r.loadTasks.length})`, "responsive");
      record(`${tag}, drawn: search / wheel zoom / select a node (Enter in search), ms to the next frame`, v, `${r.search.toFixed(0)} / ${r.zoom.toFixed(0)} / ${r.select.toFixed(0)}${r.selected ? "" : " (nothing selected)"}; longest long task ${(r.interactionTasks[0] ?? 0).toFixed(0)}`, "responsive");
      if (r.labels) record(`${tag}: "draw labels" clicked: to drawn, ms; long tasks`, v, `${r.labels.ms}; ${list(r.labels.tasks.slice(0, 5))}`, "(on request)");
    }
  }
} finally {
  await context.close();
  for (const v of variants) v.server.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(temp, { recursive: true, force: true });
}

const names = variants.map((v) => v.name);
console.log(`| measurement | ${names.join(" | ")} | goal |\n| --- | ${names.map(() => "---").join(" | ")} | --- |`);
for (const [what, r] of results) console.log(`| ${what} | ${names.map((n) => r.values[n] ?? "–").join(" | ")} | ${r.goal} |`);
console.log(`\n${new Date().toISOString()} · ${cpus().length} cores (${cpus()[0]?.model ?? "?"}) · load average ${(await import("node:os")).loadavg().map((x) => x.toFixed(1)).join(" ")} · ${execFileSync(CHROMIUM, ["--version"], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim()}`);
