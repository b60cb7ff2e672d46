// What every page test shares: Debian's Chromium through playwright-core (never a downloaded
// browser; the flags are toolchain.md's), the playground served by scripts/serve.mjs on a free
// port, and a watch on each page for what must never happen (a page error, a console error, a
// failed request, a request to anything but our own server). Screenshots go to tests/artifacts/.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";

export const artifacts = fileURLToPath(new URL("../artifacts/", import.meta.url));
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
export const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/**
 * Starts the server and Chromium. `viewport` and `deviceScaleFactor` as playwright takes them
 * (null viewport: its default). Resolves to `{ url, context, page, problems, watch, shot, close }`:
 * `problems` collects what `watch` saw on `page` (and on any page given to `watch`), `shot(name)`
 * screenshots `page` into tests/artifacts/, `close()` ends it all.
 */
export async function openBrowser({ viewport = { width: 1280, height: 820 }, deviceScaleFactor = 1 } = {}) {
  mkdirSync(artifacts, { recursive: true });
  const { server, url } = await startServer({ port: 0 });
  const profile = mkdtempSync(join(tmpdir(), "tfgraph-chromium-"));
  const options = { executablePath: CHROMIUM, args: ARGS, headless: true, deviceScaleFactor };
  if (viewport) options.viewport = viewport;
  const context = await chromium.launchPersistentContext(profile, options);
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  const watch = (p) => {
    p.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    p.on("console", (m) => m.type() === "error" && problems.push(`console.error: ${m.text()}`));
    p.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
    // Only our own server: no CDN, nothing else (data: and blob: URLs are the page's own).
    p.on("request", (r) => {
      const u = r.url();
      if (!u.startsWith(url) && !u.startsWith("data:") && !u.startsWith("blob:")) problems.push(`foreign request: ${u}`);
    });
  };
  watch(page);
  return {
    url,
    context,
    page,
    problems,
    watch,
    shot: (name) => page.screenshot({ path: join(artifacts, name) }),
    async close() {
      await context.close();
      server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What an injection probe could have left on the page: the `window.__xss` markers its payloads
 * set, images, scripts (by source or type) and active content inside the drawn SVG. */
export function injected(page) {
  return page.evaluate(() => ({
    xss: window.__xss,
    imgs: document.querySelectorAll("img").length,
    scripts: [...document.scripts].map((s) => s.src || s.type),
    svgForeign: document.querySelectorAll("svg script, svg foreignObject, svg img").length,
  }));
}

/** The text of `locator` once it has some. A `<details>` the page fills when opened does it on
 * its `toggle` event, which the browser fires in a task after the click that opened it: reading
 * right after the click races it (a loaded machine loses that race). */
export async function filledText(locator, timeout = 30_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const text = await locator.textContent();
    if (text) return text;
    if (Date.now() > end) throw new Error(`still empty after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
