// `tfgraph test [DIR]`: Terraform's test files run as `terraform test` runs them, against the
// in-memory mocks (no init, no provider binaries): its text, `-json` lines, `-junit-xml` file and
// exit status (0 when every run passed, 1 otherwise).

import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { test } from "../node.js";
import { out, parseVar, UsageError } from "./common.js";

/** The first line of the human output: Terraform would call the real providers. */
export const MOCK_NOTICE = "tfgraph: providers without a mock_provider block are served by tfgraph's in-memory mocks, not by the real providers.";

const WANTED = /(\.tf|\.tf\.json|\.tfvars|\.tfvars\.json|\.tftest\.hcl|\.tftest\.json|\.tfmock\.hcl|\.tfmock\.json)$/;
const SKIP_DIRS = new Set([".git", "node_modules", ".terraform", ".terragrunt-cache"]);

async function readModuleDir(dir) {
  const files = {};
  async function walk(d) {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) await walk(p);
      } else {
        const rel = relative(dir, p).split(sep).join("/");
        if (WANTED.test(rel)) files[rel] = await readFile(p, "utf8");
      }
    }
  }
  try {
    await walk(dir);
  } catch {
    throw new UsageError(`The directory ${JSON.stringify(dir)} does not exist or cannot be read.`);
  }
  return files;
}

export const TEST_COMMAND = {
  usage: "tfgraph test [DIR] [--filter FILE]... [--var NAME=VALUE]... [--var-file FILE]... [--test-directory DIR] [--json] [--junit-xml FILE] [--verbose] [--no-color]",
  help: `Runs the module's test files (*.tftest.hcl in DIR and in its tests directory) as
\`terraform test\` does, against tfgraph's in-memory mock providers: no terraform init, no
provider binaries, no network. Prints what terraform test prints; exits 0 when every run passed,
1 otherwise.

Options:
  --filter FILE          only this test file (repeatable)
  --var NAME=VALUE       an input variable (VALUE is read as JSON when it parses, else as a string)
  --var-file FILE        a .tfvars file
  --test-directory DIR   the tests directory (tests by default)
  --json                 terraform test -json's lines
  --junit-xml FILE       write terraform test's JUnit XML report to FILE
  --verbose              print each run's plan or state after it, as terraform test -verbose does
  --no-color             accepted (the output has no colour)`,
  options: {
    filter: { type: "string", multiple: true },
    var: { type: "string", multiple: true },
    "var-file": { type: "string", multiple: true },
    "test-directory": { type: "string" },
    json: { type: "boolean" },
    "junit-xml": { type: "string" },
    verbose: { type: "boolean" },
    "no-color": { type: "boolean" },
  },
};

export async function cmdTest(args) {
  if (args.positionals.length > 1) throw new UsageError("test takes at most one directory.");
  const dir = args.positionals[0] ?? ".";
  const files = await readModuleDir(dir);
  const variables = {};
  for (const v of args.values.var ?? []) {
    const [k, value] = parseVar(v);
    variables[k] = value;
  }
  const varFiles = {};
  for (const f of args.values["var-file"] ?? []) {
    try {
      varFiles[f] = await readFile(f, "utf8");
    } catch {
      throw new UsageError(`The variables file ${JSON.stringify(f)} cannot be read.`);
    }
  }
  const json = !!args.values.json;
  if (!json) out(MOCK_NOTICE);
  const result = await test(files, {
    variables,
    varFiles,
    filter: args.values.filter ?? [],
    testDirectory: args.values["test-directory"],
    verbose: !!args.values.verbose,
  });
  if (json) {
    const now = () => new Date().toISOString().replace("Z", "000Z");
    for (const line of result.json) out(JSON.stringify({ ...line, "@timestamp": now() }));
  } else {
    if (result.stdout) process.stdout.write(result.stdout);
    if (result.stderr) process.stderr.write(result.stderr);
  }
  if (args.values["junit-xml"]) await writeFile(args.values["junit-xml"], result.junit);
  return result.exitCode;
}
