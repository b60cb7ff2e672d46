// The page when the engine's module does stop (issue #26): its Plan / Apply tab says what
// happened ("Stopped: ...", the diagnostic saying what ran out and where), an apply that stops
// midway leaves the state written so far in the page, and the next run in the same worker works.
// With the default limits nothing a user types stops the module (tests/page/limits.test.mjs), so
// every run this page's engine worker is sent carries limits raised past what memory holds.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { filledText, openBrowser } from "./browser.mjs";
import { encodeSession } from "../../www/src/state.js";

const TYPO = 'resource "mock_resource" "a" {\n  count = 100000000\n}\n';
const SMALL = 'resource "mock_resource" "b" {\n  count = 2\n}\n';
// b's expression is unknown at plan (it reads a[0]'s id); at apply, once a[0] is created (b
// waits for that instance alone, as in Terraform's apply graph), it asks for 1024^4 tuples: the
// module stops there, a[1] and a[2] still being created (tests/js/limits.test.mjs).
const MIDWAY = `resource "mock_resource" "a" {
  count = 3
  name  = "a\${count.index}"
}
resource "mock_resource" "b" {
  name = length(setproduct(range(length(mock_resource.a[0].id) * 0 + 1024), range(1024), range(1024), range(1024)))
}
`;

let browser, url, page, problems, shot;

before(async () => {
  browser = await openBrowser();
  ({ url, page, problems, shot } = browser);
  // The limits ride on every message the page sends its engine worker (engine-client.js).
  await page.addInitScript(() => {
    const Base = globalThis.Worker;
    globalThis.Worker = class extends Base {
      constructor(src, options) {
        super(src, options);
        this.engine = String(src).includes("engine-worker");
      }
      postMessage(message, ...rest) {
        if (this.engine && message?.options) message = { ...message, options: { ...message.options, limits: { instances: 1e9, elements: 2 ** 40 } } };
        return super.postMessage(message, ...rest);
      }
    };
  });
  await page.goto(`${url}${encodeSession({ files: { "main.tf": TYPO }, open: "main.tf", view: "resources", reduce: true })}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  await page.getByTestId("tab-engine").click();
});

after(() => browser?.close());

const engineState = () => page.evaluate(() => document.querySelector("[data-testid=engine]").dataset.engine);
const finished = () =>
  page.waitForFunction(() => ["done", "failed", "cancelled", "error"].includes(document.querySelector("[data-testid=engine]").dataset.engine), null, { timeout: 120_000 });

async function run(button) {
  await page.getByTestId(button).click();
  await finished();
}

test("a plan that runs the module out of memory: the page says Stopped, what ran out and where; the next plan works", { timeout: 180_000 }, async () => {
  await run("plan");
  assert.equal(await engineState(), "error");
  const summary = await page.getByTestId("engine-summary").textContent();
  assert.match(summary, /^Stopped: Out of memory\. The engine was restarted; the next run starts afresh\.$/);
  const shown = await page.getByTestId("engine-diagnostic").allTextContents();
  assert.equal(shown.length, 1, shown.join("\n"));
  assert.match(shown[0], /While planning, the WebAssembly module .*mock_resource\.a/s);
  await page.getByTestId("engine-diagnostic").first().scrollIntoViewIfNeeded();
  await shot("engine-stopped-plan.png");
  // The next plan, in the same page and worker.
  await page.getByTestId("editor").fill(SMALL);
  await run("plan");
  assert.equal(await engineState(), "done");
  assert.equal(await page.getByTestId("engine-summary").textContent(), "Plan: 2 to add, 0 to change, 0 to destroy.");
  const changes = await page.getByTestId("change").evaluateAll((rows) => rows.map((r) => r.dataset.address));
  assert.deepEqual(changes, ["mock_resource.b[0]", "mock_resource.b[1]"]);
  await shot("engine-after-stopped-plan.png");
  assert.deepEqual(problems, []);
});

test("an apply that stops midway in the worker: the state written so far reaches the page, the next plan starts from it", { timeout: 180_000 }, async () => {
  await page.getByTestId("reset-state").click();
  await page.getByTestId("editor").fill(MIDWAY);
  await run("apply");
  assert.equal(await engineState(), "error");
  assert.match(await page.getByTestId("engine-summary").textContent(), /^Stopped: Out of memory\./);
  assert.match((await page.getByTestId("engine-diagnostic").allTextContents())[0], /While applying, the WebAssembly module/);
  // The page kept what the apply had written, as onState last had it in the worker: a's
  // instances created before b stopped the module (onState is paced, drive.rs: objects written
  // within a few ms of the stop may not have been passed yet), and no b.
  await page.getByTestId("state-details").locator("summary").click();
  const state = JSON.parse(await filledText(page.getByTestId("state-json")));
  const a = state.resources.find((r) => r.name === "a");
  const created = a?.instances.map((i) => i.index_key) ?? [];
  assert.ok(created.length >= 1 && created.every((k) => [0, 1, 2].includes(k)), JSON.stringify(state.resources));
  assert.equal(state.resources.find((r) => r.name === "b"), undefined);
  assert.match(await page.getByTestId("state-info").textContent(), new RegExp(`kept for this configuration: serial \\d+, ${created.length} object`));
  await page.getByTestId("engine-diagnostic").first().scrollIntoViewIfNeeded();
  await shot("engine-stopped-apply.png");
  // The next plan, in the same worker, starts from that state: only what is missing is created.
  await page.getByTestId("editor").fill(MIDWAY.replace(/name = length\(.*\)\)/, 'name = "b"'));
  await run("plan");
  assert.equal(await engineState(), "done");
  const changes = await page.getByTestId("change").evaluateAll((rows) => rows.map((r) => `${r.dataset.address} ${r.dataset.actions}`));
  const missing = [0, 1, 2].filter((k) => !created.includes(k)).map((k) => `mock_resource.a[${k}] create`);
  assert.deepEqual(changes.filter((c) => !c.endsWith(" no-op")), [...missing, "mock_resource.b create"]);
  await shot("engine-after-stopped-apply.png");
  assert.deepEqual(problems, []);
});
