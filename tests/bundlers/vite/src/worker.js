// The package in a Web Worker: loaded on import there too, then used as on the page.
import { buildGraph, version } from "tfgraph";

const graph = buildGraph({ "main.tf": 'resource "null_resource" "w" {}\nresource "null_resource" "x" { depends_on = [null_resource.w] }\n' });
self.postMessage({ version, edges: graph.edges().map((e) => `${e.from} -> ${e.to}`) });
