// The editor panel: the configuration's files in tabs (add, rename, delete; a path with folders
// such as `modules/net/main.tf` makes a module folder), one textarea for the open file, with
// syntax highlighting and marks (diagnostics, an explained expression) drawn in layers behind it.
// It reports edits (debounced) and the caret position, and can open a file at a range.
//
// Positions are tfgraph's: 1-based line, 1-based column counted in Unicode code points. A
// textarea counts UTF-16 code units, so the conversion happens here and nowhere else.
// Text is only ever inserted with textContent / text nodes, never as HTML.

import { el } from "./dom.js";
import { highlight } from "./highlight.js";

const DEBOUNCE_MS = 120;

/** `{ line, column }` of a UTF-16 offset into `text`. */
function positionOf(text, offset) {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  const line = before.split("\n").length;
  const column = [...before.slice(lineStart)].length + 1;
  return { line, column };
}

/** The UTF-16 offset of a `{ line, column }` in `text` (clamped to the line). */
function offsetOf(text, { line, column }) {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf("\n", start);
    if (next < 0) return text.length;
    start = next + 1;
  }
  const end = text.indexOf("\n", start) < 0 ? text.length : text.indexOf("\n", start);
  const chars = [...text.slice(start, end)].slice(0, Math.max(0, column - 1));
  return start + chars.join("").length;
}

/** Files shown as tabs: everything but what `terraform init` installs. */
const shown = (path) => !path.startsWith(".terraform/");

/**
 * @param {{ textarea: HTMLTextAreaElement, gutter: HTMLElement, cursor: HTMLElement,
 *           highlight: HTMLElement, tabs: HTMLElement, filename: HTMLElement }} parts
 * @param {{ onChange: (files: Record<string, string>) => void, onOpen?: (path: string) => void }} handlers
 */
export function createEditor(parts, { onChange, onOpen = () => {} }) {
  const { textarea, gutter, cursor: cursorLabel, tabs, filename } = parts;
  const highlightLayer = parts.highlight;
  const marksLayer = el("pre", { class: "marks", "aria-hidden": "true", "data-testid": "marks" });
  highlightLayer.before(marksLayer);

  let files = {};
  let active = "main.tf";
  let timer = 0;
  let lines = 0;
  /** Marks per file: `{ from, to, kind }` in tfgraph positions (`error`, `warning`, `explain`). */
  let diagnosticMarks = [];
  let explainMark = null;

  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => onChange({ ...files }), DEBOUNCE_MS);
  };

  const scrollNow = () => {
    gutter.scrollTop = textarea.scrollTop;
    for (const layer of [highlightLayer, marksLayer]) {
      layer.scrollTop = textarea.scrollTop;
      layer.scrollLeft = textarea.scrollLeft;
    }
  };
  // After the layers' contents change, reading scrollTop forces a layout; do it once, in the
  // next frame (a 1,500-line file spent 200 ms per edit here, three forced layouts a time).
  let scrollFrame = 0;
  const syncScroll = () => {
    if (scrollFrame) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = 0;
      scrollNow();
    });
  };

  const showGutter = () => {
    const text = textarea.value;
    const count = text.split("\n").length;
    const errorLines = new Map();
    for (const m of diagnosticMarks) {
      if (m.range.filename !== active) continue;
      const prev = errorLines.get(m.range.start.line);
      if (prev !== "error") errorLines.set(m.range.start.line, m.severity);
    }
    lines = count;
    gutter.replaceChildren(
      ...Array.from({ length: count }, (_, i) => {
        const severity = errorLines.get(i + 1);
        return severity
          ? el("span", { class: `gutter-${severity}`, "data-testid": `gutter-${severity}`, "data-line": String(i + 1) }, `${i + 1}\n`)
          : `${i + 1}\n`;
      }),
    );
    syncScroll();
  };

  const showMarks = () => {
    const text = textarea.value;
    const ranges = [];
    for (const m of diagnosticMarks) {
      if (m.range.filename === active) ranges.push({ range: m.range, cls: `mark-${m.severity}` });
    }
    if (explainMark && explainMark.filename === active) ranges.push({ range: explainMark, cls: "mark-explain" });
    const cuts = ranges
      .map(({ range, cls }) => {
        const from = offsetOf(text, range.start);
        let to = offsetOf(text, range.end);
        if (to <= from) to = Math.min(text.length, from + 1);
        return { from, to, cls };
      })
      .sort((a, b) => a.from - b.from);
    const out = [];
    let at = 0;
    for (const c of cuts) {
      if (c.from < at) continue; // overlapping marks: the first wins
      out.push(text.slice(at, c.from));
      out.push(el("mark", { class: c.cls, "data-testid": c.cls }, text.slice(c.from, c.to)));
      at = c.to;
    }
    out.push(text.slice(at) + "\n");
    marksLayer.replaceChildren(...out.filter((x) => x !== ""));
    syncScroll();
  };

  const showHighlight = () => {
    highlightLayer.replaceChildren(highlight(textarea.value), "\n");
    syncScroll();
  };

  const showCursor = () => {
    const { line, column } = positionOf(textarea.value, textarea.selectionStart);
    cursorLabel.textContent = `Ln ${line}, Col ${column}`;
  };

  const refresh = () => {
    showGutter();
    showHighlight();
    showMarks();
    showCursor();
  };

  const showTabs = () => {
    const paths = Object.keys(files).filter(shown).sort((a, b) => a.localeCompare(b));
    tabs.replaceChildren(
      ...paths.map((path) =>
        el(
          "span",
          { class: `tab${path === active ? " active" : ""}`, role: "tab", "aria-selected": String(path === active), "data-testid": "file-tab", "data-path": path },
          el("button", { class: "tab-name", title: "Double-click to rename", onclick: () => open(path), ondblclick: () => rename(path) }, path),
          el("button", { class: "tab-close", "data-testid": "file-close", title: `Delete ${path}`, "aria-label": `Delete ${path}`, onclick: () => remove(path) }, "×"),
        ),
      ),
      el("button", { class: "tab-add", "data-testid": "file-add", title: "Add a file (a path like modules/net/main.tf makes a module folder)", onclick: add }, "+"),
    );
    filename.textContent = active;
    textarea.setAttribute("aria-label", `Terraform configuration (${active})`);
  };

  function open(path, { quiet = false } = {}) {
    if (!(path in files)) return;
    active = path;
    textarea.disabled = false;
    textarea.value = files[path];
    textarea.setSelectionRange(0, 0);
    textarea.scrollTop = 0;
    showTabs();
    refresh();
    if (!quiet) onOpen(path);
  }

  const validPath = (path) => /^[^/\\][^\\]*$/.test(path) && !path.split("/").includes("..") && !path.endsWith("/");

  function add() {
    const path = prompt("New file (a folder path such as modules/net/main.tf makes a module):", "variables.tf")?.trim();
    if (!path) return;
    if (!validPath(path) || path in files) return alert(`Cannot add ${path}: ${path in files ? "it exists" : "not a relative file path"}.`);
    files[path] = "";
    open(path);
    changed();
  }

  function rename(path) {
    const to = prompt(`Rename ${path} to:`, path)?.trim();
    if (!to || to === path) return;
    if (!validPath(to) || to in files) return alert(`Cannot rename to ${to}: ${to in files ? "it exists" : "not a relative file path"}.`);
    const next = {};
    for (const [p, t] of Object.entries(files)) next[p === path ? to : p] = t;
    files = next;
    open(active === path ? to : active);
    changed();
  }

  function remove(path) {
    if (!confirm(`Delete ${path}?`)) return;
    delete files[path];
    const rest = Object.keys(files).filter(shown);
    if (active === path) {
      if (rest.length === 0) files["main.tf"] = "";
      open(rest[0] ?? "main.tf");
    } else showTabs();
    changed();
  }

  textarea.addEventListener("scroll", scrollNow);
  textarea.addEventListener("input", () => {
    files[active] = textarea.value;
    explainMark = null;
    refresh();
    changed();
  });
  for (const event of ["keyup", "click", "select", "focus"]) textarea.addEventListener(event, showCursor);
  // Tab indents instead of leaving the editor.
  textarea.addEventListener("keydown", (e) => {
    if (e.key !== "Tab" || e.shiftKey || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    textarea.setRangeText("  ", textarea.selectionStart, textarea.selectionEnd, "end");
    textarea.dispatchEvent(new Event("input"));
  });

  return {
    /** Replaces every file and opens `open` (default: main.tf, else the first). Reports the change at once. */
    setFiles(next, openPath) {
      files = { ...next };
      if (Object.keys(files).filter(shown).length === 0) files["main.tf"] = "";
      const first = Object.keys(files).filter(shown).sort((a, b) => a.localeCompare(b))[0];
      const target = openPath in files ? openPath : "main.tf" in files ? "main.tf" : first;
      explainMark = null;
      diagnosticMarks = [];
      open(target, { quiet: true });
      clearTimeout(timer);
      onChange({ ...files });
    },
    /** Replaces the open file's text (as typing would). */
    setText(text) {
      files[active] = text;
      open(active, { quiet: true });
      clearTimeout(timer);
      onChange({ ...files });
    },
    files: () => ({ ...files }),
    active: () => active,
    /** Diagnostics to mark: `[{ severity, range }]` (ranges in any file). */
    setDiagnostics(diagnostics) {
      diagnosticMarks = diagnostics.filter((d) => d.range && d.range.filename in files);
      showGutter();
      showMarks();
    },
    /**
     * Opens the range's file, selects the range and scrolls it into view. With `mark`, the
     * range also stays highlighted (an explained expression) until the next edit; without
     * `focus`, the keyboard stays where it is.
     */
    reveal(range, { mark = false, focus = true } = {}) {
      if (!range) return;
      if (range.filename && range.filename !== active && range.filename in files) open(range.filename);
      explainMark = mark ? range : null;
      const from = offsetOf(textarea.value, range.start);
      const to = Math.max(from, offsetOf(textarea.value, range.end ?? range.start));
      // Focus only when asked: a node clicked in the graph, or chosen with Enter in the search
      // box, must not send the next keystroke into the configuration.
      if (focus) textarea.focus({ preventScroll: true });
      textarea.setSelectionRange(from, to);
      const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 18;
      textarea.scrollTop = Math.max(0, (range.start.line - 3) * lineHeight);
      showMarks();
      showGutter();
      showCursor();
    },
    lineCount: () => lines,
  };
}
