// Planning with a provider written in JS: bench/engine's generated stack (module instances of
// 100 resources: a VPC, a count-9 subnet fan-out, 80 servers reading a subnet each, a chain of
// nine and a fan-in) served by a JsProvider for `acme/x` whose every answer is a promise
// (settled after `--latency` ms of a timer; 0: a resolved promise). One or two builds of the
// package, interleaved round by round:
//
//   node bench/engine/js-provider.mjs [pkgA [pkgB]] [--resources 1000] [--rounds 3] [--latency 0] [--known]
//
// `--known`: the provider plans each new `id` known (`id-NAME`) instead of unknown, so what reads
// it changes once the answer comes (a provisional answer has it unknown).
//
// Printed per build: median and minimum wall and CPU time (user + system) of `plan(files, {
// providers })`, the provider calls it made, and the planned changes.

import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { resources: { type: "string", default: "1000" }, rounds: { type: "string", default: "3" }, latency: { type: "string", default: "0" }, known: { type: "boolean" } },
});
const n = Number(opts.resources);
if (!(n > 0 && n % 100 === 0)) throw new Error("--resources: a positive multiple of 100");
const latency = Number(opts.latency);
const dirs = positionals.length ? positionals : [join(repo, "pkg")];

const thing = (name, body, count) => `resource "x_thing" "${name}" {\n${count ? `  count = ${count}\n` : ""}${body}}\n`;
let stack = 'terraform {\n  required_providers {\n    x = { source = "acme/x" }\n  }\n}\nvariable "prefix" {\n  type = string\n}\n';
stack += thing("vpc", '  name = "vpc-${var.prefix}"\n');
stack += thing("subnet", '  name  = "subnet-${var.prefix}-${count.index}"\n  input = { vpc = x_thing.vpc.id }\n', 9);
stack += thing("server", '  name  = "server-${var.prefix}-${count.index}"\n  input = { subnet = x_thing.subnet[count.index % 9].id }\n', 80);
for (let i = 0; i < 9; i++) stack += thing(`chain_${i}`, `  name  = "chain-\${var.prefix}-${i}"\n  input = { prev = ${i ? `x_thing.chain_${i - 1}.id` : "x_thing.vpc.id"} }\n`);
stack += thing("join", '  name  = "join-${var.prefix}"\n  input = { servers = join(",", x_thing.server[*].id) }\n');
const root = `terraform {\n  required_providers {\n    x = { source = "acme/x" }\n  }\n}\nmodule "stack" {\n  source = "./modules/stack"\n  count  = ${n / 100}\n  prefix = "s\${count.index}"\n}\n`;
const files = { "main.tf": root, "modules/stack/main.tf": stack };

function provider() {
  const p = { calls: 0 };
  const later = (v) => (latency ? new Promise((r) => setTimeout(() => r(v), latency)) : Promise.resolve(v));
  p.schema = () => ({
    resources: {
      x_thing: { attributes: { name: { type: "string", required: true }, input: { type: ["map", "string"], optional: true }, id: { type: "string", computed: true } } },
    },
  });
  p.planResourceChange = ({ config, prior }) => {
    p.calls++;
    const value = { ...config.value };
    const unknown = { ...config.unknown };
    if (prior) value.id = prior.value.id;
    else if (opts.known) value.id = `id-${value.name}`;
    else unknown.id = true;
    return later({ planned: { value, unknown } });
  };
  p.applyResourceChange = ({ planned }) => later({ newState: { value: { ...planned.value, id: `id-${planned.value.name}` } } });
  p.readResource = ({ state }) => (p.calls++, later({ newState: state }));
  p.readDataSource = () => later({});
  return p;
}

const builds = [];
for (const d of dirs) {
  const tf = await import(pathToFileURL(resolve(d, "index.js")).href);
  builds.push({ name: d, tf, wall: [], cpu: [], calls: 0, changes: 0 });
}
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (const b of builds) await b.tf.plan(files, { providers: { "acme/x": provider() } }); // warm-up
for (let r = 0; r < Number(opts.rounds); r++) {
  for (const b of builds) {
    const x = provider();
    const [t, c] = [performance.now(), cpu()];
    const p = await b.tf.plan(files, { providers: { "acme/x": x } });
    b.wall.push(performance.now() - t);
    b.cpu.push(cpu() - c);
    if (p.errored) throw new Error(`${b.name}: ${JSON.stringify(p.diagnostics).slice(0, 500)}`);
    [b.calls, b.changes] = [x.calls, p.changes.length];
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const ms = (x) => `${Math.round(x).toLocaleString("en-US")} ms`;
console.log(`JS provider (latency ${latency} ms${opts.known ? ", ids known at plan" : ""}), ${n.toLocaleString("en-US")} resources, ${opts.rounds} rounds, load ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")}`);
console.log("| build | plan median (min) | CPU median (min) | provider calls | changes |\n| --- | ---: | ---: | ---: | ---: |");
for (const b of builds) console.log(`| ${b.name} | ${ms(median(b.wall))} (${ms(Math.min(...b.wall))}) | ${ms(median(b.cpu))} (${ms(Math.min(...b.cpu))}) | ${b.calls} | ${b.changes} |`);
