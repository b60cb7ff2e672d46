// The package beside the page: loads and builds large configurations (analysis.js) so that the
// seconds they take never freeze the page. The package is imported by its served path (module
// workers have no import map). Messages:
//   in:  { id, files, operation, reduce, state, changes, mode }
//   out: { id, json } (analyseFiles' plain data, every edge explained, as JSON) or { id, error }
//
// JSON rather than the object itself: the page's structured-clone deserialisation of a
// 2,000-resource result (~4 MB, ~100,000 small objects) took twice as long as JSON.parse of the
// same data (200 ms against 95 ms, measured with node's v8.deserialize), all on the main thread.

import * as tfgraph from "../pkg/index.js";
import { analyseFiles } from "./analysis.js";

self.onmessage = ({ data: { id, files, operation, reduce, state, changes, mode } }) => {
  try {
    self.postMessage({ id, json: JSON.stringify(analyseFiles(tfgraph, files, { operation, reduce, state, changes, mode, explainAll: true })) });
  } catch (e) {
    self.postMessage({ id, error: `${e?.message ?? e}` });
  }
};
