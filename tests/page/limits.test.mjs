// Exhaustion in the page (issue #26): one typo in the editor (`count = 100000000`) is an error
// at the count argument in the Plan / Apply tab, not a dead engine; and when the engine's
// module does run out of memory (limits raised on purpose, through the page's engine client),
// the run rejects with a diagnostic saying what ran out and where, the page says so, and the
// next run in the same worker works.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openBrowser } from "./browser.mjs";
import { encodeSession } from "../../www/src/state.js";

const TYPO = { "main.tf": 'resource "mock_resource" "a" {\n  count = 100000000\n}\n' };

let browser, url, page, problems, shot;

before(async () => {
  browser = await openBrowser();
  ({ url, page, problems, shot } = browser);
  await page.goto(`${url}${encodeSession({ files: TYPO, open: "main.tf", view: "resources", reduce: true })}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  await page.getByTestId("tab-engine").click();
});

after(() => browser?.close());

const finished = () =>
  page.waitForFunction(() => ["done", "failed", "cancelled", "error"].includes(document.querySelector("[data-testid=engine]").dataset.engine), null, { timeout: 60_000 });

async function planClicked() {
  const t0 = Date.now();
  await page.getByTestId("plan").click();
  await finished();
  return Date.now() - t0;
}

test("count = 100000000 in the editor: the plan stops with an error at the count, within seconds", async () => {
  const ms = await planClicked();
  assert.ok(ms < 10_000, `${ms} ms`);
  assert.equal(await page.getByTestId("engine-summary").textContent(), "Planning failed.");
  const shown = await page.getByTestId("engine-diagnostic").allTextContents();
  assert.equal(shown.length, 1, shown.join("\n"));
  assert.match(shown[0], /Error: Too many instances\s*main\.tf:2:11/);
  assert.deepEqual(problems, []);
  await shot("engine-too-many-instances.png");
});

test("the engine worker's module runs out of memory: the run rejects with what and where, the next works", async () => {
  const outcome = await page.evaluate(async (files) => {
    const { runEngine } = await import("/src/engine-client.js");
    const stopped = await runEngine("plan", files, { limits: { instances: 1e9 } }).then(
      () => null,
      (e) => ({ message: e.message, diagnostics: e.diagnostics }),
    );
    const small = { "main.tf": 'resource "mock_resource" "b" {\n  count = 2\n}\n' };
    const next = await runEngine("plan", small, {});
    return { stopped, next: next.plan.changes.map((c) => c.address) };
  }, TYPO);
  assert.ok(outcome.stopped, "the run rejected");
  const d = outcome.stopped.diagnostics[0];
  assert.match(d.summary, /Out of memory|Internal error/);
  assert.match(d.detail, /While planning, the WebAssembly module .*mock_resource\.a/s);
  assert.deepEqual(outcome.next, ["mock_resource.b[0]", "mock_resource.b[1]"]);
  // And the tab's own runs still work in the same worker.
  await planClicked();
  assert.match((await page.getByTestId("engine-diagnostic").allTextContents())[0], /Too many instances/);
  assert.deepEqual(problems, []);
});
