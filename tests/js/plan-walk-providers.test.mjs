// JS providers awaited by the plan walk (issue #24): a provider's promise is awaited where its
// node runs, so an independent resource plans meanwhile (up to `parallelism`), a provider's
// configure() runs when the walk reaches its node (after what its block references is
// planned), a configure() that rejects fails the resources it serves and nothing else, and a
// plan that throws or rejects is the provider's error diagnostic on that instance.

import { test } from "node:test";
import assert from "node:assert/strict";
import { plan } from "../../pkg/index.js";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A JsProvider of `x_thing` (name in, id computed) logging when each call begins and ends. */
function logged({ slow = {}, configure, rejectPlan } = {}) {
  const log = [];
  const thing = { attributes: { name: { type: "string", required: true }, id: { type: "string", computed: true } } };
  return {
    log,
    schema: () => ({ provider: { attributes: { region: { type: "string", optional: true } } }, resources: { x_thing: thing } }),
    async configure({ config, alias }) {
      log.push(`configure ${alias ?? "default"} ${config.unknown.region ? "(unknown)" : config.value.region}`);
      await sleep(5);
      if (configure) configure(config);
    },
    async planResourceChange({ config }) {
      const name = config.unknown.name ? "(unknown)" : config.value.name;
      log.push(`begin ${name}`);
      await sleep(slow[name] ?? 0);
      if (rejectPlan === name) throw new Error(`x: cannot plan ${name}`);
      log.push(`end ${name}`);
      return { planned: { value: { ...config.value }, unknown: { ...config.unknown, id: true } } };
    },
    applyResourceChange: ({ planned }) => ({ newState: { value: { ...planned.value, id: `id-${planned.value.name}` } } }),
    readResource: ({ state }) => ({ newState: state }),
    readDataSource: () => ({}),
  };
}

const HEAD = 'terraform {\n  required_providers {\n    x = { source = "acme/x" }\n  }\n}\n';
const thing = (name, value) => `resource "x_thing" "${name}" {\n  name = ${value}\n}\n`;

test("a slow plan of one resource does not hold up an independent one, up to parallelism", async () => {
  const files = { "main.tf": HEAD + thing("slow", '"slow"') + thing("fast", '"fast"') + thing("next", '"next-${x_thing.fast.name}"') };
  const x = logged({ slow: { slow: 150 } });
  const p = await plan(files, { providers: { "acme/x": x } });
  assert.deepEqual(p.diagnostics, []);
  assert.deepEqual(p.changes.map((c) => [c.address, c.actions[0]]), [["x_thing.fast", "create"], ["x_thing.next", "create"], ["x_thing.slow", "create"]]);
  // fast, and next (which waits for fast only), are planned while slow's promise is pending.
  const at = (entry) => x.log.indexOf(entry);
  assert.ok(at("begin slow") >= 0 && at("end slow") >= 0, x.log.join(", "));
  assert.ok(at("end fast") < at("end slow"), x.log.join(", "));
  assert.ok(at("end next-fast") < at("end slow"), x.log.join(", "));
  assert.ok(at("begin next-fast") > at("end fast"), "next waits for what it reads");
  // One node at a time: the walk's slot is held while its provider is awaited.
  const one = logged({ slow: { slow: 50 } });
  const serial = await plan(files, { providers: { "acme/x": one }, parallelism: 1 });
  assert.deepEqual(serial.diagnostics, []);
  const calls = one.log.filter((e) => !e.startsWith("configure"));
  for (let i = 0; i < calls.length; i += 2) {
    assert.equal(calls[i].replace("begin", "end"), calls[i + 1], `parallelism 1: ${calls.join(", ")}`);
  }
});

test("a provider is configured when the walk reaches its node: after what its block reads is planned, before what it serves", async () => {
  const files = {
    "main.tf":
      'terraform {\n  required_providers {\n    x = { source = "acme/x" }\n    y = { source = "acme/y" }\n  }\n}\n' +
      thing("home", '"eu-${var.n}"') +
      'variable "n" {\n  default = "1"\n}\nprovider "y" {\n  region = x_thing.home.name\n}\nresource "y_thing" "there" {\n  name = "there"\n}\n' +
      thing("other", '"other"'),
  };
  const x = logged({ slow: { "eu-1": 60 } });
  const base = logged();
  const y = { ...base, schema: () => ({ ...base.schema(), resources: { y_thing: base.schema().resources.x_thing } }) };
  const p = await plan(files, { providers: { "acme/x": x, "acme/y": y } });
  assert.deepEqual(p.diagnostics, []);
  assert.deepEqual(p.changes.map((c) => c.address), ["x_thing.home", "x_thing.other", "y_thing.there"]);
  assert.deepEqual(base.log, ["configure default eu-1", "begin there", "end there"]);
  // x's default configuration has no block reading anything: configured first, and its other
  // resource is planned while home's plan is pending.
  assert.deepEqual(x.log.slice(0, 1), ["configure default null"]);
  assert.ok(x.log.indexOf("end other") < x.log.indexOf("end eu-1"), x.log.join(", "));
});

test("a provider whose configure() rejects fails the resources it serves, and only those", async () => {
  const files = {
    "main.tf":
      'terraform {\n  required_providers {\n    x = { source = "acme/x" }\n  }\n}\nprovider "x" {\n  alias  = "bad"\n  region = "nowhere"\n}\n' +
      thing("ok", '"ok"') +
      'resource "x_thing" "refused" {\n  provider = x.bad\n  name     = "refused"\n}\n' +
      thing("after", "x_thing.refused.name") +
      'resource "mock_resource" "m" {\n  name = x_thing.ok.name\n}\n',
  };
  const x = logged({ configure: (config) => { if (config.value.region === "nowhere") throw new Error("x: no region nowhere"); } });
  const p = await plan(files, { providers: { "acme/x": x } });
  assert.equal(p.errored, true);
  assert.deepEqual(p.diagnostics.map((d) => [d.severity, d.summary, d.address]), [["error", "x: no region nowhere", 'provider["registry.terraform.io/acme/x"].bad']]);
  assert.deepEqual(p.changes.map((c) => c.address), ["mock_resource.m", "x_thing.ok"]);
  assert.ok(!x.log.includes("begin refused") && !x.log.includes("begin after"), x.log.join(", "));
});

test("a JS provider's plan that throws or rejects is its error on that instance, with the resource's range; the rest is planned", async () => {
  const files = { "main.tf": HEAD + thing("bad", '"bad"') + thing("good", '"good"') + thing("later", "x_thing.bad.id") };
  const x = logged({ rejectPlan: "bad", slow: { bad: 10 } });
  const p = await plan(files, { providers: { "acme/x": x } });
  assert.equal(p.errored, true);
  assert.deepEqual(p.diagnostics.map((d) => [d.severity, d.summary, d.address, d.range?.start.line]), [["error", "x: cannot plan bad", "x_thing.bad", 6]]);
  assert.match(p.diagnostics[0].detail, /^provider\["registry\.terraform\.io\/acme\/x"\]\.planResourceChange\(\) failed for a x_thing: x: cannot plan bad$/);
  assert.deepEqual(p.changes.map((c) => c.address), ["x_thing.good"]);
  assert.match(p.toString(), /Terraform planned the following actions, but then encountered a problem:/);
  // Thrown synchronously: the same.
  const sync = { ...logged(), planResourceChange: ({ config }) => { if (config.value.name === "bad") throw new TypeError("boom"); return { planned: { value: config.value, unknown: { id: true } } }; } };
  const q = await plan(files, { providers: { "acme/x": sync } });
  assert.deepEqual(q.diagnostics.map((d) => [d.summary, d.address]), [["boom", "x_thing.bad"]]);
  assert.deepEqual(q.changes.map((c) => c.address), ["x_thing.good"]);
});
