// A plan from a state with one huge attribute (issue #26's "400 MB state file"), then reading
// the Plan as a user does (changes, text, JSON), then a normal plan in the same module.
//
//   node bench/limits/big-state.mjs [MiB]      (default: 400, near the longest string V8 holds)
//
// Printed per step: wasm memory (`memoryBytes()`, which never shrinks: its peak so far), the
// process's RSS, and the process's CPU so far. A step that runs the module out of memory prints
// the TfgraphError's diagnostic instead, and the next steps are skipped.

import { plan, memoryBytes, TfgraphError } from "../../pkg/index.js";

const mib = (b) => Math.round(b / 2 ** 20);
const say = (label) => {
  const { user, system } = process.cpuUsage();
  console.log(`${label}: wasm ${mib(memoryBytes())} MiB, rss ${mib(process.memoryUsage().rss)} MiB, cpu ${Math.round((user + system) / 1000)} ms`);
};
const n = Number(process.argv[2] ?? 400);
const big = "x".repeat(n * 2 ** 20);
const state = `{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"l","outputs":{},"resources":[{"mode":"managed","type":"mock_resource","name":"a","provider":"provider[\\"registry.terraform.io/hashicorp/mock\\"]","instances":[{"schema_version":0,"attributes":{"id":"a","name":"${big}"}}]}]}`;
say(`start (state text ${mib(state.length)} MiB)`);
let p;
try {
  p = await plan({ "main.tf": 'resource "mock_resource" "a" {\n  name = "a"\n}\n' }, { state });
  say(`planned (errored: ${p.errored})`);
  const changes = p.changes;
  say(`changes read (${changes.map((c) => `${c.address} ${c.actions}`).join(", ")})`);
  say(`text read (${mib(p.toString().length)} MiB)`);
  p.toJSON();
  say("JSON read");
} catch (e) {
  say("stopped");
  if (!(e instanceof TfgraphError)) throw e;
  const d = e.diagnostics[0];
  console.log(`  ${d.summary}${d.range ? ` at ${d.range.filename}:${d.range.start.line}` : ""}: ${d.detail}`);
}
p?.free?.();
const next = await plan({ "main.tf": 'resource "mock_resource" "b" {\n  name = "b"\n}\n' });
say(`next plan (${next.changes.map((c) => c.address).join(", ")})`);
