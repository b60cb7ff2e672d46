// A tiny element builder for the panels: el("li", { class: "x", onclick }, child, "text", ...).
// Attributes whose value is null, undefined or false are left out; children are appended as
// nodes or text (never parsed as HTML).

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child !== "" && child != null) node.append(child);
  }
  return node;
}
