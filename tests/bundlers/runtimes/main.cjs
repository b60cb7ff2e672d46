// CommonJS in Bun: require() of the package by name.
const { buildGraph, version } = require("tfgraph");

const graph = buildGraph({ "main.tf": 'resource "null_resource" "w" {}\nresource "null_resource" "x" { depends_on = [null_resource.w] }\n' });
console.log(JSON.stringify({ version, edges: graph.edges().map((e) => `${e.from} -> ${e.to}`) }));
