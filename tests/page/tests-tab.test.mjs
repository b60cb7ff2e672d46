// The playground's Tests tab in Debian's headless Chromium via playwright-core: the gallery's two
// Tests examples (tests/fixtures/test/gallerypass and galleryfail: the same files, and what
// Terraform 1.11.4's `terraform test` did with them) run with Run tests as a person would. The
// statuses shown per run must be Terraform's, and the text the package's test() gives with
// `verbose` (the page asks for each run's plan, so its text is `terraform test -verbose`'s, whose
// fidelity tests/js/test-runner.test.mjs pins on recorded scenarios); a failed assertion's link
// must open its line in the editor; a run's state and plan must open. With no test file, the
// starter is offered and passes. Screenshots go to tests/artifacts/ (look at them).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { filledText, openBrowser } from "./browser.mjs";
import { GALLERY } from "../../www/src/examples.js";
import { test as runTestFiles } from "../../pkg/index.js";

/** What the page should show for `scenario`: test()'s text with `verbose`, as the page asks it. */
async function verboseText(scenario) {
  const files = Object.fromEntries(["main.tf", "tests/main.tftest.hcl"].map((p) => [p, fixture(scenario, p)]));
  const r = await runTestFiles(files, { verbose: true });
  return { stdout: r.stdout, stderr: r.stderr };
}

const fixture = (scenario, path) => readFileSync(fileURLToPath(new URL(`../fixtures/test/${scenario}/${path}`, import.meta.url)), "utf8");

let browser, url, page, problems, shot;

before(async () => {
  browser = await openBrowser({ viewport: { width: 1280, height: 900 } });
  ({ url, page, problems, shot } = browser);
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
});

after(() => browser?.close());

const byTestId = (id) => page.getByTestId(id);
const panel = () => page.locator("[data-testid=tests]");

async function choose(example) {
  await byTestId("gallery").selectOption(example);
  await page.waitForSelector("body[data-graph-ready=true]", { timeout: 60_000 });
  await byTestId("tab-tests").click();
}

async function runTests() {
  await byTestId("run-tests").click();
  await page.waitForFunction(() => ["pass", "fail", "error"].includes(document.querySelector("[data-testid=tests]").dataset.tests), null, { timeout: 60_000 });
}

/** Each run shown as `name status`, in order. */
const shownRuns = () => byTestId("test-run").evaluateAll((items) => items.map((li) => `${li.dataset.run} ${li.dataset.status}`));

/** Terraform's runs from its text: `  run "x"... pass`. */
const terraformRuns = (stdout) => [...stdout.matchAll(/^ {2}run "([^"]+)"\.\.\. (\w+)$/gm)].map((m) => `${m[1]} ${m[2]}`);

test("the gallery's Tests examples hold the recorded scenarios' files", () => {
  for (const [id, scenario] of [["tests", "gallerypass"], ["tests-failing", "galleryfail"]]) {
    const example = GALLERY.find((g) => g.id === id);
    assert.ok(example, id);
    assert.deepEqual(Object.keys(example.files).sort(), ["main.tf", "tests/main.tftest.hcl"]);
    for (const path of Object.keys(example.files)) assert.equal(example.files[path], fixture(scenario, path), `${id}: ${path}`);
  }
});

test("Run tests: every run passes as in terraform test, the text is Terraform's, a state and a plan open", async () => {
  await choose("tests");
  assert.equal(await byTestId("tests-none").isHidden(), true);
  await runTests();
  const stdout = fixture("gallerypass", "expected/test.stdout");
  assert.equal(await panel().getAttribute("data-tests"), "pass");
  assert.deepEqual(await shownRuns(), terraformRuns(stdout));
  assert.equal(await byTestId("tests-summary").textContent(), "Success! 4 passed, 0 failed.");
  // Terraform's text with each run's plan or state after it (-verbose).
  assert.equal(await byTestId("tests-output").textContent(), (await verboseText("gallerypass")).stdout);
  assert.equal(await page.locator("[data-testid=test-file]").getAttribute("data-status"), "pass");
  await shot("tests-pass.png");

  // The apply run's state: Terraform's three web servers and the network, with the mock's id.
  const applied = page.locator('[data-testid=test-run][data-run="apply_prod"]');
  await applied.getByTestId("test-state").locator("summary").click();
  const state = JSON.parse(await filledText(applied.getByTestId("test-state").locator("pre")));
  const addresses = state.resources.flatMap((r) => r.instances.map((i) => `${r.type}.${r.name}${i.index_key === undefined ? "" : `[${i.index_key}]`}`));
  assert.deepEqual(addresses, ["mock_resource.net", "mock_resource.web[0]", "mock_resource.web[1]", "mock_resource.web[2]"]);
  assert.equal(state.resources[0].instances[0].attributes.id, "net-0001");
  // Outputs, and the plan of a plan run as terraform plan prints it.
  await applied.getByTestId("test-outputs").locator("summary").click();
  assert.deepEqual(JSON.parse(await filledText(applied.getByTestId("test-outputs").locator("pre"))).web_names, ["prod-web-0", "prod-web-1", "prod-web-2"]);
  const planned = page.locator('[data-testid=test-run][data-run="plan_defaults"]');
  await planned.getByTestId("test-plan").locator("summary").click();
  const planText = await filledText(planned.getByTestId("test-plan").locator("pre"));
  assert.match(planText, /# mock_resource\.web\[1\] will be created/);
  assert.match(planText, /Plan: 3 to add, 0 to change, 0 to destroy\./);
  await applied.getByTestId("test-state").evaluate((d) => d.scrollIntoView({ block: "start" }));
  await shot("tests-state.png");
  assert.deepEqual(problems, []);
});

test("a failing variant: the failures are Terraform's, and each links to its condition's line", async () => {
  await choose("tests-failing");
  await runTests();
  const stdout = fixture("galleryfail", "expected/test.stdout");
  const shown = await verboseText("galleryfail");
  assert.equal(await panel().getAttribute("data-tests"), "fail");
  assert.deepEqual(await shownRuns(), terraformRuns(stdout));
  assert.equal(await byTestId("tests-summary").textContent(), "Failure! 2 passed, 2 failed.");
  assert.equal(await byTestId("tests-output").textContent(), `${shown.stdout}\n${shown.stderr}`);
  assert.equal(shown.stderr, fixture("galleryfail", "expected/test.stderr"));
  const failures = byTestId("test-failure");
  assert.equal(await failures.count(), 2);
  assert.match(await failures.nth(1).textContent(), /Expected 4 to be 3\./);
  // The second failure's link opens the test file at line 49, the condition selected.
  assert.equal(await failures.nth(1).getByTestId("test-link").textContent(), "tests/main.tftest.hcl:49:21");
  await failures.nth(1).getByTestId("test-link").click();
  assert.equal(await byTestId("filename").textContent(), "tests/main.tftest.hcl");
  const selected = await byTestId("editor").evaluate((t) => t.value.slice(t.selectionStart, t.selectionEnd));
  assert.equal(selected, "length(output.web_names) == 3");
  assert.match(await byTestId("cursor").textContent(), /^Ln 49,/);
  await shot("tests-fail.png");
  // A run's name opens its block.
  await page.locator('[data-testid=test-run][data-run="rejects_unknown_env"] .test-head button').click();
  assert.match(await byTestId("cursor").textContent(), /^Ln 54,/);
  assert.deepEqual(problems, []);
});

test("no test file: a starter is offered, added to the editor, and passes", async () => {
  await choose("plan-apply");
  assert.equal(await byTestId("tests-none").isVisible(), true);
  assert.equal(await byTestId("run-tests").isDisabled(), true);
  await byTestId("add-test").click();
  assert.equal(await byTestId("filename").textContent(), "tests/main.tftest.hcl");
  await page.waitForFunction(() => !document.querySelector("[data-testid=run-tests]").disabled);
  await runTests();
  assert.equal(await panel().getAttribute("data-tests"), "pass");
  assert.deepEqual(await shownRuns(), ["plan pass", "apply pass"]);
  await shot("tests-starter.png");
  assert.deepEqual(problems, []);
});
