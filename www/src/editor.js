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

  // The gutter, highlight and marks layers hold only the lines around the visible ones (all of
  // them up to WINDOW_AT lines), shifted with a transform as the textarea scrolls: laying out
  // every line of a long file three times was the editor's main cost (bench/page).
  const WINDOW_AT = 400;
  const MARGIN = 80;
  let lineStarts = [0];
  let view = { first: 0, last: 0 };
  const computeLines = () => {
    const t = textarea.value;
    lineStarts = [0];
    for (let i = t.indexOf("\n"); i >= 0; i = t.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  };
  const lineHeight = () => parseFloat(getComputedStyle(textarea).lineHeight) || 19.5;
  const windowFor = () => {
    const n = lineStarts.length;
    if (n <= WINDOW_AT) return { first: 0, last: n - 1 };
    const top = Math.floor(textarea.scrollTop / lineHeight());
    const rows = Math.ceil((textarea.clientHeight || 1000) / lineHeight());
    return { first: Math.max(0, top - MARGIN), last: Math.min(n - 1, top + rows + MARGIN) };
  };
  /** UTF-16 offsets of the window's text. */
  const windowRange = () => [lineStarts[view.first], view.last + 1 < lineStarts.length ? lineStarts[view.last + 1] - 1 : textarea.value.length];
  const inner = (layer) => {
    let div = layer.firstElementChild;
    if (!div || !div.classList.contains("layer-inner")) {
      div = el("div", { class: "layer-inner" });
      layer.replaceChildren(div);
    }
    return div;
  };

  const scrollNow = () => {
    if (lineStarts.length > WINDOW_AT) {
      const want = windowFor();
      const top = Math.floor(textarea.scrollTop / lineHeight());
      if ((view.first > 0 && top - view.first < MARGIN / 4) || (view.last < lineStarts.length - 1 && view.last - top < MARGIN / 2 + textarea.clientHeight / lineHeight())) {
        view = want;
        renderLayers();
      }
    }
    const y = view.first * lineHeight() - textarea.scrollTop;
    inner(gutter).style.transform = `translateY(${y}px)`;
    for (const layer of [highlightLayer, marksLayer]) inner(layer).style.transform = `translate(${-textarea.scrollLeft}px, ${y}px)`;
  };
  // After the layers' contents change, reading scrollTop forces a layout; do it once, in the
  // next frame.
  let scrollFrame = 0;
  const syncScroll = () => {
    if (scrollFrame) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = 0;
      scrollNow();
    });
  };

  const showGutter = () => {
    const errorLines = new Map();
    for (const m of diagnosticMarks) {
      if (m.range.filename !== active) continue;
      const prev = errorLines.get(m.range.start.line);
      if (prev !== "error") errorLines.set(m.range.start.line, m.severity);
    }
    lines = lineStarts.length;
    const out = [];
    for (let i = view.first; i <= view.last; i++) {
      const severity = errorLines.get(i + 1);
      out.push(
        severity
          ? el("span", { class: `gutter-${severity}`, "data-testid": `gutter-${severity}`, "data-line": String(i + 1) }, `${i + 1}\n`)
          : `${i + 1}\n`,
      );
    }
    inner(gutter).replaceChildren(...out);
    syncScroll();
  };

  const showMarks = () => {
    const text = textarea.value;
    const [lo, hi] = windowRange();
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
        return { from: Math.max(lo, from), to: Math.min(hi, to), cls };
      })
      .filter((c) => c.from < c.to || (c.from === c.to && c.from < hi))
      .sort((a, b) => a.from - b.from);
    const out = [];
    let at = lo;
    for (const c of cuts) {
      if (c.from < at) continue; // overlapping marks: the first wins
      out.push(text.slice(at, c.from));
      out.push(el("mark", { class: c.cls, "data-testid": c.cls }, text.slice(c.from, c.to)));
      at = c.to;
    }
    out.push(text.slice(at, hi) + "\n");
    inner(marksLayer).replaceChildren(...out.filter((x) => x !== ""));
    syncScroll();
  };

  const showHighlight = () => {
    const [lo, hi] = windowRange();
    inner(highlightLayer).replaceChildren(highlight(textarea.value.slice(lo, hi)), "\n");
    syncScroll();
  };

  const renderLayers = () => {
    showGutter();
    showHighlight();
    showMarks();
  };

  const showCursor = () => {
    const { line, column } = positionOf(textarea.value, textarea.selectionStart);
    cursorLabel.textContent = `Ln ${line}, Col ${column}`;
  };

  const refresh = () => {
    computeLines();
    view = windowFor();
    renderLayers();
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
      view = windowFor();
      renderLayers();
      showCursor();
    },
    lineCount: () => lines,
  };
}
