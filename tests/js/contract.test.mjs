// The contract at the JS boundary: what the package actually returns has exactly the shape
// pkg/index.d.ts declares. The declarations are written by hand while the objects come from Rust
// (serde derives, the tape, the raw exports), so they can drift apart silently; this test walks
// every value the API returns for a set of rich configurations and checks each key against the
// declared type with TypeScript's own checker: a key emitted but not declared fails, a required
// key declared but never emitted fails, and so does a value of the wrong kind.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { loadConfig, buildGraph, evaluate, walk, TfgraphError, plan, apply } from "../../pkg/index.js";
import { readConfigDir } from "../../pkg/read-dir.js";

const dtsPath = fileURLToPath(new URL("../../pkg/index.d.ts", import.meta.url));
const engineFixtures = fileURLToPath(new URL("../fixtures/engine/", import.meta.url));

const program = ts.createProgram([dtsPath], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"] });
const checker = program.getTypeChecker();
const source = program.getSourceFile(dtsPath);
const exported = new Map(checker.getExportsOfModule(checker.getSymbolAtLocation(source)).map((s) => [s.name, s]));

function declared(name) {
  const symbol = exported.get(name);
  assert.ok(symbol, `pkg/index.d.ts exports no ${name}`);
  return checker.getDeclaredTypeOfSymbol(symbol);
}

function typeOf(symbol) {
  return checker.getTypeOfSymbolAtLocation(symbol, source);
}

/** The declared return type of `Class.method()` or of an exported function. */
function returnOf(owner, method) {
  const type = method ? typeOf(declared(owner).getProperty(method)) : typeOf(exported.get(owner));
  return checker.getNonNullableType(type.getCallSignatures()[0].getReturnType());
}

const F = ts.TypeFlags;
const show = (t) => checker.typeToString(t);

/** Every way `value` differs from `type`, as `path: what` lines (empty when it conforms). */
function mismatches(value, type, path) {
  const out = [];
  const f = type.flags;
  if (f & (F.Any | F.Unknown)) return out;
  if (type.isUnion()) {
    let best = null;
    for (const member of type.types) {
      const m = mismatches(value, member, path);
      if (m.length === 0) return m;
      if (!best || m.length < best.length) best = m;
    }
    return best;
  }
  if (value === null) return f & F.Null ? out : [`${path}: null where ${show(type)} is declared`];
  if (value === undefined) return f & (F.Undefined | F.Void) ? out : [`${path}: undefined where ${show(type)} is declared`];
  if (f & F.StringLiteral) return value === type.value ? out : [`${path}: ${JSON.stringify(value)} where ${show(type)} is declared`];
  if (f & F.NumberLiteral) return value === type.value ? out : [`${path}: ${value} where ${show(type)} is declared`];
  if (f & F.BooleanLiteral) return String(value) === show(type) ? out : [`${path}: ${value} where ${show(type)} is declared`];
  if (f & F.String) return typeof value === "string" ? out : [`${path}: ${typeof value} where string is declared`];
  if (f & F.Number) return typeof value === "number" ? out : [`${path}: ${typeof value} where number is declared`];
  if (f & (F.Null | F.Undefined | F.Void)) return [`${path}: ${typeof value} where ${show(type)} is declared`];
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    if (!Array.isArray(value)) return [`${path}: ${typeof value} where ${show(type)} is declared`];
    const args = checker.getTypeArguments(type);
    value.forEach((v, i) => out.push(...mismatches(v, checker.isTupleType(type) ? args[Math.min(i, args.length - 1)] : args[0], `${path}[${i}]`)));
    return out;
  }
  if (type.symbol?.name === "Map") {
    if (!(value instanceof Map)) return [`${path}: not a Map where ${show(type)} is declared`];
    const [k, v] = checker.getTypeArguments(type);
    for (const [key, val] of value) out.push(...mismatches(key, k, `${path}.keys()`), ...mismatches(val, v, `${path}.get(${JSON.stringify(key)})`));
    return out;
  }
  if (!(f & F.Object) && !type.isIntersection()) return [`${path}: cannot check against ${show(type)}`];
  if (typeof value === "function") return type.getCallSignatures().length ? out : [`${path}: a function where ${show(type)} is declared`];
  if (typeof value !== "object" || Array.isArray(value)) return [`${path}: ${Array.isArray(value) ? "an array" : typeof value} where ${show(type)} is declared`];
  const index = checker.getIndexTypeOfType(type, ts.IndexKind.String);
  for (const key of Object.keys(value)) {
    const prop = type.getProperty(key);
    if (prop) out.push(...mismatches(value[key], typeOf(prop), `${path}.${key}`));
    else if (index) out.push(...mismatches(value[key], index, `${path}.${key}`));
    else out.push(`${path}.${key}: emitted but not declared in ${show(type)}`);
  }
  for (const prop of checker.getPropertiesOfType(type)) {
    const t = typeOf(prop);
    if (prop.flags & ts.SymbolFlags.Optional || t.getCallSignatures().length) continue;
    if (!(prop.name in value)) out.push(`${path}.${prop.name}: declared in ${show(type)} but not emitted`);
  }
  return out;
}

/** Asserts conformance, reporting at most 40 distinct problems (paths with indices folded). */
function conforms(value, type, what) {
  const problems = mismatches(value, type, what);
  const distinct = [...new Set(problems.map((p) => p.replace(/\[\d+\]/g, "[]")))];
  assert.deepEqual(distinct.slice(0, 40), [], `${what} does not match pkg/index.d.ts (${distinct.length} problems)`);
}

// Inputs that reach most fields: every recorded engine scenario's configurations (modules,
// moved/removed/check blocks, conditions, lifecycle rules, data sources, sensitive outputs)
// with the state each step started from, and the playground's own teaching examples.
async function inputs() {
  const out = [];
  for (const scenario of readdirSync(engineFixtures, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const step of readdirSync(`${engineFixtures}${scenario.name}`).filter((s) => s.startsWith("step")).sort()) {
      const dir = `${engineFixtures}${scenario.name}/${step}`;
      const statePath = `${dir}/input.tfstate`;
      const state = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : null;
      out.push({ name: `${scenario.name}/${step}`, files: await readConfigDir(`${dir}/config`), state });
    }
  }
  return out;
}

test("loadConfig, buildGraph and evaluate return what index.d.ts declares", async () => {
  const cases = await inputs();
  assert.ok(cases.length >= 40, `only ${cases.length} engine fixture steps found`);
  const graphType = declared("Graph");
  let graphs = 0;
  for (const { name, files, state } of cases) {
    let config;
    try {
      config = loadConfig(files);
    } catch (e) {
      assert.ok(e instanceof TfgraphError, `${name}: ${e}`);
      conforms(e.diagnostics, checker.getNonNullableType(typeOf(declared("TfgraphError").getProperty("diagnostics"))), `${name}: TfgraphError.diagnostics`);
      continue;
    }
    conforms(config, returnOf("loadConfig"), `${name}: loadConfig()`);
    const operations = [{ operation: "plan" }, { operation: "validate" }];
    if (state?.resources?.length) operations.push({ operation: "plan", state }, { operation: "destroy", state });
    for (const options of operations) {
      const graph = buildGraph(config, options);
      const what = `${name}: buildGraph(${options.operation}${options.state ? ", state" : ""})`;
      conforms(graph.steps, typeOf(graphType.getProperty("steps")), `${what}.steps`);
      conforms(graph.diagnostics, typeOf(graphType.getProperty("diagnostics")), `${what}.diagnostics`);
      conforms(graph.nodes(), returnOf("Graph", "nodes"), `${what}.nodes()`);
      const edges = graph.edges();
      conforms(edges, returnOf("Graph", "edges"), `${what}.edges()`);
      conforms(graph.impliedEdges(), returnOf("Graph", "impliedEdges"), `${what}.impliedEdges()`);
      conforms(graph.cycles(), returnOf("Graph", "cycles"), `${what}.cycles()`);
      if (edges.length) conforms(graph.explain(edges[0].from, edges[0].to), returnOf("Graph", "explain"), `${what}.explain()`);
      graph.free();
      graphs++;
    }
    for (const expression of ["1 + 1", "{ a = [1, \"x\"], b = sensitive(\"s\") }", "var", "local", "path.module"]) {
      let result;
      try {
        result = evaluate(config, expression, state ? { state } : {});
      } catch (e) {
        assert.ok(e instanceof TfgraphError, `${name}: evaluate(${expression}): ${e}`);
        continue;
      }
      conforms(result, returnOf("evaluate"), `${name}: evaluate(${expression})`);
    }
  }
  assert.ok(graphs >= 80, `only ${graphs} graphs checked`);
});

test("walk's report and events are what index.d.ts declares", async () => {
  const files = await readConfigDir(`${engineFixtures}failure-and-recovery/step1/config`);
  const graph = buildGraph(files);
  const events = [];
  const report = await walk(graph, (node) => {
    if (node.includes("broken")) throw new Error("injected");
  }, { onEvent: (e) => events.push(e), parallelism: 3 });
  assert.equal(show(returnOf("walk")), "Promise<WalkReport>");
  conforms(report, declared("WalkReport"), "walk() report");
  events.forEach((e, i) => conforms(e, declared("WalkEvent"), `walk() event ${i}`));
  assert.ok(report.failed.length > 0 && report.skipped.length > 0, "the walk had a failure and skipped dependents");
});

test("plan and apply return what index.d.ts declares, for every recorded scenario step", async () => {
  const planType = declared("Plan");
  let applied = 0;
  for (const name of readdirSync(engineFixtures).filter((n) => existsSync(`${engineFixtures}${n}/step1/config`))) {
    for (const step of readdirSync(`${engineFixtures}${name}`).filter((s) => s.startsWith("step"))) {
      const dir = `${engineFixtures}${name}/${step}`;
      const files = await readConfigDir(`${dir}/config`);
      const state = existsSync(`${dir}/input.tfstate`) ? JSON.parse(readFileSync(`${dir}/input.tfstate`, "utf8")) : null;
      const events = [];
      // The step's -target / -replace, so targeted, replaced and imported changes are checked too.
      const env = existsSync(`${dir}/step.env`) ? readFileSync(`${dir}/step.env`, "utf8") : "";
      const args = (env.match(/^PLAN_ARGS=(.*)$/m)?.[1] ?? "").split(/\s+/).filter(Boolean);
      const addresses = (flag) => args.filter((a) => a.startsWith(`-${flag}=`)).map((a) => a.slice(flag.length + 2));
      const p = await plan(files, { state, onEvent: (e) => events.push(e), targets: addresses("target"), replace: /^DESTROY=1$/m.test(env) ? [] : addresses("replace"), destroy: /^DESTROY=1$/m.test(env) });
      const what = `${name}/${step}`;
      conforms(p.changes, typeOf(planType.getProperty("changes")), `${what}: plan.changes`);
      conforms(p.diagnostics, typeOf(planType.getProperty("diagnostics")), `${what}: plan.diagnostics`);
      conforms(p.events, typeOf(planType.getProperty("events")), `${what}: plan.events`);
      conforms(p.toJSON(), returnOf("Plan", "toJSON"), `${what}: plan.toJSON()`);
      const r = await apply(p, { onEvent: (e) => events.push(e), mock: { failNames: ["broken"] } });
      const { plan: _, ...rest } = r;
      conforms({ ...rest, plan: p }, declared("ApplyResult"), `${what}: apply()`);
      events.forEach((e, i) => conforms(e, declared("EngineEvent"), `${what}: event ${i}`));
      applied++;
    }
  }
  assert.ok(applied >= 35, `only ${applied} steps`);
});

test("the checker itself catches drift", () => {
  // A declared key missing, an undeclared key, a wrong kind: each must be reported.
  const pos = declared("Pos");
  assert.deepEqual(mismatches({ line: 1, column: 2, byte: 3 }, pos, "p"), []);
  assert.match(mismatches({ line: 1, column: 2 }, pos, "p").join("\n"), /p\.byte: declared in Pos but not emitted/);
  assert.match(mismatches({ line: 1, column: 2, byte: 3, extra: 1 }, pos, "p").join("\n"), /p\.extra: emitted but not declared/);
  assert.match(mismatches({ line: "1", column: 2, byte: 3 }, pos, "p").join("\n"), /p\.line: string where number/);
  assert.deepEqual(mismatches("warning", declared("Severity"), "s"), []);
  assert.match(mismatches("fatal", declared("Severity"), "s").join("\n"), /"fatal" where/);
});
