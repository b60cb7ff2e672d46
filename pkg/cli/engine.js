// `tfgraph plan`, `apply` and `destroy`: the package's plan()/apply()/destroy() against the
// built-in mock provider (and a generic mock for every other provider), printing what
// `terraform plan` / `apply` / `destroy -no-color` print, with Terraform's exit codes, state file
// handling (state-file.js), approval prompt (prompt.js) and Ctrl-C (interrupt.js).
//
// The mock provider's knobs come from the environment variables the oracle's mock provider
// reads (MOCK_DELAY_MS, MOCK_DELAY_BY_NAME, MOCK_FAIL_NAME, MOCK_FAIL_OPS), so a scenario
// recorded with real Terraform replays with the same settings; MOCK_FAIL_ADDRESS is ours.

import { join, resolve } from "node:path";
import { stat } from "node:fs/promises";
import * as tfgraph from "../node.js";
import { addVarFiles, err, formatDiagnostic, out, positional, readDir, sortDiagnostics, UsageError, wordWrap } from "./common.js";
import { inputVariables } from "./variables.js";
import { readStateFile, saveState, StateFileError, stateWriter } from "./state-file.js";
import { readPlanFile, writePlanFile } from "./plan-file.js";
import { progressPrinter } from "./progress.js";
import { onInterrupt } from "./interrupt.js";
import { ask, PromptError } from "./prompt.js";
import { jsonUi } from "./json-ui.js";

const COMMON_OPTIONS = {
  state: { type: "string" },
  var: { type: "string", multiple: true },
  "var-file": { type: "string", multiple: true },
  json: { type: "boolean" },
  parallelism: { type: "string" },
  refresh: { type: "string" },
  target: { type: "string", multiple: true },
  replace: { type: "string", multiple: true },
};

const OPTIONS_HELP = `  --state FILE       the state file (default: terraform.tfstate in DIR), written back
                     atomically, the previous one kept as FILE.backup
  --var NAME=VALUE   an input variable (repeatable)
  --var-file FILE    a .tfvars or .tfvars.json file (repeatable)
  --parallelism N    at most N provider operations at once (default 10)
  --refresh=false    do not refresh the prior state through the providers first
  --target=ADDR      plan only this resource, instance or module and what it depends on
                     (repeatable; Terraform's -target)
  --replace=ADDR     replace this resource instance even where an update would do
                     (repeatable; Terraform's -replace)
  --json             Terraform's machine-readable UI: one JSON message per line`;

const MOCK_HELP = `Providers: the built-in mock (hashicorp/mock, Terraform's oracle provider, value for value)
and a generic mock for every other provider. The mock's knobs are the oracle's environment
variables: MOCK_DELAY_MS, MOCK_DELAY_BY_NAME=a=2000,b=50, MOCK_FAIL_NAME=a,b and
MOCK_FAIL_OPS=create,update,delete; and tfgraph's MOCK_FAIL_ADDRESS=aws_instance.web[1],
which fails resource instances by address (a resource's address: all of its instances).
TF_IN_AUTOMATION=1 leaves out the next-step hints.`;

export const ENGINE_COMMANDS = {
  plan: {
    usage: "tfgraph plan [DIR] [--state FILE] [--var NAME=VALUE]... [--var-file FILE]... [--out FILE] [--json] [--destroy] [--parallelism N] [--target ADDR]... [--replace ADDR]... [--detailed-exitcode]",
    help: `Plans as \`terraform plan\` does: refreshes the prior state, then prints the changes that
apply would make. Nothing is written but --out's file.

Options:
  --out FILE           save the plan (JSON: \`terraform show -json\`'s shape plus what applying
                       it needs) for \`tfgraph apply FILE\`
  --destroy            plan to destroy every object in the state
  --detailed-exitcode  exit 0 when there are no changes, 1 on errors, 2 when there are changes
${OPTIONS_HELP}

${MOCK_HELP}`,
    options: { ...COMMON_OPTIONS, out: { type: "string" }, destroy: { type: "boolean" }, "detailed-exitcode": { type: "boolean" } },
  },
  apply: {
    usage: "tfgraph apply [DIR | PLAN_FILE] [--auto-approve] [--state FILE] [--var NAME=VALUE]... [--var-file FILE]... [--json] [--destroy] [--parallelism N] [--target ADDR]... [--replace ADDR]...",
    help: `Applies as \`terraform apply\` does: plans, shows the plan, asks for approval ("yes"), then
makes the changes, printing each operation's progress, and writes the state file. Given a plan
file saved by \`tfgraph plan --out\`, applies exactly that plan without asking (refused when the
state changed since: "Saved plan is stale"). Ctrl-C stops starting new operations and writes
the state; a second Ctrl-C exits at once.

Options:
  --auto-approve     do not ask for approval
  --destroy          apply a destroy plan (as \`tfgraph destroy\`)
${OPTIONS_HELP}

${MOCK_HELP}`,
    options: { ...COMMON_OPTIONS, "auto-approve": { type: "boolean" }, destroy: { type: "boolean" } },
  },
  destroy: {
    usage: "tfgraph destroy [DIR] [--auto-approve] [--state FILE] [--var NAME=VALUE]... [--var-file FILE]... [--json] [--parallelism N] [--target ADDR]...",
    help: `Destroys every object in the state as \`terraform destroy\` does: plans the destruction,
asks for approval ("yes"), destroys in reverse dependency order and writes the state file.

Options:
  --auto-approve     do not ask for approval
${OPTIONS_HELP}

${MOCK_HELP}`,
    options: { ...COMMON_OPTIONS, "auto-approve": { type: "boolean" } },
  },
};

/** True when this version of the package has the engine. */
export const engineAvailable = () => typeof tfgraph.plan === "function" && typeof tfgraph.apply === "function";

/** The mock provider's options from the oracle's MOCK_* environment variables. */
export function mockFromEnv(env = process.env) {
  const mock = {};
  const list = (v) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (env.MOCK_DELAY_MS) mock.delayMs = Number(env.MOCK_DELAY_MS) || 0;
  const byName = list(env.MOCK_DELAY_BY_NAME).map((p) => p.split("=")).filter(([k, v]) => k && v !== undefined);
  if (byName.length) mock.delayByName = Object.fromEntries(byName.map(([k, v]) => [k, Number(v) || 0]));
  if (list(env.MOCK_FAIL_NAME).length) mock.failNames = list(env.MOCK_FAIL_NAME);
  if (list(env.MOCK_FAIL_OPS).length) mock.failOps = list(env.MOCK_FAIL_OPS);
  // As given: the package splits it as the mock splits its knob (outside index brackets).
  if (env.MOCK_FAIL_ADDRESS?.trim()) mock.failAddresses = env.MOCK_FAIL_ADDRESS;
  return mock;
}

/** Throws UsageError for option values no command could run with. */
export function checkEngineArgs(values) {
  parallelismOf(values);
  refreshOf(values);
}

function parallelismOf(values) {
  const p = values.parallelism;
  if (p === undefined) return 10;
  if (!/^[1-9]\d*$/.test(p)) throw new UsageError(`--parallelism must be a positive whole number, not ${JSON.stringify(p)}.`);
  return Number(p);
}

function refreshOf(values) {
  const r = values.refresh;
  if (r === undefined || r === "true") return true;
  if (r === "false") return false;
  throw new UsageError(`--refresh must be true or false, not ${JSON.stringify(r)}.`);
}

/** Prints diagnostics as Terraform does: warnings to stdout, errors to stderr. */
function printDiagnostics(diagnostics, files, ui) {
  for (const d of ui ? diagnostics : sortDiagnostics(diagnostics)) {
    if (ui) ui.diagnostic(d);
    else (d.severity === "error" ? err : out)(formatDiagnostic(d, files));
  }
}

const hasErrors = (diagnostics) => diagnostics.some((d) => d.severity === "error");

/** What every engine command reads first: files, variables, the state file, the mock's knobs. */
async function prepare(values, dir, tokens = []) {
  const { files, root } = await readDir(dir);
  await addVarFiles(files, root, values["var-file"]);
  const variables = await inputVariables(files, root, values, tokens, process.env);
  const statePath = values.state ?? join(dir, "terraform.tfstate");
  const read = readStateFile(statePath);
  return { files, root, variables, statePath, read, state: read.text, parallelism: parallelismOf(values), refresh: refreshOf(values), mock: mockFromEnv(), targets: values.target ?? [], replace: values.replace ?? [] };
}

/** The "─" rule and a hint after a plan (views.OperationHuman.PlanNextStep). */
function planNextStep(outPath) {
  if (process.env.TF_IN_AUTOMATION) return;
  out(`\n${"─".repeat(77)}`);
  if (outPath) {
    out(`\nSaved the plan to: ${outPath}\n\nTo perform exactly these actions, run the following command to apply:\n    tfgraph apply ${JSON.stringify(outPath)}`);
  } else {
    out(wordWrap(`\nNote: You didn't use the --out option to save this plan, so tfgraph can't guarantee to take exactly these actions if you run "tfgraph apply" now.`));
  }
}

/** Runs plan() with its refresh lines printed as they happen. */
async function runPlan(ctx, { destroy, signal, ui }) {
  const printer = progressPrinter({ print: out });
  try {
    return await tfgraph.plan(ctx.files, {
      root: ctx.root,
      state: ctx.state,
      variables: ctx.variables,
      mock: ctx.mock,
      parallelism: ctx.parallelism,
      refresh: ctx.refresh,
      targets: ctx.targets,
      replace: ctx.replace,
      destroy,
      signal,
      onEvent: (e) => (ui ? ui.event(e) : printer.event(e)),
    });
  } finally {
    printer.stop();
  }
}

function stateError(e) {
  if (e instanceof StateFileError) {
    err(formatDiagnostic(e.diagnostic));
    return 1;
  }
  throw e;
}

export async function cmdPlan(args) {
  const [dir = "."] = positional(args.positionals, ["DIR"]);
  let ctx;
  try {
    ctx = await prepare(args.values, dir, args.tokens);
  } catch (e) {
    return stateError(e);
  }
  const ui = args.values.json ? jsonUi() : null;
  const interrupt = onInterrupt();
  let p;
  try {
    p = await runPlan(ctx, { destroy: !!args.values.destroy, signal: interrupt.signal, ui });
  } finally {
    interrupt.dispose();
  }
  if (interrupt.interrupted) {
    // An interrupted plan is not a plan: nothing shown, nothing saved (Terraform: "execution halted").
    printDiagnostics([{ severity: "error", summary: "execution halted", detail: "" }], ctx.files, ui);
    return 1;
  }
  // A plan refused before its walk (a cycle) has no text: Terraform prints and saves no plan.
  const text = p.toString();
  if (ui) ui.plan(p);
  else if (text) out(text);
  printDiagnostics(p.diagnostics, ctx.files, ui);
  if (args.values.out && text) {
    writePlanFile(args.values.out, p, { dir: resolve(dir), root: ctx.root, files: ctx.files, variables: ctx.variables, destroy: !!args.values.destroy, refresh: ctx.refresh, state: ctx.state, targets: ctx.targets, replace: ctx.replace });
  }
  if (p.errored || hasErrors(p.diagnostics)) return 1;
  if (p.hasChanges && !ui) planNextStep(args.values.out);
  if (args.values["detailed-exitcode"]) return p.hasChanges ? 2 : 0;
  return 0;
}

/**
 * Terraform's check that a saved plan still fits the state (backend/local/backend_local.go):
 * another lineage, or another serial, means the state moved on since the plan.
 */
function staleness(planned, current) {
  const prior = { lineage: planned?.lineage ?? "", serial: planned?.serial ?? 0 };
  const now = { lineage: current?.lineage ?? "", serial: current?.serial ?? 0 };
  const firstPlan = prior.lineage === "" && prior.serial === 0;
  if (!firstPlan && prior.lineage !== now.lineage) {
    return { severity: "error", summary: "Saved plan does not match the given state", detail: "The given plan file can not be applied because it was created from a different state lineage." };
  }
  if (prior.serial !== now.serial) {
    return { severity: "error", summary: "Saved plan is stale", detail: "The given plan file can no longer be applied because the state was changed by another operation after the plan was created." };
  }
  return null;
}

/** JSON text with every object's keys sorted: the same diagnostic whichever side serialised it. */
const canonicalJson = (v) => JSON.stringify(v, (_, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));

const sameJson = (a, b) => JSON.stringify({ ...a, timestamp: null }) === JSON.stringify({ ...b, timestamp: null });

export async function cmdApply(args, { destroyCommand = false } = {}) {
  const [target = "."] = positional(args.positionals, [destroyCommand ? "DIR" : "DIR | PLAN_FILE"]);
  const isPlanFile = !destroyCommand && (await stat(target).then((s) => s.isFile(), () => false));
  return isPlanFile ? applyPlanFile(args, target) : applyDir(args, target, destroyCommand || !!args.values.destroy, destroyCommand);
}

async function applyDir(args, dir, destroy, destroyCommand) {
  if (args.values.json && !args.values["auto-approve"]) {
    // Terraform refuses this before doing anything (arguments/apply.go).
    jsonUi().diagnostic({ severity: "error", summary: "Plan file or auto-approve required", detail: "Terraform cannot ask for interactive approval when --json is set. You can either apply a saved plan file, or enable the --auto-approve option." });
    return 1;
  }
  let ctx;
  try {
    ctx = await prepare(args.values, dir, args.tokens);
  } catch (e) {
    return stateError(e);
  }
  const ui = args.values.json ? jsonUi() : null;
  const interrupt = onInterrupt();
  try {
    const p = await runPlan(ctx, { destroy, signal: interrupt.signal, ui });
    if (ui) ui.plan(p);
    else if (p.toString()) out(p.toString());
    // Warnings (or the errors that end it) come after the plan, before any question.
    printDiagnostics(p.diagnostics, ctx.files, ui);
    if (p.errored || hasErrors(p.diagnostics)) return 1;
    if (interrupt.interrupted) {
      printDiagnostics([{ severity: "error", summary: "execution halted", detail: "" }], ctx.files, ui);
      return 1;
    }
    if (p.hasChanges && !args.values["auto-approve"]) {
      const [query, description] = destroy
        ? ["\nDo you really want to destroy all resources?", "Terraform will destroy all your managed infrastructure, as shown above.\nThere is no undo. Only 'yes' will be accepted to confirm."]
        : ["\nDo you want to perform these actions?", "Terraform will perform the actions described above.\nOnly 'yes' will be accepted to approve."];
      let answer;
      try {
        answer = await ask(query, description, interrupt.signal);
      } catch (e) {
        if (!(e instanceof PromptError)) throw e;
        err(formatDiagnostic({ severity: "error", summary: `error asking for approval: ${e.message}` }));
        return 1;
      }
      if (answer !== "yes") {
        out(destroy ? "Destroy cancelled." : "Apply cancelled.");
        return 1;
      }
    }
    return await runApply(ctx, p, { interrupt, ui, destroyCommand });
  } finally {
    interrupt.dispose();
  }
}

async function applyPlanFile(args, path) {
  const { saved, error } = await readPlanFile(path);
  if (error) {
    err(formatDiagnostic(error));
    return 1;
  }
  const meta = saved.tfgraph;
  if (saved.errored) {
    err(formatDiagnostic({ severity: "error", summary: "Cannot apply incomplete plan", detail: "Terraform encountered an error when generating this plan, so it cannot be applied." }));
    return 1;
  }
  const statePath = args.values.state ?? join(meta.dir ?? ".", "terraform.tfstate");
  let read;
  try {
    read = readStateFile(statePath);
  } catch (e) {
    return stateError(e);
  }
  // The state it was planned from, as the state file's text (numbers exact; an object in plan
  // files from before).
  const planned = typeof meta.state === "string" ? JSON.parse(meta.state) : meta.state;
  const stale = staleness(planned, read.state);
  if (stale) {
    err(formatDiagnostic(stale));
    return 1;
  }
  // The plan is made again from what it was made from (the files, variables and prior state
  // saved in it), then applied only if it is the same plan.
  const ctx = { files: meta.files, root: meta.root, variables: meta.variables ?? {}, statePath, read, state: meta.state, parallelism: parallelismOf(args.values), refresh: false, mock: mockFromEnv() };
  const ui = args.values.json ? jsonUi() : null;
  const interrupt = onInterrupt();
  try {
    // With the refresh setting it was made with: a refresh keeps the state's dependencies beside
    // the configuration's in the plan's prior state, so the plan made again would differ.
    // The working directory it was planned in (`path.cwd`), so the plan made again is the same.
    const cwd = typeof meta.dir === "string" ? meta.dir.replaceAll("\\", "/") : undefined;
    const p = await tfgraph.plan(ctx.files, { root: ctx.root, cwd, state: ctx.state, variables: ctx.variables, mock: ctx.mock, parallelism: ctx.parallelism, refresh: meta.refresh ?? false, destroy: !!meta.destroy, targets: meta.targets ?? [], replace: meta.replace ?? [] });
    const { tfgraph: _meta, ...planJson } = saved;
    if (!sameJson(p.toJSON(), planJson)) {
      err(formatDiagnostic({ severity: "error", summary: "Saved plan is stale", detail: "The given plan file can no longer be applied because the state was changed by another operation after the plan was created." }));
      return 1;
    }
    // A complete plan whose apply graph has a cycle is saved, not errored, but cannot apply:
    // Terraform's apply stops building that graph with the same error.
    if (hasErrors(p.diagnostics)) {
      printDiagnostics(p.diagnostics.filter((d) => d.severity === "error"), ctx.files, ui);
      return 1;
    }
    return await runApply(ctx, p, { interrupt, ui, destroyCommand: false });
  } finally {
    interrupt.dispose();
  }
}

/** Applies a plan with live progress lines, writing the state as it goes and at the end. */
async function runApply(ctx, p, { interrupt, ui, destroyCommand }) {
  const writer = stateWriter(ctx.statePath, ctx.read);
  const printer = progressPrinter({ print: out });
  let stopping = false;
  const onAbort = () => {
    if (!ui) out("Stopping operation...");
    stopping = true;
  };
  interrupt.signal.addEventListener("abort", onAbort, { once: true });
  // The state file is written as objects are applied, as Terraform persists after each one
  // (onState comes paced on large states), so a run killed mid-apply leaves what it did; the
  // final state is written once more with any error saving it. Always the engine's text:
  // numbers such as 12345678901234567890 keep every digit.
  let writeError = null;
  const onState = (_, text) => {
    if (writeError) return;
    try {
      writer.write(text);
    } catch (e) {
      writeError = e; // reported by saveState below, with errored.tfstate
    }
  };
  let result;
  try {
    result = await tfgraph.apply(p, {
      state: ctx.state,
      variables: ctx.variables,
      mock: ctx.mock,
      parallelism: ctx.parallelism,
      signal: interrupt.signal,
      onEvent: (e) => (ui ? ui.event(e) : printer.event(e)),
      onState,
    });
  } catch (e) {
    // The module ran out of memory or trapped midway (issue #26): the state it had written
    // reaches the state file, and its diagnostic says what ran out and where.
    if (!(e instanceof tfgraph.TfgraphError)) throw e;
    const saveErrors = e.stateText ? saveState(writer, e.stateText) : [];
    printDiagnostics([...e.diagnostics, ...saveErrors], ctx.files, ui);
    return 1;
  } finally {
    printer.stop();
    interrupt.signal.removeEventListener("abort", onAbort);
  }
  // No state at all (nothing applied to no state): nothing to write, as Terraform writes none.
  const saveErrors = result.state ? saveState(writer, result.stateText) : [];
  // The plan's diagnostics were printed with the plan (or, for a saved plan, not at all, as
  // Terraform); print only what the apply added. Each plan diagnostic accounts for one equal
  // result diagnostic: the apply's final checks repeat the plan's warnings, and those stay.
  const planned = new Map();
  for (const d of p.diagnostics) planned.set(canonicalJson(d), (planned.get(canonicalJson(d)) ?? 0) + 1);
  const added = result.diagnostics.filter((d) => {
    const n = planned.get(canonicalJson(d)) ?? 0;
    if (n > 0) planned.set(canonicalJson(d), n - 1);
    return n === 0;
  });
  const diagnostics = [...added, ...saveErrors];
  if (stopping && !hasErrors(diagnostics)) diagnostics.push({ severity: "error", summary: "execution halted", detail: "" });
  if (hasErrors(diagnostics)) {
    printDiagnostics(diagnostics, ctx.files, ui);
    return 1;
  }
  printDiagnostics(diagnostics, ctx.files, ui);
  const r = result.report;
  if (ui) {
    ui.applied(r, destroyCommand, result.state);
    return 0;
  }
  const summary = destroyCommand ? `Destroy complete! Resources: ${r.destroyed} destroyed.` : `Apply complete! Resources: ${r.imported ? `${r.imported} imported, ` : ""}${r.added} added, ${r.changed} changed, ${r.destroyed} destroyed.`;
  out(`\n${summary}`);
  const outputs = r.progress.indexOf("\nOutputs:\n");
  if (outputs >= 0 && !destroyCommand) process.stdout.write(r.progress.slice(outputs));
  return 0;
}
