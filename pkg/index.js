// The tfgraph package entry: initialises the WebAssembly module (top-level await, so importing
// this file is all a user does) and wraps the raw exports of tfgraph.js in the public API.
// Types: index.d.ts. The raw exports are not part of the API and may change.

import init, * as raw from "./tfgraph.js";

const wasmUrl = new URL("tfgraph_bg.wasm", import.meta.url);

// Node (and other runtimes loading from disk) cannot fetch a file: URL, so read the bytes;
// browsers fetch the module next to this file, compiling it while it streams in.
if (wasmUrl.protocol === "file:") {
  const { readFile } = await import("node:fs/promises");
  await init({ module_or_path: await readFile(wasmUrl) });
} else {
  await init({ module_or_path: wasmUrl });
}

/** The package version (also the Rust crate's version). */
export const version = raw.version();

/** How many errors a TfgraphError's message lists before "and N more". */
const MESSAGE_ERRORS = 3;

/** `main.tf:3:5: summary`, or just the summary when the diagnostic has no range. */
function describe(diagnostic) {
  const r = diagnostic.range;
  return r ? `${r.filename}:${r.start.line}:${r.start.column}: ${diagnostic.summary}` : diagnostic.summary;
}

/**
 * Thrown when the user's input has errors. `diagnostics` holds every diagnostic (errors and
 * warnings, Terraform's JSON shape); `config` what could be loaded despite the errors, when the
 * operation produces one.
 */
export class TfgraphError extends Error {
  constructor(diagnostics, config = null) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    const lines = errors.slice(0, MESSAGE_ERRORS).map(describe);
    if (errors.length > MESSAGE_ERRORS) lines.push(`(and ${errors.length - MESSAGE_ERRORS} more)`);
    const head = errors.length === 1 ? "1 error" : `${errors.length} errors`;
    super(`tfgraph: ${head}:\n  ${lines.join("\n  ")}`);
    this.name = "TfgraphError";
    this.diagnostics = diagnostics;
    this.config = config;
  }
}

/**
 * Loads a Terraform configuration from in-memory files (`{ "main.tf": "..." }`, slash-separated
 * relative paths). Returns the configuration with its warnings in `diagnostics`; throws
 * TfgraphError when there is an error, and TypeError when the arguments have the wrong types.
 */
export function loadConfig(files, options = {}) {
  const { config, diagnostics } = JSON.parse(raw.loadConfigRaw(files, options));
  if (diagnostics.some((d) => d.severity === "error")) {
    throw new TfgraphError(diagnostics, config);
  }
  return { ...config, diagnostics };
}
