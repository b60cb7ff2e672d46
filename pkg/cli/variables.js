// The input variables of `plan` / `apply` / `destroy` as Terraform gathers them
// (backend/unparsed_value.go): TF_VAR_name below every tfvars file; terraform.tfvars and
// *.auto.tfvars (read by the package from the files); then -var and -var-file in the order
// given. `--var` text is read as -var is: literally for an untyped or primitive variable, as an
// HCL expression for the others. The --var-file files themselves are among the files as
// auto.tfvars after the directory's own (common.js addVarFiles).

import { readFile } from "node:fs/promises";
import * as tfgraph from "../node.js";
import { UsageError } from "./common.js";

/**
 * The `variables` to pass the package: `--var` values (TF_VAR_ ones too) minus what a later
 * `--var-file`, or for TF_VAR_ any tfvars file, sets instead. `tokens`: parseArgs' tokens.
 */
export async function inputVariables(files, root, values, tokens = [], env = {}) {
  const variables = cliVariables(files, root, values.var ?? [], env);
  // TF_VAR_ values lose to every tfvars file (terraform.tfvars, *.auto.tfvars, --var-file).
  const fromFiles = new Set();
  const prefix = root ? `${root}/` : "";
  for (const [path, text] of Object.entries(files)) {
    const name = path.slice(prefix.length);
    if (!path.startsWith(prefix) || name.includes("/")) continue;
    if (/^terraform\.tfvars(\.json)?$|\.auto\.tfvars(\.json)?$/.test(name)) for (const v of tfvarsNames(name, text)) fromFiles.add(v);
  }
  const cliNames = new Set((values.var ?? []).map((t) => t.slice(0, t.indexOf("="))));
  for (const name of fromFiles) if (!cliNames.has(name) && `TF_VAR_${name}` in env) delete variables[name];
  // -var and -var-file count in the order given: a --var-file after a --var of the same name wins.
  const seen = new Set();
  let fileIndex = 0;
  for (const t of [...tokens].reverse()) {
    if (t.kind !== "option") continue;
    if (t.name === "var") seen.add(t.value.slice(0, t.value.indexOf("=")));
    if (t.name === "var-file") {
      const path = values["var-file"][values["var-file"].length - 1 - fileIndex++];
      for (const name of await varFileNames(path)) if (!seen.has(name)) delete variables[name];
    }
  }
  return variables;
}

/** The variable names a tfvars file sets (its top-level attributes; a .json file's keys). */
async function varFileNames(path) {
  return tfvarsNames(path, await readFile(path, "utf8"));
}

function tfvarsNames(path, text) {
  if (path.endsWith(".json")) {
    try {
      return Object.keys(JSON.parse(text) ?? {});
    } catch {
      return []; // the engine reports the file's errors
    }
  }
  // A tfvars file is a body of attributes, as a locals block is: the loader reads the names.
  try {
    return tfgraph.loadConfig({ "main.tf": `locals {\n${text}\n}\n` }).root.locals.map((l) => l.name);
  } catch {
    return [];
  }
}

/** Type constraints whose -var values are taken literally, as strings (configs/named_values.go). */
const LITERAL_TYPES = new Set(["string", "number", "bool"]);
/** An empty module: -var values are evaluated with no variables, resources or locals in scope. */
const NO_CONFIG = { "main.tf": "" };

/**
 * `--var NAME=VALUE` as Terraform reads `-var`: the text itself for a variable with no type or a
 * primitive one (the type constraint converts it later), else parsed as an HCL expression
 * (`["a","b"]`, `{ a = 1 }`). A value that does not parse is a usage error.
 */
function cliVariables(files, root, raw, env = {}) {
  let declared = [];
  try {
    declared = tfgraph.loadConfig(files, { root }).root.variables;
  } catch (e) {
    if (!(e instanceof tfgraph.TfgraphError)) throw e;
    declared = e.config?.root?.variables ?? []; // the plan reports the configuration's errors
  }
  const typeOf = new Map(declared.map((v) => [v.name, v.type?.trim() ?? null]));
  const out = {};
  // TF_VAR_name, for declared variables only, below every other source (the caller drops the
  // ones a tfvars file sets).
  const fromEnv = Object.entries(env)
    .filter(([k]) => k.startsWith("TF_VAR_") && typeOf.has(k.slice(7)))
    .map(([k, v]) => `${k.slice(7)}=${v}`);
  for (const text of [...fromEnv, ...raw]) {
    const [name, value] = splitVar(text);
    const type = typeOf.get(name) ?? null;
    if (type === null || LITERAL_TYPES.has(type)) {
      out[name] = value;
      continue;
    }
    try {
      out[name] = tfgraph.evaluate(NO_CONFIG, value).value;
    } catch (e) {
      if (!(e instanceof tfgraph.TfgraphError)) throw e;
      const why = e.diagnostics.find((d) => d.severity === "error");
      throw new UsageError(`Invalid value for --var ${name} (${type}): ${why?.summary ?? "not an expression"}${why?.detail ? `: ${why.detail}` : ""}`);
    }
  }
  return out;
}

function splitVar(text) {
  const i = text.indexOf("=");
  if (i <= 0) throw new UsageError(`--var takes NAME=VALUE, not ${JSON.stringify(text)}.`);
  return [text.slice(0, i), text.slice(i + 1)];
}

