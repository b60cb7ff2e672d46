// The playground's wiring, and the only module that talks to the tfgraph package: it loads the
// editor's text, turns the result into plain data, and hands that to the panels.

import * as tfgraph from "tfgraph";
import { createEditor } from "./editor.js";
import { renderResources } from "./resources.js";
import { renderDiagnostics } from "./diagnostics.js";
import { EXAMPLE } from "./example.js";
import { installDrop } from "./drop.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

/** Every module of a configuration, the root first, depth-first in call order. */
function modules(config) {
  const out = [];
  const visit = (m) => {
    out.push(m);
    for (const call of m.module_calls) if (call.module) visit(call.module);
  };
  if (config) visit(config.root);
  return out;
}

/** A provider as the panel shows it: `aws` or `aws.west`, with the fully qualified name. */
function providerLabel(p) {
  return `${p.alias ? `${p.local_name}.${p.alias}` : p.local_name} (${p.fqn})`;
}

/** The other files of a dropped folder or zip (e.g. .terraform/modules/); main.tf is the editor. */
let dropped = {};

/**
 * Loads main.tf and returns the view: `{ status: "ok" | "error" | "crash", resources, diagnostics }`.
 * Errors in the configuration are data (TfgraphError); anything else thrown is a bug.
 */
function analyse(text) {
  let config = null;
  let diagnostics;
  let status = "ok";
  try {
    config = tfgraph.loadConfig({ ...dropped, "main.tf": text });
    diagnostics = config.diagnostics;
  } catch (e) {
    if (!(e instanceof tfgraph.TfgraphError)) {
      console.error(e);
      const summary = `Internal error: ${e.message}`;
      return { status: "crash", resources: [], diagnostics: [{ severity: "error", summary, detail: "Please reload the page and report this with the configuration." }] };
    }
    status = "error";
    config = e.config;
    diagnostics = e.diagnostics;
  }
  const resources = modules(config).flatMap((m) =>
    m.resources.map((r) => ({
      address: r.address,
      mode: r.mode,
      provider: providerLabel(r.provider),
      references: r.references,
      range: r.range,
    })),
  );
  return { status, resources, diagnostics };
}

const status = $("status");
const crashed = { value: false };

const editor = createEditor($("editor"), $("gutter"), $("cursor"), {
  onChange(text) {
    if (crashed.value) return;
    const view = analyse(text);
    crashed.value = view.status === "crash";
    status.textContent = { ok: "loaded", error: "errors", crash: "internal error" }[view.status];
    status.dataset.status = view.status;
    const reveal = (range) => editor.reveal(range.start, range.end);
    renderResources($("resources"), $("resource-count"), view, reveal);
    renderDiagnostics($("diagnostics"), $("diagnostic-count"), view.diagnostics, reveal);
  },
});

$("version").textContent = `v${tfgraph.version}`;
editor.setText(EXAMPLE);
installDrop(document.body, (files) => {
  dropped = files;
  editor.setText(files["main.tf"] ?? "");
});
document.body.dataset.ready = "true";
