// The playground's wiring, and the only module on the page's thread that talks to the tfgraph
// package (analysis-worker.js and engine-worker.js use it beside the page): it loads the files,
// builds the chosen graph, turns the results into plain data, and hands that to the panels
// (editor, graph, node details, diagnostics, console, build steps, resources, run, plan/apply,
// tests).

import * as tfgraph from "tfgraph";
import { createEditor } from "./editor.js";
import { renderResources } from "./resources.js";
import { renderDiagnostics } from "./diagnostics.js";
import { DIR, installDrop } from "./drop.js";
import { createGraphView, KIND_STYLE, styleOf } from "./graph-view.js";
import { createInspector } from "./inspector.js";
import { createConsole } from "./console.js";
import { createSteps } from "./steps.js";
import { createRun } from "./run.js";
import { createEnginePanel } from "./engine-panel.js";
import { runEngine, runTests } from "./engine-client.js";
import { createTestsPanel, isTestFile, starterTest } from "./tests-panel.js";
import { GALLERY } from "./examples.js";
import { decodeSession, encodeSession, saveSession } from "./state.js";
import { cycleEdgeKeys, cycleSets, parseGraphText, resourceView } from "./model.js";
import { analyseFiles } from "./analysis.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const VIEWS = ["resources", "plan", "validate", "destroy", "apply"];
const STATE_FILE = "terraform.tfstate";
/** The dropped folder as the working directory (`/NAME`, for `path.cwd`); none for examples. */
let droppedDir;
/** Past this many nodes a full graph is not laid out (Graphviz would stall the page); see bench/page. */
const MAX_DRAWN_NODES = 2500;
/**
 * Past this many nodes the graph is drawn compact (unlabelled boxes, straight edges) unless the
 * user asks for labels: at 2,000 nodes the labelled drawing held the main thread ~1 s in SVG
 * parsing, style, layout and painting (bench/page/RESULTS.md).
 */
const COMPACT_ABOVE = 1000;

// ---- Session -------------------------------------------------------------------------------

const session = { example: null, view: "resources", reduce: true, selected: null, labels: false, config: null };

/**
 * The key the Plan / Apply tab keeps a configuration's state under, carried by the share link:
 * a new configuration (an example chosen, a folder dropped) gets a new one; a link without one
 * (an older link) is keyed by what it holds, so the same link finds the same state.
 */
const newConfigKey = () => globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
function contentKey(text) {
  // FNV-1a over the UTF-16 code units, 32 bits, as hex.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `link-${h.toString(16).padStart(8, "0")}-${text.length}`;
}

const sameFiles = (a, b) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};

function currentSession() {
  const files = editor.files();
  const example = GALLERY.find((g) => g.id === session.example);
  const out = { open: editor.active(), view: session.view, reduce: session.reduce };
  // An edited example keeps its name (the menu says "(edited)" when the link is followed).
  if (example) out.example = example.id;
  if (!example || !sameFiles(example.files, files)) out.files = files;
  if (session.selected) out.selected = session.selected;
  out.config = session.config;
  // The Run and Plan / Apply tabs' settings (parallelism, latency, the mock's knobs).
  out.run = run.settings();
  out.engine = enginePanel.settings();
  return out;
}
let saveTimer = 0;
const save = () => {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => saveSession(currentSession()), 150);
};

// ---- Analysis: the package's results as plain data ------------------------------------------

/** A node's label: its name without its module's prefix (the cluster says it) and registry host. */
function labelOf(name, module) {
  let label = name;
  if (module && label.startsWith(`${module}.`)) label = label.slice(module.length + 1);
  return label.replace(/registry\.terraform\.io\//g, "");
}

const crash = (e) => {
  console.error(e);
  return {
    status: "crash",
    diagnostics: [{ severity: "error", summary: `Internal error: ${e.message}`, detail: "Please reload the page and report this with the configuration (the Share link)." }],
  };
};

/**
 * The graph built last, kept for queries until the next build: `{ graph, nodes, edges, byName,
 * edgeWhy, explained, dependencies, dependents, cycles, operation, state, rv }`. `graph` is the
 * package's graph (explain on demand) when it was built here, null when the worker built it
 * (then `explained` holds every edge's sentences).
 */
let current = null;

/** Past this many characters of configuration, the package loads and builds in a worker. */
const WORKER_ABOVE_CHARS = 100_000;

let analysisWorker = null;
let nextAnalysis = 0;
const analyses = new Map();
/** analyseFiles in analysis-worker.js (started on first use); resolves to its plain data. */
function analyseInWorker(files, options) {
  if (!analysisWorker) {
    analysisWorker = new Worker(new URL("./analysis-worker.js", import.meta.url), { type: "module" });
    analysisWorker.onmessage = ({ data }) => {
      const done = analyses.get(data.id);
      analyses.delete(data.id);
      if (data.error !== undefined) done?.reject(new Error(data.error));
      else done?.resolve(JSON.parse(data.json));
    };
    analysisWorker.onerror = (e) => {
      for (const p of analyses.values()) p.reject(new Error(`analysis worker: ${e.message}`));
      analyses.clear();
    };
  }
  const id = nextAnalysis++;
  return new Promise((resolve, reject) => {
    analyses.set(id, { resolve, reject });
    analysisWorker.postMessage({ id, files, ...options });
  });
}

/**
 * The last plan made in the Plan / Apply tab (`{ json, destroy, state }`): the apply view draws
 * the graph that applies it, as `terraform graph -type=apply -plan=FILE` does.
 */
let planned = null;

/** The graph's inputs: the state is the Plan / Apply tab's (its session's, else the file's). */
function analysisOptions(files) {
  const operation = session.view === "resources" ? "plan" : session.view;
  const options = { operation, reduce: session.reduce, state: enginePanel.sessionState() ?? files[STATE_FILE] };
  if (operation === "apply" && planned) Object.assign(options, { changes: planned.json, mode: planned.destroy ? "destroy" : "normal", state: planned.state ?? undefined });
  return options;
}
const isLarge = (files) => Object.values(files).reduce((n, text) => n + text.length, 0) > WORKER_ABOVE_CHARS;

/**
 * Makes an analysis (analyseFiles' result) the current graph. Returns the panels' view:
 * `{ status, diagnostics, resources }`.
 */
function adopt(result, options) {
  current?.graph?.free();
  current = null;
  const { status, diagnostics, resources, built } = result;
  if (built) {
    const { nodes, edges, cycles, explained } = built;
    const dependencies = new Map(nodes.map((n) => [n.name, []]));
    const dependents = new Map(nodes.map((n) => [n.name, []]));
    for (const e of edges) {
      dependencies.get(e.from)?.push(e.to);
      dependents.get(e.to)?.push(e.from);
    }
    current = {
      graph: result.handle ?? null,
      nodes,
      edges,
      byName: new Map(nodes.map((n) => [n.name, n])),
      edgeWhy: new Map(edges.map((e) => [`${e.from}\0${e.to}`, e.why])),
      explained: explained ? new Map(explained) : null,
      dependencies,
      dependents,
      cycles,
      operation: options.operation,
      state: options.state,
      changes: options.changes,
      mode: options.mode,
    };
  }
  return { status, diagnostics, resources };
}

/** Loads the files and builds the view's graph here, on the main thread (ordinary inputs). */
function analyse(files) {
  const options = analysisOptions(files);
  try {
    return adopt(analyseFiles(tfgraph, files, { ...options, keep: true }), options);
  } catch (e) {
    current?.graph?.free();
    current = null;
    return { ...crash(e), resources: [] };
  }
}

/** The drawing's model for the current view: `{ nodes, edges, cycles }` of names. */
function drawModel() {
  if (!current) return null;
  const { nodes, edges, cycles, byName } = current;
  if (session.view !== "resources") {
    const red = cycleEdgeKeys(edges, cycles);
    return {
      nodes: nodes.map((n) => ({ name: n.name, label: labelOf(n.name, n.module), style: styleOf(n.kind, n.address), module: n.module })),
      edges: edges.map((e) => ({ from: e.from, to: e.to, cycle: red.has(`${e.from}\0${e.to}`) })),
      cycles,
    };
  }
  const rv = resourceView(nodes, edges, session.reduce);
  current.rv = rv;
  const rcycles = cycleSets(rv.edges);
  const red = cycleEdgeKeys(rv.edges, rcycles);
  return {
    nodes: rv.nodes.map((n) => {
      const first = byName.get(n.names[0]);
      return { name: n.key, label: labelOf(n.key, n.module), style: styleOf(first.kind, first.address), module: n.module };
    }),
    edges: rv.edges.map((e) => ({ from: e.from, to: e.to, cycle: red.has(`${e.from}\0${e.to}`) })),
    cycles: rcycles,
  };
}

/** The reasons an edge of the full graph exists: `explain`'s sentences with their source ranges. */
function reasons(from, to) {
  const key = `${from}\0${to}`;
  const why = current.edgeWhy.get(key) ?? [];
  const sentences = current.explained?.get(key) ?? current.graph?.explain(from, to) ?? [];
  return sentences.map((text, i) => ({ text, kind: why[i]?.kind, range: why[i]?.range ?? null }));
}

/** A resources-view edge's path in the full graph, hop by hop with reasons. */
function hopsOf(via) {
  const out = [];
  for (let i = 0; i + 1 < via.length; i++) out.push({ from: via[i], to: via[i + 1], why: reasons(via[i], via[i + 1]) });
  return out;
}

/** The node panel's data for a drawn node, or null. */
function nodeDetails(name) {
  if (!current) return null;
  if (session.view === "resources") {
    const rv = current.rv;
    const n = rv?.nodes.find((x) => x.key === name);
    if (!n) return null;
    const first = current.byName.get(n.names[0]);
    const inCycle = cycleSets(rv.edges).some((c) => c.includes(name));
    return {
      name,
      kind: `${first.kind} (${n.names.join(", ")})`,
      module: n.module,
      range: first.range,
      inCycle,
      dependencies: rv.edges.filter((e) => e.from === name).map((e) => ({ name: e.to, hops: hopsOf(e.via) })),
      dependents: rv.edges.filter((e) => e.to === name).map((e) => ({ name: e.from, hops: hopsOf(e.via) })),
    };
  }
  const n = current.byName.get(name);
  if (!n) return null;
  return {
    name,
    kind: n.kind,
    module: n.module,
    range: n.range,
    inCycle: current.cycles.some((c) => c.includes(name)),
    dependencies: current.dependencies.get(name).map((d) => ({ name: d, why: reasons(name, d) })),
    dependents: current.dependents.get(name).map((d) => ({ name: d, why: reasons(d, name) })),
  };
}

/** The loops of the cycle diagnostics, edge by edge, with reasons (full-graph names). */
function cycleLoops() {
  if (!current) return [];
  const loops = [];
  for (const scc of current.cycles) {
    // One simple loop through the component: depth-first from its first node back to it.
    const inside = new Set(scc);
    const start = scc[0];
    const next = (v) => (current.dependencies.get(v) ?? []).filter((w) => inside.has(w));
    const path = [start];
    const seen = new Set([start]);
    const dfs = (v) => {
      for (const w of next(v)) {
        if (w === start) return true;
        if (seen.has(w)) continue;
        seen.add(w);
        path.push(w);
        if (dfs(w)) return true;
        path.pop();
      }
      return false;
    };
    dfs(start);
    loops.push({ loop: path.map((v, i) => ({ from: v, to: path[(i + 1) % path.length], why: reasons(v, path[(i + 1) % path.length]) })) });
  }
  return loops;
}

// ---- Panels --------------------------------------------------------------------------------

const status = $("status");
let crashed = false;
let lastModel = null;

const editor = createEditor(
  { textarea: $("editor"), gutter: $("gutter"), cursor: $("cursor"), highlight: $("highlight"), tabs: $("tabs"), filename: $("filename") },
  { onChange: () => refresh(), onOpen: () => save() },
);
const reveal = (range) => editor.reveal(range, { mark: true });

const graphView = createGraphView($("graph"), {
  onNode: (name) => select(name),
  onEdge: (from, to) => selectEdge(from, to),
  onBackground: () => select(null),
});

const inspector = createInspector($("details"), { reveal, select: (name) => select(name, { centre: true }) });

function overview() {
  const loops = cycleLoops();
  const drawn = lastModel ? `${lastModel.nodes.length} nodes, ${lastModel.edges.length} edges` : "";
  inspector.overview({
    hint: "Click a node to see its source, what it depends on, what depends on it, and why each edge exists. Click an edge for its reasons.",
    stats: current ? `${session.view} graph: ${drawn}${session.view === "resources" ? ` (from the plan graph's ${current.nodes.length} nodes)` : ""}.` : "",
    cycles: loops,
  });
}

/**
 * Selects a drawn node (null: none): its details, its block in the editor. `again`: the same
 * node kept across a new drawing, which leaves the lower tab and the editor where the user has
 * them (an apply in the apply view draws again mid-run).
 */
function select(name, { centre = false, again = false } = {}) {
  session.selected = name;
  const details = name ? nodeDetails(name) : null;
  graphView.select(details ? name : null);
  run.select(details ? name : null);
  enginePanel.select(details ? { name, ...blockOf(name) } : null);
  if (!details) {
    session.selected = null;
    overview();
  } else {
    inspector.node(details);
    if (!again) {
      showTab("details");
      if (details.range) editor.reveal(details.range, { mark: true, focus: false });
    }
    if (centre) graphView.centre(name);
  }
  save();
}

/** The address and kind of the block a drawn node stands for (`{}` when it is none). */
function blockOf(name) {
  if (session.view === "resources") {
    const n = current?.rv?.nodes.find((x) => x.key === name);
    const first = n && current.byName.get(n.names[0]);
    return first ? { address: n.key, kind: first.kind } : {};
  }
  const n = current?.byName.get(name);
  return n ? { address: n.address, kind: n.kind } : {};
}

function selectEdge(from, to) {
  if (!current) return;
  graphView.select(null);
  if (session.view === "resources") {
    const e = current.rv?.edges.find((x) => x.from === from && x.to === to);
    if (!e) return;
    inspector.edge({ from, to, hops: hopsOf(e.via) });
  } else inspector.edge({ from, to, why: reasons(from, to) });
  showTab("details");
}

function showTab(name) {
  for (const b of document.querySelectorAll(".lower-tabs [data-tab]")) b.setAttribute("aria-selected", String(b.dataset.tab === name));
  for (const p of document.querySelectorAll(".lower-body [data-page]")) p.hidden = p.dataset.page !== name;
  if (name === "steps") steps.show();
}
for (const b of document.querySelectorAll(".lower-tabs [data-tab]")) b.addEventListener("click", () => showTab(b.dataset.tab));

const consolePanel = createConsole(
  { log: $("console-log"), form: $("console-form"), input: $("console-input") },
  {
    reveal,
    evaluate(expression) {
      const files = editor.files();
      try {
        // The state is the Plan / Apply tab's: this session's applies, else the file's.
        const r = tfgraph.evaluate(files, expression, { state: enginePanel.sessionState() ?? files[STATE_FILE], cwd: droppedDir });
        return { ok: true, rendered: r.rendered, type: r.type };
      } catch (e) {
        if (e instanceof tfgraph.TfgraphError) return { ok: false, diagnostics: e.diagnostics.filter((d) => d.severity === "error") };
        return { ok: false, diagnostics: crash(e).diagnostics };
      }
    },
  },
);
if (typeof tfgraph.evaluate !== "function") consolePanel.setAvailable(false, "This version of the package has no evaluate(): the console is not available.");

const steps = createSteps($("steps"), {
  /** The build's steps with each step's graph (nodes and edges parsed from its text). */
  load() {
    if (!current) return null;
    const files = editor.files();
    let g;
    try {
      const planOf = current.changes ? { changes: current.changes, mode: current.mode } : {};
      g = tfgraph.buildGraph(files, { operation: current.operation, reduce: session.reduce, state: current.state, traceSteps: true, ...planOf });
    } catch (e) {
      if (e instanceof tfgraph.TfgraphError) return null;
      throw e;
    }
    const list = g.steps.map((s) => ({ ...s, graph: parseGraphText(s.text ?? "") }));
    g.free();
    return list;
  },
  /** Draws one step: its graph, with the edges it added (green) and removed (red, dashed). */
  async draw(stepGraph, previous) {
    const before = new Set(previous.edges.map((e) => `${e.from}\0${e.to}`));
    const after = new Set(stepGraph.edges.map((e) => `${e.from}\0${e.to}`));
    const kindOf = (name) => current?.byName.get(name);
    const nodes = [...new Set([...stepGraph.nodes])].map((name) => {
      const n = kindOf(name);
      return { name, label: labelOf(name, n?.module ?? ""), style: n ? styleOf(n.kind, n.address) : "other", module: n?.module ?? "" };
    });
    const present = new Set(stepGraph.nodes);
    const edges = [
      ...stepGraph.edges.map((e) => ({ ...e, added: !before.has(`${e.from}\0${e.to}`) })),
      ...previous.edges.filter((e) => !after.has(`${e.from}\0${e.to}`) && present.has(e.from) && present.has(e.to)).map((e) => ({ ...e, removed: true })),
    ];
    lastModel = null;
    await graphView.render({ nodes, edges });
    $("node-count").textContent = String(nodes.length);
  },
  restore: () => drawGraph(),
});

const run = createRun($("run"), {
  graph: () => lastModel,
  graphView,
  walk: (dag, visit, options) => tfgraph.walk(dag, visit, options),
  onSettings: () => save(),
});

const enginePanel = createEnginePanel($("engine"), {
  available: ["plan", "apply", "destroy"].every((f) => typeof tfgraph[f] === "function"),
  /** The terraform.tfstate among the files, when it is a JSON object. */
  fileState() {
    const text = editor.files()[STATE_FILE];
    if (!text) return null;
    try {
      const s = JSON.parse(text);
      return s && typeof s === "object" && !Array.isArray(s) ? s : null;
    } catch {
      return null;
    }
  },
  graphView,
  // The apply view draws the graph the apply walks (drawn again for the plan before it starts).
  drawsApply: () => session.view === "apply",
  reveal,
  onSettings: () => save(),
  // The graph was built with the forgotten state (a plan or destroy graph's orphans): again.
  onReset: () => refresh(),
  /**
   * plan() on the editor's files against the mock providers, in engine-worker.js; for Apply and
   * Destroy, the plan is shown (`onPlan`) and then applied exactly, as terraform apply shows its
   * plan before applying it.
   */
  run(kind, { onPlan, ...options }) {
    return runEngine(kind, editor.files(), { ...options, cwd: droppedDir }, async (plan) => {
      planned = { json: plan.json, destroy: kind === "destroy", state: options.state };
      // The apply view is this plan's graph now: drawn before the apply animates it.
      if (session.view === "apply") {
        refresh();
        await drawing;
      }
      if (kind !== "plan") onPlan(plan);
    });
  },
});

/** The root module's resources of the last analysis (the starter test asserts on the first). */
let rootResources = [];

const testsPanel = createTestsPanel($("tests"), {
  available: typeof tfgraph.test === "function",
  /** terraform test on the editor's files, in engine-worker.js; `verbose` brings each run's plan (and, as terraform test -verbose, the plans and states in the text). */
  run: (options) => runTests(editor.files(), { ...options, verbose: true }),
  testFiles: () => Object.keys(editor.files()).filter(isTestFile),
  addStarter() {
    const path = "tests/main.tftest.hcl";
    const first = rootResources.find((r) => r.mode === "managed" && !r.address.startsWith("module."));
    editor.setFiles({ ...editor.files(), [path]: starterTest(first?.address) }, path);
  },
  reveal,
  /** Opens a test file, at `run "NAME"`'s block when one is named. */
  open(path, name) {
    const text = editor.files()[path];
    if (text === undefined) return;
    const lines = text.split("\n");
    const at = name === undefined ? -1 : lines.findIndex((l) => /^run\s*"/.test(l.trim()) && l.trim().replace(/^run\s*/, "").startsWith(`"${name}"`));
    const line = at < 0 ? 1 : at + 1;
    editor.reveal({ filename: path, start: { line, column: 1 }, end: { line, column: (lines[line - 1] ?? "").length + 1 } }, { mark: at >= 0 });
  },
});

// ---- The refresh cycle ---------------------------------------------------------------------

let drawing = Promise.resolve();
/** A share link's selected node waits for its first drawing. */
let linkSelection = false;

async function drawGraph() {
  const model = drawModel();
  lastModel = model;
  const note = $("graph-note");
  $("full-view").hidden = true;
  if (!model) {
    graphView.clear(current === null ? "No graph: fix the errors listed under Diagnostics." : "");
    $("node-count").textContent = "";
    note.textContent = "";
    return;
  }
  $("node-count").textContent = String(model.nodes.length);
  if (model.nodes.length > MAX_DRAWN_NODES) {
    graphView.clear(`${model.nodes.length} nodes are too many to lay out here; the resources view draws ${current.rv?.nodes.length ?? "fewer"} (choose it above).`);
    note.textContent = "";
    return;
  }
  if (model.nodes.length === 0) {
    graphView.clear(session.view === "destroy" ? "Nothing to destroy: the destroy graph needs a prior state (add a terraform.tfstate file, or pick the orphan or replacement example)." : "The graph is empty.");
    note.textContent = "";
    return;
  }
  const compact = model.nodes.length > COMPACT_ABOVE && !session.labels;
  const full = $("full-view");
  full.hidden = model.nodes.length <= COMPACT_ABOVE;
  full.textContent = compact ? "draw labels" : "draw compact";
  full.title = compact
    ? `${model.nodes.length} nodes are drawn without labels so the page stays responsive (hover a node for its name). Draw every label: the page may pause for a few seconds.`
    : "Draw unlabelled boxes and straight edges: faster for a graph this large.";
  const ms = await graphView.render({ ...model, compact });
  if (ms === null) return;
  document.body.dataset.renderMs = ms.toFixed(1);
  document.body.dataset.compact = String(compact);
  note.textContent = (compact ? "compact drawing: hover a node for its name · " : "") + (graphView.clipped ? "too large to fit: drag to pan, − to zoom out · " : "") + (model.cycles.length ? `${model.cycles.length} cycle${model.cycles.length > 1 ? "s" : ""} (red) · laid out in ${Math.round(ms)} ms` : `laid out in ${Math.round(ms)} ms`);
  note.title = note.textContent;
  if (session.selected && graphView.has(session.selected)) {
    // A link's selection is shown as a click would show it; a drawing again keeps the tabs.
    select(session.selected, { again: !linkSelection });
    linkSelection = false;
    // A drawing too large to fit opens on its centre: on the selected node instead, measured in
    // the next frame (measured now, it would lay out the whole new drawing inside this task).
    const name = session.selected;
    if (graphView.clipped) requestAnimationFrame(() => session.selected === name && graphView.centre(name));
  } else if (!session.selected) overview();
  const q = $("search").value;
  if (q) graphView.search(q);
}

let refreshes = 0;
/** The status shown last ("ok", "error", "cycle", "crash"), not counting "loading". */
let lastStatus = null;

function refresh() {
  showGallery();
  if (crashed) return;
  const files = editor.files();
  const mine = ++refreshes;
  if (!isLarge(files)) return show(analyse(files));
  // A large configuration: the package works in the worker while the page stays responsive;
  // the previous drawing stays until the new one is ready. A newer refresh supersedes this one.
  document.body.dataset.graphReady = "false";
  drawing = null; // a drawing still in progress no longer makes the graph "ready"
  status.textContent = "loading…";
  status.dataset.status = "loading";
  const options = analysisOptions(files);
  analyseInWorker(files, options).then(
    (result) => mine === refreshes && show(adopt(result, options)),
    (e) => {
      if (mine !== refreshes) return;
      current?.graph?.free();
      current = null;
      show({ ...crash(e), resources: [] });
    },
  );
  save();
}

/** Shows an analysis: status, diagnostics, resources, and the graph drawn again. */
function show(view) {
  crashed = view.status === "crash";
  // Errors replace the graph: show what they are (once, when they appear).
  if ((view.status === "error" || view.status === "crash") && lastStatus !== view.status) showTab("diagnostics");
  lastStatus = view.status;
  status.textContent = { ok: "loaded", error: "errors", cycle: "cycle", crash: "internal error" }[view.status];
  status.dataset.status = view.status;
  editor.setDiagnostics(view.diagnostics);
  renderResources($("resources"), $("resource-count"), view, reveal);
  renderDiagnostics($("diagnostics"), $("diagnostic-count"), view.diagnostics, reveal);
  enginePanel.filesChanged();
  rootResources = view.resources;
  testsPanel.filesChanged();
  steps.reset();
  redraw();
  save();
}

/** Draws the current graph again (a new drawing: the walk's colours and charts go). */
function redraw() {
  run.reset();
  const done = drawGraph().catch((e) => {
    console.error(e);
    graphView.clear(`The graph could not be drawn: ${e.message}`);
  });
  drawing = done;
  document.body.dataset.graphReady = "false";
  done.then(() => {
    if (drawing !== done) return;
    document.body.dataset.graphReady = "true";
    document.body.dataset.renders = String(Number(document.body.dataset.renders ?? 0) + 1);
    // Time to interactive (bench/page): navigation start to the first graph on screen.
    document.body.dataset.interactiveMs ??= performance.now().toFixed(1);
  });
}

// ---- Toolbar, gallery, share ---------------------------------------------------------------

const viewSelect = $("view");
const reduceBox = $("reduce");
viewSelect.addEventListener("change", () => {
  session.view = viewSelect.value;
  session.selected = null;
  refresh();
});
reduceBox.addEventListener("change", () => {
  session.reduce = reduceBox.checked;
  refresh();
});
const search = $("search");
search.addEventListener("input", () => {
  const hits = graphView.search(search.value);
  $("graph-note").textContent = search.value.trim() ? `${hits.length} match${hits.length === 1 ? "" : "es"}` : "";
});
search.addEventListener("keydown", (e) => {
  if (e.key !== "Enter") return;
  e.preventDefault();
  const [first] = graphView.search(search.value);
  if (first) select(first, { centre: true });
});
$("zoom-in").addEventListener("click", () => graphView.zoomIn());
$("zoom-out").addEventListener("click", () => graphView.zoomOut());
$("zoom-fit").addEventListener("click", () => graphView.fit());
$("full-view").addEventListener("click", () => {
  session.labels = !session.labels;
  redraw();
});

$("legend").replaceChildren(
  ...Object.entries(KIND_STYLE)
    .filter(([k]) => k !== "other")
    .map(([k, s]) => {
      const chip = document.createElement("span");
      chip.className = `legend-item legend-${k}`;
      chip.style.setProperty("--fill", s.fill);
      chip.textContent = s.legend;
      return chip;
    }),
);

const gallery = $("gallery");
gallery.append(
  ...GALLERY.map((g) => {
    const o = document.createElement("option");
    o.value = g.id;
    o.textContent = g.title;
    o.title = g.teaches;
    return o;
  }),
  Object.assign(document.createElement("option"), { value: "", textContent: "(your own files)", disabled: true }),
);
// An example whose files were edited is no longer that example: the menu says so with an entry
// of its own, and choosing the example again loads it as it was.
const editedOption = Object.assign(document.createElement("option"), { value: "edited", disabled: true });
function showGallery() {
  const example = GALLERY.find((g) => g.id === session.example);
  const edited = example && !sameFiles(example.files, editor.files());
  if (edited) {
    editedOption.textContent = `(edited) ${example.title}`; // first: a narrow menu cuts the end
    if (!editedOption.isConnected) gallery.lastElementChild.before(editedOption);
  } else editedOption.remove();
  gallery.value = edited ? "edited" : (example?.id ?? "");
}
gallery.addEventListener("change", () => loadExample(gallery.value));

/** Loads a gallery example; a new configuration has no state, except at start (a reload). */
function loadExample(id, { start = false } = {}) {
  const example = GALLERY.find((g) => g.id === id);
  if (!example) return;
  session.example = id;
  droppedDir = undefined;
  session.view = example.view ?? "resources";
  session.selected = null;
  viewSelect.value = session.view;
  gallery.value = id;
  gallery.title = example.teaches;
  $("details").dataset.teaches = example.teaches;
  session.config = newConfigKey();
  planned = null;
  enginePanel.useConfiguration(session.config, { fresh: !start });
  testsPanel.reset();
  editor.setFiles(example.files, "main.tf");
}

$("share").addEventListener("click", async () => {
  const link = new URL(encodeSession(currentSession()), location.href).href;
  $("share").dataset.link = link;
  try {
    await navigator.clipboard.writeText(link);
    $("graph-note").textContent = "Link copied: it reproduces this session.";
  } catch {
    prompt("Copy this link; it reproduces this session:", link);
  }
});

// ---- Start ---------------------------------------------------------------------------------

$("version").textContent = `v${tfgraph.version}`;
/** Opens a share link's session: its files, view and settings, and its configuration's state. */
function restore(restored) {
  session.view = VIEWS.includes(restored.view) ? restored.view : "resources";
  session.reduce = restored.reduce !== false;
  session.selected = typeof restored.selected === "string" ? restored.selected : null;
  linkSelection = session.selected !== null;
  run.setSettings(restored.run);
  enginePanel.setSettings(restored.engine);
  viewSelect.value = session.view;
  reduceBox.checked = session.reduce;
  const example = GALLERY.find((g) => g.id === restored.example);
  session.example = example ? example.id : null;
  gallery.value = session.example ?? "";
  session.config = typeof restored.config === "string" && restored.config ? restored.config : contentKey(JSON.stringify(restored.files ?? restored.example ?? null));
  planned = null;
  enginePanel.useConfiguration(session.config);
  testsPanel.reset();
  editor.setFiles(restored.files ?? example?.files ?? GALLERY[0].files, restored.open);
}
const restored = decodeSession(location.hash);
if (restored) restore(restored);
else loadExample(GALLERY[0].id, { start: true });
// Another share link followed in this tab (only the hash changed, so the page stays): open it.
// The page's own saves replace the hash without this event.
window.addEventListener("hashchange", () => {
  const next = decodeSession(location.hash);
  if (next) restore(next);
});

installDrop(document.body, (files) => {
  const paths = Object.keys(files);
  if (paths.length === 1 && paths[0] === STATE_FILE) {
    // A state file alone: the prior state for the files already here.
    editor.setFiles({ ...editor.files(), ...files }, editor.active());
    return;
  }
  session.example = null;
  gallery.value = "";
  droppedDir = files[DIR];
  session.selected = null;
  session.config = newConfigKey();
  planned = null;
  enginePanel.useConfiguration(session.config, { fresh: true });
  testsPanel.reset();
  editor.setFiles(files, "main.tf");
});
document.body.dataset.ready = "true";
