// The resources panel: every resource, data source and ephemeral resource of the loaded
// configuration (all modules), with its provider and the references it makes.
// Takes plain data from main.js; never calls the package.

import { el } from "./dom.js";

/** Resources appended per task: a 2,000-resource list built at once held the page ~0.2 s. */
const CHUNK = 200;
/** The list's render in progress (a newer render cancels an older one's remaining chunks). */
const renders = new WeakMap();

/**
 * Fills the list: the first CHUNK items at once, the rest in later tasks, CHUNK at a time, so a
 * large configuration never holds the page in one long task.
 *
 * @param {HTMLElement} list   the <ul>
 * @param {HTMLElement} count  the count badge
 * @param {{ resources: Array<{ address: string, mode: string, provider: string,
 *           references: Array<{ subject: string, in: string, range: object }> }> }} view
 * @param {(range: object) => void} onSelect  called with a source range when one is clicked
 */
export function renderResources(list, count, view, onSelect) {
  const token = {};
  renders.set(list, token);
  count.textContent = String(view.resources.length);
  list.replaceChildren();
  if (view.resources.length === 0) {
    list.append(el("li", { class: "empty" }, "No resources."));
    return;
  }
  const append = (from) => {
    if (renders.get(list) !== token) return;
    list.append(...view.resources.slice(from, from + CHUNK).map((r) => item(r, onSelect)));
    if (from + CHUNK < view.resources.length) setTimeout(() => append(from + CHUNK), 0);
  };
  append(0);
}

function item(r, onSelect) {
  const refs = el("ul", { class: "refs" });
  for (const ref of r.references) {
    const at = `${ref.range.start.line}:${ref.range.start.column}`;
    refs.append(
      el(
        "li",
        { "data-testid": "reference" },
        el("button", { class: "link", title: `Go to ${at}`, onclick: () => onSelect(ref.range) }, at),
        el("code", { class: "subject" }, ref.subject),
        el("span", { class: "in" }, `in ${ref.in}`),
      ),
    );
  }
  return el(
    "li",
    { class: `resource mode-${r.mode}`, "data-testid": "resource", "data-address": r.address },
    el(
      "div",
      { class: "resource-head" },
      el("button", { class: "address link", onclick: () => onSelect(r.range) }, r.address),
      el("span", { class: "provider", title: "provider" }, r.provider),
    ),
    r.references.length ? refs : el("div", { class: "no-refs" }, "no references"),
  );
}
