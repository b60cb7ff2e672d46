// One configuration through the package: load it, build the chosen graph, and return the
// results as plain data (structured-clonable). main.js runs it on the main thread for ordinary
// inputs; analysis-worker.js runs it beside the page for large ones, where loading and building
// take seconds (a 2,000-resource file: ~1.5 s in the package, measured in bench/page).

/** Every module of a configuration, the root first, depth-first in call order. */
function modules(config) {
  const out = [];
  const visit = (m) => {
    out.push(m);
    for (const call of m.module_calls) if (call.module) visit(call.module);
  };
  if (config) visit(config.root);
  return out;
}

/** A provider as the resources panel shows it: `aws` or `aws.west`, with the fully qualified name. */
const providerLabel = (p) => `${p.alias ? `${p.local_name}.${p.alias}` : p.local_name} (${p.fqn})`;

/**
 * Loads `files` and builds the `operation` graph (the apply graph of `changes`, a plan's JSON,
 * when given). Returns `{ status: "ok" | "error" | "cycle",
 * diagnostics, resources, built }`: `built` is null when the configuration has errors, else
 * `{ nodes, edges, cycles, explained }` with, when `explainAll`, every edge's `explain`
 * sentences as `[from + "\0" + to, sentences]` pairs. With `keep`, `handle` is the package's
 * graph (the caller frees it); otherwise it is freed here. Errors that are not the package's
 * diagnostics (a bug) are thrown.
 */
export function analyseFiles(tfgraph, files, { operation, reduce, state, changes, mode, explainAll = false, keep = false }) {
  let config = null;
  let diagnostics;
  let status = "ok";
  try {
    config = tfgraph.loadConfig(files);
    diagnostics = config.diagnostics;
  } catch (e) {
    if (!(e instanceof tfgraph.TfgraphError)) throw e;
    status = "error";
    config = e.config;
    diagnostics = e.diagnostics;
  }
  const resources = modules(config).flatMap((m) =>
    m.resources.map((r) => ({ address: r.address, mode: r.mode, provider: providerLabel(r.provider), references: r.references, range: r.range })),
  );
  if (status !== "ok") return { status, diagnostics, resources, built: null };

  let graph;
  try {
    graph = tfgraph.buildGraph(config, { operation, reduce, state, ...(changes ? { changes, mode } : {}) });
  } catch (e) {
    if (!(e instanceof tfgraph.TfgraphError)) throw e;
    return { status: "error", diagnostics: e.diagnostics, resources, built: null };
  }
  try {
    const nodes = graph.nodes();
    const edges = graph.edges();
    const cycles = graph.cycles();
    const explained = explainAll ? edges.map((e) => [`${e.from}\0${e.to}`, graph.explain(e.from, e.to)]) : null;
    return { status: cycles.length ? "cycle" : "ok", diagnostics: graph.diagnostics, resources, built: { nodes, edges, cycles, explained }, handle: keep ? graph : null };
  } finally {
    if (!keep) graph.free();
  }
}
