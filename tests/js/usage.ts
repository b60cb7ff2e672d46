// Typed usage of the package, checked by `tsc --noEmit --strict` (types.test.mjs); never run.
// Each line states something the declarations must allow, and each @ts-expect-error something
// they must reject, so the declarations can neither lose a type nor fall back to `any`.

import {
  buildGraph,
  evaluate,
  init,
  initSync,
  type Evaluated,
  type Marks,
  walk,
  Graph,
  type GraphEdge,
  type GraphNode,
  type WalkReport,
  type WalkEvent,
  type Why,
  loadConfig,
  TfgraphError,
  version,
  plan,
  apply,
  destroy,
  type ApplyResult,
  type EngineEvent,
  type JsProvider,
  Plan,
  type PlanJson,
  type PlannedChange,
  type StateV4,
  test,
  type TestEvent,
  type TestResult,
  type Config,
  type Diagnostic,
  type Expr,
  type LoadedConfig,
  type Module,
  type ModuleCall,
  type Pos,
  type Reference,
  type ReferenceKind,
  type Resource,
  type Severity,
} from "../../pkg/index.js";

const v: string = version;

// tfgraph/init: load from the default URL, a URL, bytes or a compiled module.
const loading: Promise<void> = init();
void init(new URL("https://example.test/tfgraph_bg.wasm"));
void init(new Uint8Array(8));
initSync(new Uint8Array(8));
// @ts-expect-error initSync has nothing to fetch by default: it needs the bytes or a module
initSync();
void loading;

const loaded: LoadedConfig = loadConfig({ "main.tf": 'resource "a" "b" {}' }, { root: "" });
const config: Config = loaded;
const warnings: Diagnostic[] = loaded.diagnostics;

/** Every module, depending on `module` being `Module | null`. */
function modules(m: Module): Module[] {
  return [m, ...m.module_calls.flatMap((c: ModuleCall) => (c.module ? modules(c.module) : []))];
}

for (const m of modules(config.root)) {
  const path: string[] = m.path;
  const required: string | null = m.required_version;
  for (const r of m.resources) {
    const resource: Resource = r;
    const address: string = r.address;
    const type: string = r.type;
    const mode: "managed" | "data" | "ephemeral" = r.mode;
    const fqn: string = r.provider.fqn;
    const alias: string | null = r.provider.alias;
    const count: Expr | null = r.count;
    const ignore: "all" | string[] = r.lifecycle.ignore_changes;
    for (const ref of r.references) {
      const reference: Reference = ref;
      const kind: ReferenceKind = ref.kind;
      const where: string = ref.in;
      const start: Pos = ref.range.start;
      const line: number = start.line + start.column + start.byte;
      void [resource, address, type, mode, fqn, alias, count, ignore, reference, kind, where, line];
    }
  }
  for (const c of m.module_calls) {
    const kind: "local" | "registry" | "git" | "http" | "s3" | "gcs" | "mercurial" | "github" | "bitbucket" | "other" =
      c.source_kind;
    void kind;
  }
  void [path, required];
}

try {
  loadConfig({ "main.tf": "resource {" });
} catch (e) {
  if (e instanceof TfgraphError) {
    const all: Diagnostic[] = e.diagnostics;
    const partial: Config | null = e.config;
    const message: string = e.message;
    const first = all[0];
    const severity: Severity = first.severity;
    const column: number | undefined = first.range?.start.column;
    const snippet: string | undefined = first.snippet?.code;
    void [partial, message, severity, column, snippet];
  }
}

// @ts-expect-error file contents must be strings
loadConfig({ "main.tf": 1 });
// @ts-expect-error unknown option
loadConfig({}, { rooot: "" });
// @ts-expect-error a diagnostic's range is optional
const line: number = warnings[0].range.start.line;
// @ts-expect-error the version is a string, not a function
version();
// @ts-expect-error severity is "error" | "warning"
const s: Severity = "info";
// @ts-expect-error reference kinds are a closed set
const k: ReferenceKind = "output";

void [v, line, s, k];

// Graphs: built from files or a loaded configuration; edges carry typed reasons.
const graph: Graph = buildGraph(loaded, { operation: "plan", reduce: true });
const graphNodes: GraphNode[] = graph.nodes();
const firstEdge: GraphEdge | undefined = graph.edges()[0];
const reasons: Why[] = firstEdge ? firstEdge.why : [];
for (const why of reasons) {
  if (why.kind === "reference") {
    const line: number = why.range.start.line;
  }
}
const text: string = graph.toString() + graph.toDot({ type: "full", drawCycles: true });
// @ts-expect-error: operations are Terraform's four
buildGraph({}, { operation: "refresh" });
const destroyApply: Graph = buildGraph(loaded, { operation: "apply", mode: "destroy", changes: { "a.b": ["forget"] } });
// @ts-expect-error: plan modes are "normal" and "destroy"
buildGraph({}, { mode: "refresh-only" });
const forgetKind: GraphNode["kind"] = "resource_instance_forget";
const providerEmpty: boolean = loaded.root.providers[0]?.empty ?? false;
void [destroyApply, forgetKind, providerEmpty];
const report: Promise<WalkReport> = walk(graph, async (node: string) => node.length, { parallelism: 2 });

// Evaluation: typed result and options.
const evaluated: Evaluated = evaluate(loaded, "var.region", { variables: { region: "x" }, state: {} });
const rendered: string = evaluated.rendered + evaluated.type;
const marks: Marks = evaluated.unknown;
const exact: string | null = evaluated.json;
// @ts-expect-error: the expression is text
evaluate(loaded, 42);
void [rendered, marks, exact];

// Plan, apply, destroy: typed options, results, events and a JS provider.
const acme: JsProvider = {
  schema: () => ({ resources: { acme_thing: { attributes: { id: { type: "string", computed: true }, tags: { type: ["map", "string"], optional: true } } } } }),
  planResourceChange: async ({ config }) => ({ planned: { value: config.value, unknown: { id: true } } }),
  applyResourceChange: async ({ planned }) => ({ newState: planned && { value: { ...planned.value, id: "x" } } }),
  readResource: ({ state }) => ({ newState: state }),
  readDataSource: async ({ config }) => ({ state: config }),
};
const planned: Promise<Plan> = plan(loaded, { providers: { "acme/acme": acme }, mock: { delayMs: 5, failOps: ["update"] }, refresh: false });
void planned.then(async (p: Plan) => {
  const text: string = p.toString();
  const first: PlannedChange | undefined = p.changes[0];
  const json: PlanJson = p.toJSON();
  const result: ApplyResult = await apply(p, { parallelism: 3, signal: new AbortController().signal, onEvent: (e: EngineEvent) => e.line ?? e.kind, onWalkEvent: (e: WalkEvent) => e.node, onState: (s: StateV4) => s.version });
  const progress: string = result.report.progress;
  const gone: ApplyResult = await destroy(loaded, { state: result.state ?? undefined });
  // @ts-expect-error: an event kind is one of five
  const kind: EngineEvent["kind"] = "done";
  void [text, first, json, progress, gone, kind];
});

// terraform test
const tested: Promise<TestResult> = test({ "main.tf": "", "tests/a.tftest.hcl": "" }, { variables: { a: 1 }, filter: ["tests/a.tftest.hcl"], onEvent: (e: TestEvent) => e.type });
void tested.then((r: TestResult) => {
  const status: "pass" | "fail" | "error" | "skip" | "pending" = r.files[0].runs[0].status;
  const code: number = r.exitCode;
  // @ts-expect-error: a status is one of five words
  const bad: TestResult["status"] = "ok";
  void [status, code, bad];
});
// @ts-expect-error: filter is a list of paths
void test({}, { filter: "tests/a.tftest.hcl" });
