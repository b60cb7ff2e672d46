// The engine commands' pure parts, in Node without spawning: Terraform's progress lines and
// elapsed times, word wrapping, the state file's backup and atomic writes, the JSON UI's
// resource addresses, and the oracle's MOCK_* knobs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goDuration, isDataAddress, progressPrinter, truncateId } from "../../pkg/cli/progress.js";
import { wordWrap } from "../../pkg/cli/common.js";
import { parseExact, readStateFile, StateFileError, stateText, stateWriter } from "../../pkg/cli/state-file.js";
import { resourceAddr } from "../../pkg/cli/json-ui.js";
import { mockFromEnv } from "../../pkg/cli/engine.js";

test("goDuration prints whole seconds as Go's time.Duration does", () => {
  for (const [s, text] of [[0, "0s"], [1, "1s"], [59, "59s"], [60, "1m0s"], [61, "1m1s"], [3600, "1h0m0s"], [3723, "1h2m3s"]]) assert.equal(goDuration(s), text);
});

test("data source addresses", () => {
  assert.ok(isDataAddress("data.mock_data.x"));
  assert.ok(isDataAddress('module.a["k"].data.mock_data.x'));
  assert.ok(!isDataAddress("mock_resource.data"));
  assert.ok(!isDataAddress("module.data.mock_resource.x"));
  assert.ok(isDataAddress('module.a["k]"].data.mock_data.x'), "a key holding ]");
  assert.ok(!isDataAddress('module.a["k].data.x"].mock_resource.x'));
});

/** Feeds events to a printer on a fake clock; returns the lines. */
function replay(steps) {
  let t = 0;
  const lines = [];
  const p = progressPrinter({ print: (l) => lines.push(l), now: () => t, stillEveryMs: 10_000 });
  for (const [at, e] of steps) {
    t = at;
    p.event({ deposed: null, priorId: null, id: null, phase: "apply", ...e });
  }
  p.stop();
  return lines;
}

test("the printer prints the engine's lines (src/engine/render/progress.rs writes them) and nothing for events without one", () => {
  const lines = replay([
    [0, { kind: "start", operation: "create", address: "mock_resource.a", line: "mock_resource.a: Creating..." }],
    [400, { kind: "finish", operation: "create", address: "mock_resource.a", id: "a-1", line: "mock_resource.a: Creation complete after 0s [id=a-1]" }],
    [400, { kind: "start", operation: "read", phase: "plan", address: "mock_resource.net", priorId: "n-1", line: "mock_resource.net: Refreshing state... [id=n-1]" }],
    [500, { kind: "finish", operation: "read", phase: "plan", address: "mock_resource.net", priorId: "n-1", id: "n-1" }],
    [500, { kind: "start", operation: "create", address: "mock_resource.e", line: "mock_resource.e: Creating..." }],
    [600, { kind: "fail", operation: "create", address: "mock_resource.e" }],
    [600, { kind: "skip", operation: "create", address: "mock_resource.f" }],
  ]);
  assert.deepEqual(lines, ["mock_resource.a: Creating...", "mock_resource.a: Creation complete after 0s [id=a-1]", "mock_resource.net: Refreshing state... [id=n-1]", "mock_resource.e: Creating..."]);
});

test("a refresh is not an operation that runs: no Still line for it", async () => {
  let t = 0;
  const lines = [];
  const p = progressPrinter({ print: (l) => lines.push(l), now: () => t, stillEveryMs: 40 });
  p.event({ kind: "start", operation: "read", phase: "plan", address: "mock_resource.net", deposed: null, priorId: "n-1", id: null, line: "mock_resource.net: Refreshing state... [id=n-1]" });
  t = 12_000;
  await new Promise((r) => setTimeout(r, 120));
  p.stop();
  assert.deepEqual(lines, ["mock_resource.net: Refreshing state... [id=n-1]"]);
});

test("an operation still running prints Terraform's Still ... line every 10 s", async () => {
  let t = 0;
  const lines = [];
  const p = progressPrinter({ print: (l) => lines.push(l), now: () => t, stillEveryMs: 40 });
  p.event({ kind: "start", operation: "delete", address: "mock_resource.slow", phase: "apply", deposed: null, priorId: "slow-1", id: null, line: "mock_resource.slow: Destroying... [id=slow-1]" });
  t = 12_000;
  await new Promise((r) => setTimeout(r, 120));
  p.stop();
  assert.ok(lines.length >= 2, lines.join("\n"));
  assert.equal(lines[1], "mock_resource.slow: Still destroying... [id=slow-1, 00m12s elapsed]");
});

test("wordWrap wraps as Terraform wrapped its plan note at 78 columns (recorded from terraform 1.11.4)", () => {
  const note = `Note: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly these actions if you run "terraform apply" now.`;
  assert.equal(wordWrap(note), `Note: You didn't use the -out option to save this plan, so Terraform can't\nguarantee to take exactly these actions if you run "terraform apply" now.`);
  assert.equal(wordWrap("short"), "short");
});

test("state file: none, broken, wrong version; writes are atomic and back up the state read", () => {
  const dir = mkdtempSync(join(tmpdir(), "tfgraph-state-"));
  const path = join(dir, "terraform.tfstate");
  assert.deepEqual(readStateFile(path), { state: null, text: null });
  writeFileSync(path, "{ not json");
  assert.throws(() => readStateFile(path), (e) => e instanceof StateFileError && e.diagnostic.summary === "Unsupported state file format" && /could not be parsed as JSON/.test(e.diagnostic.detail));
  writeFileSync(path, JSON.stringify({ version: 9 }));
  assert.throws(() => readStateFile(path), /uses format version 9/);
  writeFileSync(path, JSON.stringify({ serial: 1 }));
  assert.throws(() => readStateFile(path), /does not have a "version" attribute/);

  // First run: no state before, so no backup.
  const fresh = mkdtempSync(join(tmpdir(), "tfgraph-state-"));
  const p2 = join(fresh, "terraform.tfstate");
  const w = stateWriter(p2, readStateFile(p2));
  assert.equal(w.write({ version: 4, serial: 1, resources: [] }), true);
  assert.deepEqual(readdirSync(fresh), ["terraform.tfstate"]);
  // Next run: the state read is kept as .backup before the first write, once.
  const original = readFileSync(p2, "utf8");
  const w2 = stateWriter(p2, readStateFile(p2));
  assert.equal(w2.write({ version: 4, serial: 1, resources: [] }), false, "an unchanged state is not written");
  w2.write({ version: 4, serial: 2, resources: [] });
  w2.write({ version: 4, serial: 3, resources: [] });
  assert.deepEqual(readdirSync(fresh).sort(), ["terraform.tfstate", "terraform.tfstate.backup"]);
  assert.equal(readFileSync(`${p2}.backup`, "utf8"), original);
  assert.equal(JSON.parse(readFileSync(p2, "utf8")).serial, 3);
});

test("JSON UI resource addresses as Terraform's views/json names them", () => {
  assert.deepEqual(resourceAddr('module.net[0].mock_resource.subnet["a.b"]'), {
    addr: 'module.net[0].mock_resource.subnet["a.b"]',
    module: "module.net[0]",
    resource: 'mock_resource.subnet["a.b"]',
    implied_provider: "mock",
    resource_type: "mock_resource",
    resource_name: "subnet",
    resource_key: "a.b",
  });
  const d = resourceAddr("data.aws_ami.u[2]");
  assert.equal(d.module, "");
  assert.equal(d.resource_type, "aws_ami");
  assert.equal(d.resource_key, 2);
});

test("the mock's knobs from the oracle's environment variables", () => {
  assert.deepEqual(mockFromEnv({}), {});
  assert.deepEqual(mockFromEnv({ MOCK_DELAY_MS: "300", MOCK_DELAY_BY_NAME: "slow=900, b=5", MOCK_FAIL_NAME: "broken,x", MOCK_FAIL_OPS: "update" }), {
    delayMs: 300,
    delayByName: { slow: 900, b: 5 },
    failNames: ["broken", "x"],
    failOps: ["update"],
  });
  assert.deepEqual(mockFromEnv({ MOCK_FAIL_ADDRESS: 'aws_instance.web[1], module.m.aws_subnet.a["y,z"],,x.y["a\\"],b"]' }), {
    failAddresses: 'aws_instance.web[1], module.m.aws_subnet.a["y,z"],,x.y["a\\"],b"]',
  }, "as given: the package splits it (tests/js/engine.test.mjs)");
  assert.deepEqual(mockFromEnv({ MOCK_FAIL_ADDRESS: " " }), {});
});

test("state files are written as Terraform writes them: byte for byte on every recorded state, whatever the key order given", () => {
  const root = new URL("../fixtures/engine/", import.meta.url);
  const sortKeys = (v) => (Array.isArray(v) ? v.map(sortKeys) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v);
  let n = 0;
  for (const scenario of readdirSync(root)) {
    if (scenario.includes(".")) continue;
    for (const step of readdirSync(new URL(`${scenario}/`, root))) {
      const file = new URL(`${scenario}/${step}/state.tfstate`, root);
      let text;
      try {
        // The fixtures' placeholder for the version (their README) back to a version.
        text = readFileSync(file, "utf8").replace('"<terraform_version>"', '"1.11.4"');
      } catch {
        continue;
      }
      assert.equal(stateText(sortKeys(JSON.parse(text))), text, `${scenario}/${step}`);
      n++;
    }
  }
  assert.ok(n >= 30, `${n} states`);
  assert.equal(stateText({ version: 4, outputs: { o: { value: "<a&b>", type: "string" } } }), '{\n  "version": 4,\n  "outputs": {\n    "o": {\n      "value": "\\u003ca\\u0026b\\u003e",\n      "type": "string"\n    }\n  }\n}\n');
});

test("a state given as JSON text is written with every digit of its numbers, in Go's layout", () => {
  const text = '{"version":4,"outputs":{"9":{"value":12345678901234567890,"type":"number"},"10":{"value":[0.30000000000000004,-1e+29,{"__proto__":1.50}],"type":"x"}}}';
  const written = stateText(text);
  assert.equal(written, stateText(JSON.parse(text)).replace("12345678901234567000", "12345678901234567890").replace("1.5\n", "1.50\n"), "as from the object, but for the digits");
  assert.match(written, /"value": 12345678901234567890,/);
  assert.match(written, /"__proto__": 1\.50\n/);
  for (const bad of ["{", '{"a":1,}', "[1] x", '{"a" 1}', "[1,]", "tru"]) assert.throws(() => parseExact(bad), SyntaxError, bad);
  assert.deepEqual(JSON.parse(JSON.stringify(parseExact('{"a":[true,null,"x\\"y"]}'))), { a: [true, null, 'x"y'] });
});

test("truncateId keeps an id's start and end as Terraform's does", () => {
  assert.equal(truncateId("short", 80), "short");
  const id = "x".repeat(50) + "y".repeat(50);
  const t = truncateId(id, 80);
  assert.equal([...t].length, 80);
  assert.equal(t, `${"x".repeat(39)}...${"y".repeat(38)}`);
  assert.equal(truncateId("abcdefghij", 7), "ab...ij");
});
