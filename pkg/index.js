// The tfgraph package entry: initialises the WebAssembly module (top-level await, so importing
// this file is all a user does) and wraps the raw exports of tfgraph.js in the public API.
// Types: index.d.ts. The raw exports are not part of the API and may change.

import init, * as raw from "./tfgraph.js";

const wasmUrl = new URL("tfgraph_bg.wasm", import.meta.url);

// Node (and other runtimes loading from disk) cannot fetch a file: URL, so read the bytes;
// browsers fetch the module next to this file, compiling it while it streams in.
if (wasmUrl.protocol === "file:") {
  const { readFile } = await import("node:fs/promises");
  await init({ module_or_path: await readFile(wasmUrl) });
} else {
  await init({ module_or_path: wasmUrl });
}

/** The package version (also the Rust crate's version). */
export const version = raw.version();

/** How many errors a TfgraphError's message lists before "and N more". */
const MESSAGE_ERRORS = 3;

/** `main.tf:3:5: summary`, or just the summary when the diagnostic has no range. */
function describe(diagnostic) {
  const r = diagnostic.range;
  return r ? `${r.filename}:${r.start.line}:${r.start.column}: ${diagnostic.summary}` : diagnostic.summary;
}

/**
 * Thrown when the user's input has errors. `diagnostics` holds every diagnostic (errors and
 * warnings, Terraform's JSON shape); `config` what could be loaded despite the errors, when the
 * operation produces one.
 */
export class TfgraphError extends Error {
  constructor(diagnostics, config = null) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    const lines = errors.slice(0, MESSAGE_ERRORS).map(describe);
    if (errors.length > MESSAGE_ERRORS) lines.push(`(and ${errors.length - MESSAGE_ERRORS} more)`);
    const head = errors.length === 1 ? "1 error" : `${errors.length} errors`;
    super(`tfgraph: ${head}:\n  ${lines.join("\n  ")}`);
    this.name = "TfgraphError";
    this.diagnostics = diagnostics;
    this.config = config;
  }
}

/** Where a loaded configuration came from, so buildGraph can take the configuration itself. */
const SOURCE = Symbol("tfgraph.source");

const hasError = (diagnostics) => diagnostics.some((d) => d.severity === "error");

/**
 * Loads a Terraform configuration from in-memory files (`{ "main.tf": "..." }`, slash-separated
 * relative paths). Returns the configuration with its warnings in `diagnostics`; throws
 * TfgraphError when there is an error, and TypeError when the arguments have the wrong types.
 */
export function loadConfig(files, options = {}) {
  const { config, diagnostics } = JSON.parse(raw.loadConfigRaw(files, options));
  if (hasError(diagnostics)) {
    throw new TfgraphError(diagnostics, config);
  }
  const loaded = { ...config, diagnostics };
  Object.defineProperty(loaded, SOURCE, { value: { files, root: options.root } });
  return loaded;
}

/**
 * One of Terraform's graphs. Built by buildGraph; queries and renderings are computed in wasm
 * on demand. `free()` (or `using`) releases its memory early; otherwise the garbage collector does.
 */
export class Graph {
  #handle;

  constructor(handle, loadDiagnostics) {
    this.#handle = handle;
    /** Every diagnostic: loading and input warnings, then the build's (one error per cycle). */
    this.diagnostics = [...loadDiagnostics, ...handle.diagnostics()];
  }

  /** Each transformer that ran, in order: name, reason, counts (and its text with traceSteps). */
  get steps() { return this.#handle.steps(); }
  nodes() { return JSON.parse(this.#handle.nodes()); }
  /** Edges `from -> to`: `from` depends on `to`; `why` lists every reason, each with a sentence. */
  edges() { return JSON.parse(this.#handle.edges()); }
  /** Edges transitive reduction removed: the dependency still holds through other edges. */
  impliedEdges() { return JSON.parse(this.#handle.impliedEdges()); }
  /** Exactly Terraform's `Graph.String()`. */
  toString() { return this.#handle.toText(); }
  /** `type: "resources"` (terraform graph's default since 1.7) or `"full"` (`-type=plan`). */
  toDot({ type = "resources", drawCycles = false } = {}) {
    return this.#handle.toDot(checkType(type), Boolean(drawCycles));
  }
  toMermaid({ type = "resources", drawCycles = false } = {}) {
    return this.#handle.toMermaid(checkType(type), Boolean(drawCycles));
  }
  dependencies(name) { return this.#handle.dependencies(name); }
  dependents(name) { return this.#handle.dependents(name); }
  ancestors(name) { return this.#handle.ancestors(name); }
  descendants(name) { return this.#handle.descendants(name); }
  /** Why `from` depends on `to`, one sentence per reason. */
  explain(from, to) { return this.#handle.explain(from, to); }
  /** Each strongly connected component of more than one node (empty for a valid graph). */
  cycles() { return this.#handle.cycles(); }
  free() { this.#handle.free(); }
  [Symbol.dispose ?? Symbol.for("Symbol.dispose")]() { this.free(); }
}

function checkType(type) {
  if (type !== "resources" && type !== "full") {
    throw new TypeError(`tfgraph: graph type must be "resources" or "full", not ${JSON.stringify(type)}`);
  }
  return type === "resources";
}

/**
 * State and changes cross into wasm as JSON text: `JSON.stringify` here and one parse in wasm
 * are several times cheaper than converting a large object property by property. Text (a
 * `terraform.tfstate` as read from disk) passes as it is.
 */
const asJsonText = (v) => (v === undefined || v === null || typeof v === "string" ? v : JSON.stringify(v));

/**
 * Builds the graph Terraform builds for `operation` ("plan" by default, "destroy", "apply",
 * "validate") from files or from a configuration returned by loadConfig. A graph with cycles is
 * still returned (its `diagnostics` hold one error per cycle); errors in the configuration,
 * state or changes throw TfgraphError.
 */
export function buildGraph(filesOrConfig, options = {}) {
  const source = filesOrConfig?.[SOURCE];
  const files = source ? source.files : filesOrConfig;
  const root = options.root ?? source?.root;
  const handle = raw.buildGraphRaw(files, {
    ...options,
    root,
    state: asJsonText(options.state),
    changes: asJsonText(options.changes),
  });
  const loadDiagnostics = handle.loadDiagnostics();
  if (hasError(loadDiagnostics)) {
    handle.free();
    throw new TfgraphError(loadDiagnostics);
  }
  return new Graph(handle, loadDiagnostics);
}

/**
 * Walks a DAG as Terraform does: each node once all it depends on has finished, at most
 * `parallelism` (10) visits at a time; a failure skips its dependents. `dag` is a Graph or
 * `{ nodes, edges: [from, to][] }` where `from` depends on `to`.
 */
export async function walk(dag, visit, options) {
  if (dag instanceof Graph) {
    dag = { nodes: dag.nodes().map((n) => n.name), edges: dag.edges().map((e) => [e.from, e.to]) };
  }
  try {
    return await raw.walk(dag, visit, options);
  } catch (e) {
    // The scheduler reports bad input as an Error named TfgraphError; make it ours.
    if (e?.name === "TfgraphError" && Array.isArray(e.diagnostics) && !(e instanceof TfgraphError)) {
      throw new TfgraphError(e.diagnostics);
    }
    throw e;
  }
}
