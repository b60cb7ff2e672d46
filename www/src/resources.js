// The resources panel: every resource, data source and ephemeral resource of the loaded
// configuration (all modules), with its provider and the references it makes.
// Takes plain data from main.js; never calls the package.

import { el } from "./dom.js";

/**
 * The list is built in tasks of at most BUDGET_MS each: a 2,000-resource list (~28,000 elements)
 * built at once held the page ~0.9 s on the shared bench machine, and even fixed chunks of 200
 * items took 60-280 ms each there (bench/page); a time budget adapts to the machine.
 */
const BUDGET_MS = 12;
/** Items built at once before the first yield: small configurations fill in one task. */
const FIRST = 50;
/** The list's render in progress (a newer render cancels an older one's remaining chunks). */
const renders = new WeakMap();

/**
 * Fills the list: the first FIRST items at once, the rest in later tasks of at most BUDGET_MS
 * each (appended once per task), so a large configuration never holds the page in one long task.
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
  const all = view.resources;
  const append = (from) => {
    if (renders.get(list) !== token) return;
    const start = performance.now();
    const batch = [];
    let i = from;
    while (i < all.length && (i < FIRST || performance.now() - start < BUDGET_MS)) batch.push(item(all[i++], onSelect));
    list.append(...batch);
    if (i < all.length) setTimeout(() => append(i), 0);
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
