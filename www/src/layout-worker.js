// Graphviz off the main thread: lays out DOT with the vendored @viz-js/viz and answers with the
// SVG text, so a 2,000-node layout (seconds) never freezes the page. Messages:
//   in:  { id, dot }      out: { id, ms, status, svg, errors }

import { instance } from "../vendor/viz.js";

const viz = instance();

self.onmessage = async ({ data: { id, dot } }) => {
  const v = await viz;
  const start = performance.now();
  const result = v.render(dot, { format: "svg" });
  self.postMessage({ id, ms: performance.now() - start, status: result.status, svg: result.output ?? null, errors: result.errors });
};
