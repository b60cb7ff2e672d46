// Graphviz's layout of large graphs, the page's DOT (www/src/graph-view.js toDot) laid out by the
// page's own Graphviz build (www/vendor/viz.js, @viz-js/viz) in Node, with the layout settings
// worth trying on the 2,000-resource graphs the page draws compact: the time each takes, and
// what the drawing becomes (its size in points, and the edge crossings between adjacent ranks,
// counted on the laid-out edges' end points), so that a faster setting is only taken if the
// drawing stays as readable. CPU time beside wall time: on a shared machine the wall time is
// mostly waiting for a core.
//
//   node bench/page/graphviz.mjs [--runs N] [--size 2000]   (after scripts/build)

import assert from "node:assert/strict";
import { instance } from "../../www/vendor/viz.js";
import { buildGraph } from "../../pkg/index.js";
import { styleOf, toDot } from "../../www/src/graph-view.js";
import { resourceView } from "../../www/src/model.js";
import { layered } from "./configs.mjs";

const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const runs = Number(arg("--runs")) || 1;
const size = Number(arg("--size")) || 2000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The page's drawing model for a view, as main.js drawModel makes it (compact: no labels). */
function model(view) {
  const g = buildGraph({ "main.tf": layered(size, 40) }, { operation: "plan", reduce: true });
  const nodes = g.nodes();
  const edges = g.edges().map((e) => ({ from: e.from, to: e.to }));
  g.free();
  let drawn;
  if (view === "resources") {
    const rv = resourceView(nodes, edges, true);
    const byName = new Map(nodes.map((n) => [n.name, n]));
    drawn = { nodes: rv.nodes.map((n) => ({ name: n.key, style: styleOf(byName.get(n.names[0]).kind, byName.get(n.names[0]).address), module: n.module })), edges: rv.edges };
  } else drawn = { nodes: nodes.map((n) => ({ name: n.name, style: styleOf(n.kind, n.address), module: n.module })), edges };
  const ids = new Map(drawn.nodes.map((n, i) => [n.name, `n${i}`]));
  return {
    compact: true,
    nodes: drawn.nodes.map((n) => ({ ...n, id: ids.get(n.name), label: "" })),
    edges: drawn.edges.map((e, i) => ({ id: `e${i}`, from: ids.get(e.from), to: ids.get(e.to) })),
  };
}

/**
 * Crossings between edges that join the same pair of ranks (y levels), from each edge's end
 * points in the SVG: a proxy for what mincross optimises.
 */
function crossings(svg) {
  const ends = [];
  for (const m of svg.matchAll(/<path fill="none" stroke="[^"]*" d="M([-\d.]+),([-\d.]+)C[^"]*?([-\d.]+),([-\d.]+)"/g)) {
    const [x1, y1, x2, y2] = m.slice(1).map(Number);
    ends.push(y1 < y2 ? [Math.round(y1), x1, Math.round(y2), x2] : [Math.round(y2), x2, Math.round(y1), x1]);
  }
  const byBand = new Map();
  for (const e of ends) {
    const k = `${e[0]} ${e[2]}`;
    if (!byBand.has(k)) byBand.set(k, []);
    byBand.get(k).push(e);
  }
  let n = 0;
  for (const band of byBand.values()) {
    for (let i = 0; i < band.length; i++) for (let j = i + 1; j < band.length; j++) if ((band[i][1] - band[j][1]) * (band[i][3] - band[j][3]) < 0) n++;
  }
  return n;
}

// `dot -v` on the same DOT (Debian's Graphviz) puts the time in the x-positions' network
// simplex (0.46 of 0.57 s CPU for the resources view), not in mincross (0.02 s): nslimit caps
// its iterations at nslimit × nodes (1,501 iterations on 5,920 nodes here).
// Each setting edits the page's DOT (which has nslimit=0.1 in compact drawings since this was
// measured).
const SETTINGS = {
  "dot's defaults": (dot) => dot.replace(" nslimit=0.1;", ""),
  "mclimit=0.3, remincross=false": (dot) => dot.replace(" nslimit=0.1;", " mclimit=0.3; remincross=false;"),
  "nslimit=0.1 (as the page draws)": (dot) => dot,
  "nslimit=0.02": (dot) => dot.replace(" nslimit=0.1;", " nslimit=0.02;"),
};

const viz = await instance();
console.log(`| ${size} resources, compact drawing | setting | Graphviz wall ms (median of ${runs}) | CPU ms | drawing, points | crossings between adjacent ranks |\n| --- | --- | --- | --- | --- | --- |`);
for (const view of ["resources", "plan"]) {
  const base = toDot(model(view));
  assert.ok(base.includes(" nslimit=0.1;"), "the page's compact DOT sets nslimit");
  viz.render(base, { format: "svg" }); // unmeasured: the first large layout also grows the wasm's memory
  for (const [name, edit] of Object.entries(SETTINGS)) {
    const dot = edit(base);
    const times = [];
    const cpu = [];
    let out;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const used = process.cpuUsage();
      out = viz.render(dot, { format: "svg" });
      times.push(performance.now() - start);
      const { user, system } = process.cpuUsage(used);
      cpu.push((user + system) / 1000);
    }
    const [w, h] = (out.output.match(/viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"/) ?? []).slice(1).map((x) => Math.round(Number(x)));
    console.log(`| ${view} | ${name} | ${median(times).toFixed(0)} (${times.map((t) => t.toFixed(0)).join(", ")}) | ${median(cpu).toFixed(0)} | ${w} × ${h} | ${crossings(out.output)} |`);
  }
}
