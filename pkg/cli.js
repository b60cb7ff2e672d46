#!/usr/bin/env node
// The `tfgraph` command: Terraform's graph, validation, edge explanations, cycles, console, and
// plan/apply/destroy against mock providers (cli/engine.js) on a directory, with no Terraform,
// providers or network. A thin layer over the package's exports; arguments are parsed with
// node:util's parseArgs. Exit codes follow Terraform's: 0 success, 1 error (and a usage message
// for bad arguments); `plan --detailed-exitcode` 2 for changes.

import { parseArgs } from "node:util";
import { createInterface } from "node:readline";
import { buildGraph, evaluate, expressionContinues, loadConfig, plan, version } from "./node.js";
import { addVarFiles, diagnosticsOf, err, formatDiagnostic, out, parseVar, positional, readDir, readJsonFile, sortDiagnostics, UsageError } from "./cli/common.js";
import { readPlanFile } from "./cli/plan-file.js";
import { cmdTest, TEST_COMMAND } from "./cli/testing.js";
import { checkEngineArgs, cmdApply, cmdPlan, ENGINE_COMMANDS, engineAvailable } from "./cli/engine.js";

export { formatDiagnostic };

const COMMANDS = {
  graph: {
    usage: "tfgraph graph [DIR] [--type plan|plan-destroy|validate|apply] [--plan FILE] [--format dot|mermaid|text|json] [--draw-cycles] [--full]",
    help: `Prints Terraform's graph of the configuration in DIR (default "."). By default the
resource-only DOT that \`terraform graph\` prints, ready for \`| dot -Tsvg\`; --type (or --full)
prints the whole graph Terraform builds for that operation, every node and edge.

Options:
  --type T        plan (default), plan-destroy, validate, apply (with --plan)
  --plan FILE     a plan saved by \`tfgraph plan --out\`: --type apply draws the graph that
                  applies it, from the configuration and state saved in it
  --format F      dot (default), mermaid, text (Terraform's Graph.String()), json (nodes and
                  edges, each edge with the reasons it exists)
  --draw-cycles   draw the edges of cycles in red (DOT)
  --full          the whole plan graph instead of resources only`,
    options: { type: { type: "string" }, plan: { type: "string" }, format: { type: "string" }, "draw-cycles": { type: "boolean" }, full: { type: "boolean" } },
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
at a "> " prompt when standard input is a terminal. Values print as Terraform prints them; from
a pipe, only the last line's value, and the first error ends the run. \`help\` prints the
console's help, \`exit\` ends it.

Options:
  --var NAME=VALUE  an input variable (VALUE is read as JSON when it parses, else as a string)
  --var-file FILE   a .tfvars or .tfvars.json file (after the directory's own, in order)
  --state FILE      a terraform.tfstate (version 4): resource attributes come from it`,
    options: { var: { type: "string", multiple: true }, "var-file": { type: "string", multiple: true }, state: { type: "string" } },
  },
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
  plan       what terraform plan prints, against mock providers
  apply      plan, approve, apply: progress lines, the state file written back
  destroy    destroy everything in the state
  test       run the module's *.tftest.hcl files, as terraform test does, against mocks

Run \`tfgraph <command> --help\` for a command's options. \`tfgraph --version\` prints the version.`;

async function cmdGraph(args) {
  const [dir = "."] = positional(args.positionals, ["DIR"]);
  const format = args.values.format ?? "dot";
  if (!["dot", "mermaid", "text", "json"].includes(format)) throw new UsageError(`--format must be dot, mermaid, text or json, not ${JSON.stringify(format)}.`);
  const type = args.values.type;
  const operations = { plan: "plan", "plan-destroy": "destroy", validate: "validate", apply: "apply" };
  if (type !== undefined && !(type in operations)) throw new UsageError(`--type must be plan, plan-destroy, validate or apply, not ${JSON.stringify(type)}.`);
  if ((type === "apply") !== (args.values.plan !== undefined)) throw new UsageError("--type apply needs --plan FILE (a plan saved by `tfgraph plan --out`), and --plan needs --type apply.");
  let files, root, options;
  if (type === "apply") {
    // Terraform's `graph -type=apply -plan=FILE`: the configuration and state saved in the plan.
    if (args.positionals.length) throw new UsageError("--type apply reads the configuration saved in the plan: give no DIR.");
    const { saved, error } = await readPlanFile(args.values.plan);
    if (error) {
      err(formatDiagnostic(error));
      return 1;
    }
    ({ files, root } = saved.tfgraph);
    options = { changes: saved, mode: saved.tfgraph.destroy ? "destroy" : "normal", state: saved.tfgraph.state ?? undefined };
  } else ({ files, root } = await readDir(dir));
  let graph;
  try {
    graph = buildGraph(files, { operation: operations[type ?? "plan"], root, ...options });
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
    // The graph's diagnostics begin with the loader's (warnings, with snippets).
    diagnostics = buildGraph(files, { operation: "validate", root }).diagnostics;
  } catch (e) {
    diagnostics = diagnosticsOf(e);
    // A configuration that does not load: the plan reports the same diagnostics with Terraform's
    // snippets (source lines, `in BLOCK` context), which the loader leaves out.
    if (diagnostics.some((d) => d.severity === "error")) diagnostics = (await plan(files, { root })).diagnostics;
  }
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  if (args.values.json) {
    out(JSON.stringify({ format_version: "1.0", valid: errors === 0, error_count: errors, warning_count: warnings, diagnostics }, null, 2));
  } else {
    for (const d of sortDiagnostics(diagnostics)) (d.severity === "error" ? err : out)(formatDiagnostic(d, files));
    // Terraform wraps the warnings' success line at 78 columns and ends it with a blank line.
    if (errors === 0) out(warnings ? "Success! The configuration is valid, but there were some validation warnings\nas shown above.\n\n" : "Success! The configuration is valid.");
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

async function cmdConsole(args) {
  const [dir = "."] = positional(args.positionals, ["DIR"]);
  const { files, root } = await readDir(dir);
  await addVarFiles(files, root, args.values["var-file"]);
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
  // The console's input is no file: its errors say "(source code not available)", as Terraform's,
  // and each ends with a blank line (the console prints them through its Ui, which adds one).
  const show = (e) => diagnosticsOf(e).forEach((d) => err(`${formatDiagnostic(d, files)}\n`));
  // One line as terraform console's session handles it (repl.Session.Handle): `exit`, `help`,
  // nothing for an empty line, else the expression's value; `{ exit }` or `{ result }`, or throws.
  // The text is evaluated as given, so error positions count its spaces and lines as Terraform's.
  const handle = (text) => {
    const command = text.trim();
    if (command === "exit") return { exit: true };
    if (command === "help") return { result: CONSOLE_HELP };
    return { result: command === "" ? "" : evaluate(config, text, { variables, state }).rendered };
  };
  if (!interactive) {
    // Piped, as terraform console's modePiped: only the last line's result is printed (an empty
    // line's is empty), the first error ends it with status 1, `exit` with nothing printed.
    let last = "";
    for await (const line of rl) {
      let h;
      try {
        h = handle(line);
      } catch (e) {
        show(e);
        return 1;
      }
      if (h.exit) return 0;
      last = h.result;
    }
    out(last);
    return 0;
  }
  // Interactive, as modeInteractive (recorded from terraform 1.11.4 in a terminal): every entry's
  // result is printed, an empty one for an empty line and after an error, which does not end
  // the session nor change its status. An entry that leaves a bracket, heredoc or template
  // sequence open reads on under the prompt ": " (an empty line ends it); the entry is
  // evaluated as one text, each line ending in a newline. Ctrl-C on an empty first line ends
  // the session, on a typed line drops that line, on an empty line within an entry cancels it.
  const lines = [];
  const prompt = () => {
    rl.setPrompt(lines.length === 0 ? "> " : ": ");
    rl.prompt();
  };
  return await new Promise((resolve) => {
    rl.on("close", () => resolve(0));
    rl.on("SIGINT", () => {
      const typed = rl.line;
      process.stdout.write("^C\n");
      if (lines.length === 0 && typed === "") return rl.close();
      // Drop what was typed on the line (readline keeps it in `line` until Enter).
      [rl.line, rl.cursor] = ["", 0];
      if (typed === "") {
        lines.length = 0;
        out("(multi-line entry canceled)");
      }
      prompt();
    });
    rl.on("line", (line) => {
      lines.push(line);
      if (expressionContinues(lines)) return prompt();
      const entry = `${lines.join("\n")}\n`;
      lines.length = 0;
      let h;
      try {
        h = handle(entry);
      } catch (e) {
        show(e);
        h = { result: "" };
      }
      if (h.exit) return rl.close();
      out(h.result);
      prompt();
    });
    prompt();
  });
}

/** What terraform console prints for `help` (repl.Session's handleHelp, 1.11.4). */
const CONSOLE_HELP = `The Terraform console allows you to experiment with Terraform interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: "aws_instance.foo.id" would evaluate
to the ID of "aws_instance.foo" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type "exit" and hit <enter>, or use Control-C or
Control-D.`;

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
    const spec = COMMANDS[command] ?? ENGINE_COMMANDS[command] ?? (command === "test" ? TEST_COMMAND : undefined);
    if (!spec) throw new UsageError(`Unknown command ${JSON.stringify(command)}.`);
    if (rest.includes("--help") || rest.includes("-h")) {
      out(`Usage: ${spec.usage}\n\n${spec.help}`);
      return 0;
    }
    let args;
    try {
      args = parseArgs({ args: rest, options: spec.options, allowPositionals: true, strict: true, tokens: true });
    } catch (e) {
      throw new UsageError(e.message);
    }
    if (command in ENGINE_COMMANDS) checkEngineArgs(args.values);
    if (command in ENGINE_COMMANDS && !engineAvailable()) {
      err(`tfgraph ${command}: this build of the package (${version}) has no plan/apply engine.`);
      return 1;
    }
    const run = {
      graph: cmdGraph,
      validate: cmdValidate,
      explain: cmdExplain,
      cycles: cmdCycles,
      console: cmdConsole,
      plan: cmdPlan,
      apply: (a) => cmdApply(a),
      destroy: (a) => cmdApply(a, { destroyCommand: true }),
      test: cmdTest,
    };
    return await run[command](args);
  } catch (e) {
    if (e instanceof UsageError || e?.code?.startsWith?.("ERR_PARSE_ARGS")) {
      err(`Error: ${e.message}\n`);
      const usage = (COMMANDS[command] ?? ENGINE_COMMANDS[command] ?? (command === "test" ? TEST_COMMAND : undefined))?.usage;
      err(usage ? `Usage: ${usage}\nRun \`tfgraph ${command} --help\` for more.` : MAIN_HELP);
      return 1;
    }
    throw e;
  }
}

process.exitCode = await main(process.argv.slice(2));
