// `tfgraph test` spawned as a user runs it, on the scenarios recorded with Terraform 1.11.4 in
// tests/fixtures/test: stdout after the mocks notice, stderr, the exit code, --json lines and
// the --junit-xml file (run times aside).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(repo, "pkg/cli.js");
const fixtures = join(repo, "tests/fixtures/test");
// As tests/testing_fixtures.rs lists them (none today).
const GAPS = new Set([]);
const run = (args) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
const NOTICE = "tfgraph: providers without a mock_provider block are served by tfgraph's in-memory mocks, not by the real providers.\n";

for (const name of readdirSync(fixtures).filter((n) => statSync(join(fixtures, n)).isDirectory())) {
  test(`tfgraph test ${name}`, { skip: GAPS.has(name) && "listed gap (tests/testing_fixtures.rs)" }, () => {
    const dir = join(fixtures, name);
    const expected = (f) => readFileSync(join(dir, "expected", f), "utf8");
    // `expected/flags`: the recording's other flags (`-verbose`), spelled as tfgraph's (`--verbose`).
    const flags = existsSync(join(dir, "expected/flags")) ? expected("flags").split(/\s+/).filter(Boolean).map((f) => `-${f}`) : [];
    const r = run(["test", dir, ...flags]);
    assert.equal(r.stdout, NOTICE + expected("test.stdout"));
    assert.equal(r.stderr, expected("test.stderr"));
    assert.equal(r.status, Number(expected("exitcode").trim()));
  });
}

test("tfgraph test --json and --junit-xml", () => {
  const dir = join(fixtures, "failing");
  const r = run(["test", dir, "--json"]);
  assert.equal(r.status, 1);
  const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.ok(lines.every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(l["@timestamp"])));
  const summary = lines.at(-1);
  assert.deepEqual(summary.test_summary, { status: "error", passed: 1, failed: 2, errored: 3, skipped: 3 });
  const out = join(mkdtempSync(join(tmpdir(), "tfgraph-test-")), "junit.xml");
  assert.equal(run(["test", dir, "--junit-xml", out]).status, 1);
  const strip = (x) => x.replace(/ time="[^"]*" timestamp="[^"]*"/g, "");
  assert.equal(readFileSync(out, "utf8"), strip(readFileSync(join(dir, "expected/junit.xml"), "utf8")));
});

test("tfgraph test: usage errors", () => {
  const r = run(["test", "/nonexistent/dir"]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /does not exist/);
  assert.equal(run(["test", "--help"]).status, 0);
});
