// The plan file `tfgraph plan --out FILE` writes: the plan exactly as `terraform show -json`
// prints it, plus a `tfgraph` member with what applying it needs (as Terraform's plan file
// carries the configuration and the prior state): the files, root, variables, destroy mode, refresh,
// -target and -replace addresses, the state it was planned from, and the directory whose terraform.tfstate it belongs to.

import { readFile } from "node:fs/promises";
import { version } from "../node.js";
import { atomicWrite } from "./state-file.js";

/** Writes `plan` (a Plan) with what it was made from. */
export function writePlanFile(path, plan, { dir, root, files, variables, destroy, refresh, state, targets, replace }) {
  const saved = { ...plan.toJSON(), tfgraph: { version, dir, root, files, variables, destroy, refresh, state, targets, replace } };
  atomicWrite(path, `${JSON.stringify(saved, null, 2)}\n`);
}

/** Reads a plan file: `{ saved }`, or `{ error }` (a diagnostic) when it is not one. */
export async function readPlanFile(path) {
  let saved;
  try {
    saved = JSON.parse(await readFile(path, "utf8"));
  } catch (e) {
    return { error: { severity: "error", summary: "Failed to load plan file", detail: `Could not read the plan file ${JSON.stringify(path)}: ${e.message}` } };
  }
  if (!saved?.tfgraph?.files || saved.format_version === undefined) {
    return { error: { severity: "error", summary: "Failed to load plan file", detail: `${JSON.stringify(path)} is not a plan file saved by tfgraph plan --out.` } };
  }
  return { saved };
}
