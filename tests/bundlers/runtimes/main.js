// The package in Deno and Bun: imported by name from node_modules, no init call.
import { buildGraph, evaluate, loadConfig, version, walk } from "tfgraph";

const files = {
  "main.tf": `
resource "null_resource" "a" {}
resource "null_resource" "b" {
  triggers = { a = null_resource.a.id }
}
`,
};

const config = loadConfig(files);
const graph = buildGraph(config);
const order = [];
await walk(graph, async (name) => {
  order.push(name);
});
console.log(JSON.stringify({
  version,
  resources: config.root.resources.map((r) => r.address),
  edges: graph.edges().map((e) => `${e.from} -> ${e.to}`),
  order,
  // x/text's Shift_JIS, from tfgraph_encodings.bin beside the module (read on first use).
  shiftJis: evaluate({ "main.tf": "" }, 'textencodebase64("日本語", "Shift_JIS")').value,
}));
