// The node panel: what is selected in the graph and why it is connected. For a node: its kind,
// its source (a link into the editor), its direct dependencies and dependents, each with the
// reasons the edge exists (`explain`), each reason with a link that highlights the expression in
// the editor. For an edge: its reasons, or for the resources view the path of full-graph edges
// behind it, hop by hop. With nothing selected: the graph's cycles, explained edge by edge.
// Takes plain data from main.js; never calls the package.

import { el } from "./dom.js";

const where = (range) => `${range.filename}:${range.start.line}:${range.start.column}`;

/**
 * @param {HTMLElement} root
 * @param {{ reveal: (range: object) => void, select: (name: string) => void }} actions
 */
export function createInspector(root, { reveal, select }) {
  const reasonList = (why) =>
    el(
      "ul",
      { class: "reasons" },
      ...why.map((w) =>
        el(
          "li",
          { "data-testid": "why", "data-kind": w.kind ?? "" },
          el("span", { class: "why-text" }, w.text),
          w.range
            ? el("button", { class: "link why-go", "data-testid": "why-go", title: "Highlight in the editor", onclick: () => reveal(w.range) }, `⟶ ${where(w.range)}`)
            : "",
        ),
      ),
    );

  const hops = (list) =>
    el(
      "ol",
      { class: "hops" },
      ...list.map((h) =>
        el("li", { "data-testid": "hop" }, el("code", {}, `${h.from} → ${h.to}`), h.why.length ? reasonList(h.why) : el("span", { class: "muted" }, " (no recorded reason)")),
      ),
    );

  const neighbours = (title, testid, list, empty) =>
    el(
      "section",
      { class: "neighbours", "data-testid": testid },
      el("h3", {}, `${title} `, el("span", { class: "count" }, String(list.length))),
      list.length === 0
        ? el("p", { class: "muted" }, empty)
        : el(
            "ul",
            {},
            ...list.map((n) =>
              el(
                "li",
                { "data-testid": "neighbour", "data-name": n.name },
                el("button", { class: "link node-link", onclick: () => select(n.name) }, n.name),
                n.hops ? hops(n.hops) : n.why.length ? reasonList(n.why) : el("span", { class: "muted" }, " (implied)"),
              ),
            ),
          ),
    );

  const cycleSection = (cycles) =>
    el(
      "section",
      { class: "cycles", "data-testid": "cycles" },
      el("h3", { class: "error-text" }, cycles.length === 1 ? "A dependency cycle" : `${cycles.length} dependency cycles`),
      ...cycles.map((c) =>
        el(
          "div",
          { class: "cycle", "data-testid": "cycle" },
          el("p", {}, "Drawn in red. Terraform cannot order these: each waits for the next. One loop, edge by edge:"),
          el(
            "ol",
            { class: "hops" },
            ...c.loop.map((h) =>
              el("li", { "data-testid": "cycle-edge" }, el("code", {}, `${h.from} → ${h.to}`), h.why.length ? reasonList(h.why) : ""),
            ),
          ),
        ),
      ),
    );

  return {
    /** `{ title, stats, cycles: [{ loop: [{ from, to, why }] }], hint }` */
    overview({ stats, cycles, hint }) {
      root.replaceChildren(
        el("p", { class: "muted", "data-testid": "details-hint" }, hint),
        stats ? el("p", { class: "stats", "data-testid": "graph-stats" }, stats) : "",
        cycles.length ? cycleSection(cycles) : "",
      );
    },
    /** `{ name, kind, address, module, range, dependencies, dependents, inCycle }` */
    node(n) {
      root.replaceChildren(
        el(
          "div",
          { class: "node-head", "data-testid": "node-details", "data-name": n.name },
          el("code", { class: "node-name", "data-testid": "node-name" }, n.name),
          el("span", { class: "kind-badge" }, n.kind),
          n.module ? el("span", { class: "muted" }, ` in ${n.module}`) : "",
          n.range
            ? el("button", { class: "link", "data-testid": "node-source", onclick: () => reveal(n.range) }, `source: ${where(n.range)}`)
            : el("span", { class: "muted" }, "no source block"),
        ),
        n.inCycle ? el("p", { class: "error-text" }, "This node is part of a dependency cycle (red edges).") : "",
        el(
          "div",
          { class: "neighbour-columns" },
          neighbours("Depends on", "dependencies", n.dependencies, "Nothing: it can start first."),
          neighbours("Needed by", "dependents", n.dependents, "Nothing depends on it."),
        ),
      );
    },
    /** `{ from, to, why, hops? }` */
    edge(e) {
      root.replaceChildren(
        el(
          "div",
          { class: "edge-head", "data-testid": "edge-details" },
          el("button", { class: "link node-link", onclick: () => select(e.from) }, e.from),
          el("span", { class: "muted" }, " depends on "),
          el("button", { class: "link node-link", onclick: () => select(e.to) }, e.to),
        ),
        e.hops ? el("p", { class: "muted" }, "In the resources view this edge stands for a path in the full graph:") : "",
        e.hops ? hops(e.hops) : reasonList(e.why),
      );
    },
  };
}
