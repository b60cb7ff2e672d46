// `tfgraph plan` / `apply` / `destroy` spawned as a user runs them, against the scenarios
// recorded with real Terraform in tests/fixtures/engine (README there): every step planned with
// --out (stdout against `terraform plan`'s, exit codes, errors), the saved plan applied (stdout
// against `terraform apply`'s, elapsed times aside, concurrent lines as sets; stderr; the state
// file written), then the prompt, saved-plan staleness, --detailed-exitcode, --var, --json, the
// state file's backup, and Ctrl-C once and twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "../..");
const cli = join(repo, "pkg/cli.js");
const fixtures = join(repo, "tests/fixtures/engine");
/** The recorded runs' provider delay is 300 ms; a tenth of it keeps the waves and the suite short. */
const SCALE = 0.1;
const BASE_ENV = { ...process.env, NO_COLOR: "1", TF_IN_AUTOMATION: "1" };
for (const k of Object.keys(BASE_ENV)) if (k.startsWith("MOCK_")) delete BASE_ENV[k];

const run = (args, { env = {}, input, cwd } = {}) =>
  spawnSync(process.execPath, [cli, ...args], { input: input ?? "", encoding: "utf8", maxBuffer: 1 << 28, env: { ...BASE_ENV, ...env }, cwd });

const readEnv = (path) =>
  existsSync(path)
    ? Object.fromEntries(
        readFileSync(path, "utf8")
          .split("\n")
          .filter((l) => l.includes("="))
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      )
    : {};

/** The oracle's settings as the mock's environment variables, delays scaled. */
function mockEnv(settings) {
  const env = { MOCK_DELAY_MS: String(Number(settings.DELAY_MS ?? 300) * SCALE) };
  if (settings.FAIL_NAME) env.MOCK_FAIL_NAME = settings.FAIL_NAME;
  if (settings.MOCK_FAIL_OPS) env.MOCK_FAIL_OPS = settings.MOCK_FAIL_OPS;
  if (settings.MOCK_DELAY_BY_NAME) {
    env.MOCK_DELAY_BY_NAME = settings.MOCK_DELAY_BY_NAME.split(",")
      .map((p) => p.split("="))
      .map(([k, v]) => `${k}=${Number(v) * SCALE}`)
      .join(",");
  }
  return env;
}

/** `=== NAME (exit N)` sections of errors.txt. */
function errorSections(path) {
  if (!existsSync(path)) return {};
  const out = {};
  for (const part of readFileSync(path, "utf8").split(/^=== /m).slice(1)) {
    const nl = part.indexOf("\n");
    out[part.slice(0, nl).split(" ")[0]] = part.slice(nl + 1);
  }
  return out;
}

const exitCodes = (path) => Object.fromEntries(readFileSync(path, "utf8").trim().split("\n").map((l) => l.split(" ")).map(([k, v]) => [k, Number(v)]));

/** Elapsed times as `<t>`; deposed keys (random in Terraform, renumbered in the fixtures) as `<k>`. */
const normalise = (text) => text.replace(/after (\d+h)?(\d+m)?\d+s/g, "after <t>").replace(/deposed object [0-9a-f]{8}/g, "deposed object <k>");

/** Refresh lines run concurrently: the run of them at the top of `terraform plan`'s output, sorted. */
function canonicalPlan(text) {
  const lines = normalise(text).split("\n");
  const refresh = (l) => /: (Refreshing state|Reading|Preparing import)\.\.\.|: Read complete after/.test(l);
  let i = 0;
  while (i < lines.length && refresh(lines[i])) i++;
  return [...lines.slice(0, i).sort(), ...lines.slice(i)].join("\n");
}

/**
 * `terraform apply`'s stdout against the recorded one: the summary and outputs exactly; the
 * progress lines (whose order between concurrent operations is not stable) as a multiset, each
 * operation's start before its end, and at most `parallelism` operations in flight.
 */
function assertApplyText(actual, expected, parallelism, where) {
  const split = (t) => {
    const n = normalise(t);
    const at = n.indexOf("\n\n");
    return at < 0 ? [n.trimEnd(), ""] : [n.slice(0, at), n.slice(at)];
  };
  const [progress, rest] = split(actual);
  const [progressWant, restWant] = split(expected);
  assert.equal(rest, restWant, `${where}: apply summary and outputs`);
  const lines = progress.split("\n").filter(Boolean);
  assert.deepEqual([...lines].sort(), progressWant.split("\n").filter(Boolean).sort(), `${where}: apply progress lines (as a set)`);
  const addr = (l) => l.slice(0, l.indexOf(": ")).replace(/ \(deposed object <k>\)$/, "");
  const started = new Map();
  let inFlight = 0;
  let peak = 0;
  for (const [i, l] of lines.entries()) {
    if (/: (Creating|Modifying|Destroying|Reading)\.\.\./.test(l)) {
      started.set(addr(l), i);
      peak = Math.max(peak, ++inFlight);
    } else if (/ complete after <t>/.test(l)) {
      assert.ok(started.has(addr(l)), `${where}: ${l} before its start`);
      started.delete(addr(l));
      inFlight--;
    }
  }
  assert.ok(peak <= parallelism, `${where}: ${peak} operations in flight, parallelism ${parallelism}`);
}

/** A state file without what differs by run (lineage when new, terraform_version). */
function comparableState(state) {
  const { lineage: _l, terraform_version: _v, ...rest } = state;
  // check_results come in Go map order from Terraform (varies by run).
  if (rest.check_results) {
    const byObject = (a, b) => (a.object_addr < b.object_addr ? -1 : 1);
    rest.check_results = [...rest.check_results].sort((a, b) => (a.config_addr < b.config_addr ? -1 : 1)).map((c) => (c.objects ? { ...c, objects: [...c.objects].sort(byObject) } : c));
  }
  return rest;
}

const scenarios = readdirSync(fixtures, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/**
 * Where the package's engine does not yet give what Terraform printed, found by these tests and
 * reported to the engine (issue #11). Each is still checked, as a `todo` subtest: it shows in
 * every run and turns into a plain check by leaving this list.
 */
const NOOP_AT_APPLY = "a planned update that is a no-op at apply is still applied (tests/engine_apply.rs's GAPS)";
const ENGINE_GAPS = {
  "data-depends-on-pending/step3: apply stdout": NOOP_AT_APPLY,
  "data-depends-on-pending/step3: the state written": NOOP_AT_APPLY,
  "data-depends-on-pending/step3: the state file's text": NOOP_AT_APPLY,
  "data-depends-on-module/step3: apply stdout": NOOP_AT_APPLY,
  "data-depends-on-module/step3: the state written": NOOP_AT_APPLY,
  "data-depends-on-module/step3: the state file's text": NOOP_AT_APPLY,
  "data-depends-on-module/step4: apply stdout": NOOP_AT_APPLY,
  "data-depends-on-module/step4: the state written": NOOP_AT_APPLY,
  "data-depends-on-module/step4: the state file's text": NOOP_AT_APPLY,
  "data-depends-on-module/step1: the state written": "the state serial is one more than Terraform's (tests/engine_apply.rs's GAPS)",
  "data-depends-on-module/step1: the state file's text": "the state serial is one more than Terraform's (tests/engine_apply.rs's GAPS)",
};

/** `-target=ADDR` / `-replace=ADDR` of a step's PLAN_ARGS as the command spells them. */
const planArgs = (settings) => (settings.PLAN_ARGS ?? "").split(/\s+/).filter(Boolean).map((a) => {
  assert.match(a, /^-(target|replace)=/, `PLAN_ARGS ${a} is not replayed`);
  return `-${a}`;
});

/** One comparison: a plain assertion, or a `todo` subtest for a known engine gap. */
async function check(t, key, fn) {
  if (!(key in ENGINE_GAPS)) return fn();
  await t.test(key, { todo: ENGINE_GAPS[key] }, () => {
    fn();
    t.diagnostic(`engine gap closed: ${key} now matches Terraform; take it out of ENGINE_GAPS`);
  });
}

for (const name of scenarios) {
  const scenario = readEnv(join(fixtures, name, "scenario.env"));
  const steps = readdirSync(join(fixtures, name)).filter((s) => /^step\d+$/.test(s)).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)));
  for (const step of steps) {
    const where = `${name}/${step}`;
    // Each step starts from the state Terraform left (input.tfstate), so steps are independent.
    test(`${where}: plan --out, then apply of the saved plan, as Terraform printed them`, async (t) => {
      const at = join(fixtures, name, step);
      const settings = { ...scenario, ...readEnv(join(at, "step.env")) };
      const dir = mkdtempSync(join(tmpdir(), `tfgraph-engine-${name}-`));
      cpSync(join(at, "config"), dir, { recursive: true });
      if (existsSync(join(at, "input.tfstate"))) cpSync(join(at, "input.tfstate"), join(dir, "terraform.tfstate"));
      const env = mockEnv(settings);
      const codes = exitCodes(join(at, "exitcodes.txt"));
      const errors = errorSections(join(at, "errors.txt"));

      const planFile = join(dir, "plan.json");
      const args = ["plan", dir, "--out", planFile, "--parallelism", settings.PARALLELISM ?? "10"];
      if (settings.DESTROY === "1") args.push("--destroy");
      if (settings.REFRESH === "0") args.push("--refresh=false");
      args.push(...planArgs(settings));
      const p = run(args, { env });
      assert.equal(p.status, codes.plan, `${where}: plan exit status\n${p.stderr}`);
      const planText = readFileSync(join(at, existsSync(join(at, "plan-cli.txt")) ? "plan-cli.txt" : "plan.txt"), "utf8");
      await check(t, `${where}: plan stdout`, () => assert.equal(canonicalPlan(p.stdout), canonicalPlan(planText)));
      if (codes.plan !== 0) {
        // The names of a cycle come in any rotation and deposed keys differ (the fixtures'
        // README): the cycle's line as a set; ours goes on with the loop explained.
        const cycle = (text) => {
          const m = /^\nError: Cycle: (.*)\n/.exec(text.replace(/deposed [0-9a-f]{8}/g, "deposed <k>"));
          return m && m[1].split(", ").sort();
        };
        if (cycle(errors.plan)) assert.deepEqual(cycle(p.stderr), cycle(errors.plan), `${where}: the cycle`);
        else await check(t, `${where}: plan stderr`, () => assert.equal(p.stderr.trimEnd(), errors.plan.trimEnd()));
        return;
      }
      const saved = JSON.parse(readFileSync(planFile, "utf8"));
      const recorded = JSON.parse(readFileSync(join(at, "plan.json"), "utf8"));
      assert.deepEqual(saved.resource_changes, recorded.resource_changes, `${where}: the saved plan's resource_changes`);

      const a = run(["apply", planFile, "--parallelism", settings.PARALLELISM ?? "10"], { env });
      assert.equal(a.status, codes.apply, `${where}: apply exit status\n${a.stderr}`);
      await check(t, `${where}: apply stdout`, () => assertApplyText(a.stdout, readFileSync(join(at, "apply.txt"), "utf8"), Number(settings.PARALLELISM ?? 10), where));
      if (errors.apply) await check(t, `${where}: apply stderr`, () => assert.equal(a.stderr.trimEnd(), errors.apply.trimEnd()));
      else assert.equal(a.stderr, "", `${where}: apply stderr`);
      let written = readFileSync(join(dir, "terraform.tfstate"), "utf8");
      const state = JSON.parse(written);
      let expectedText = readFileSync(join(at, "state.tfstate"), "utf8");
      const expected = JSON.parse(expectedText);
      await check(t, `${where}: the state written`, () => assert.deepEqual(comparableState(state), comparableState(expected)));
      // Byte for byte as Terraform wrote it, but for the run's own lineage and version.
      // Terraform writes check_results in Go map order (varies by run): where the orders differ,
      // ours is put in Terraform's and both texts compared as JSON writes them.
      const order = (text) => JSON.parse(text).check_results?.map((c) => [c.config_addr, ...(c.objects ?? []).map((o) => o.object_addr)]).join() ?? "";
      if (order(written) !== order(expectedText)) {
        const wanted = JSON.parse(expectedText);
        const ours = JSON.parse(written);
        const rank = new Map(wanted.check_results.map((c, i) => [c.config_addr, i]));
        ours.check_results.sort((a, b) => rank.get(a.config_addr) - rank.get(b.config_addr));
        // ... and so are each one's objects.
        for (const [i, c] of ours.check_results.entries()) {
          const objects = new Map((wanted.check_results[i]?.objects ?? []).map((o, j) => [o.object_addr, j]));
          c.objects?.sort((a, b) => (objects.get(a.object_addr) ?? 0) - (objects.get(b.object_addr) ?? 0));
        }
        [written, expectedText] = [`${JSON.stringify(ours, null, 2)}\n`, `${JSON.stringify(wanted, null, 2)}\n`];
      }
      const runFields = (text) => text.replace(/^ {2}"lineage": ".*",$/m, '  "lineage": "<lineage>",').replace(/^ {2}"terraform_version": ".*",$/m, '  "terraform_version": "<v>",');
      await check(t, `${where}: the state file's text`, () => assert.equal(runFields(written), runFields(expectedText)));
      if (existsSync(join(at, "input.tfstate"))) {
        assert.equal(state.lineage, expected.lineage, `${where}: the lineage is kept`);
        assert.equal(readFileSync(join(dir, "terraform.tfstate.backup"), "utf8"), readFileSync(join(at, "input.tfstate"), "utf8"), `${where}: the backup is the state read`);
      }
    });
  }
}

const FANOUT = `resource "mock_resource" "root" {
  name = "root"
}
resource "mock_resource" "leaf" {
  count = 6
  name  = "leaf-\${count.index}"
  input = { root = mock_resource.root.id }
}
variable "env" {
  type    = string
  default = "dev"
}
output "env" {
  value = var.env
}
`;

function fanout() {
  const dir = mkdtempSync(join(tmpdir(), "tfgraph-engine-cli-"));
  writeFileSync(join(dir, "main.tf"), FANOUT);
  return dir;
}

test("apply asks for approval: only yes proceeds; EOF is an error; --auto-approve skips it", () => {
  const dir = fanout();
  const no = run(["apply", dir], { input: "no\n" });
  assert.equal(no.status, 1);
  assert.match(no.stdout, /\nDo you want to perform these actions\?\n {2}Terraform will perform the actions described above\.\n {2}Only 'yes' will be accepted to approve\.\n\n {2}Enter a value: \nApply cancelled\.\n$/);
  assert.ok(!existsSync(join(dir, "terraform.tfstate")), "nothing written when cancelled");
  const eof = run(["apply", dir]);
  assert.equal(eof.status, 1);
  assert.equal(eof.stderr, "\nError: error asking for approval: EOF\n\n"); // as recorded from terraform 1.11.4
  assert.match(eof.stdout, / {2}Enter a value: $/, "no newline after EOF, as Terraform");
  assert.match(run(["apply", dir], { input: " yes\n" }).stdout, /Apply cancelled\.\n$/, "only yes: Terraform trims the answer's end only");
  const yes = run(["apply", dir], { input: "yes\n" });
  assert.equal(yes.status, 0, yes.stderr);
  assert.match(yes.stdout, /Enter a value: \nmock_resource\.root: Creating\.\.\.\n/);
  assert.match(yes.stdout, /\nApply complete! Resources: 7 added, 0 changed, 0 destroyed\.\n\nOutputs:\n\nenv = "dev"\n$/);
  assert.equal(JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")).resources.length, 2);
  assert.ok(!existsSync(join(dir, "terraform.tfstate.backup")), "no backup of a state that did not exist");
  // No changes: no question asked.
  const again = run(["apply", dir]);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /No changes\. Your infrastructure matches the configuration\./);
  assert.doesNotMatch(again.stdout, /Enter a value/);
  // destroy asks Terraform's destroy question, prints its summary, keeps a backup.
  const d = run(["destroy", dir], { input: "yes\n" });
  assert.equal(d.status, 0, d.stderr);
  assert.match(d.stdout, /\nDo you really want to destroy all resources\?\n {2}Terraform will destroy all your managed infrastructure, as shown above\.\n {2}There is no undo\. Only 'yes' will be accepted to confirm\.\n/);
  assert.match(d.stdout, /\nDestroy complete! Resources: 7 destroyed\.\n$/);
  assert.equal(JSON.parse(readFileSync(join(dir, "terraform.tfstate.backup"), "utf8")).resources.length, 2);
});

test("plan --detailed-exitcode, --var, --var-file, --state, the next-step hints", () => {
  const dir = fanout();
  const changes = run(["plan", dir, "--detailed-exitcode"], { env: { TF_IN_AUTOMATION: "" } });
  assert.equal(changes.status, 2, changes.stderr);
  assert.match(changes.stdout, /Plan: 7 to add, 0 to change, 0 to destroy\./);
  assert.match(changes.stdout, /\n─{77}\n\nNote: You didn't use the --out option to save this plan, so tfgraph can't\nguarantee to take exactly these actions if you run "tfgraph apply" now\.\n$/);
  const stateFile = join(dir, "elsewhere.tfstate");
  assert.equal(run(["apply", dir, "--auto-approve", "--state", stateFile, "--var", "env=prod"]).status, 0);
  assert.equal(JSON.parse(readFileSync(stateFile, "utf8")).outputs.env.value, "prod");
  assert.ok(!existsSync(join(dir, "terraform.tfstate")));
  assert.equal(run(["plan", dir, "--state", stateFile, "--var", "env=prod", "--detailed-exitcode"]).status, 0);
  const varFile = join(dir, "..", `vars-${Date.now()}.tfvars`);
  writeFileSync(varFile, 'env = "prod"\n');
  assert.equal(run(["plan", dir, "--state", stateFile, "--var-file", varFile, "--detailed-exitcode"]).status, 0);
  const changed = run(["plan", dir, "--state", stateFile, "--detailed-exitcode"]);
  assert.equal(changed.status, 2);
  assert.match(changed.stdout, /~ env = "prod" -> "dev"/);
  const broken = run(["plan", join(repo, "tests/fixtures/engine/cycle-refused/step1/config"), "--detailed-exitcode"]);
  assert.equal(broken.status, 1);
});

test("a saved plan applies once; then it is stale, as Terraform says", () => {
  const dir = fanout();
  const planFile = join(dir, "p.json");
  assert.equal(run(["plan", dir, "--out", planFile]).status, 0);
  const first = run(["apply", planFile]);
  assert.equal(first.status, 0, first.stderr);
  assert.doesNotMatch(first.stdout, /Enter a value/);
  const before = readFileSync(join(dir, "terraform.tfstate"), "utf8");
  const again = run(["apply", planFile]);
  assert.equal(again.status, 1);
  assert.equal(again.stderr, "\nError: Saved plan is stale\n\nThe given plan file can no longer be applied because the state was changed by\nanother operation after the plan was created.\n");
  assert.equal(readFileSync(join(dir, "terraform.tfstate"), "utf8"), before, "the state is untouched");
  const notAPlan = join(dir, "main.tf");
  const bad = run(["apply", notAPlan]);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /Error: Failed to load plan file/);
});

test("a broken state file is an error and is left alone", () => {
  const dir = fanout();
  writeFileSync(join(dir, "terraform.tfstate"), "{ not json");
  for (const cmd of [["plan", dir], ["apply", dir, "--auto-approve"], ["destroy", dir, "--auto-approve"]]) {
    const r = run(cmd);
    assert.equal(r.status, 1, cmd.join(" "));
    assert.match(r.stderr, /Error: Unsupported state file format\n\nThe state file could not be parsed as JSON/);
  }
  assert.equal(readFileSync(join(dir, "terraform.tfstate"), "utf8"), "{ not json");
  assert.ok(!existsSync(join(dir, "terraform.tfstate.backup")));
});

test("--json prints Terraform's machine-readable UI", () => {
  const dir = fanout();
  const p = run(["plan", dir, "--json"]);
  assert.equal(p.status, 0, p.stderr);
  const plan = p.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(plan[0].type, "version");
  assert.ok(plan.every((m) => m["@module"] === "terraform.ui" && m["@level"] && m["@timestamp"]));
  assert.deepEqual(plan.filter((m) => m.type === "planned_change").map((m) => m["@message"]).sort(), [
    "mock_resource.leaf[0]: Plan to create", "mock_resource.leaf[1]: Plan to create", "mock_resource.leaf[2]: Plan to create",
    "mock_resource.leaf[3]: Plan to create", "mock_resource.leaf[4]: Plan to create", "mock_resource.leaf[5]: Plan to create",
    "mock_resource.root: Plan to create",
  ]);
  assert.deepEqual(plan.find((m) => m.type === "change_summary").changes, { add: 7, change: 0, import: 0, remove: 0, operation: "plan" });
  const refused = run(["apply", dir, "--json"]);
  assert.equal(refused.status, 1);
  assert.equal(JSON.parse(refused.stdout.trim().split("\n").at(-1)).diagnostic.summary, "Plan file or auto-approve required");
  const a = run(["apply", dir, "--json", "--auto-approve"]);
  assert.equal(a.status, 0, a.stderr);
  const applied = a.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(applied.filter((m) => m.type === "apply_start").length, 7);
  const root = applied.find((m) => m.type === "apply_complete" && m.hook.resource.addr === "mock_resource.root");
  assert.equal(root.hook.id_value, JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")).resources[1].instances[0].attributes.id);
  assert.equal(applied.at(-1).type, "outputs");
  assert.deepEqual(applied.at(-1).outputs.env, { sensitive: false, type: "string", value: "dev" });
});

/** Spawns `apply --auto-approve` and resolves once `ready(stdout)` holds, with the child. */
function spawnApply(dir, env) {
  const child = spawn(process.execPath, [cli, "apply", dir, "--auto-approve", "--parallelism", "2"], { env: { ...BASE_ENV, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  const until = (pred) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timed out; stdout so far:\n${stdout}`)), 20_000);
      const check = () => pred(stdout) && (clearTimeout(t), child.stdout.off("data", check), resolve());
      child.stdout.on("data", check);
      check();
    });
  return { child, until, exited, out: () => stdout, err: () => stderr };
}

test("Ctrl-C: in-flight operations finish, nothing new starts, the state holds everything done", async () => {
  const dir = fanout();
  const a = spawnApply(dir, { MOCK_DELAY_MS: "700" });
  await a.until((s) => /mock_resource\.leaf\[\d\]: Creating\.\.\./.test(s));
  a.child.kill("SIGINT");
  const code = await a.exited;
  assert.equal(code, 1);
  const out = a.out();
  assert.match(out, /\nInterrupt received\.\nPlease wait for Terraform to exit or data loss may occur\.\nGracefully shutting down\.\.\.\n\nStopping operation\.\.\.\n/);
  assert.match(a.err(), /Error: execution halted/);
  assert.doesNotMatch(out, /Apply complete!/);
  const started = [...out.matchAll(/(mock_resource\.\S+): Creating\.\.\./g)].map((m) => m[1]).sort();
  const completed = [...out.matchAll(/(mock_resource\.\S+): Creation complete/g)].map((m) => m[1]).sort();
  assert.deepEqual(completed, started, "everything started before the interrupt finished");
  assert.ok(started.length < 7, `the interrupt stopped new operations (${started.length} started)`);
  const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8"));
  const inState = state.resources.flatMap((r) => r.instances.map((i) => `mock_resource.${r.name}${i.index_key === undefined ? "" : `[${i.index_key}]`}`)).sort();
  assert.deepEqual(inState, completed, "the state holds exactly what was created");
});

test("killed mid-apply, the state file holds every object applied so far (written as it goes, as Terraform persists)", async () => {
  const dir = fanout();
  // The root and two leaves are quick; the four other leaves would take 20 s.
  const slow = [2, 3, 4, 5].map((i) => `leaf-${i}=20000`).join(",");
  const child = spawn(process.execPath, [cli, "apply", dir, "--auto-approve"], { env: { ...BASE_ENV, MOCK_DELAY_MS: "50", MOCK_DELAY_BY_NAME: slow } });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve(signal)));
  const deadline = Date.now() + 15_000;
  while (!/leaf\[0\]: Creation complete[^]*leaf\[1\]: Creation complete|leaf\[1\]: Creation complete[^]*leaf\[0\]: Creation complete/.test(stdout)) {
    assert.ok(Date.now() < deadline, `timed out; stdout so far:\n${stdout}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 300));
  child.kill("SIGKILL");
  assert.equal(await exited, "SIGKILL");
  assert.doesNotMatch(stdout, /Apply complete!/);
  const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8"));
  const inState = state.resources.flatMap((r) => r.instances.map((i) => `${r.name}${i.index_key === undefined ? "" : `[${i.index_key}]`}`)).sort();
  assert.deepEqual(inState, ["leaf[0]", "leaf[1]", "root"]);
});

test("state files keep every digit: 12345678901234567890 and 0.30000000000000004 read and written exactly", () => {
  const dir = mkdtempSync(join(tmpdir(), "tfgraph-engine-cli-"));
  writeFileSync(join(dir, "main.tf"), 'resource "mock_resource" "a" {\n  name = "a"\n}\noutput "big" {\n  value = 12345678901234567890\n}\noutput "sum" {\n  value = 0.1 + 0.2\n}\noutput "d" {\n  value = 0.30000000000000004\n}\n');
  const path = join(dir, "terraform.tfstate");
  const first = run(["apply", dir, "--auto-approve"]);
  assert.equal(first.status, 0, first.stderr);
  const text = readFileSync(path, "utf8");
  // As terraform 1.11.4 writes them (checked by hand: same config, `terraform apply`).
  assert.match(text, /"big": \{\n\s+"value": 12345678901234567890,/);
  assert.match(text, /"sum": \{\n\s+"value": 0\.3,/);
  assert.match(text, /"d": \{\n\s+"value": 0\.30000000000000004,/);
  // Read exactly: a state one unit off is a change, and the apply writes the number back.
  writeFileSync(path, text.replace("12345678901234567890", "12345678901234567891"));
  const p = run(["plan", dir]);
  assert.match(p.stdout, /~ big = 12345678901234567891 -> 12345678901234567890/);
  const planFile = join(dir, "p.json");
  assert.equal(run(["plan", dir, "--out", planFile]).status, 0);
  const saved = run(["apply", planFile]);
  assert.equal(saved.status, 0, saved.stderr);
  assert.equal(readFileSync(path, "utf8").replace(/"serial": \d+/, ""), text.replace(/"serial": \d+/, ""));
  assert.match(readFileSync(`${path}.backup`, "utf8"), /"value": 12345678901234567891,/);
});

test("Ctrl-C twice exits at once", async () => {
  const dir = fanout();
  const a = spawnApply(dir, { MOCK_DELAY_MS: "3000" });
  await a.until((s) => /Creating\.\.\./.test(s));
  const t0 = Date.now();
  a.child.kill("SIGINT");
  await a.until((s) => /Gracefully shutting down/.test(s));
  a.child.kill("SIGINT");
  assert.equal(await a.exited, 1);
  assert.ok(Date.now() - t0 < 2500, "it did not wait for the operation in flight");
  assert.match(a.err(), /Two interrupts received\. Exiting immediately\. Note that data loss may have\noccurred\./);
});

test("--json prints the messages terraform plan -json and apply -json printed (tests/fixtures/cli-json)", () => {
  const recorded = (name) => readFileSync(join(repo, "tests/fixtures/cli-json", name), "utf8");
  const config = (step) => readFileSync(join(fixtures, "create-change-destroy", step, "config/main.tf"), "utf8");
  const sortKeys = (v) => (Array.isArray(v) ? v.map(sortKeys) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v);
  // Timestamps and elapsed seconds vary by run, and so does the order of concurrent messages.
  const messages = (text) =>
    text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((m) => m.type !== "version")
      .map(({ "@timestamp": _t, ...m }) => {
        if (m.hook?.elapsed_seconds !== undefined) m.hook.elapsed_seconds = "<s>";
        m["@message"] = m["@message"].replace(/after \d+s/, "after <s>");
        return JSON.stringify(sortKeys(m));
      })
      .sort();
  const dir = mkdtempSync(join(tmpdir(), "tfgraph-engine-json-"));
  writeFileSync(join(dir, "main.tf"), config("step1"));
  const env = { MOCK_DELAY_MS: "10" };
  const p = run(["plan", dir, "--json"], { env });
  assert.equal(p.status, 0, p.stderr);
  assert.deepEqual(messages(p.stdout), messages(recorded("step1-plan.jsonl")));
  const a = run(["apply", dir, "--json", "--auto-approve"], { env });
  assert.equal(a.status, 0, a.stderr);
  assert.deepEqual(messages(a.stdout), messages(recorded("step1-apply.jsonl")));
  writeFileSync(join(dir, "main.tf"), config("step3"));
  const u = run(["apply", dir, "--json", "--auto-approve"], { env });
  assert.equal(u.status, 0, u.stderr);
  assert.deepEqual(messages(u.stdout), messages(recorded("step3-apply.jsonl")));
  // Import blocks: "Plan to import", `importing`, the import count; no import hook messages.
  const imports = mkdtempSync(join(tmpdir(), "tfgraph-engine-json-import-"));
  writeFileSync(join(imports, "main.tf"), readFileSync(join(fixtures, "import-blocks/step1/config/main.tf"), "utf8"));
  const ip = run(["plan", imports, "--json"], { env });
  assert.equal(ip.status, 0, ip.stderr);
  assert.deepEqual(messages(ip.stdout), messages(recorded("import-plan.jsonl")));
  const ia = run(["apply", imports, "--json", "--auto-approve"], { env });
  assert.equal(ia.status, 0, ia.stderr);
  assert.deepEqual(messages(ia.stdout), messages(recorded("import-apply.jsonl")));
});

test("apply and destroy at the prompt print what terraform apply and destroy printed (tests/fixtures/cli-prompt)", () => {
  const recorded = (name) => readFileSync(join(repo, "tests/fixtures/cli-prompt", name), "utf8");
  const dir = mkdtempSync(join(tmpdir(), "tfgraph-engine-prompt-"));
  writeFileSync(join(dir, "main.tf"), readFileSync(join(fixtures, "create-change-destroy/step1/config/main.tf"), "utf8"));
  const human = { TF_IN_AUTOMATION: "", MOCK_DELAY_MS: "10" };
  const no = run(["apply", dir], { env: human, input: "no\n" });
  assert.equal(no.status, 1);
  assert.equal(no.stdout, recorded("apply-no.txt"));
  // Up to the answer exactly; then the progress lines as a set, the summary exactly.
  const asked = (text) => text.slice(0, text.indexOf("Enter a value: ") + "Enter a value: \n".length);
  const answered = (text) => text.slice(asked(text).length);
  for (const [args, file] of [[["apply", dir], "apply-yes.txt"], [["destroy", dir], "destroy-yes.txt"]]) {
    const r = run(args, { env: human, input: "yes\n" });
    assert.equal(r.status, 0, r.stderr);
    const want = recorded(file);
    assert.equal(canonicalPlan(asked(r.stdout)), canonicalPlan(asked(want)), file);
    assertApplyText(answered(r.stdout), answered(want), 10, file);
  }
});

test("--var text is read as Terraform reads -var: literally for primitive types, as HCL for the others (tests/fixtures/cli-vars)", () => {
  const at = join(repo, "tests/fixtures/cli-vars");
  const r = run(["plan", at, "--var", "n=3", "--var", 'l=["a","b"]', "--var", 'm={a="x"}', "--var", "s=[1]", "--var", "a={k=1}"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, readFileSync(join(at, "plan.txt"), "utf8"));
  const bad = run(["plan", at, "--var", "n=3", "--var", 'l=["a",']);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /Invalid value for --var l \(list\(string\)\)/);
});

test("a state file that cannot be written: errored.tfstate in the working directory, as Terraform", () => {
  const dir = fanout();
  const cwd = mkdtempSync(join(tmpdir(), "tfgraph-engine-cwd-"));
  const r = run(["apply", dir, "--auto-approve", "--state", join(dir, "no-such-dir", "terraform.tfstate")], { cwd });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /\nError: Failed to save state\n\nError saving state: /);
  assert.match(r.stderr, /\nError: Failed to persist state to backend\n\n.*"errored\.tfstate"/s);
  assert.doesNotMatch(r.stdout, /Apply complete!/);
  const saved = JSON.parse(readFileSync(join(cwd, "errored.tfstate"), "utf8"));
  assert.equal(saved.resources.length, 2, "everything created is in errored.tfstate");
});

test("--var and --var-file count in the order given, TF_VAR_ below them all, as Terraform", () => {
  const dir = fanout();
  const file = join(dir, "..", `stage-${process.pid}-${Date.now()}.tfvars`);
  writeFileSync(file, 'env = "stage"\nunused = 1\n');
  const envAfter = (args) => {
    const state = join(mkdtempSync(join(tmpdir(), "tfgraph-engine-order-")), "s.tfstate");
    const r = run(["apply", dir, "--auto-approve", "--state", state, ...args]);
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(readFileSync(state, "utf8")).outputs.env.value;
  };
  assert.equal(envAfter(["--var", "env=prod", "--var-file", file]), "stage");
  assert.equal(envAfter(["--var-file", file, "--var", "env=prod"]), "prod");
  assert.equal(envAfter(["--var-file", file]), "stage");
  // TF_VAR_name: below every other source; undeclared ones are ignored.
  const withEnv = (args, env) => {
    const state = join(mkdtempSync(join(tmpdir(), "tfgraph-engine-order-")), "s.tfstate");
    const r = run(["apply", dir, "--auto-approve", "--state", state, ...args], { env });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(readFileSync(state, "utf8")).outputs.env.value;
  };
  assert.equal(withEnv([], { TF_VAR_env: "qa", TF_VAR_undeclared: "x" }), "qa");
  assert.equal(withEnv(["--var-file", file], { TF_VAR_env: "qa" }), "stage");
  assert.equal(withEnv(["--var", "env=prod"], { TF_VAR_env: "qa" }), "prod");
  writeFileSync(join(dir, "terraform.tfvars"), 'env = "from-tfvars"\n');
  assert.equal(withEnv([], { TF_VAR_env: "qa" }), "from-tfvars");
});

test("--refresh=false plans without refreshing; apply --destroy asks the destroy question and sums up as apply", () => {
  const dir = fanout();
  assert.equal(run(["apply", dir, "--auto-approve"]).status, 0);
  const refreshed = run(["plan", dir]);
  assert.equal((refreshed.stdout.match(/: Refreshing state\.\.\. \[id=/g) ?? []).length, 7);
  const quiet = run(["plan", dir, "--refresh=false"]);
  assert.equal(quiet.status, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stdout, /Refreshing state/);
  assert.match(quiet.stdout, /No changes\. Your infrastructure matches the configuration\./);
  const d = run(["apply", dir, "--destroy"], { input: "yes\n" });
  assert.equal(d.status, 0, d.stderr);
  assert.match(d.stdout, /Do you really want to destroy all resources\?/);
  assert.match(d.stdout, /\nApply complete! Resources: 0 added, 0 changed, 7 destroyed\.\n$/);
});

test("--target and --replace addresses Terraform would refuse are refused before planning, with its words", () => {
  const dir = fanout();
  // `terraform plan -target=nope` / `-replace=module.m` (Terraform 1.11.4 printed these details).
  const target = run(["plan", dir, "--target=nope"]);
  assert.equal(target.status, 1);
  assert.equal(target.stdout, "");
  assert.equal(target.stderr, '\nError: Invalid target "nope"\n\nResource specification must include a resource type and name.\n');
  const replace = run(["plan", dir, "--replace=data.mock_data.d"]);
  assert.equal(replace.status, 1);
  assert.match(replace.stderr, /^\nError: Invalid force-replace address "data\.mock_data\.d"\n\nOnly managed resources can be used with the -replace=\.\.\. option\.\n$/);
  const destroying = run(["destroy", dir, "--auto-approve", "--replace=mock_resource.root"]);
  assert.equal(destroying.status, 1);
  assert.match(destroying.stderr, /Error: Unsupported plan mode\n\nForcing resource instance replacement \(with -replace=\.\.\.\) is allowed only in\nnormal planning mode\.\n$/);
});
