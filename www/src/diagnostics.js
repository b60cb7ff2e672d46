// The diagnostics panel: errors and warnings in Terraform's shape, each with its file:line:col.
// Takes plain data from main.js; never calls the package.

import { el } from "./dom.js";

/** `main.tf:3:5`, or "" when the diagnostic has no range. */
export function location(diagnostic) {
  const r = diagnostic.range;
  return r ? `${r.filename}:${r.start.line}:${r.start.column}` : "";
}

/**
 * @param {HTMLElement} list   the <ul>
 * @param {HTMLElement} count  the count badge
 * @param {Array<{ severity: string, summary: string, detail: string, range?: object }>} diagnostics
 * @param {(range: object) => void} onSelect  called with a diagnostic's range when clicked
 */
export function renderDiagnostics(list, count, diagnostics, onSelect) {
  count.textContent = String(diagnostics.length);
  list.replaceChildren();
  if (diagnostics.length === 0) {
    list.append(el("li", { class: "empty" }, "No problems."));
    return;
  }
  for (const d of diagnostics) {
    const where = location(d);
    list.append(
      el(
        "li",
        { class: `diagnostic ${d.severity}`, "data-testid": "diagnostic", "data-severity": d.severity },
        el(
          "div",
          { class: "diagnostic-head" },
          el("span", { class: "severity" }, d.severity === "error" ? "Error" : "Warning"),
          where
            ? el("button", { class: "link location", "data-testid": "location", onclick: () => onSelect(d.range) }, where)
            : "",
          el("span", { class: "summary", "data-testid": "summary" }, d.summary),
        ),
        d.detail ? el("p", { class: "detail" }, d.detail) : "",
        d.snippet ? el("pre", { class: "snippet" }, d.snippet.code) : "",
      ),
    );
  }
}
