// What every bundler test shares: installing a fixture app with npm ci, serving a folder on
// 127.0.0.1, and running a page in Debian's headless Chromium (playwright-core), returning what
// the app printed and every request it made.

import { execFileSync, spawn } from "node:child_process";
import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const here = fileURLToPath(new URL(".", import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** `npm ci` in a fixture: its own lockfile, and the package copied in from pkg/ (install-links). */
export function install(app) {
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: join(here, app), stdio: ["ignore", "pipe", "inherit"] });
}

/** Runs a fixture's binary (node_modules/.bin/NAME) with `args`; its stdout and stderr. */
export function run(app, bin, args, options = {}) {
  return execFileSync(join(here, app, "node_modules", ".bin", bin), args, {
    cwd: join(here, app),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    ...options,
  });
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".json": "application/json" };

/** Serves `dir` as static files on 127.0.0.1 (a free port); `{ url, close }`. */
export async function serve(dir) {
  const server = createServer((req, res) => {
    let rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (rel.endsWith("/")) rel += "index.html";
    const file = normalize(join(dir, rel));
    let ok = file.startsWith(dir + sep);
    try {
      ok &&= statSync(file).isFile();
    } catch {
      ok = false;
    }
    if (!ok) {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("not found\n");
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

/** Starts a long-running command and resolves once its output matches `ready`; `{ match, stop }`. */
export function start(app, bin, args, ready) {
  const child = spawn(join(here, app, "node_modules", ".bin", bin), args, {
    cwd: join(here, app),
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${bin} did not start in 60 s:\n${output}`)), 60_000);
    const check = (chunk) => {
      output += chunk;
      const match = output.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ match, stop: () => child.kill("SIGTERM") });
      }
    };
    child.stdout.on("data", check);
    child.stderr.on("data", check);
    child.on("exit", (code) => reject(new Error(`${bin} exited (${code}):\n${output}`)));
  });
}

let browser;
let profile;

export async function launch() {
  profile = mkdtempSync(join(tmpdir(), "tfgraph-bundlers-"));
  browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true });
}

export async function close() {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
}

/**
 * Opens `url` and waits for the app to set `body[data-result]`. Returns what it printed (parsed),
 * every request (url and status, page and workers alike) and every error it logged.
 */
export async function openApp(url) {
  const page = await browser.newPage();
  const problems = [];
  const requests = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console.error: ${m.text()}`));
  browser.on("response", (r) => requests.push({ url: r.url(), status: r.status() }));
  try {
    await page.goto(url);
    await page.waitForSelector("body[data-result]", { state: "attached", timeout: 60_000 });
    const result = JSON.parse(await page.evaluate(() => document.body.dataset.result));
    return { result, requests, problems };
  } finally {
    browser.removeAllListeners("response");
    await page.close();
  }
}

/** `npm run SCRIPT` in a fixture (its build); stdout and stderr together. */
export function runScript(app, script) {
  return execFileSync("npm", ["run", "--silent", script], {
    cwd: join(here, app),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
}
