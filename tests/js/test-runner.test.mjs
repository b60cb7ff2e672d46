// test() as a user imports it: the scenarios recorded with Terraform 1.11.4 in
// tests/fixtures/test (README there) run through the package: the text terraform test prints,
// the exit code, every run's status; onEvent's order; and bad input as diagnostics.
import { test as nodeTest } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "../../pkg/index.js";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/test");
// As tests/testing_fixtures.rs lists them (none today).
const GAPS = new Set([]);

function readScenario(dir) {
  const files = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(dir, p).split("\\").join("/");
      if (rel === "expected") continue;
      if (statSync(p).isDirectory()) walk(p);
      else files[rel] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  const expected = (f) => readFileSync(join(dir, "expected", f), "utf8");
  return { files, expected };
}

function flagsOf(dir) {
  try {
    return readFileSync(join(dir, "expected/flags"), "utf8").split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
}

for (const name of readdirSync(fixtures).filter((n) => statSync(join(fixtures, n)).isDirectory())) {
  nodeTest(`terraform test scenario ${name}`, { skip: GAPS.has(name) && "listed gap (tests/testing_fixtures.rs)" }, async () => {
    const { files, expected } = readScenario(join(fixtures, name));
    // `expected/flags`: the recording's other flags (`-verbose`), as tests/testing_fixtures.rs reads them.
    const result = await test(files, { verbose: flagsOf(join(fixtures, name)).includes("-verbose") });
    assert.equal(result.stdout, expected("test.stdout"));
    assert.equal(result.stderr, expected("test.stderr"));
    assert.equal(result.exitCode, Number(expected("exitcode").trim()));
    // Each run's status as the JSON lines recorded it.
    const want = expected("test.jsonl")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((l) => l.type === "test_run" && l.test_run.progress === "complete")
      .map((l) => `${l.test_run.path}/${l.test_run.run}: ${l.test_run.status}`);
    const got = result.files.flatMap((f) => f.runs.map((r) => `${f.path}/${r.name}: ${r.status}`));
    assert.deepEqual(got, want);
  });
}

nodeTest("test(): events in order, outputs and states of runs", async () => {
  const { files } = readScenario(join(fixtures, "basic"));
  const events = [];
  const result = await test(files, { onEvent: (e) => events.push([e.type, e.run ?? e.file, e.progress ?? e.status].filter(Boolean).join(" ")) });
  assert.deepEqual(events, [
    "abstract",
    "file tests/main.tftest.hcl starting",
    "run plan_defaults starting",
    "run plan_defaults complete",
    "run apply_named starting",
    "run apply_named complete",
    "run from_previous starting",
    "run from_previous complete",
    "file tests/main.tftest.hcl teardown",
    "run from_previous teardown",
    "file tests/main.tftest.hcl complete",
    "summary pass",
  ]);
  const runs = result.files[0].runs;
  assert.equal(runs[1].outputs.name, "beta");
  assert.equal(runs[2].outputs.name, "beta-2");
  assert.equal(runs[0].state, null, "a plan run leaves no state");
  assert.equal(runs[2].state.resources[0].instances[0].attributes.name, "beta-2");
});

nodeTest("test(): with verbose, each run's plan as terraform plan prints it", async () => {
  const { files } = readScenario(join(fixtures, "basic"));
  assert.deepEqual((await test(files)).files[0].runs.map((r) => r.plan), [null, null, null], "no plans without verbose");
  const [planned, applied, again] = (await test(files, { verbose: true })).files[0].runs;
  // Terraform's -verbose text after run "plan_defaults" (tests/fixtures/test/verbose): the plan.
  const recorded = readFileSync(join(fixtures, "verbose/expected/test.stdout"), "utf8");
  const afterPlanRun = recorded.slice(recorded.indexOf("\n\nTerraform used") + 2, recorded.indexOf('  run "apply_named"'));
  assert.equal(planned.plan.trim(), afterPlanRun.trim());
  assert.match(planned.plan, /# mock_resource\.a will be created\n {2}\+ resource "mock_resource" "a" \{/);
  assert.match(planned.plan, /\+ name {2,}= "alpha"/);
  assert.match(planned.plan, /Plan: 1 to add, 0 to change, 0 to destroy\./);
  assert.match(applied.plan, /\+ name {2,}= "beta"/);
  // The third run updates the applied object in place.
  assert.match(again.plan, /# mock_resource\.a will be updated in-place/);
  assert.match(again.plan, /Plan: 0 to add, 1 to change, 0 to destroy\./);
});

nodeTest("test(): variables, filter and test directory", async () => {
  const { files } = readScenario(join(fixtures, "failing"));
  const only = await test(files, { filter: ["tests/a.tftest.hcl"] });
  assert.deepEqual(only.files.map((f) => f.path), ["tests/a.tftest.hcl"]);
  // A -var value overrides the module's default (no file or run value here): output.name is now
  // "gamma", and only the assertion on var.name == "alpha" fails.
  const withVar = await test(files, { filter: ["tests/a.tftest.hcl"], variables: { name: "gamma" } });
  assert.deepEqual(withVar.files[0].runs[0].diagnostics.map((d) => d.detail), ["unused"]);
  const moved = { "main.tf": files["main.tf"], "spec/a.tftest.hcl": files["tests/a.tftest.hcl"] };
  assert.equal((await test(moved)).files.length, 0);
  assert.equal((await test(moved, { testDirectory: "spec" })).files.length, 1);
});

nodeTest("test(): bad input is a diagnostic, never a throw", async () => {
  const base = { "main.tf": 'resource "mock_resource" "a" {\n  name = "a"\n}\n' };
  for (const text of ["run {", 'run "x" {\n  command = destroy\n}\n', 'run "x" {\n  assert {\n  }\n}\n', "\u0000\u0001", 'run "a" {}\nrun "a" {}\n']) {
    const r = await test({ ...base, "tests/x.tftest.hcl": text });
    assert.equal(r.exitCode, 1, text);
    assert.ok(r.diagnostics.some((d) => d.severity === "error" && d.range?.filename === "tests/x.tftest.hcl"), text);
  }
  await assert.rejects(() => test({ "main.tf": 1 }), TypeError);
});
