// A tiny element builder for the panels: el("li", { class: "x", onclick }, child, "text", ...).

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child !== "" && child != null) node.append(child);
  }
  return node;
}
