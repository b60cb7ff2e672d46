#!/usr/bin/env node
// The `tfgraph` command: Terraform's graph, validation, edge explanations, cycles and console
// on a directory, with no Terraform, providers or network. A thin layer over the package's
// exports; arguments are parsed with node:util's parseArgs. Exit codes follow Terraform's:
// 0 success, 1 error (and a usage message for bad arguments).

import { parseArgs } from "node:util";
import { readFile, stat } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import { readConfigDir } from "./read-dir.js";
import { buildGraph, evaluate, loadConfig, TfgraphError, version } from "./node.js";

const COMMANDS = {
  graph: {
    usage: "tfgraph graph [DIR] [--type plan|plan-destroy|validate] [--format dot|mermaid|text|json] [--draw-cycles] [--full]",
    help: `Prints Terraform's graph of the configuration in DIR (default "."). By default the
resource-only DOT that \`terraform graph\` prints, ready for \`| dot -Tsvg\`; --type (or --full)
prints the whole graph Terraform builds for that operation, every node and edge.

Options:
  --type T        plan (default), plan-destroy, validate
  --format F      dot (default), mermaid, text (Terraform's Graph.String()), json (nodes and
                  edges, each edge with the reasons it exists)
  --draw-cycles   draw the edges of cycles in red (DOT)
  --full          the whole plan graph instead of resources only`,
    options: { type: { type: "string" }, format: { type: "string" }, "draw-cycles": { type: "boolean" }, full: { type: "boolean" } },
  },
  validate: {
    usage: "tfgraph validate [DIR] [--json]",
    help: `Checks the configuration in DIR as \`terraform validate\` does (loading, references,
providers, the validate graph and its cycles) and prints the diagnostics with source snippets,
or as \`terraform validate -json\`. Exit status 1 when there are errors.`,
    options: { json: { type: "boolean" } },
  },
  explain: {
    usage: "tfgraph explain [DIR] FROM TO",
    help: `Says why the plan graph has an edge from node FROM to node TO (FROM depends on TO): the
expression, attribute and file:line:col behind each reason. Node names as \`tfgraph graph --format
text\` prints them, e.g. "aws_instance.web (expand)". Exit status 1 when there is no such edge.`,
    options: {},
  },
  cycles: {
    usage: "tfgraph cycles [DIR]",
    help: `Lists the cycles of the plan graph, each loop explained step by step. Exit status 1 when
there is a cycle.`,
    options: {},
  },
  console: {
    usage: "tfgraph console [DIR] [--var NAME=VALUE]... [--var-file FILE]... [--state FILE]",
    help: `Evaluates expressions as \`terraform console\` does: one per line from standard input, or
at a "> " prompt when standard input is a terminal. Values print as Terraform prints them.

Options:
  --var NAME=VALUE  an input variable (VALUE is read as JSON when it parses, else as a string)
  --var-file FILE   a .tfvars or .tfvars.json file (after the directory's own, in order)
  --state FILE      a terraform.tfstate (version 4): resource attributes come from it`,
    options: { var: { type: "string", multiple: true }, "var-file": { type: "string", multiple: true }, state: { type: "string" } },
  },
};

// The engine for these is not in this version: their arguments are checked, then they say so.
const ENGINE = {
  plan: "tfgraph plan [DIR] [--state FILE] [--var NAME=VALUE] [--var-file FILE] [--out FILE] [--json] [--destroy] [--parallelism N] [--detailed-exitcode]",
  apply: "tfgraph apply [DIR | PLAN.json] [--state FILE] [--var NAME=VALUE] [--var-file FILE] [--json] [--parallelism N]",
  destroy: "tfgraph destroy [DIR] [--state FILE] [--var NAME=VALUE] [--var-file FILE] [--parallelism N]",
};
const ENGINE_OPTIONS = {
  state: { type: "string" },
  var: { type: "string", multiple: true },
  "var-file": { type: "string", multiple: true },
  out: { type: "string" },
  json: { type: "boolean" },
  destroy: { type: "boolean" },
  parallelism: { type: "string" },
  "detailed-exitcode": { type: "boolean" },
};

const MAIN_HELP = `Usage: tfgraph <command> [options] [DIR]

Terraform's resource graph engine, without Terraform: works on any directory of .tf files
(and on .terraform/modules after \`terraform init\`), with no providers and no network.

Commands:
  graph      Terraform's graph as DOT, Mermaid, text or JSON
  validate   the configuration's diagnostics, as terraform validate prints them
  explain    why one node of the plan graph depends on another
  cycles     the cycles of the plan graph, explained
  console    evaluate expressions, as terraform console does
  plan, apply, destroy
             not in this version (the plan/apply engine is being built)

Run \`tfgraph <command> --help\` for a command's options. \`tfgraph --version\` prints the version.`;

class UsageError extends Error {}

const out = (s) => process.stdout.write(s.endsWith("\n") ? s : s + "\n");
const err = (s) => process.stderr.write(s.endsWith("\n") ? s : s + "\n");

/**
 * Reads DIR as Terraform would see it: its files, and when a local module source points above
 * it (`source = "../../"`, as in a module's examples/), the files of the ancestor that holds
 * that module too. Returns `{ files, root }` where `root` is DIR relative to the files read.
 */
async function readDir(dir) {
  let st;
  try {
    st = await stat(dir);
  } catch {
    throw new UsageError(`The directory ${JSON.stringify(dir)} does not exist.`);
  }
  if (!st.isDirectory()) throw new UsageError(`${JSON.stringify(dir)} is not a directory.`);
  let base = resolve(dir);
  for (let up = 0; ; up++) {
    const files = await readConfigDir(base);
    const root = relative(base, resolve(dir)).split(sep).join("/");
    if (up === 8 || dirname(base) === base) return { files, root };
    let outside = false;
    try {
      loadConfig(files, { root });
    } catch (e) {
      outside = diagnosticsOf(e).some((d) => d.summary === "Invalid module source address" && d.detail.includes("points outside the loaded files"));
    }
    if (!outside) return { files, root };
    base = dirname(base);
  }
}

/** Terraform's plain (no-colour) rendering of one diagnostic, with its source snippet. */
export function formatDiagnostic(d, files = {}) {
  const kind = d.severity === "warning" ? "Warning" : "Error";
  let s = `\n${kind}: ${d.summary}\n`;
  if (d.range) {
    const { filename, start } = d.range;
    const context = d.snippet?.context ? `, in ${d.snippet.context}` : "";
    s += `\n  on ${filename} line ${start.line}${context}:\n`;
    const code = d.snippet?.code ?? (files[filename] ?? "").split("\n")[start.line - 1];
    if (code !== undefined) {
      const first = d.snippet?.start_line ?? start.line;
      code.split("\n").forEach((line, i) => {
        s += `${String(first + i).padStart(4)}: ${line}\n`;
      });
    }
  }
  if (d.detail) s += `\n${d.detail}\n`;
  return s;
}

function diagnosticsOf(e) {
  if (e instanceof TfgraphError) return e.diagnostics;
  throw e;
}

function positional(values, names) {
  if (values.length > names.length) throw new UsageError(`Too many arguments: expected ${names.join(" ")}.`);
  return values;
}

async function cmdGraph(args) {
  const [dir = "."] = positional(args.positionals, ["DIR"]);
  const format = args.values.format ?? "dot";
  if (!["dot", "mermaid", "text", "json"].includes(format)) throw new UsageError(`--format must be dot, mermaid, text or json, not ${JSON.stringify(format)}.`);
  const type = args.values.type;
  const operations = { plan: "plan", "plan-destroy": "destroy", validate: "validate" };
  if (type !== undefined && !(type in operations)) {
    if (type === "apply") throw new UsageError("--type apply needs a saved plan, which needs the plan/apply engine: not in this version.");
    throw new UsageError(`--type must be plan, plan-destroy or validate, not ${JSON.stringify(type)}.`);
  }
  const { files, root } = await readDir(dir);
  let graph;
  try {
    graph = buildGraph(files, { operation: operations[type ?? "plan"], root });
  } catch (e) {
    for (const d of diagnosticsOf(e)) err(formatDiagnostic(d, files));
    return 1;
  }
  const full = type !== undefined || args.values.full;
  if (format === "dot") out(graph.toDot({ type: full ? "full" : "resources", drawCycles: !!args.values["draw-cycles"] }));
  else if (format === "mermaid") out(graph.toMermaid());
  else if (format === "text") out(graph.toString());
  else out(JSON.stringify({ nodes: graph.nodes(), edges: graph.edges() }, null, 2));
  const errors = graph.diagnostics.filter((d) => d.severity === "error");
  for (const d of errors) err(formatDiagnostic(d, files));
  return errors.length ? 1 : 0;
}

async function cmdValidate(args) {
  const [dir = "."] = positional(args.positionals, ["DIR"]);
  const { files, root } = await readDir(dir);
  let diagnostics;
  try {
    diagnostics = buildGraph(files, { operation: "validate", root }).diagnostics;
    diagnostics = [...loadConfig(files, { root }).diagnostics, ...diagnostics];
  } catch (e) {
    diagnostics = diagnosticsOf(e);
  }
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (args.values.json) {
    out(JSON.stringify({ format_version: "1.0", valid: errors === 0, error_count: errors, warning_count: warnings, diagnostics }, null, 2));
  } else {
    for (const d of diagnostics) (d.severity === "error" ? err : out)(formatDiagnostic(d, files));
    if (errors === 0) out(warnings ? "Success! The configuration is valid, but there were some validation warnings as shown above." : "Success! The configuration is valid.");
  }
  return errors ? 1 : 0;
}

async function planGraph(dir) {
  const { files, root } = await readDir(dir);
  return { files, graph: buildGraph(files, { root }) };
}

async function cmdExplain(args) {
  const p = args.positionals;
  if (p.length < 2) throw new UsageError("explain needs two node names: FROM and TO.");
  const [dir, from, to] = p.length === 2 ? [".", ...p] : positional(p, ["DIR", "FROM", "TO"]);
  let graph;
  try {
    ({ graph } = await planGraph(dir));
  } catch (e) {
    for (const d of diagnosticsOf(e)) err(formatDiagnostic(d));
    return 1;
  }
  for (const name of [from, to]) {
    if (!graph.nodes().some((n) => n.name === name)) {
      err(`There is no node ${JSON.stringify(name)} in the plan graph. Node names are as \`tfgraph graph --format text\` prints them.`);
      return 1;
    }
  }
  const reasons = graph.explain(from, to);
  if (reasons.length === 0) {
    err(`${from} does not depend on ${to} directly in the plan graph.`);
    return 1;
  }
  for (const r of reasons) out(r);
  return 0;
}

async function cmdCycles(args) {
  const [dir = "."] = positional(args.positionals, ["DIR"]);
  let graph, files;
  try {
    ({ graph, files } = await planGraph(dir));
  } catch (e) {
    for (const d of diagnosticsOf(e)) err(formatDiagnostic(d));
    return 1;
  }
  const cycles = graph.diagnostics.filter((d) => d.severity === "error" && d.summary.startsWith("Cycle"));
  if (cycles.length === 0) {
    out("No cycles.");
    return 0;
  }
  for (const d of cycles) out(formatDiagnostic(d, files));
  return 1;
}

function parseVar(text) {
  const i = text.indexOf("=");
  if (i <= 0) throw new UsageError(`--var takes NAME=VALUE, not ${JSON.stringify(text)}.`);
  const raw = text.slice(i + 1);
  let value = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: a string, as -var gives it.
  }
  return [text.slice(0, i), value];
}

async function readJsonFile(path, what) {
  let text;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new UsageError(`Cannot read the ${what} ${JSON.stringify(path)}.`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`The ${what} ${JSON.stringify(path)} is not valid JSON: ${e.message}`);
  }
}

async function cmdConsole(args) {
  const [dir = "."] = positional(args.positionals, ["DIR"]);
  const { files, root } = await readDir(dir);
  // -var-file files come after the directory's own tfvars (a name that sorts after theirs).
  for (const [i, f] of (args.values["var-file"] ?? []).entries()) {
    try {
      const name = `~var-file-${String(i).padStart(3, "0")}.auto.tfvars${f.endsWith(".json") ? ".json" : ""}`;
      files[root ? `${root}/${name}` : name] = await readFile(f, "utf8");
    } catch {
      throw new UsageError(`Cannot read the variables file ${JSON.stringify(f)}.`);
    }
  }
  const variables = Object.fromEntries((args.values.var ?? []).map(parseVar));
  const state = args.values.state ? await readJsonFile(args.values.state, "state file") : undefined;
  let config;
  try {
    config = loadConfig(files, { root });
  } catch (e) {
    for (const d of diagnosticsOf(e)) err(formatDiagnostic(d, files));
    return 1;
  }
  const interactive = process.stdin.isTTY;
  const rl = createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, prompt: "> ", terminal: interactive });
  let status = 0;
  if (interactive) rl.prompt();
  for await (const line of rl) {
    const expr = line.trim();
    if (expr === "exit") break;
    if (expr !== "") {
      try {
        out(evaluate(config, expr, { variables, state }).rendered);
      } catch (e) {
        for (const d of diagnosticsOf(e)) err(formatDiagnostic(d, { "<console-input>": expr, ...files }));
        status = 1;
      }
    }
    if (interactive) rl.prompt();
  }
  return status;
}

async function cmdEngine(name, argv) {
  const args = parseArgs({ args: argv, options: ENGINE_OPTIONS, allowPositionals: true, strict: true });
  if (args.values.parallelism !== undefined && !/^[1-9]\d*$/.test(args.values.parallelism)) {
    throw new UsageError(`--parallelism must be a positive whole number, not ${JSON.stringify(args.values.parallelism)}.`);
  }
  positional(args.positionals, ["DIR"]);
  err(`tfgraph ${name}: planning and applying against mock providers is not in this version of tfgraph (${version}); the plan/apply engine is being built. \`tfgraph graph\`, \`validate\`, \`explain\`, \`cycles\` and \`console\` work now.`);
  return 1;
}

export async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    out(MAIN_HELP);
    return command === undefined ? 1 : 0;
  }
  if (command === "--version" || command === "-v" || command === "version") {
    out(`tfgraph v${version}`);
    return 0;
  }
  try {
    if (command in ENGINE) {
      if (rest.includes("--help") || rest.includes("-h")) {
        out(`Usage: ${ENGINE[command]}\n\nNot in this version: the plan/apply engine is being built.`);
        return 0;
      }
      return await cmdEngine(command, rest);
    }
    const spec = COMMANDS[command];
    if (!spec) throw new UsageError(`Unknown command ${JSON.stringify(command)}.`);
    if (rest.includes("--help") || rest.includes("-h")) {
      out(`Usage: ${spec.usage}\n\n${spec.help}`);
      return 0;
    }
    let args;
    try {
      args = parseArgs({ args: rest, options: spec.options, allowPositionals: true, strict: true });
    } catch (e) {
      throw new UsageError(e.message);
    }
    return await { graph: cmdGraph, validate: cmdValidate, explain: cmdExplain, cycles: cmdCycles, console: cmdConsole }[command](args);
  } catch (e) {
    if (e instanceof UsageError || e?.code?.startsWith?.("ERR_PARSE_ARGS")) {
      err(`Error: ${e.message}\n`);
      const usage = COMMANDS[command]?.usage ?? ENGINE[command];
      err(usage ? `Usage: ${usage}\nRun \`tfgraph ${command} --help\` for more.` : MAIN_HELP);
      return 1;
    }
    throw e;
  }
}

process.exitCode = await main(process.argv.slice(2));
