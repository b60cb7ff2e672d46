// The build steps panel: Terraform builds each graph by running transformers in order; this
// steps through them, drawing the graph after each one with the edges it added (green) and
// removed (red, dashed) and saying why the step sits where it does. No other tool shows this.
// Takes plain data from main.js (`load()` → steps with parsed graphs); never calls the package.

import { el } from "./dom.js";

/**
 * @param {HTMLElement} root
 * @param {{ load: () => Array<{ name, reason, nodes, edges, changed, graph: { nodes: string[], edges: object[] } }> | null,
 *           draw: (graph: object, previous: object) => Promise<void>, restore: () => Promise<void> }} actions
 */
export function createSteps(root, { load, draw, restore }) {
  let steps = null;
  let at = -1;

  const empty = { nodes: [], edges: [] };

  const delta = (i) => {
    const prev = i > 0 ? steps[i - 1].graph : empty;
    const key = (e) => `${e.from}\0${e.to}`;
    const before = new Set(prev.edges.map(key));
    const after = new Set(steps[i].graph.edges.map(key));
    return {
      added: steps[i].graph.edges.filter((e) => !before.has(key(e))).length,
      removed: prev.edges.filter((e) => !after.has(key(e))).length,
      nodes: steps[i].graph.nodes.length - prev.nodes.length,
    };
  };

  const render = () => {
    if (!steps) {
      root.replaceChildren(el("p", { class: "muted" }, "No build steps: the configuration has errors."));
      return;
    }
    const current = at >= 0 ? steps[at] : null;
    const d = current ? delta(at) : null;
    const head = el(
      "div",
      { class: "steps-head" },
      el("button", { "data-testid": "step-prev", disabled: at <= 0, onclick: () => go(at - 1) }, "◀ Previous"),
      el("button", { "data-testid": "step-next", disabled: at >= steps.length - 1, onclick: () => go(at + 1) }, "Next ▶"),
      el("button", { "data-testid": "step-final", disabled: at < 0, onclick: () => go(-1) }, "Final graph"),
      el("span", { class: "muted", "data-testid": "step-position" }, current ? `step ${at + 1} of ${steps.length}` : `${steps.length} steps: pick one to see the graph after it`),
    );
    const detail = current
      ? el(
          "div",
          { class: "step-detail", "data-testid": "step-detail" },
          el("h3", { "data-testid": "step-name" }, current.name),
          el("p", { "data-testid": "step-reason" }, current.reason),
          el(
            "p",
            { class: "step-delta", "data-testid": "step-delta" },
            el("span", { class: "added-text" }, `+${d.added} edges`),
            " · ",
            el("span", { class: "removed-text" }, `−${d.removed} edges`),
            ` · ${d.nodes >= 0 ? "+" : "−"}${Math.abs(d.nodes)} nodes · now ${current.nodes} nodes, ${current.edges} edges`,
          ),
        )
      : "";
    const list = el(
      "ol",
      { class: "step-list" },
      ...steps.map((s, i) =>
        el(
          "li",
          { class: `${i === at ? "current " : ""}${s.changed ? "changed" : "unchanged"}`, "data-testid": "step" },
          el("button", { class: "link", onclick: () => go(i) }, s.name),
          el("span", { class: "muted" }, s.changed ? ` ${s.nodes} nodes, ${s.edges} edges` : " (no change)"),
        ),
      ),
    );
    root.replaceChildren(head, detail, list);
    list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
  };

  async function go(i) {
    if (!steps) return;
    at = Math.max(-1, Math.min(steps.length - 1, i));
    render();
    if (at < 0) await restore();
    else await draw(steps[at].graph, at > 0 ? steps[at - 1].graph : empty);
    root.dataset.drawn = String(at);
  }

  return {
    /** Called when the panel opens: loads the steps of the current graph once. */
    show() {
      if (steps === null) {
        steps = load();
        at = -1;
      }
      render();
    },
    /** Called when the graph changes: forget the steps (they are reloaded on demand). */
    reset() {
      steps = null;
      at = -1;
      if (!root.hidden && root.isConnected && !root.closest("[hidden]")) this.show();
    },
  };
}
