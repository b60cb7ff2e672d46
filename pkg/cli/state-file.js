// The local state file, as Terraform's local backend keeps it (statemgr.Filesystem): read once
// at the start; before the first write of a run, the state as it was read is copied to
// `PATH.backup` (only when there was one); every write replaces the file atomically (a
// temporary file beside it, then a rename), so an interrupted run never leaves a half-written
// terraform.tfstate. Errors carry Terraform's statefile diagnostics.

import { readFileSync, renameSync, writeFileSync, unlinkSync } from "node:fs";

/** A state file that cannot be used: its diagnostic, in Terraform's words. */
export class StateFileError extends Error {
  constructor(summary, detail) {
    super(`${summary}: ${detail}`);
    this.diagnostic = { severity: "error", summary, detail };
  }
}

/**
 * Reads the state file at `path`: `{ state, text }`, or `{ state: null, text: null }` when
 * there is none. A file that is not a state v4 JSON object throws StateFileError.
 */
export function readStateFile(path) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") return { state: null, text: null };
    throw new StateFileError("Failed to load state", `Cannot read ${path}: ${e.message}.`);
  }
  if (text.trim() === "") return { state: null, text: null }; // Terraform reads an empty file as no state
  let state;
  try {
    state = JSON.parse(text);
  } catch (e) {
    throw new StateFileError("Unsupported state file format", `The state file could not be parsed as JSON: ${e.message}.`);
  }
  if (state === null || typeof state !== "object" || Array.isArray(state)) {
    throw new StateFileError("Unsupported state file format", "The state file does not have a \"version\" attribute, which is required to identify the format version.");
  }
  if (!("version" in state)) {
    throw new StateFileError("Unsupported state file format", "The state file does not have a \"version\" attribute, which is required to identify the format version.");
  }
  if (state.version !== 4) {
    throw new StateFileError(
      "Unsupported state file format",
      `The state file uses format version ${JSON.stringify(state.version)}, which is not supported by tfgraph (state version 4, Terraform 0.12 and later).`,
    );
  }
  return { state, text };
}

/**
 * The state file of one run: `write(state)` replaces it atomically, the first time after
 * saving what was read to `PATH.backup`. Writes of an unchanged state are skipped, as
 * Terraform skips persisting a state equal to the last one.
 */
export function stateWriter(path, read) {
  let backedUp = false;
  let last = read.text;
  return {
    path,
    write(state) {
      const text = stateText(state);
      if (last !== null && sameState(last, text)) return false;
      if (!backedUp && read.text !== null) {
        atomicWrite(`${path}.backup`, read.text);
      }
      backedUp = true;
      atomicWrite(path, text);
      last = text;
      return true;
    },
  };
}

// Terraform's statefile.Write field order (states/statefile/version4.go); map keys (outputs,
// attributes) stay as given, sorted as Go sorts them.
const ORDER = {
  state: ["version", "terraform_version", "serial", "lineage", "outputs", "resources", "check_results"],
  output: ["value", "type", "sensitive"],
  resource: ["module", "mode", "type", "name", "each", "provider", "instances"],
  instance: ["index_key", "status", "deposed", "schema_version", "attributes", "attributes_flat", "sensitive_attributes", "identity_schema_version", "identity", "private", "dependencies", "create_before_destroy"],
  pathStep: ["type", "value"],
  pathKey: ["value", "type"],
  check: ["object_kind", "config_addr", "status", "objects"],
  checkObject: ["object_addr", "status", "failure_messages"],
};

function ordered(obj, keys) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return obj;
  const out = {};
  for (const k of keys) if (k in obj) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!(k in out)) out[k] = obj[k];
  return out;
}

const mapValues = (obj, f) => (obj && typeof obj === "object" && !Array.isArray(obj) ? Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)])) : obj);
const mapItems = (list, f) => (Array.isArray(list) ? list.map(f) : list);

/**
 * A state as Terraform writes terraform.tfstate: its fields in Terraform's order, two-space
 * indentation, a final newline, and Go's HTML-safe escapes (`<`, `>`, `&`, U+2028, U+2029).
 */
export function stateText(state) {
  const s = ordered(state, ORDER.state);
  if (s && typeof s === "object") {
    s.outputs = mapValues(s.outputs, (o) => ordered(o, ORDER.output));
    s.resources = mapItems(s.resources, (r) => {
      const res = ordered(r, ORDER.resource);
      if (res && typeof res === "object") {
        res.instances = mapItems(res.instances, (i) => {
          const inst = ordered(i, ORDER.instance);
          // Sensitive paths: steps {type, value}; an index's key as cty JSON {value, type}.
          if (inst && typeof inst === "object") {
            inst.sensitive_attributes = mapItems(inst.sensitive_attributes, (path) =>
              mapItems(path, (step) => {
                const st = ordered(step, ORDER.pathStep);
                if (st && typeof st === "object" && st.type === "index") st.value = ordered(st.value, ORDER.pathKey);
                return st;
              }),
            );
          }
          return inst;
        });
      }
      return res;
    });
    s.check_results = mapItems(s.check_results, (c) => {
      const check = ordered(c, ORDER.check);
      if (check && typeof check === "object") check.objects = mapItems(check.objects, (o) => ordered(o, ORDER.checkObject));
      return check;
    });
  }
  const json = JSON.stringify(s, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `${json}\n`;
}

function sameState(a, b) {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

/** Writes `text` to a temporary file beside `path`, then renames it over `path`. */
export function atomicWrite(path, text) {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // Nothing was written.
    }
    throw e;
  }
}
