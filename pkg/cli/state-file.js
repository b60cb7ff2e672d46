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
      const text = `${JSON.stringify(state, null, 2)}\n`;
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
