// plan() and apply() in headless Chromium (Debian's, through playwright-core): the package
// imported by a page as a browser user imports it, the apply walk on the browser's own timers
// (the page keeps running while it waits), an abort, and a JS provider.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { openBrowser } from "./browser.mjs";

const fixture = (path) => readFileSync(new URL(`../fixtures/engine/${path}`, import.meta.url), "utf8");
const FAN_OUT = { "main.tf": fixture("fan-out-parallelism-3/step1/config/main.tf") };
const FAN_OUT_STATE = JSON.parse(fixture("fan-out-parallelism-3/step1/state.tfstate"));

let browser, page, problems;

before(async () => {
  browser = await openBrowser({ viewport: null });
  ({ page, problems } = browser);
  // A same-origin document with nothing else on it; the test imports the package into it.
  await page.goto(`${browser.url}pkg/package.json`);
});

after(() => browser?.close());

test("plan and apply run in the browser on its timers, at most `parallelism` at once, and the page stays live", async () => {
  const out = await page.evaluate(async (files) => {
    const { plan, apply } = await import("/pkg/index.js");
    const p = await plan(files, { mock: { delayMs: 40 } });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    let inFlight = 0;
    let most = 0;
    const t0 = performance.now();
    const r = await apply(p, {
      parallelism: 3,
      onEvent(e) {
        if (e.kind === "start") most = Math.max(most, ++inFlight);
        if (e.kind === "finish") inFlight--;
      },
    });
    clearInterval(timer);
    return { text: p.toString(), changes: p.changes.length, state: r.state, most, max: r.report.maxConcurrency, ms: performance.now() - t0, ticks, diagnostics: r.diagnostics, progress: r.report.progress };
  }, FAN_OUT);
  assert.equal(out.changes, 8);
  assert.match(out.text, /Plan: 8 to add, 0 to change, 0 to destroy\./);
  assert.deepEqual(out.diagnostics, []);
  assert.equal(out.most, 3);
  assert.equal(out.max, 3);
  // root, two rounds of three leaves, join: four delays at least.
  assert.ok(out.ms >= 4 * 40 * 0.9, `${out.ms} ms`);
  assert.ok(out.ticks >= 5, `the page's own timer ticked ${out.ticks} times during the apply`);
  const norm = (s) => ({ ...s, lineage: "-", terraform_version: "-" });
  assert.deepEqual(norm(out.state), norm(FAN_OUT_STATE));
  assert.match(out.progress, /Apply complete! Resources: 8 added, 0 changed, 0 destroyed\./);
  // Page errors only: the JSON document this runs in makes Chromium ask for a favicon (a 404).
  assert.deepEqual(problems.filter((p) => p.startsWith("pageerror")), []);
});

test("an AbortController stops the apply in the browser and the state keeps what finished", async () => {
  const out = await page.evaluate(async (files) => {
    const { apply } = await import("/pkg/index.js");
    const controller = new AbortController();
    const r = await apply(files, {
      parallelism: 3, mock: { delayMs: 30 }, signal: controller.signal,
      onEvent: (e) => e.kind === "finish" && e.address === "mock_resource.root" && controller.abort(),
    });
    return { summaries: r.diagnostics.map((d) => d.summary), instances: r.state.resources.flatMap((x) => x.instances).length, cancelled: r.report.events.filter((e) => e.kind === "cancel").length };
  }, FAN_OUT);
  assert.deepEqual(out.summaries, ["execution halted"]);
  assert.equal(out.instances, 1);
  assert.equal(out.cancelled, 7);
});

test("a JS provider answers from the page", async () => {
  const out = await page.evaluate(async () => {
    const { apply } = await import("/pkg/index.js");
    const files = { "main.tf": 'terraform {\n  required_providers {\n    pet = { source = "example/pet" }\n  }\n}\nresource "pet_dog" "rex" {\n  name = "rex"\n}\n' };
    const pet = {
      schema: () => ({ resources: { pet_dog: { attributes: { name: { type: "string", required: true }, id: { type: "string", computed: true } } } } }),
      planResourceChange: async ({ config }) => ({ planned: { value: config.value, unknown: { id: true } } }),
      applyResourceChange: async ({ planned }) => {
        await new Promise((r) => setTimeout(r, 5));
        return { newState: { value: { ...planned.value, id: `dog-${planned.value.name}` } } };
      },
      readResource: async ({ state }) => ({ newState: state }),
      readDataSource: async () => { throw new Error("no data sources"); },
    };
    const r = await apply(files, { providers: { "example/pet": pet } });
    return { diagnostics: r.diagnostics, attributes: r.state.resources[0]?.instances[0]?.attributes };
  });
  assert.deepEqual(out.diagnostics, []);
  assert.deepEqual(out.attributes, { id: "dog-rex", name: "rex" });
});

test("in the page: a JS provider beside the mock, configured per alias, and plan events arriving live", async () => {
  const out = await page.evaluate(async () => {
    const { apply, plan } = await import("/pkg/index.js");
    const files = {
      "main.tf": [
        'terraform {\n  required_providers {\n    pet = { source = "example/pet" }\n  }\n}',
        'provider "pet" {\n  owner = "ann"\n}',
        'provider "pet" {\n  alias = "bob"\n  owner = "bob"\n}',
        'resource "mock_resource" "kennel" {\n  name = "kennel"\n}',
        'resource "pet_dog" "rex" {\n  name = "rex-${mock_resource.kennel.id}"\n}',
        'resource "pet_dog" "fido" {\n  provider = pet.bob\n  name = "fido"\n}',
      ].join("\n"),
    };
    const owners = new Map();
    const configured = [];
    const pet = {
      schema: () => ({
        provider: { attributes: { owner: { type: "string", required: true } } },
        resources: { pet_dog: { attributes: { name: { type: "string", required: true }, owner: { type: "string", computed: true }, id: { type: "string", computed: true } } } },
      }),
      configure: async ({ config, provider }) => {
        configured.push(config.value.owner);
        owners.set(provider, config.value.owner);
      },
      // What the configuration does not know yet stays unknown (else Terraform's "Provider
      // produced invalid plan": rex's name waits for the kennel's id).
      planResourceChange: async ({ config, prior, provider }) => ({ planned: { value: { ...config.value, owner: owners.get(provider), id: prior?.value.id ?? null }, unknown: prior ? { ...config.unknown } : { ...config.unknown, id: true } } }),
      applyResourceChange: async ({ planned, prior }) => (planned ? { newState: { value: { ...planned.value, id: planned.value.id ?? `dog-${planned.value.name}` } } } : { newState: null }),
      readResource: async ({ state }) => {
        // The page's event for this refresh arrived before the provider was asked.
        reads.push(events.some((e) => e.kind === "start" && e.priorId === state.value.id));
        return { newState: state };
      },
      readDataSource: async () => { throw new Error("no data sources"); },
    };
    const events = [];
    const reads = [];
    const r = await apply(files, { providers: { "example/pet": pet } });
    const again = await plan(files, { state: r.state, providers: { "example/pet": pet }, onEvent: (e) => events.push(e) });
    return {
      diagnostics: r.diagnostics,
      owners: Object.fromEntries(r.state.resources.filter((x) => x.type === "pet_dog").map((x) => [x.name, x.instances[0].attributes.owner])),
      kennel: r.state.resources.find((x) => x.type === "mock_resource").provider,
      configured: configured.sort(),
      changes: again.hasChanges,
      reads,
      events: events.map((e) => [e.kind, e.address]),
    };
  });
  assert.deepEqual(out.diagnostics, []);
  assert.deepEqual(out.owners, { fido: "bob", rex: "ann" });
  assert.equal(out.kennel, 'provider["registry.terraform.io/hashicorp/mock"]');
  // plan and apply of the first apply, then the second plan: each configuration once per walk.
  assert.deepEqual(out.configured, ["ann", "ann", "ann", "bob", "bob", "bob"]);
  assert.equal(out.changes, false);
  assert.deepEqual(out.reads, [true, true]);
  assert.equal(out.events.filter(([k]) => k === "start").length, 3);
  assert.equal(out.events.filter(([k]) => k === "finish").length, 3);
});
