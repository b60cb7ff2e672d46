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

/** The proof configurations (#26), as the JS suite has them (tests/js/limits.test.mjs). */
function proofCases() {
  const chain = (n) => {
    let text = "locals {\n  l0 = 1\n";
    for (let i = 1; i < n; i++) text += `  l${i} = local.l${i - 1} + 1\n`;
    return `${text}}\nresource "mock_resource" "a" {\n  name = local.l${n - 1}\n}\n`;
  };
  const level = (child) => `module "m" {\n  source = "./${child}"\n  count  = 1000\n}\n`;
  const wrapped = (locals, per) => {
    let text = "locals {\n  d0 = 1\n";
    for (let i = 1; i < locals; i++) text += `  d${i} = ${"[".repeat(per)}local.d${i - 1}${"]".repeat(per)}\n`;
    return `${text}}\noutput "o" {\n  value = local.d${locals - 1}\n}\n`;
  };
  const count = (n) => ({ "main.tf": `resource "mock_resource" "a" {\n  count = ${n}\n}\n` });
  return [
    { name: "count = 3000000", files: count(3000000), summary: /^Too many instances$/, at: ["main.tf", 2] },
    { name: "count = 1000000", files: count(1000000), summary: /^Too many instances$/, at: ["main.tf", 2] },
    {
      name: "a 10,000-deep nested expression",
      files: { "main.tf": `resource "mock_resource" "a" {\n  name = ${"[".repeat(10000)}1${"]".repeat(10000)}\n}\n` },
      summary: /too deeply nested/,
      at: ["main.tf", 2],
    },
    // Each local is evaluated at its own node of the graph, after the one it reads (as
    // Terraform's walk does): no chain of evaluations inside evaluations, so this one plans.
    { name: "a chain of 10,000 local values", files: { "main.tf": chain(10000) }, summary: null },
    {
      // 24,000 levels of evaluation before the bounds (src/eval/limits.rs); each local at its
      // node: d1 already nests 201 levels, one error there, and what reads it is skipped.
      name: "120 local values each wrapping the one before in 200 brackets",
      files: { "main.tf": wrapped(120, 200) },
      summary: /^Expression result too large$/,
      at: ["main.tf", 3],
    },
    {
      name: "a template producing 1 GB",
      files: {
        "main.tf": `locals {\n  kb = join("", [for i in range(1024) : "x"])\n}\nresource "mock_resource" "a" {\n  name = "%{for i in range(1000)}%{for j in range(1000)}\${local.kb}%{endfor}%{endfor}"\n}\n`,
      },
      summary: /^Template result too long$/,
      at: ["main.tf", 5],
    },
    {
      name: "a for_each over a 10-million-element set from setproduct",
      files: { "main.tf": 'resource "mock_resource" "a" {\n  for_each = toset([for p in setproduct(range(1000), range(1000), range(10)) : join("-", p)])\n}\n' },
      summary: /^Error in function call$/,
      at: ["main.tf", 2],
    },
    {
      name: "a module tree whose instances multiply to 10^9",
      files: { "main.tf": level("l1"), "l1/main.tf": level("l2"), "l1/l2/main.tf": level("l3"), "l1/l2/l3/main.tf": 'resource "mock_resource" "leaf" {}\n' },
      summary: /^Too many module instances$/,
      at: ["l1/main.tf", 3],
    },
  ];
}

test("the issue's proof configurations in the engine worker: each answered within seconds (a diagnostic, or the plan), a normal plan right after", async () => {
  for (const c of proofCases()) {
    const outcome = await page.evaluate(async ({ files }) => {
      const { runEngine } = await import("/src/engine-client.js");
      const t0 = performance.now();
      const answer = await runEngine("plan", files, {}).then(
        (r) => ({ diagnostics: r.diagnostics }),
        (e) => ({ rejected: e.message, diagnostics: e.diagnostics }),
      );
      const ms = performance.now() - t0;
      const next = await runEngine("plan", { "main.tf": 'resource "mock_resource" "b" {\n  count = 2\n}\n' }, {});
      return { ms, answer, next: next.plan.changes.map((x) => x.address) };
    }, c);
    assert.equal(outcome.answer.rejected, undefined, `${c.name}: ${outcome.answer.rejected}`);
    const errors = outcome.answer.diagnostics.filter((d) => d.severity === "error");
    if (c.summary === null) {
      assert.deepEqual(errors, [], c.name);
    } else {
      assert.equal(errors.length, 1, `${c.name}: ${JSON.stringify(errors)}`);
      assert.match(errors[0].summary, c.summary, c.name);
      assert.deepEqual([errors[0].range?.filename, errors[0].range?.start.line].slice(0, c.at.length), c.at, c.name);
    }
    // Generous: seconds on a quiet machine, the two cores are shared with other runs.
    assert.ok(outcome.ms < 60_000, `${c.name}: ${Math.round(outcome.ms)} ms`);
    assert.deepEqual(outcome.next, ["mock_resource.b[0]", "mock_resource.b[1]"], c.name);
  }
  assert.deepEqual(problems, []);
});

test("a 400 MB state in the engine worker: an answer within seconds, a normal plan right after", async () => {
  const outcome = await page.evaluate(async () => {
    const { runEngine } = await import("/src/engine-client.js");
    // Near the longest string V8 holds (512 MiB - 24 characters): one resource with a huge attribute.
    const big = "x".repeat(400 * 1024 * 1024);
    const state = `{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"l","outputs":{},"resources":[{"mode":"managed","type":"mock_resource","name":"a","provider":"provider[\\"registry.terraform.io/hashicorp/mock\\"]","instances":[{"schema_version":0,"attributes":{"id":"a","name":"${big}"}}]}]}`;
    const t0 = performance.now();
    const answer = await runEngine("plan", { "main.tf": 'resource "mock_resource" "a" {\n  name = "a"\n}\n' }, { state }).then(
      (r) => ({ errored: r.plan.errored, changes: r.plan.changes.map((c) => `${c.address} ${c.actions.join(",")}`), diagnostics: r.diagnostics }),
      (e) => ({ rejected: e.message, diagnostics: e.diagnostics }),
    );
    const ms = performance.now() - t0;
    const next = await runEngine("plan", { "main.tf": 'resource "mock_resource" "b" {\n  count = 2\n}\n' }, {});
    return { ms, answer, next: next.plan.changes.map((x) => x.address) };
  });
  // A plan (the state fits: the name is updated in place) or a rejection saying what ran out.
  if (outcome.answer.rejected) assert.match(outcome.answer.diagnostics?.[0]?.summary ?? "", /Out of memory|Internal error/, JSON.stringify(outcome.answer));
  else assert.deepEqual(outcome.answer.changes, ["mock_resource.a update"], JSON.stringify(outcome.answer.diagnostics));
  assert.ok(outcome.ms < 120_000, `${Math.round(outcome.ms)} ms`);
  assert.deepEqual(outcome.next, ["mock_resource.b[0]", "mock_resource.b[1]"]);
  assert.deepEqual(problems, []);
});

test("hostile states in the engine worker: a diagnostic saying what and where, a normal plan right after", async () => {
  const outcome = await page.evaluate(async () => {
    const { runEngine } = await import("/src/engine-client.js");
    const stateWith = (attr) =>
      `{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"l","outputs":{},"resources":[{"mode":"managed","type":"mock_resource","name":"a","provider":"provider[\\"registry.terraform.io/hashicorp/mock\\"]","instances":[{"schema_version":0,"attributes":{"id":"a","name":"a","x":${attr}}}]}]}`;
    const states = [
      stateWith("[".repeat(10000) + "1" + "]".repeat(10000)),
      stateWith("1").slice(0, 120),
      '{"version":"4","resources":[]}',
      '{"version":4,"resources":[{"mode":"managed","type":"mock_resource","name":"a","instances":{}}]}',
    ];
    const files = { "main.tf": 'resource "mock_resource" "a" {\n  name = "a"\n}\n' };
    const answers = [];
    for (const state of states) {
      answers.push(
        await runEngine("plan", files, { state }).then(
          (r) => ({ errored: r.plan.errored, diagnostics: r.diagnostics }),
          (e) => ({ rejected: e.message }),
        ),
      );
    }
    const next = await runEngine("plan", { "main.tf": 'resource "mock_resource" "b" {\n  count = 2\n}\n' }, {});
    return { answers, next: next.plan.changes.map((x) => x.address) };
  });
  const details = [
    /its JSON nests more than 128 levels deep at line 1 column \d+/,
    /could not be parsed as JSON: syntax error at line 1 column 120\./,
    /The version in the state file is string\. A positive whole number is required\./,
    /^The state file field "resources.instances" has invalid value object$/,
  ];
  outcome.answers.forEach((a, i) => {
    assert.equal(a.rejected, undefined, a.rejected);
    assert.equal(a.errored, true);
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.equal(errors[0].summary, i === 3 ? "Invalid state file format" : "Unsupported state file format");
    assert.match(errors[0].detail, details[i]);
  });
  assert.deepEqual(outcome.next, ["mock_resource.b[0]", "mock_resource.b[1]"]);
  assert.deepEqual(problems, []);
});

test("test() in the engine worker (the Tests tab's route): count = 100000000 fails its run at the count, a trap rejects with what and where, the next run works", async () => {
  const outcome = await page.evaluate(async (files) => {
    const { runTests } = await import("/src/engine-client.js");
    const withTest = { ...files, "tests/a.tftest.hcl": 'run "many" {\n  command = plan\n}\n' };
    const t0 = performance.now();
    const failed = await runTests(withTest, {});
    const ms = performance.now() - t0;
    const stopped = await runTests(withTest, { limits: { instances: 1e9 } }).then(
      () => null,
      (e) => ({ message: e.message, diagnostics: e.diagnostics }),
    );
    const next = await runTests({ "main.tf": 'resource "mock_resource" "b" {}\n', "tests/b.tftest.hcl": 'run "one" {\n  command = plan\n}\n' }, {});
    const run = failed.files[0].runs[0];
    return { ms, status: run.status, diagnostics: run.diagnostics, stopped, next: next.status };
  }, TYPO);
  assert.ok(outcome.ms < 10_000, `${Math.round(outcome.ms)} ms`);
  assert.equal(outcome.status, "error");
  const d = outcome.diagnostics.find((x) => x.severity === "error");
  assert.equal(d.summary, "Too many instances");
  assert.deepEqual([d.range.filename, d.range.start.line], ["main.tf", 2]);
  assert.ok(outcome.stopped, "the trapped run rejected");
  assert.match(outcome.stopped.diagnostics[0].summary, /Out of memory|Internal error/);
  assert.match(outcome.stopped.diagnostics[0].detail, /While running tests, the WebAssembly module .*mock_resource\.a/s);
  assert.equal(outcome.next, "pass");
  assert.deepEqual(problems, []);
});
