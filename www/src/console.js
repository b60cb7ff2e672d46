// The console panel: `terraform console` against the configuration in the editor. Each
// expression is evaluated by main.js (the package's `evaluate`, against the state the Plan /
// Apply tab keeps, else the terraform.tfstate among the files) and printed as the console
// prints it, with its type(); errors are printed in Terraform's boxed diagnostic shape. Up/Down
// recall earlier input. Takes plain data from main.js; never calls the package.

import { el } from "./dom.js";

/** Terraform wraps a diagnostic's detail to 78 columns, less the "│ " border. */
const WRAP = 76;

/** Greedy word wrap of one paragraph line; lines that start with a space stay as they are. */
function wrap(line) {
  if (line.length <= WRAP || /^\s/.test(line)) return [line];
  const out = [];
  let current = "";
  for (const word of line.split(" ")) {
    if (current && current.length + 1 + word.length > WRAP) {
      out.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) out.push(current);
  return out;
}

/** A diagnostic as Terraform's CLI prints it (without colour). */
export function formatDiagnostic(d) {
  const lines = [`${d.severity === "error" ? "Error" : "Warning"}: ${d.summary}`];
  if (d.range) {
    lines.push("");
    lines.push(`  on ${d.range.filename} line ${d.range.start.line}:`);
    lines.push(d.snippet?.code ? `  ${d.range.start.line}: ${d.snippet.code}` : "  (source code not available)");
  }
  if (d.detail) {
    lines.push("");
    lines.push(...d.detail.split("\n").flatMap(wrap));
  }
  return ["╷", ...lines.map((l) => (l ? `│ ${l}` : "│ ")), "╵"].join("\n");
}

/**
 * @param {{ log: HTMLElement, form: HTMLFormElement, input: HTMLInputElement }} parts
 * @param {{ evaluate: (expression: string) =>
 *   { ok: true, rendered: string, type: string, warnings: object[] } | { ok: false, diagnostics: object[] },
 *   reveal: (range: object) => void }} actions
 */
export function createConsole({ log, form, input }, { evaluate, reveal }) {
  const history = [];
  let recall = 0;

  const intro = el(
    "p",
    { class: "muted console-intro" },
    "Evaluates an expression in the root module, as terraform console does: variables (defaults and .tfvars), locals, functions; resource attributes from the state (what Apply in the Plan / Apply tab made, else a terraform.tfstate file among the files), else (known after apply).",
  );
  log.append(intro);

  const print = (expression) => {
    const result = evaluate(expression);
    const entry = el("div", { class: "console-entry", "data-testid": "console-entry" }, el("pre", { class: "console-input" }, `> ${expression}`));
    if (result.ok) {
      entry.append(
        el("pre", { class: "console-output", "data-testid": "console-output" }, result.rendered),
        // A pre: an object or tuple type spans lines, as type() prints it in terraform console.
        el("pre", { class: "console-type muted", "data-testid": "console-type" }, `type: ${result.type}`),
      );
    } else {
      for (const d of result.diagnostics) {
        const box = el("pre", { class: `console-error ${d.severity}`, "data-testid": "console-error" }, formatDiagnostic(d));
        entry.append(box);
        if (d.range && d.range.filename !== "<console-input>") {
          entry.append(el("button", { class: "link", onclick: () => reveal(d.range) }, `go to ${d.range.filename}:${d.range.start.line}:${d.range.start.column}`));
        }
      }
    }
    log.append(entry);
    log.scrollTop = log.scrollHeight;
  };

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const expression = input.value.trim();
    if (!expression) return;
    history.push(expression);
    recall = history.length;
    input.value = "";
    print(expression);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowUp" && recall > 0) input.value = history[--recall];
    else if (e.key === "ArrowDown" && recall < history.length) input.value = history[++recall] ?? "";
    else return;
    e.preventDefault();
  });

  return {
    /** Enables or disables input (e.g. while the package has no `evaluate`). */
    setAvailable(available, why = "") {
      input.disabled = !available;
      if (!available) intro.textContent = why;
    },
  };
}
