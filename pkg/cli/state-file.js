// The local state file, as Terraform's local backend keeps it (statemgr.Filesystem): read once
// at the start; before the first write of a run, the state as it was read is copied to
// `PATH.backup` (only when there was one); every write replaces the file atomically (a
// temporary file beside it, then a rename), so an interrupted run never leaves a half-written
// terraform.tfstate; a final state that cannot be written goes to errored.tfstate. Errors carry
// Terraform's statefile diagnostics.

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
 * The state file of one run: `write(state)` (the engine's JSON text, or an object) replaces it
 * atomically, the first time after saving what was read to `PATH.backup`. Writes of an unchanged
 * state are skipped, as Terraform skips persisting a state equal to the last one.
 */
export function stateWriter(path, read) {
  let backedUp = false;
  // What the file holds, as this module writes it (what was read: rewritten the same way).
  let last = read.text === null ? null : sameForm(read.text);
  return {
    path,
    write(state) {
      const text = stateText(state);
      if (text === last) return false;
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

// How Terraform writes terraform.tfstate (states/statefile/version4.go, Go's encoding/json):
// struct fields in declaration order; every map, and every object inside a value (cty writes
// object attributes sorted), with its keys sorted as Go sorts strings: by bytes, so "10" comes
// before "9". A JavaScript object cannot keep that order (integer-like keys always come
// first, ascending), so the text is written here field by field instead of by JSON.stringify.
const VALUE = { kind: "value" };
const struct = (keys, fields = {}) => ({ kind: "struct", keys, fields });
const listOf = (item) => ({ kind: "list", item });
const mapOf = (item) => ({ kind: "map", item });
const SHAPE = struct(["version", "terraform_version", "serial", "lineage", "outputs", "resources", "check_results"], {
  outputs: mapOf(struct(["value", "type", "sensitive"])),
  resources: listOf(
    struct(["module", "mode", "type", "name", "each", "provider", "instances"], {
      instances: listOf(
        struct(
          ["index_key", "status", "deposed", "schema_version", "attributes", "attributes_flat", "sensitive_attributes", "identity_schema_version", "identity", "private", "dependencies", "create_before_destroy"],
          // Sensitive paths: steps {type, value}; an index's key as cty JSON {value, type}.
          { sensitive_attributes: listOf(listOf(struct(["type", "value"], { value: struct(["value", "type"]) }))) },
        ),
      ),
    }),
  ),
  check_results: listOf(struct(["object_kind", "config_addr", "status", "objects"], { objects: listOf(struct(["object_addr", "status", "failure_messages"])) })),
});

const goKeyOrder = (a, b) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

/** The members of `obj` in the order `shape` writes them: [key, value, shape] triples. */
function members(obj, shape) {
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined); // as JSON.stringify leaves them out
  if (shape.kind === "struct") {
    // Fields not in Terraform's struct (none today) go after it, sorted, to stay deterministic.
    const known = shape.keys.filter((k) => k in obj);
    const rest = keys.filter((k) => !shape.keys.includes(k)).sort(goKeyOrder);
    return [...known, ...rest].map((k) => [k, obj[k], shape.fields[k] ?? VALUE]);
  }
  return keys.sort(goKeyOrder).map((k) => [k, obj[k], shape.kind === "map" ? shape.item : VALUE]);
}

/** `value` as Go's json.MarshalIndent(value, "", "  ") writes it at depth `indent`. */
function goJson(value, shape, indent) {
  if (value instanceof JsonNumber) return value.text;
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const item = shape.kind === "list" ? shape.item : VALUE;
    return `[\n${value.map((v) => inner + goJson(v, item, inner)).join(",\n")}\n${indent}]`;
  }
  const entries = members(value, shape.kind === "list" ? VALUE : shape);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v, s]) => `${inner}${JSON.stringify(k)}: ${goJson(v, s, inner)}`).join(",\n")}\n${indent}}`;
}

/**
 * A state (JSON text, read without losing a digit, or an object) as Terraform writes
 * terraform.tfstate: its fields in Terraform's order, map keys as Go sorts them, two-space
 * indentation, a final newline, and Go's HTML-safe escapes (`<`, `>`, `&`, U+2028, U+2029).
 */
export function stateText(state) {
  const json = goJson(typeof state === "string" ? parseExact(state) : state, SHAPE, "").replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `${json}\n`;
}

/** `text` (a state file) as stateText writes it, or null when it cannot be read. */
function sameForm(text) {
  try {
    return stateText(text);
  } catch {
    return null;
  }
}

/** A JSON number as written: its digits, all of them (a JS number keeps 53 bits). */
class JsonNumber {
  constructor(text) {
    this.text = text;
  }
}

const TOKEN = /\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null)|([[\]{}:,]))/y;

/**
 * Parses JSON `text` as JSON.parse does, but for numbers, which come back as JsonNumber with
 * their text. Throws SyntaxError where JSON.parse would.
 */
export function parseExact(text) {
  let at = 0;
  const next = () => {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m) throw new SyntaxError(`Unexpected token in JSON at position ${at}`);
    at = TOKEN.lastIndex;
    return m;
  };
  const expect = (punct) => {
    if (next()[4] !== punct) throw new SyntaxError(`Expected '${punct}' in JSON at position ${at}`);
  };
  const value = (m = next()) => {
    if (m[1] !== undefined) return JSON.parse(m[1]);
    if (m[2] !== undefined) return new JsonNumber(m[2]);
    if (m[3] !== undefined) return JSON.parse(m[3]);
    if (m[4] === "[") {
      const items = [];
      let t = next();
      if (t[4] === "]") return items;
      for (;;) {
        items.push(value(t));
        t = next();
        if (t[4] === "]") return items;
        if (t[4] !== ",") throw new SyntaxError(`Expected ',' or ']' in JSON at position ${at}`);
        t = next();
      }
    }
    if (m[4] === "{") {
      const obj = {};
      let t = next();
      if (t[4] === "}") return obj;
      for (;;) {
        if (t[1] === undefined) throw new SyntaxError(`Expected a property name in JSON at position ${at}`);
        expect(":");
        // defineProperty: a "__proto__" member is data, as JSON.parse keeps it.
        Object.defineProperty(obj, JSON.parse(t[1]), { value: value(), enumerable: true, writable: true, configurable: true });
        t = next();
        if (t[4] === "}") return obj;
        if (t[4] !== ",") throw new SyntaxError(`Expected ',' or '}' in JSON at position ${at}`);
        t = next();
      }
    }
    throw new SyntaxError(`Unexpected token in JSON at position ${at}`);
  };
  const v = value();
  if (/\S/.test(text.slice(at))) throw new SyntaxError(`Unexpected non-whitespace character after JSON at position ${at}`);
  return v;
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

const ERRORED_STATE = "errored.tfstate";

/**
 * Writes the final state; when that fails, saves it as errored.tfstate in the working directory,
 * or as a last resort prints it on stderr, and returns Terraform's diagnostics for it
 * (backend/local/backend_apply.go, backupStateForError).
 */
export function saveState(writer, state) {
  try {
    writer.write(state);
    return [];
  } catch (e) {
    const diagnostics = [{ severity: "error", summary: "Failed to save state", detail: `Error saving state: ${e.message}` }];
    try {
      atomicWrite(ERRORED_STATE, stateText(state));
      diagnostics.push({
        severity: "error",
        summary: "Failed to persist state to backend",
        detail: `The error shown above has prevented tfgraph from writing the updated state to ${writer.path}. To allow for recovery, the state has been written to the file "${ERRORED_STATE}" in the current working directory.\n\nRunning "tfgraph apply" again at this point will create a forked state, making it harder to recover.\n\nTo retry writing this state, copy ${ERRORED_STATE} to ${writer.path}.`,
      });
    } catch (e2) {
      diagnostics.push({ severity: "error", summary: "Failed to create local state file", detail: `Error creating local state file for recovery: ${e2.message}` });
      process.stderr.write(stateText(state));
      diagnostics.push({
        severity: "error",
        summary: "Failed to persist state to backend",
        detail: `The errors shown above prevented tfgraph from writing the updated state to ${writer.path} and from creating a local backup file. As a fallback, the raw state data is printed above as a JSON object.\n\nTo retry writing this state, copy the state data (from the first { to the last } inclusive) and save it into ${writer.path}.`,
      });
    }
    return diagnostics;
  }
}
