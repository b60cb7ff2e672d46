// The playground's Plan / Apply tab in Debian's headless Chromium via playwright-core: Plan,
// Apply, Destroy, Cancel and Reset state clicked as a person would, on the recorded scenario
// create-change-destroy (tests/fixtures/engine): the plan text shown must be what Terraform
// printed, the progress lines Terraform's, the state kept and downloadable equal to Terraform's
// state, and the walk animated on the graph. Screenshots go to tests/artifacts/ (look at them).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { encodeSession } from "../../www/src/state.js";

const artifacts = fileURLToPath(new URL("../artifacts/", import.meta.url));
const fixture = (step, file) => readFileSync(fileURLToPath(new URL(`../fixtures/engine/create-change-destroy/${step}/${file}`, import.meta.url)), "utf8");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const FILES = { "main.tf": fixture("step1", "config/main.tf") };

let server, url, profile, context, page;
const problems = [];

before(async () => {
  assert.ok(existsSync(fileURLToPath(new URL("../../www/vendor/viz.js", import.meta.url))), "www/vendor/viz.js is missing: run scripts/build");
  mkdirSync(artifacts, { recursive: true });
  ({ server, url } = await startServer({ port: 0 }));
  profile = mkdtempSync(join(tmpdir(), "tfgraph-chromium-"));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console.error: ${m.text()}`));
  page.on("request", (r) => {
    if (!r.url().startsWith(url) && !r.url().startsWith("data:") && !r.url().startsWith("blob:")) problems.push(`foreign request: ${r.url()}`);
  });
  await page.goto(`${url}${encodeSession({ files: FILES, open: "main.tf", view: "resources", reduce: true })}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await page.getByTestId("tab-engine").click();
});

after(async () => {
  await context?.close();
  server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const byTestId = (id) => page.getByTestId(id);
const shot = (name) => page.screenshot({ path: join(artifacts, name) });
const panel = () => page.locator("[data-testid=engine]");
const finished = () => page.waitForFunction(() => ["done", "failed", "cancelled", "error"].includes(document.querySelector("[data-testid=engine]").dataset.engine), null, { timeout: 60_000 });
const node = (name) => page.locator(`[data-testid=graph-node][data-name="${name}"]`);
const nodeState = (name) => page.locator(`[data-testid=graph-node][data-name="${name}"]`).evaluate((g) => g.dataset.state ?? null);
/** The state shown, once its details are opened (the text is made when looked at). */
async function shownState() {
  await byTestId("state-details").evaluate((d) => (d.open = true));
  await page.waitForFunction(() => document.querySelector("[data-testid=state-json]").textContent !== "");
  return JSON.parse(await byTestId("state-json").textContent());
}
/** Terraform's progress text with elapsed times as `<t>` and concurrent lines in a set order. */
const canonical = (text) => text.replace(/after \d+s/g, "after <t>").trim().split("\n").sort().join("\n");
const withoutRunFields = ({ lineage: _l, terraform_version: _v, ...rest }) => rest;

async function click(id, { delay = 0, fail = "", parallelism = 10, during } = {}) {
  await byTestId("mock-delay").fill(String(delay));
  await byTestId("mock-fail").fill(fail);
  await byTestId("engine-parallelism").fill(String(parallelism));
  await byTestId(id).click();
  await during?.();
  await finished();
}

test("Plan shows the plan exactly as terraform plan printed it, and its changes", async () => {
  await click("plan");
  assert.equal(await panel().getAttribute("data-engine"), "done");
  assert.equal(await byTestId("plan-text").textContent(), fixture("step1", "plan.txt"));
  assert.equal(await byTestId("engine-summary").textContent(), "Plan: 4 to add, 0 to change, 0 to destroy.");
  const rows = await byTestId("change").evaluateAll((trs) => trs.map((tr) => `${tr.dataset.actions} ${tr.dataset.address}`));
  assert.deepEqual(rows, ["create mock_resource.net", "create mock_resource.subnet[0]", "create mock_resource.subnet[1]", "create mock_resource.web"]);
  assert.match(await byTestId("state-info").textContent(), /empty/);
  await shot("engine-plan.png");
});

test("Apply animates the walk, prints Terraform's progress lines, and keeps Terraform's state", async () => {
  // Sample the graph's colours while the apply runs (300 ms per provider operation).
  const seen = page.evaluate(
    () =>
      new Promise((resolve) => {
        const states = new Set();
        let running = false;
        const t = setInterval(() => {
          for (const g of document.querySelectorAll("[data-testid=graph-node][data-state]")) states.add(`${g.dataset.name}=${g.dataset.state}`);
          const e = document.querySelector("[data-testid=engine]").dataset.engine;
          running ||= e === "running";
          if (running && e !== "running") {
            clearInterval(t);
            resolve([...states]);
          }
        }, 20);
      }),
  );
  const during = async () => {
    await page.waitForSelector("[data-testid=graph-node][data-state=running]", { timeout: 10_000 });
    await shot("engine-apply-running.png");
  };
  await click("apply", { delay: 300, during });
  const states = await seen;
  for (const s of ["mock_resource.net=running", "mock_resource.subnet=running", "mock_resource.web=running", "mock_resource.web=done"]) assert.ok(states.includes(s), `${s} in ${states.join(", ")}`);
  assert.equal(await panel().getAttribute("data-engine"), "done");
  assert.equal(await byTestId("engine-summary").textContent(), "Apply complete! Resources: 4 added, 0 changed, 0 destroyed.");
  const recorded = fixture("step1", "apply.txt");
  const progress = recorded.slice(0, recorded.indexOf("\nApply complete!"));
  assert.equal(canonical(await byTestId("apply-log").textContent()), canonical(progress));
  assert.deepEqual(withoutRunFields(await shownState()), withoutRunFields(JSON.parse(fixture("step1", "state.tfstate"))));
  assert.match(await byTestId("state-info").textContent(), /this session's: serial \d+, 4 objects/);
  for (const n of ["mock_resource.net", "mock_resource.subnet", "mock_resource.web"]) assert.equal(await nodeState(n), "done");
  await shot("engine-apply.png");
  // The download is the state shown.
  const download = byTestId("state-download");
  assert.equal(await download.getAttribute("download"), "terraform.tfstate");
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  assert.equal(file.suggestedFilename(), "terraform.tfstate");
  assert.deepEqual(JSON.parse(readFileSync(await file.path(), "utf8")), await shownState());
});

test("the state is kept: Plan again has no changes, as Terraform said; it survives a reload", async () => {
  await click("plan");
  assert.equal(await byTestId("plan-text").textContent(), fixture("step2", "plan.txt"));
  await page.reload();
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await byTestId("tab-engine").click();
  assert.match(await byTestId("state-info").textContent(), /4 objects/);
});

test("Destroy destroys in reverse dependency order and empties the state", async () => {
  await click("destroy", { delay: 50 });
  assert.equal(await panel().getAttribute("data-engine"), "done");
  assert.equal(await byTestId("engine-summary").textContent(), "Destroy complete! Resources: 4 destroyed.");
  const log = (await byTestId("apply-log").textContent()).trim().split("\n");
  const at = (line) => log.findIndex((l) => l.startsWith(line));
  assert.ok(at("mock_resource.web: Destruction complete") < at("mock_resource.subnet[0]: Destroying..."));
  assert.ok(at("mock_resource.subnet[1]: Destruction complete") < at("mock_resource.net: Destroying..."));
  assert.equal((await shownState()).resources.length, 0);
});

test("a failing create: the failure shown, dependents skipped, independent work done", async () => {
  await byTestId("reset-state").click();
  await click("apply", { delay: 50, fail: "subnet-1" });
  assert.equal(await panel().getAttribute("data-engine"), "failed");
  assert.match(await byTestId("engine-diagnostics").textContent(), /Error: mock: injected failure creating 'subnet-1'/);
  assert.equal(await nodeState("mock_resource.subnet"), "failed");
  assert.equal(await nodeState("mock_resource.web"), "skipped");
  assert.equal(await nodeState("mock_resource.net"), "done");
  const names = (await shownState()).resources.flatMap((r) => r.instances.map((i) => i.attributes.name)).sort();
  assert.deepEqual(names, ["net", "subnet-0"]);
  await shot("engine-failure.png");
});

test("Cancel stops new operations; what ran is in the state; Reset state forgets it", async () => {
  await byTestId("reset-state").click();
  await byTestId("mock-delay").fill("400");
  await byTestId("mock-fail").fill("");
  await byTestId("engine-parallelism").fill("1");
  await byTestId("apply").click();
  await page.waitForFunction(() => /mock_resource\.net: Creation complete/.test(document.querySelector("[data-testid=apply-log]").textContent), null, { timeout: 30_000 });
  await byTestId("engine-cancel").click();
  await finished();
  assert.equal(await panel().getAttribute("data-engine"), "cancelled");
  const log = await byTestId("apply-log").textContent();
  const done = [...log.matchAll(/(\S+): Creation complete/g)].length;
  assert.ok(done >= 1 && done < 4, log);
  assert.equal((await shownState()).resources.reduce((n, r) => n + r.instances.length, 0), done);
  await byTestId("reset-state").click();
  assert.match(await byTestId("state-info").textContent(), /empty/);
  assert.deepEqual(problems, []);
});

test("another example is another configuration: its state starts empty", async () => {
  await click("apply");
  assert.match(await byTestId("state-info").textContent(), /this session's/);
  await byTestId("gallery").selectOption("plan-apply");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  assert.match(await byTestId("state-info").textContent(), /empty/);
  assert.equal(await byTestId("plan-text").textContent(), "");
  await click("plan");
  assert.equal(await byTestId("engine-summary").textContent(), "Plan: 4 to add, 0 to change, 0 to destroy.");
  assert.deepEqual(problems, []);
});

test("the apply view draws the graph that applies the last plan, and the apply animates its nodes", async () => {
  await byTestId("reset-state").click();
  await byTestId("view").selectOption("apply");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await click("plan");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  const names = await page.locator("[data-testid=graph-node]").evaluateAll((els) => els.map((e) => e.dataset.name));
  for (const n of ["mock_resource.net", "mock_resource.subnet[0]", "mock_resource.subnet[1]", "mock_resource.web"]) assert.ok(names.includes(n), `${n} in ${names.join(", ")}`);
  await click("apply", { delay: 50 });
  for (const n of ["mock_resource.net", "mock_resource.subnet[0]", "mock_resource.subnet[1]", "mock_resource.web"]) assert.equal(await nodeState(n), "done", n);
  await shot("engine-apply-view.png");
  // A replacement: the apply graph has web's destroy node, and the apply colours it.
  await byTestId("editor").fill(FILES["main.tf"].replace('force_new = "v1"', 'force_new = "v2"'));
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await click("plan");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  assert.equal(await byTestId("engine-summary").textContent(), "Plan: 1 to add, 0 to change, 1 to destroy.");
  assert.equal(await node("mock_resource.web (destroy)").count(), 1);
  await click("apply", { delay: 50 });
  assert.equal(await nodeState("mock_resource.web (destroy)"), "done");
  assert.equal(await nodeState("mock_resource.web"), "done");
  assert.equal(await node("mock_resource.net").count(), 0, "no change for net: not in the apply graph");
  await shot("engine-apply-view-replace.png");
  await byTestId("editor").fill(FILES["main.tf"]);
  await byTestId("view").selectOption("resources");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  assert.deepEqual(problems, []);
});
