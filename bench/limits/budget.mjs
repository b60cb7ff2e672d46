// What one expression may make (issue #26, src/eval/limits.rs): how long the package takes to
// reach the default budgets (limits.elements, limits.bytes) and answer with the error, and the
// module's memory after, for the expressions that pass them; and the same for large values
// within them. Each case in a fresh Node process, so memory is the case's own.
//
//   node bench/limits/budget.mjs

import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cases = [
  ["nested for, 1024^3 elements", "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : k]]])"],
  ["nested for, 1024^3 filtered out", "length([for i in range(1024) : [for j in range(1024) : [for k in range(1024) : k if false]]])"],
  ["1 GB of format results", 'length(join("", [for i in range(1024) : format("%01000000d", i)]))'],
  ["setproduct of 10 million", "length(setproduct(range(1000), range(1000), range(10)))"],
  ["setproduct of 2,097,152 (a value)", "length(setproduct(range(1024), range(1024), [1, 2]))"],
  ["a million for_each keys (a value)", 'length(toset([for p in setproduct(range(1000), range(1000)) : join("-", p)]))'],
];

if (process.argv[2] === "--child") {
  const { evaluate, memoryBytes, TfgraphError } = await import("../../pkg/index.js");
  const expr = process.argv[3];
  const t0 = performance.now();
  let answer;
  try {
    answer = String(evaluate({ "main.tf": "" }, expr).value);
  } catch (e) {
    if (!(e instanceof TfgraphError)) throw e;
    answer = e.diagnostics[0].summary;
  }
  const ms = performance.now() - t0;
  console.log(JSON.stringify({ ms, answer, memory: memoryBytes() }));
} else {
  const self = fileURLToPath(import.meta.url);
  console.log("| expression | answer | time | module memory |\n| --- | --- | ---: | ---: |");
  for (const [name, expr] of cases) {
    const out = JSON.parse(execFileSync(process.execPath, [self, "--child", expr], { encoding: "utf8" }));
    console.log(`| ${name} | ${out.answer} | ${(out.ms / 1000).toFixed(1)} s | ${Math.round(out.memory / 2 ** 20)} MiB |`);
  }
}
