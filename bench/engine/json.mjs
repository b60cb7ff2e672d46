// Planning a `.tf.json` configuration in Node: bench/engine's generated stack (src/generate.rs:
// module instances of 100 mock resources, fan-out, fan-in, a chain, count) written in HCL's JSON
// syntax, where every string is a template (`"${var.env}-${var.index}"`). It times what
// evaluating JSON expressions costs the engine, for one or two builds of the package,
// interleaved round by round (the machine's load changes less between A and B than between two
// runs):
//
//   node bench/engine/json.mjs [pkgA [pkgB]] [--resources 10000] [--rounds 5] [--hcl]
//   node bench/engine/json.mjs --write DIR [--resources N] [--hcl]   (the files, for profiling)
//
// A package folder is a built pkg/ or a copy of one (default: pkg/). `--hcl` plans the same
// configuration in native syntax instead. Printed per build: median and minimum wall time and
// CPU time (user + system) of `plan(files)`, and the number of planned changes.

import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { resources: { type: "string", default: "10000" }, rounds: { type: "string", default: "5" }, hcl: { type: "boolean" }, write: { type: "string" } },
});
const n = Number(opts.resources);
if (!(n > 0 && n % 100 === 0)) throw new Error("--resources: a positive multiple of 100");
const dirs = positionals.length ? positionals : [join(repo, "pkg")];

/** One resource: `{ "name": "<template>", "input": { key: "<template>" } }`, count optional. */
const res = (name, input, count) => ({ ...(count ? { count } : {}), name, input });

/** bench/engine/src/generate.rs's configuration in JSON syntax. */
function jsonFiles() {
  const stack = {
    variable: { env: { type: "string" }, index: { type: "number" } },
    locals: { prefix: "${var.env}-${var.index}" },
    resource: {
      mock_resource: {
        vpc: res("vpc-${local.prefix}", { env: "${var.env}" }),
        subnet: res("subnet-${local.prefix}-${count.index}", { vpc: "${mock_resource.vpc.id}" }, 9),
        server: res("server-${local.prefix}-${count.index}", { subnet: "${mock_resource.subnet[count.index % 9].id}", prefix: "${local.prefix}" }, 80),
        join: res("join-${local.prefix}", { servers: '${join(",", mock_resource.server[*].id)}' }),
      },
    },
    output: { vpc_id: { value: "${mock_resource.vpc.id}" } },
  };
  for (let i = 0; i < 9; i++) {
    const prev = i === 0 ? "mock_resource.vpc.id" : `mock_resource.chain_${i - 1}.id`;
    stack.resource.mock_resource[`chain_${i}`] = res(`chain-\${local.prefix}-${i}`, { prev: `\${${prev}}` });
  }
  const root = {
    terraform: { required_providers: { mock: { source: "hashicorp/mock" } } },
    variable: { env: { default: "bench" } },
    module: { stack: { source: "./modules/stack", count: n / 100, env: "${var.env}", index: "${count.index}" } },
    output: { first_vpc: { value: "${module.stack[0].vpc_id}" } },
  };
  return { "main.tf.json": JSON.stringify(root, null, 2), "modules/stack/main.tf.json": JSON.stringify(stack, null, 2) };
}

/** The same configuration in native syntax (the `--hcl` comparison). */
function hclFiles() {
  const hcl = (v) => (typeof v === "string" ? (/^\$\{[^}]*\}$/.test(v) && !v.slice(2).includes("${") ? v.slice(2, -1) : JSON.stringify(v)) : String(v));
  const body = (o, indent) =>
    Object.entries(o)
      .map(([k, v]) => (typeof v === "object" ? `${indent}${k} = { ${Object.entries(v).map(([a, b]) => `${a} = ${hcl(b)}`).join(", ")} }` : `${indent}${k} = ${hcl(v)}`))
      .join("\n");
  const j = Object.fromEntries(Object.entries(jsonFiles()).map(([k, v]) => [k, JSON.parse(v)]));
  const s = j["modules/stack/main.tf.json"];
  let stack = `variable "env" {\n  type = string\n}\nvariable "index" {\n  type = number\n}\nlocals {\n  prefix = "\${var.env}-\${var.index}"\n}\n`;
  for (const [name, r] of Object.entries(s.resource.mock_resource)) stack += `resource "mock_resource" "${name}" {\n${body(r, "  ")}\n}\n`;
  stack += `output "vpc_id" {\n  value = mock_resource.vpc.id\n}\n`;
  const root = `terraform {\n  required_providers {\n    mock = { source = "hashicorp/mock" }\n  }\n}\nvariable "env" {\n  default = "bench"\n}\nmodule "stack" {\n  source = "./modules/stack"\n  count  = ${n / 100}\n  env    = var.env\n  index  = count.index\n}\noutput "first_vpc" {\n  value = module.stack[0].vpc_id\n}\n`;
  return { "main.tf": root, "modules/stack/main.tf": stack };
}

const files = opts.hcl ? hclFiles() : jsonFiles();
if (opts.write) {
  const { mkdirSync, writeFileSync } = await import("node:fs");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(opts.write, name)), { recursive: true });
    writeFileSync(join(opts.write, name), text);
  }
  process.exit(0);
}
const builds = [];
for (const d of dirs) {
  const tf = await import(pathToFileURL(resolve(d, "index.js")).href);
  builds.push({ name: d, tf, wall: [], cpu: [], changes: 0 });
}
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (const b of builds) await b.tf.plan(files); // warm-up
for (let r = 0; r < Number(opts.rounds); r++) {
  for (const b of builds) {
    const [t, c] = [performance.now(), cpu()];
    const p = await b.tf.plan(files);
    b.wall.push(performance.now() - t);
    b.cpu.push(cpu() - c);
    if (p.errored) throw new Error(`${b.name}: ${JSON.stringify(p.diagnostics).slice(0, 500)}`);
    b.changes = p.changes.length;
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const ms = (x) => `${Math.round(x).toLocaleString("en-US")} ms`;
console.log(`${opts.hcl ? "native syntax" : ".tf.json"}, ${n.toLocaleString("en-US")} resources, ${opts.rounds} rounds, load ${(await import("node:os")).loadavg().map((l) => l.toFixed(1)).join(" ")}`);
console.log("| build | plan median (min) | CPU median (min) | changes |\n| --- | ---: | ---: | ---: |");
for (const b of builds) console.log(`| ${b.name} | ${ms(median(b.wall))} (${ms(Math.min(...b.wall))}) | ${ms(median(b.cpu))} (${ms(Math.min(...b.cpu))}) | ${b.changes} |`);
