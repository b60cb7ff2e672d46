// The playground's Plan / Apply tab in Debian's headless Chromium via playwright-core: Plan,
// Apply, Destroy, Cancel and Reset state clicked as a person would, on the recorded scenario
// create-change-destroy (tests/fixtures/engine): the plan text shown must be what Terraform
// printed, the progress lines Terraform's, the state kept and downloadable equal to Terraform's
// state, and the walk animated on the graph. Screenshots go to tests/artifacts/ (look at them).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openBrowser, injected } from "./browser.mjs";
import { apply as applyInNode, evaluate } from "../../pkg/index.js";
import { encodeSession } from "../../www/src/state.js";

const fixture = (step, file) => readFileSync(fileURLToPath(new URL(`../fixtures/engine/create-change-destroy/${step}/${file}`, import.meta.url)), "utf8");
const FILES = { "main.tf": fixture("step1", "config/main.tf") };

let browser, url, context, page, problems, shot;

before(async () => {
  assert.ok(existsSync(fileURLToPath(new URL("../../www/vendor/viz.js", import.meta.url))), "www/vendor/viz.js is missing: run scripts/build");
  browser = await openBrowser({ viewport: { width: 1280, height: 900 } });
  ({ url, context, page, problems, shot } = browser);
  await page.goto(`${url}${encodeSession({ files: FILES, open: "main.tf", view: "resources", reduce: true })}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await page.getByTestId("tab-engine").click();
});

after(() => browser?.close());

const byTestId = (id) => page.getByTestId(id);
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
  assert.match(await byTestId("state-info").textContent(), /kept for this configuration: serial \d+, 4 objects/);
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
  assert.match(await byTestId("state-info").textContent(), /kept for this configuration/);
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

test("the replacement example: create_before_destroy's deposed object animates its own destroy node in the apply view", async () => {
  await byTestId("gallery").selectOption("replace");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await byTestId("view").selectOption("apply");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await click("apply", { delay: 20 });
  assert.equal(await byTestId("engine-summary").textContent(), "Apply complete! Resources: 2 added, 1 changed, 2 destroyed.");
  const log = await byTestId("apply-log").textContent();
  assert.ok(log.indexOf("mock_resource.green: Creation complete") < log.indexOf("mock_resource.green (deposed object"), log);
  assert.ok(log.indexOf("mock_resource.blue: Destruction complete") < log.indexOf("mock_resource.blue: Creating..."), log);
  const deposed = await page.locator("[data-testid=graph-node][data-name^='mock_resource.green (destroy deposed ']").evaluateAll((els) => els.map((e) => [e.dataset.name, e.dataset.state]));
  assert.equal(deposed.length, 1, JSON.stringify(deposed));
  assert.equal(deposed[0][1], "done", JSON.stringify(deposed));
  for (const n of ["mock_resource.blue (destroy)", "mock_resource.blue", "mock_resource.green", "mock_resource.green_attachment"]) assert.equal(await nodeState(n), "done", n);
  await shot("engine-replace-cbd.png");
  await byTestId("view").selectOption("resources");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  assert.deepEqual(problems, []);
});

test("a cycle is refused by Plan with Terraform's error, and Apply applies nothing", async () => {
  await byTestId("gallery").selectOption("cycle");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  for (const id of ["plan", "apply"]) {
    await click(id);
    assert.equal(await panel().getAttribute("data-engine"), "failed", id);
    assert.equal(await byTestId("engine-summary").textContent(), "Planning failed.");
    assert.match(await byTestId("engine-diagnostics").textContent(), /Error: Cycle: aws_security_group\.(app|db), aws_security_group\.(app|db)/);
    assert.equal(await byTestId("apply-log").textContent(), "");
  }
  assert.match(await byTestId("state-info").textContent(), /empty/);
  await shot("engine-cycle.png");
  assert.deepEqual(problems, []);
});

test("module instances animate their resource's node in the resources view", async () => {
  const files = {
    "main.tf": 'module "net" {\n  count  = 2\n  source = "./modules/net"\n  name   = "net-${count.index}"\n}\n\nresource "mock_resource" "app" {\n  name  = "app"\n  input = { nets = join(",", module.net[*].id) }\n}\n',
    "modules/net/main.tf": 'variable "name" {}\n\nresource "mock_resource" "vpc" {\n  name = var.name\n}\n\noutput "id" {\n  value = mock_resource.vpc.id\n}\n',
  };
  await page.goto("about:blank");
  await page.goto(`${url}${encodeSession({ files, open: "main.tf", view: "resources", reduce: true })}`);
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await byTestId("tab-engine").click();
  await byTestId("reset-state").click();
  await click("apply", { delay: 20 });
  assert.equal(await panel().getAttribute("data-engine"), "done");
  assert.equal(await byTestId("engine-summary").textContent(), "Apply complete! Resources: 3 added, 0 changed, 0 destroyed.");
  assert.equal(await nodeState("module.net.mock_resource.vpc"), "done");
  assert.equal(await nodeState("mock_resource.app"), "done");
  assert.match(await byTestId("apply-log").textContent(), /module\.net\[1\]\.mock_resource\.vpc: Creation complete after 0s \[id=net-1-[0-9a-f]{8}\]/);
  await shot("engine-modules.png");
  assert.deepEqual(problems, []);
});

/** Opens `files` in a new document on the Plan / Apply tab, its state empty. */
async function open(files, extra = {}) {
  await page.goto("about:blank");
  await page.goto(`${url}${encodeSession({ files, open: "main.tf", view: "resources", reduce: true, ...extra })}`);
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await byTestId("tab-engine").click();
  await byTestId("reset-state").click();
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
}

test("Reset state draws the graph again without the forgotten state's objects", async () => {
  // An object applied, then its resource removed from the files: an orphan of the kept state
  // in the plan graph until the state is reset.
  await open({ "main.tf": `${FILES["main.tf"]}\nresource "mock_resource" "app" {\n  name = "app"\n}\n` });
  await click("apply", { delay: 0 });
  await byTestId("editor").fill(FILES["main.tf"]);
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  const drawn = () => page.locator("[data-testid=graph-node]").evaluateAll((els) => els.map((e) => e.dataset.name).sort());
  assert.ok((await drawn()).includes("mock_resource.app"), "an orphan of the kept state");
  await byTestId("reset-state").click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=graph-node][data-name="mock_resource.app"]'));
  assert.deepEqual(await drawn(), ["mock_resource.net", "mock_resource.subnet", "mock_resource.web"]);
});

/** The share link of the page now (the Share button's). */
async function shareLink(p = page) {
  await p.getByTestId("share").click();
  return p.getByTestId("share").getAttribute("data-link");
}
const objects = async () => Number(await panel().getAttribute("data-state-objects"));

test("the state is kept per configuration: another link in the same tab starts empty, the same link finds its state", async () => {
  const other = { "main.tf": 'resource "mock_resource" "solo" {\n  name = "solo"\n}\n' };
  await open(FILES);
  await click("apply", { delay: 0 });
  assert.equal(await objects(), 4);
  // Edits keep the configuration's state, and so does a reload of the link they made.
  await byTestId("editor").fill(`${FILES["main.tf"]}\n# edited\n`);
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  const linkA = await shareLink();
  await page.reload();
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await byTestId("tab-engine").click();
  assert.equal(await objects(), 4, "a reload keeps the state");
  // Another configuration's link followed in this tab (only the hash changes): empty state.
  await page.evaluate((hash) => (location.hash = hash), encodeSession({ files: other, open: "main.tf", view: "resources", reduce: true }));
  await page.waitForFunction(() => document.querySelector("[data-testid=editor]").value.includes("solo"), null, { timeout: 60_000 });
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  assert.equal(await objects(), 0);
  assert.match(await byTestId("state-info").textContent(), /empty/);
  await click("apply", { delay: 0 });
  assert.equal(await objects(), 1);
  const linkB = await shareLink();
  // The first link again, loaded as a new document: its state, not the other's.
  await page.goto("about:blank");
  await page.goto(linkA);
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await byTestId("tab-engine").click();
  assert.equal(await objects(), 4);
  assert.ok((await byTestId("editor").inputValue()).includes("# edited"));
  await click("plan");
  assert.equal(await byTestId("engine-summary").textContent(), "No changes. Your infrastructure matches the configuration.");
  // And the second by hash: its own one object.
  await page.evaluate((hash) => (location.hash = hash), new URL(linkB).hash);
  await page.waitForFunction(() => document.querySelector("[data-testid=editor]").value.includes("solo"), null, { timeout: 60_000 });
  assert.equal(await objects(), 1);
  // Reset forgets only this configuration's state.
  await byTestId("reset-state").click();
  await page.evaluate((hash) => (location.hash = hash), new URL(linkA).hash);
  await page.waitForFunction(() => document.querySelector("[data-testid=editor]").value.includes("# edited"));
  assert.equal(await objects(), 4);
  assert.deepEqual(problems, []);
});

test("the console evaluates against the state the last apply made", async () => {
  await open(FILES);
  await click("apply", { delay: 20 });
  assert.equal(await panel().getAttribute("data-engine"), "done");
  const state = await shownState();
  await byTestId("tab-console").click();
  for (const expression of ["mock_resource.net.id", "mock_resource.subnet[*].name", "mock_resource.subnet[1].id", "mock_resource.web.output"]) {
    await byTestId("console-input").fill(expression);
    await byTestId("console-input").press("Enter");
    const expected = evaluate(FILES, expression, { state });
    assert.ok(!expected.unknown, `${expression} is known in the state`);
    assert.equal(await byTestId("console-output").last().textContent(), expected.rendered, expression);
  }
  assert.match(await byTestId("console-output").first().textContent(), /^"net-[0-9a-f]{8}"$/);
  await shot("console-after-apply.png");
  // Reset state: the console is back to the configuration alone.
  await byTestId("tab-engine").click();
  await byTestId("reset-state").click();
  await byTestId("tab-console").click();
  await byTestId("console-input").fill("mock_resource.net.id");
  await byTestId("console-input").press("Enter");
  assert.equal(await byTestId("console-output").last().textContent(), "(known after apply)");
  assert.deepEqual(problems, []);
});

// Six independent objects: with parallelism 10 each create runs from the start, so each bar's
// length is its own jittered delay (500 ms ± 400 ms, drawn from the seed and the object's name:
// 204-791 ms for seed 1, one object 643 ms apart between seeds 1 and 2).
const JITTER = { "main.tf": 'resource "mock_resource" "n" {\n  count = 6\n  name  = "n-${count.index}"\n}\n' };
const MOCK = { delayMs: 500, jitterMs: 400 };

/** Each operation's duration in the timeline the page draws after an apply, by address. */
async function timelineWith(seed) {
  await byTestId("reset-state").click();
  await byTestId("mock-jitter").fill(String(MOCK.jitterMs));
  await byTestId("mock-seed").fill(String(seed));
  await click("apply", { delay: MOCK.delayMs, parallelism: 10 });
  assert.equal(await panel().getAttribute("data-engine"), "done");
  const bars = await page.locator("[data-testid=engine-bar]").evaluateAll((els) => els.map((b) => [b.dataset.address, Number(b.dataset.ms)]));
  assert.equal(bars.length, 6, JSON.stringify(bars));
  return Object.fromEntries(bars);
}
/** The same apply in Node, through the package: durations by address. */
async function durationsInNode(seed) {
  const { report } = await applyInNode(JITTER, { parallelism: 10, mock: { ...MOCK, seed } });
  const start = new Map();
  const out = {};
  for (const e of report.events) {
    if (e.kind === "start") start.set(e.address, e.time);
    else out[e.address] = e.time - start.get(e.address);
  }
  return out;
}
const largestDifference = (a, b) => Math.max(...Object.keys(a).map((k) => Math.abs(a[k] - b[k])));

test("the mock's seeded jitter: the same seed replays the same timeline, another seed changes it", async (t) => {
  await open(JITTER);
  const first = await timelineWith(1);
  await byTestId("engine-timeline").scrollIntoViewIfNeeded();
  await shot("engine-timeline-seed-1.png");
  const again = await timelineWith(1);
  const other = await timelineWith(2);
  const [node1, node2] = [await durationsInNode(1), await durationsInNode(2)];
  // Real timers on a shared machine: a bar may run late by some tens of ms, never by the
  // hundreds the jitter moves it.
  const NOISE = 150;
  t.diagnostic(`largest differences, ms: seed 1 twice ${largestDifference(first, again).toFixed(0)}, page and Node ${largestDifference(first, node1).toFixed(0)} and ${largestDifference(other, node2).toFixed(0)}, seeds 1 and 2 ${largestDifference(first, other).toFixed(0)}`);
  const spread = Math.max(...Object.values(first)) - Math.min(...Object.values(first));
  assert.ok(spread > 2 * NOISE, `the jitter spreads the durations: ${JSON.stringify(first)}`);
  assert.ok(largestDifference(first, again) < NOISE, `seed 1 twice: ${JSON.stringify(first)} vs ${JSON.stringify(again)}`);
  assert.ok(largestDifference(first, node1) < NOISE, `seed 1 in the page and in Node: ${JSON.stringify(first)} vs ${JSON.stringify(node1)}`);
  assert.ok(largestDifference(other, node2) < NOISE, `seed 2 in the page and in Node: ${JSON.stringify(other)} vs ${JSON.stringify(node2)}`);
  assert.ok(largestDifference(first, other) > 2 * NOISE, `seeds 1 and 2 differ: ${JSON.stringify(first)} vs ${JSON.stringify(other)}`);
  assert.deepEqual(problems, []);
});

test("rate limits slow the apply down (backoff) and, past the retries, fail it with Rate exceeded", async () => {
  await open(JITTER);
  await byTestId("mock-jitter").fill("0");
  await byTestId("mock-rate-limit").fill("100");
  await byTestId("mock-retries").fill("1");
  await click("apply", { delay: 10 });
  assert.equal(await panel().getAttribute("data-engine"), "failed");
  assert.match(await byTestId("engine-diagnostics").textContent(), /Error: Rate exceeded/);
  // Every attempt throttled: one backoff of 100 ms before giving up.
  const ms = await page.locator("[data-testid=engine-bar]").evaluateAll((els) => els.map((b) => Number(b.dataset.ms)));
  assert.equal(ms.length, 6);
  for (const m of ms) assert.ok(m >= 100, `${m} ms includes the backoff`);
  assert.equal(await page.locator("[data-testid=engine-bar].failed").count(), 6);
  await byTestId("mock-rate-limit").fill("0");
  await click("apply", { delay: 10 });
  assert.equal(await panel().getAttribute("data-engine"), "done");
  assert.deepEqual(problems, []);
});

test("fail selected: a node chosen on the graph fails in the apply, by its address", async () => {
  await open(FILES);
  await byTestId("mock-fail").fill("");
  assert.equal(await byTestId("mock-fail-selected").isDisabled(), true, "nothing selected yet");
  await node("mock_resource.subnet").click();
  await byTestId("tab-engine").click();
  await byTestId("mock-fail-selected").click();
  assert.equal(await byTestId("mock-fail-addresses").inputValue(), "mock_resource.subnet");
  await click("apply", { delay: 20 });
  assert.equal(await panel().getAttribute("data-engine"), "failed");
  assert.equal(await nodeState("mock_resource.subnet"), "failed");
  assert.equal(await nodeState("mock_resource.web"), "skipped");
  assert.equal(await nodeState("mock_resource.net"), "done");
  const text = await byTestId("engine-diagnostics").textContent();
  for (const i of [0, 1]) assert.ok(text.includes(`Error: mock: injected failure creating 'mock_resource.subnet[${i}]'`), text);
  await shot("engine-fail-selected.png");
  await byTestId("mock-fail-addresses").fill("");
  assert.deepEqual(problems, []);
});

// The generic mock's objects have no `name`: only an address can fail them.
const AWS = {
  "main.tf": `resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
}

resource "aws_subnet" "a" {
  count      = 2
  vpc_id     = aws_vpc.main.id
  cidr_block = cidrsubnet(aws_vpc.main.cidr_block, 8, count.index)
}

resource "aws_instance" "web" {
  count     = 2
  ami       = "ami-123"
  subnet_id = aws_subnet.a[count.index].id
}
`,
};

test("fail selected fails a generic-mock instance with no name: one instance, chosen in the apply view", async () => {
  await open(AWS);
  await byTestId("view").selectOption("apply");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await click("plan");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await node("aws_instance.web[1]").click();
  await byTestId("tab-engine").click();
  await byTestId("mock-fail-selected").click();
  assert.equal(await byTestId("mock-fail-addresses").inputValue(), "aws_instance.web[1]");
  assert.match(await byTestId("engine-summary").textContent(), /fail create operations of aws_instance\.web\[1\] \(1 instance in the last plan\)/);
  await click("apply", { delay: 20 });
  assert.equal(await panel().getAttribute("data-engine"), "failed");
  assert.equal(await nodeState("aws_instance.web[1]"), "failed");
  assert.equal(await nodeState("aws_instance.web[0]"), "done");
  const errors = await page.locator("[data-testid=engine-diagnostic]").allTextContents();
  assert.equal(errors.length, 1, errors.join("\n"));
  assert.match(errors[0], /Error: mock: injected failure creating 'aws_instance\.web\[1\]'.*with aws_instance\.web\[1\].*MOCK_FAIL_ADDRESS contains 'aws_instance\.web\[1\]'/s);
  assert.equal(await objects(), 4, "the vpc, two subnets and web[0]: web[1]'s failed create left no object");
  await shot("engine-fail-generic.png");
  // Deletes too, when the operations to fail say so.
  await byTestId("mock-fail-ops").selectOption("delete");
  await byTestId("mock-fail-addresses").fill("aws_vpc.main");
  await click("destroy", { delay: 0 });
  assert.equal(await panel().getAttribute("data-engine"), "failed");
  assert.match(await byTestId("engine-diagnostics").textContent(), /Error: mock: injected failure deleting 'aws_vpc\.main'/);
  assert.equal(await objects(), 1, "the vpc stays");
  await byTestId("mock-fail-ops").selectOption("create");
  await byTestId("mock-fail-addresses").fill("");
  await byTestId("view").selectOption("resources");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  assert.deepEqual(problems, []);
});

test("-target and -replace: typed, or the selected node's; plans honour them; the share link keeps them", async () => {
  await open(FILES);
  await node("mock_resource.subnet").click();
  await byTestId("tab-engine").click();
  await byTestId("target-selected").click();
  assert.equal(await byTestId("engine-targets").inputValue(), "mock_resource.subnet");
  await click("plan");
  const planned = await byTestId("change").evaluateAll((trs) => trs.map((tr) => tr.dataset.address));
  assert.deepEqual(planned, ["mock_resource.net", "mock_resource.subnet[0]", "mock_resource.subnet[1]"], "the target and what it depends on");
  assert.match(await byTestId("engine-diagnostics").textContent(), /Warning: Resource targeting is in effect/);
  assert.match(await byTestId("plan-text").textContent(), /Plan: 3 to add, 0 to change, 0 to destroy\./);
  await click("apply", { delay: 0 });
  assert.equal(await objects(), 3);
  await byTestId("engine-targets").fill("");
  await click("apply", { delay: 0 });
  assert.equal(await objects(), 4);
  // replace selected: the plan's instances of the node.
  await node("mock_resource.subnet").click();
  await byTestId("tab-engine").click();
  await byTestId("replace-selected").click();
  await page.waitForFunction(() => document.querySelector("[data-testid=engine-replace]").value !== "");
  assert.equal(await byTestId("engine-replace").inputValue(), "mock_resource.subnet[0], mock_resource.subnet[1]");
  await click("plan");
  assert.match(await byTestId("plan-text").textContent(), /# mock_resource\.subnet\[0\] will be replaced, as requested/);
  assert.match(await byTestId("plan-text").textContent(), /Plan: 2 to add, 1 to change, 2 to destroy\./);
  await shot("engine-target-replace.png");
  // Both travel in the share link.
  await byTestId("engine-targets").fill('mock_resource.web, module.m.x.y["a,b"]');
  await byTestId("engine-targets").dispatchEvent("change");
  const link = await shareLink();
  const other = await context.newPage();
  browser.watch(other);
  await other.goto(link);
  await other.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  assert.equal(await other.getByTestId("engine-targets").inputValue(), 'mock_resource.web, module.m.x.y["a,b"]');
  assert.equal(await other.getByTestId("engine-replace").inputValue(), "mock_resource.subnet[0], mock_resource.subnet[1]");
  await other.close();
  // A bad address is Terraform's error, shown with the plan's diagnostics.
  await byTestId("engine-targets").fill("mock_resource");
  await click("plan");
  assert.equal(await panel().getAttribute("data-engine"), "failed");
  assert.match(await byTestId("engine-diagnostics").textContent(), /Error: Invalid target "mock_resource"/);
  await byTestId("engine-targets").fill("");
  // So is a failing address that is none.
  await byTestId("mock-fail-addresses").fill("mock_resource");
  await click("plan");
  assert.equal(await panel().getAttribute("data-engine"), "failed");
  assert.match(await byTestId("engine-diagnostics").textContent(), /Error: Invalid failAddresses entry "mock_resource"/);
  await byTestId("mock-fail-addresses").fill("");
  await byTestId("engine-replace").fill("");
  assert.deepEqual(problems, []);
});

test("XSS probe in the Plan / Apply tab: hostile names and values show as text in the plan, the log, the failure, the timeline and the state", async () => {
  const P = `<img src=x onerror="window.__xss=1">'"<script>window.__xss=2</script>`;
  const files = {
    "main.tf": `resource "mock_resource" "probe" {\n  name  = ${JSON.stringify(P)}\n  input = { ${JSON.stringify(P)} = ${JSON.stringify(P)} }\n}\n\nresource "mock_resource" "ok" {\n  for_each = toset([${JSON.stringify(P)}])\n  name     = "ok"\n}\n`,
  };
  await open(files);
  await page.evaluate(() => (window.__xss = 0));
  await byTestId("mock-fail").fill(P);
  await click("apply", { delay: 20, fail: P });
  assert.equal(await panel().getAttribute("data-engine"), "failed");
  assert.ok((await byTestId("plan-text").textContent()).includes(`name   = "<img src=x onerror=\\"window.__xss=1\\">'\\"<script>window.__xss=2</script>"`));
  assert.ok((await byTestId("engine-diagnostics").textContent()).includes("Error: mock: injected failure creating"));
  assert.ok((await byTestId("engine-diagnostics").textContent()).includes("<script>window.__xss=2</script>"));
  assert.ok((await byTestId("apply-log").textContent()).includes(`mock_resource.ok["<img src=x onerror=\\"window.__xss=1\\">'\\"<script>window.__xss=2</script>"]: Creation complete`));
  const bars = await page.locator("[data-testid=engine-bar]").evaluateAll((els) => els.map((b) => b.dataset.address));
  assert.ok(bars.some((a) => a.includes("<script>")), bars.join(", "));
  assert.ok((await shownState()).resources.some((r) => r.instances.some((i) => i.index_key === P)));
  assert.deepEqual(await injected(page), { xss: 0, imgs: 0, scripts: ["importmap", `${url}src/main.js`], svgForeign: 0 });
  await byTestId("mock-fail").fill("");
  await shot("engine-xss-probe.png");
  assert.deepEqual(problems, []);
});

test("the share link carries parallelism and the mock's knobs", async () => {
  await open(FILES);
  const knobs = { "engine-parallelism": "3", "mock-delay": "250", "mock-jitter": "120", "mock-seed": "42", "mock-rate-limit": "15", "mock-retries": "2", "mock-fail": "web, net", "mock-fail-addresses": "mock_resource.web, mock_resource.subnet[1]" };
  for (const [id, value] of Object.entries(knobs)) await byTestId(id).fill(value);
  await byTestId("mock-fail-ops").selectOption("create,update,delete");
  await byTestId("share").click();
  const link = await byTestId("share").getAttribute("data-link");
  const other = await context.newPage();
  browser.watch(other);
  await other.goto(link);
  await other.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await other.getByTestId("tab-engine").click();
  for (const [id, value] of Object.entries(knobs)) assert.equal(await other.getByTestId(id).inputValue(), value, id);
  assert.equal(await other.getByTestId("mock-fail-ops").inputValue(), "create,update,delete");
  await other.close();
  // A link with settings out of range opens with them clamped, never broken.
  await open(FILES, { engine: { parallelism: 0, delayMs: -5, seed: "x", rateLimit: 7, failNames: [1, " a "] } });
  assert.deepEqual(
    await Promise.all(["engine-parallelism", "mock-delay", "mock-seed", "mock-rate-limit", "mock-fail"].map((id) => byTestId(id).inputValue())),
    ["1", "0", "0", "100", "a"],
  );
  assert.deepEqual(problems, []);
});
