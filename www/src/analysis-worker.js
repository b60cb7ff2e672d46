// The package beside the page: loads and builds large configurations (analysis.js) so that the
// seconds they take never freeze the page. The package is imported by its served path (module
// workers have no import map). Messages:
//   in:  { id, files, operation, reduce, state }
//   out: { id, result } (analyseFiles' plain data, every edge explained) or { id, error }

import * as tfgraph from "../pkg/index.js";
import { analyseFiles } from "./analysis.js";

self.onmessage = ({ data: { id, files, operation, reduce, state } }) => {
  try {
    self.postMessage({ id, result: analyseFiles(tfgraph, files, { operation, reduce, state, explainAll: true }) });
  } catch (e) {
    self.postMessage({ id, error: `${e?.message ?? e}` });
  }
};
