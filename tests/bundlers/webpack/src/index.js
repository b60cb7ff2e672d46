// A browser app as a new user writes it: import the package by name, no init call, no config.
import { buildGraph, evaluate, loadConfig, version, walk } from "tfgraph";

const files = {
  "main.tf": `
resource "null_resource" "a" {}
resource "null_resource" "b" {
  triggers = { a = null_resource.a.id }
}
`,
};

async function run() {
  const config = loadConfig(files);
  const graph = buildGraph(config);
  const order = [];
  await walk(graph, async (name) => {
    order.push(name);
  });
  return {
    version,
    resources: config.root.resources.map((r) => r.address),
    edges: graph.edges().map((e) => `${e.from} -> ${e.to}`),
    order,
    // x/text's Shift_JIS, from tfgraph_encodings.bin beside the module (read on first use).
    shiftJis: evaluate({ "main.tf": "" }, 'textencodebase64("日本語", "Shift_JIS")').value,
  };
}

// The same package inside a module worker.
function inWorker() {
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error(`worker: ${e.message}`));
  });
}

Promise.all([run(), inWorker()]).then(
  ([page, worker]) => {
    const result = JSON.stringify({ page, worker });
    console.log(result);
    document.body.dataset.result = result;
  },
  (e) => {
    console.error(String(e?.stack ?? e));
    document.body.dataset.result = JSON.stringify({ error: String(e) });
  },
);
