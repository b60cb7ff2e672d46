// The Plan / Apply tab colours the nodes the apply walk runs, from the walk's own events
// (`onWalkEvent`, issue #24), in Debian's headless Chromium via playwright-core: in the apply
// view a configuration with a provider block and a module is applied, and its nodes that run no
// provider operation (the provider's configuration and its `(close)`, the module's close, the
// variable, the local, the output, the root) are coloured as the walk reaches them, the
// provider before its resources and its close after them. Screenshots go to tests/artifacts/.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openBrowser } from "./browser.mjs";
import { encodeSession } from "../../www/src/state.js";

const FILES = {
  "main.tf": `variable "prefix" {
  default = "p"
}

locals {
  name = "\${var.prefix}-app"
}

provider "mock" {}

module "net" {
  source = "./modules/net"
  name   = "net"
}

resource "mock_resource" "app" {
  name  = local.name
  input = { net = module.net.id }
}

output "app" {
  value = mock_resource.app.id
}
`,
  "modules/net/main.tf": `variable "name" {}

resource "mock_resource" "vpc" {
  name = var.name
}

output "id" {
  value = mock_resource.vpc.id
}
`,
};

const PROVIDER = 'provider["registry.terraform.io/hashicorp/mock"]';
const CLOSE = `${PROVIDER} (close)`;

let browser, page, problems, shot;

before(async () => {
  browser = await openBrowser({ viewport: { width: 1280, height: 900 } });
  ({ page, problems, shot } = browser);
  await page.goto(`${browser.url}${encodeSession({ files: FILES, open: "main.tf", view: "apply", reduce: true })}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await page.getByTestId("tab-engine").click();
  await page.getByTestId("reset-state").click();
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
});

after(() => browser?.close());

/** Every drawn node's state now: name -> state (null: not coloured). */
const states = () => page.locator("[data-testid=graph-node]").evaluateAll((els) => Object.fromEntries(els.map((g) => [g.dataset.name, g.dataset.state ?? null])));

test("Apply colours the provider, its close and the module's nodes from the walk's events", async () => {
  await page.getByTestId("mock-delay").fill("400");
  await page.getByTestId("engine-parallelism").fill("10");
  // Every 20 ms while the apply runs: the drawn nodes' states (the apply view is drawn again
  // for the plan before the walk starts).
  const samples = page.evaluate(
    () =>
      new Promise((resolve) => {
        const out = [];
        let running = false;
        const t = setInterval(() => {
          const s = {};
          for (const g of document.querySelectorAll("[data-testid=graph-node]")) s[g.dataset.name] = g.dataset.state ?? null;
          out.push(s);
          const e = document.querySelector("[data-testid=engine]").dataset.engine;
          running ||= e === "running";
          if (running && e !== "running") {
            clearInterval(t);
            resolve(out);
          }
        }, 20);
      }),
  );
  await page.getByTestId("apply").click();
  // Mid-walk: the first resource is running, the provider is done, its close waits.
  await page.waitForFunction((name) => [...document.querySelectorAll("[data-testid=graph-node]")].some((g) => g.dataset.name === name && g.dataset.state === "running"), "module.net.mock_resource.vpc", { timeout: 20_000 });
  const mid = await states();
  await shot("engine-walk-events-running.png");
  await page.waitForFunction(() => document.querySelector("[data-testid=engine]").dataset.engine !== "running", null, { timeout: 60_000 });
  const seen = await samples;
  assert.equal(await page.getByTestId("engine").getAttribute("data-engine"), "done");
  assert.equal(await page.getByTestId("engine-summary").textContent(), "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.");

  assert.equal(mid[PROVIDER], "done", `mid-walk: ${JSON.stringify(mid)}`);
  assert.equal(mid[CLOSE], null, "the provider's close waits for its resources");
  assert.equal(mid["mock_resource.app"], "pending", "app waits for the module");

  const end = await states();
  for (const n of [PROVIDER, CLOSE, "module.net (close)", "module.net.mock_resource.vpc", "mock_resource.app", "var.prefix", "local.name (expand)", "output.app (expand)", "module.net (expand)", "root"]) {
    assert.equal(end[n], "done", `${n}: ${JSON.stringify(end)}`);
  }
  // Every drawn node ran (the apply view draws the graph the walk walks).
  assert.deepEqual(Object.entries(end).filter(([, s]) => s !== "done"), []);

  // In the walk's order: the provider done before any resource ran, its close only after the
  // last resource was done.
  const first = (pred) => seen.findIndex(pred);
  const providerDone = first((s) => s[PROVIDER] === "done");
  const vpcRunning = first((s) => s["module.net.mock_resource.vpc"] === "running");
  const appDone = first((s) => s["mock_resource.app"] === "done");
  const closeDone = first((s) => s[CLOSE] === "done");
  assert.ok(providerDone >= 0 && vpcRunning >= 0 && appDone >= 0 && closeDone >= 0, `${providerDone} ${vpcRunning} ${appDone} ${closeDone}`);
  assert.ok(providerDone <= vpcRunning, `provider done (sample ${providerDone}) by the time vpc runs (${vpcRunning})`);
  assert.ok(closeDone >= appDone, `close done (sample ${closeDone}) not before app (${appDone})`);
  assert.ok(seen.slice(0, appDone).every((s) => s[CLOSE] !== "done"), "the close is not done while app runs");
  await shot("engine-walk-events-done.png");
  assert.deepEqual(problems, []);
});

test("in the plan view the walk colours the provider and its close, the operations their resources' nodes", async () => {
  await page.getByTestId("view").selectOption("plan");
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await page.getByTestId("reset-state").click();
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  for (const [name, state] of Object.entries(await states())) assert.equal(state, null, `${name} uncoloured before the apply`);
  await page.getByTestId("mock-delay").fill("0");
  await page.getByTestId("apply").click();
  await page.waitForFunction(() => document.querySelector("[data-testid=engine]").dataset.engine !== "running", null, { timeout: 60_000 });
  assert.equal(await page.getByTestId("engine").getAttribute("data-engine"), "done");
  const end = await states();
  // The plan graph's resource nodes stand for their instances' operations; the provider's
  // nodes have none: only the walk's events colour them.
  for (const n of [PROVIDER, CLOSE, "mock_resource.app (expand)", "module.net.mock_resource.vpc (expand)"]) assert.equal(end[n], "done", `${n}: ${JSON.stringify(end)}`);
  await shot("engine-walk-events-plan-view.png");
  assert.deepEqual(problems, []);
});
