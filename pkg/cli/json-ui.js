// `--json`: Terraform's machine-readable UI (command/views/json, `terraform plan -json`): one
// JSON object per line with `@level`, `@message`, `@module` "terraform.ui", `@timestamp` and
// a `type` (version, refresh_start/complete, planned_change, change_summary, apply_start,
// apply_complete, apply_errored, outputs, diagnostic).

import { version } from "../node.js";
import { DONE, goDuration, isDataAddress, START } from "./progress.js";

/** `module.a[0].aws_instance.b["x"]` → Terraform's JSON UI resource address object. */
export function resourceAddr(address) {
  // The module path: leading `module.NAME` / `module.NAME[KEY]` steps.
  const m = address.match(/^((?:module\.[^.[]+(?:\[(?:"(?:[^"\\]|\\.)*"|\d+)\])?\.)*)(.*)$/);
  const module = m[1].replace(/\.$/, "");
  const rest = m[2];
  const r = rest.match(/^((?:data\.)?([^.]+)\.([^.[]+))(\[(.*)\])?$/) ?? [];
  let key = null;
  if (r[5] !== undefined) key = r[5].startsWith('"') ? JSON.parse(r[5]) : Number(r[5]);
  const type = r[2] ?? "";
  return {
    addr: address,
    module,
    resource: rest,
    implied_provider: type.split("_")[0],
    resource_type: type,
    resource_name: r[3] ?? "",
    resource_key: key,
  };
}

const ACTION = (actions) => {
  const a = actions.join(",");
  if (a === "create,delete" || a === "delete,create") return "replace";
  if (a === "forget") return "remove";
  return actions[0];
};
const PLAN_VERB = { import: "Plan to import", create: "Plan to create", update: "Plan to update", delete: "Plan to delete", replace: "Plan to replace", read: "Plan to read", remove: "Plan to forget" };
const ERRORED = { create: "Creation errored", update: "Modifications errored", delete: "Destruction errored", read: "Read errored" };

/** The printer: one method per thing the engine commands report. */
export function jsonUi(write = (o) => process.stdout.write(`${JSON.stringify(o)}\n`)) {
  const msg = (level, message, type, fields = {}) =>
    write({ "@level": level, "@message": message, "@module": "terraform.ui", "@timestamp": new Date().toISOString(), ...fields, type });
  msg("info", `tfgraph ${version}`, "version", { tfgraph: version, ui: "1.2" });
  const starts = new Map();
  return {
    event(e) {
      // Terraform's JSON view has no import hooks: imports show only in planned_change.
      if (e.operation === "import") return;
      const resource = resourceAddr(e.address);
      const refresh = e.phase === "plan" && e.operation === "read" && !isDataAddress(e.address);
      const idFields = e.priorId ? { id_key: "id", id_value: e.priorId } : {};
      if (refresh) {
        if (e.kind === "start") msg("info", `${e.address}: Refreshing state...${e.priorId ? ` [id=${e.priorId}]` : ""}`, "refresh_start", { hook: { resource, ...idFields } });
        if (e.kind === "finish") msg("info", `${e.address}: Refresh complete${e.priorId ? ` [id=${e.priorId}]` : ""}`, "refresh_complete", { hook: { resource, ...idFields } });
        return;
      }
      const k = `${e.operation}\0${e.address}\0${e.deposed ?? ""}`;
      const action = e.operation;
      if (e.kind === "start") {
        starts.set(k, Date.now());
        const id = (action === "update" || action === "delete") && e.priorId ? ` [id=${e.priorId}]` : "";
        const who = e.deposed ? `${e.address} (deposed object ${e.deposed})` : e.address;
        msg("info", `${who}: ${START[action]}${id}`, "apply_start", { hook: { resource, action, ...(action === "create" ? {} : idFields) } });
        return;
      }
      const start = starts.get(k) ?? Date.now();
      starts.delete(k);
      const elapsed = Math.max(0, Math.round(Date.now() / 1000) - Math.round(start / 1000));
      if (e.kind === "finish") {
        const idf = e.id && action !== "delete" ? { id_key: "id", id_value: e.id } : {};
        msg("info", `${e.address}: ${DONE[action]} after ${goDuration(elapsed)}${idf.id_value ? ` [id=${e.id}]` : ""}`, "apply_complete", { hook: { resource, action, ...idf, elapsed_seconds: elapsed } });
      } else if (e.kind === "fail") {
        msg("error", `${e.address}: ${ERRORED[action]} after ${goDuration(elapsed)}`, "apply_errored", { hook: { resource, action, elapsed_seconds: elapsed } });
      }
    },
    plan(p) {
      let add = 0, change = 0, remove = 0, imports = 0;
      for (const c of p.changes) {
        const importing = c.importing !== null && c.importing !== undefined;
        // An import that changes nothing is the change "import" (views/json/change.go).
        const action = ACTION(c.actions) === "no-op" && importing ? "import" : ACTION(c.actions);
        if (importing) imports++;
        if (action === "no-op") continue;
        if (action === "create" || action === "replace") add++;
        if (action === "update") change++;
        if (action === "delete" || action === "replace") remove++;
        const fields = { change: { resource: resourceAddr(c.address), action, ...(c.actionReason ? { reason: c.actionReason } : {}), ...(importing ? { importing: { id: c.importing } } : {}) } };
        msg("info", `${c.address}${c.deposed ? ` (deposed object ${c.deposed})` : ""}: ${PLAN_VERB[action] ?? action}`, "planned_change", fields);
      }
      if (p.errored) return;
      const operation = p.destroy ? "destroy" : "plan";
      msg("info", `Plan: ${imports ? `${imports} to import, ` : ""}${add} to add, ${change} to change, ${remove} to destroy.`, "change_summary", { changes: { add, change, import: imports, remove, operation } });
      // Every output, unchanged ones as "noop" (views/json/output.go).
      const outputs = Object.entries(p.toJSON().output_changes ?? {});
      const action = (c) => (c.actions.join() === "no-op" ? "noop" : ACTION(c.actions));
      if (outputs.length) msg("info", `Outputs: ${outputs.length}`, "outputs", { outputs: Object.fromEntries(outputs.map(([n, c]) => [n, { sensitive: !!c.after_sensitive || !!c.before_sensitive, action: action(c) }])) });
    },
    applied(report, destroyCommand, state) {
      const text = destroyCommand ? `Destroy complete! Resources: ${report.destroyed} destroyed.` : `Apply complete! Resources: ${report.imported ? `${report.imported} imported, ` : ""}${report.added} added, ${report.changed} changed, ${report.destroyed} destroyed.`;
      msg("info", text, "change_summary", { changes: { add: report.added, change: report.changed, import: report.imported ?? 0, remove: report.destroyed, operation: destroyCommand ? "destroy" : "apply" } });
      const outputs = Object.entries(state?.outputs ?? {});
      msg("info", `Outputs: ${outputs.length}`, "outputs", { outputs: Object.fromEntries(outputs.map(([n, o]) => [n, { sensitive: !!o.sensitive, type: o.type, ...(o.sensitive ? {} : { value: o.value }) }])) });
    },
    diagnostic(d) {
      msg(d.severity === "warning" ? "warn" : "error", `${d.severity === "warning" ? "Warning" : "Error"}: ${d.summary}`, "diagnostic", { diagnostic: d });
    },
  };
}
