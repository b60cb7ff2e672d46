// Graphviz off the main thread: lays out DOT with the vendored @viz-js/viz and answers with the
// SVG text, so a 2,000-node layout (seconds) never freezes the page. Messages:
//   in:  { id, dot, compact }      out: { id, ms, status, svg, errors, edges }
//
// compact (large graphs): the edges leave the SVG. Each Graphviz edge is a <g> with a <title>,
// a <path> and an arrowhead <polygon>; a 2,000-resource plan graph has ~4,000 of them, and
// parsing, styling and painting those 12,000 elements held the main thread for most of a
// second (bench/page). They become one <path> per colour for the lines and one for the
// arrowheads, and `edges` (id → { d, arrow, stroke, width }) lets the page draw a selected
// node's edges on top, one element each.

import { instance } from "../vendor/viz.js";

const viz = instance();

const EDGE = /<g id="(e\d+)" class="edge[^"]*">\n([\s\S]*?)<\/g>\n/g;
const attr = (text, name) => text.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];

/** Polygon points ("x,y x,y ...") as path data. */
const polygonPath = (points) => `M${points.trim().split(/\s+/).join("L")}Z`;

export function compactEdges(svg) {
  const edges = {};
  const groups = new Map(); // "stroke width" → { lines: [], arrows: [] }
  const out = svg.replace(EDGE, (_, id, body) => {
    const path = body.match(/<path [^>]*\/>/)?.[0] ?? "";
    const polygon = body.match(/<polygon [^>]*\/>/)?.[0];
    const d = attr(path, "d") ?? "";
    const stroke = attr(path, "stroke") ?? "#8f9aa7";
    const width = attr(path, "stroke-width") ?? "1";
    const arrow = polygon ? polygonPath(attr(polygon, "points") ?? "") : "";
    edges[id] = { d, arrow, stroke, width };
    const key = `${stroke} ${width}`;
    if (!groups.has(key)) groups.set(key, { stroke, width, lines: [], arrows: [] });
    const g = groups.get(key);
    g.lines.push(d);
    if (arrow) g.arrows.push(arrow);
    return "";
  });
  const drawn = [...groups.values()]
    .map((g) => `<path fill="none" stroke="${g.stroke}" stroke-width="${g.width}" d="${g.lines.join("")}"/>\n<path fill="${g.stroke}" stroke="none" d="${g.arrows.join("")}"/>\n`)
    .join("");
  // The edges go where Graphviz drew them: after the nodes, before the graph's closing tag.
  const end = out.lastIndexOf("</g>");
  return { svg: `${out.slice(0, end)}<g id="edges" class="edges-compact">\n${drawn}</g>\n${out.slice(end)}`, edges };
}

/**
 * Drops what only costs the page parsing time: Graphviz's comments (one per node and edge) and
 * the nodes' and edges' <title>s, which hold our ids (`n12`); graph-view.js makes a tooltip with
 * the real name when the pointer first reaches a node or edge. Clusters keep their titles.
 */
export const slim = (svg) =>
  svg.replace(/^<!-- .* -->\n/gm, "").replace(/(<g id="[^"]*" class="(?:node|edge)\b[^"]*">\n)<title>[^<]*<\/title>\n/g, "$1");

self.onmessage = async ({ data: { id, dot, compact } }) => {
  const v = await viz;
  const start = performance.now();
  const result = v.render(dot, { format: "svg" });
  const ms = performance.now() - start;
  let svg = result.output == null ? null : slim(result.output);
  let edges = null;
  if (svg && compact) ({ svg, edges } = compactEdges(svg));
  self.postMessage({ id, ms, status: result.status, svg, errors: result.errors, edges });
};
