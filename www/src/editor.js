// The editor panel: the configuration's files in tabs (add, rename, delete; a path with folders
// such as `modules/net/main.tf` makes a module folder), one textarea for the open file (the
// lines around the visible ones of a long file), with syntax highlighting and marks
// (diagnostics, an explained expression) drawn in layers behind it.
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
  // The code scrolls in `scroller`, never in the textarea: `sizer` is as tall and as wide as the
  // whole file, and the textarea and the layers sit in it at the lines they hold.
  const scroller = el("div", { class: "code-scroll", "data-testid": "code-scroll" });
  const sizer = el("div", { class: "code-sizer" });
  textarea.parentElement.append(scroller);
  sizer.append(marksLayer, highlightLayer, textarea);
  scroller.append(sizer);

  let files = {};
  let active = "main.tf";
  let text = ""; // files[active]
  let timer = 0;
  let lines = 0;
  /** Marks per file: `{ from, to, kind }` in tfgraph positions (`error`, `warning`, `explain`). */
  let diagnosticMarks = [];
  let explainMark = null;

  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => onChange({ ...files }), DEBOUNCE_MS);
  };

  // Two windows of lines, both following the scroll:
  // - the gutter, highlight and marks layers hold only the lines around the visible ones (all of
  //   them up to LAYERS_AT lines): laying out every line of a long file three times on every
  //   edit was the editor's main cost (bench/page);
  // - past TEXTAREA_AT lines the textarea too holds only the lines around the visible ones:
  //   Chromium lays out all of a textarea's text when it is set, 0.2-1.3 s for a 10,000-line
  //   file (2,000 resources), at load and on every file switch. Its undo history then lasts
  //   until the window moves, and the browser's find reaches the held lines only; select-all
  //   is the editor's own (below), so that copying, cutting or typing over it takes the file.
  const LAYERS_AT = 400;
  const LAYERS_MARGIN = 80;
  const TEXTAREA_AT = 3000;
  const TEXTAREA_MARGIN = 300;
  const PAD = 12; // the code's top and bottom padding (style.css)
  let lineStarts = [0];
  let view = { first: 0, last: 0 }; // the layers' lines
  let held = { first: 0, last: 0, from: 0, to: 0 }; // the textarea's lines and their offsets in `text`
  let longest = 0; // the longest line, in UTF-16 units
  const computeLines = () => {
    lineStarts = [0];
    longest = 0;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
      longest = Math.max(longest, i - lineStarts[lineStarts.length - 1]);
      lineStarts.push(i + 1);
    }
    longest = Math.max(longest, text.length - lineStarts[lineStarts.length - 1]);
  };
  let lh = 0;
  const lineHeight = () => lh || (lh = parseFloat(getComputedStyle(textarea).lineHeight) || 19.5);
  /** The offset just past line `i`'s text (before its newline). */
  const lineEnd = (i) => (i + 1 < lineStarts.length ? lineStarts[i + 1] - 1 : text.length);
  /** Lines `margin` around the visible ones, or all of them up to `limit` lines. */
  const around = (limit, margin) => {
    const n = lineStarts.length;
    if (n <= limit) return { first: 0, last: n - 1 };
    const top = Math.floor(Math.max(0, scroller.scrollTop - PAD) / lineHeight());
    const rows = Math.ceil((scroller.clientHeight || 1000) / lineHeight());
    return { first: Math.max(0, Math.min(top, n - 1) - margin), last: Math.min(n - 1, top + rows + margin) };
  };
  /** Whether the visible lines come within a quarter of the margin of window `w`'s ends. */
  const nearEdge = (w, margin) => {
    const top = Math.floor(Math.max(0, scroller.scrollTop - PAD) / lineHeight());
    const rows = Math.ceil(scroller.clientHeight / lineHeight());
    return (w.first > 0 && top - w.first < margin / 4) || (w.last < lineStarts.length - 1 && w.last - (top + rows) < margin / 4);
  };
  const place = (element, w) => {
    element.style.top = `${w.first * lineHeight()}px`;
    element.style.height = `${(w.last - w.first + 1) * lineHeight() + 2 * PAD}px`;
  };
  /** The sizer's extent: the whole file's lines, and its longest line (with room to spare). */
  const size = () => {
    sizer.style.height = `${lineStarts.length * lineHeight() + 2 * PAD}px`;
    sizer.style.width = `max(100%, calc(${longest + 8}ch + 28px))`;
  };

  /** The selection in `text` (offsets); the textarea's own counts from `held.from`. */
  let selection = { start: 0, end: 0 };
  const readSelection = () => {
    selection = { start: held.from + textarea.selectionStart, end: held.from + textarea.selectionEnd };
    return selection;
  };
  /**
   * Makes the textarea hold lines `w` (the whole file when it is short), keeping the selection
   * where it is in the file when the window still contains it.
   */
  const hold = (w, { force = false } = {}) => {
    const from = lineStarts[w.first];
    const to = lineEnd(w.last);
    if (!force && held.from === from && held.to === to && textarea.value.length === to - from) return;
    const keep = document.activeElement === textarea ? readSelection() : selection;
    held = { first: w.first, last: w.last, from, to };
    const top = scroller.scrollTop;
    textarea.value = text.slice(from, to);
    const inside = (o) => Math.min(to - from, Math.max(0, o - from));
    textarea.setSelectionRange(inside(keep.start), inside(keep.end));
    selection = keep;
    place(textarea, w);
    scroller.scrollTop = top;
  };
  const holdAround = (line, options) => {
    const n = lineStarts.length;
    sizer.classList.toggle("windowed", n > TEXTAREA_AT);
    if (n <= TEXTAREA_AT) return hold({ first: 0, last: n - 1 }, options);
    hold({ first: Math.max(0, line - TEXTAREA_MARGIN), last: Math.min(n - 1, line + TEXTAREA_MARGIN) }, options);
  };
  const lineOf = (offset) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  /** UTF-16 offsets of the layers' text. */
  const windowRange = () => [lineStarts[view.first], lineEnd(view.last)];
  const inner = (layer) => {
    let div = layer.firstElementChild;
    if (!div || !div.classList.contains("layer-inner")) {
      div = el("div", { class: "layer-inner" });
      layer.replaceChildren(div);
    }
    return div;
  };

  const scrollNow = () => {
    if (lineStarts.length > LAYERS_AT && nearEdge(view, LAYERS_MARGIN)) {
      view = around(LAYERS_AT, LAYERS_MARGIN);
      renderLayers();
    }
    if (lineStarts.length > TEXTAREA_AT && nearEdge(held, TEXTAREA_MARGIN)) hold(around(TEXTAREA_AT, TEXTAREA_MARGIN));
    inner(gutter).style.transform = `translateY(${view.first * lineHeight() - scroller.scrollTop}px)`;
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
    place(marksLayer, view);
  };

  const showHighlight = () => {
    const [lo, hi] = windowRange();
    inner(highlightLayer).replaceChildren(highlight(text.slice(lo, hi)), "\n");
    place(highlightLayer, view);
  };

  const renderLayers = () => {
    showGutter();
    showHighlight();
    showMarks();
  };

  const showCursor = () => {
    const { line, column } = positionOf(text, readSelection().start);
    cursorLabel.textContent = `Ln ${line}, Col ${column}`;
  };

  /** Lines, sizes and layers again for `text` (after an edit or a new file). */
  const refresh = () => {
    computeLines();
    size();
    view = around(LAYERS_AT, LAYERS_MARGIN);
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
    text = files[path];
    textarea.disabled = false;
    selection = { start: 0, end: 0 };
    held = { first: 0, last: 0, from: 0, to: 0 };
    scroller.scrollTop = 0;
    scroller.scrollLeft = 0;
    computeLines();
    holdAround(0, { force: true });
    textarea.setSelectionRange(0, 0);
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

  scroller.addEventListener("scroll", scrollNow);
  // The textarea never scrolls itself (it is as large as the lines it holds); should the
  // browser scroll it anyway (a line typed past its end before its height follows), the
  // scroller takes the scroll over.
  textarea.addEventListener("scroll", () => {
    if (!textarea.scrollTop && !textarea.scrollLeft) return;
    scroller.scrollTop += textarea.scrollTop;
    scroller.scrollLeft += textarea.scrollLeft;
    textarea.scrollTop = 0;
    textarea.scrollLeft = 0;
  });
  // Select-all in a windowed file selects the whole file: the textarea selects what it holds,
  // and copying, cutting or replacing that selection acts on the file. Any other key or a
  // click ends it.
  let all = false;
  const windowed = () => lineStarts.length > TEXTAREA_AT;
  textarea.addEventListener("keydown", (e) => {
    if (!windowed()) return;
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "a") {
      e.preventDefault();
      all = true;
      selection = { start: 0, end: text.length };
      textarea.setSelectionRange(0, textarea.value.length);
    } else if (all && /^(Arrow|Home|End|Page)/.test(e.key)) all = false;
  });
  textarea.addEventListener("pointerdown", () => (all = false));
  for (const kind of ["copy", "cut"]) {
    textarea.addEventListener(kind, (e) => {
      if (!all || !e.clipboardData) return;
      e.preventDefault();
      e.clipboardData.setData("text/plain", text);
      if (kind === "cut") replaceAll("");
    });
  }
  /** The whole file replaced (select-all, then typing, pasting or cutting). */
  const replaceAll = (next) => {
    all = false;
    text = next;
    files[active] = text;
    computeLines();
    held = { first: 0, last: 0, from: 0, to: 0 };
    const caret = next.length;
    selection = { start: caret, end: caret };
    holdAround(lineOf(caret), { force: true });
    explainMark = null;
    refresh();
    changed();
  };

  textarea.addEventListener("input", () => {
    // Typed or pasted over the whole file's selection: that is the file now.
    if (all) return replaceAll(textarea.value);
    // The textarea holds lines held.first..held.last: the rest of the file is around them.
    text = text.slice(0, held.from) + textarea.value + text.slice(held.to);
    files[active] = text;
    const count = (textarea.value.match(/\n/g) ?? []).length;
    held = { first: held.first, last: held.first + count, from: held.from, to: held.from + textarea.value.length };
    place(textarea, held);
    explainMark = null;
    refresh();
    changed();
  });
  // A key pressed while the caret is outside the lines held (scrolled far away from it): the
  // window comes back to the caret first, so the key acts where the caret is.
  textarea.addEventListener("keydown", (e) => {
    if (lineStarts.length <= TEXTAREA_AT || all || e.ctrlKey || e.metaKey || ["Control", "Shift", "Alt", "Meta"].includes(e.key)) return;
    const line = lineOf(selection.start);
    if (line < held.first || line > held.last) {
      holdAround(line);
      scroller.scrollTop = Math.max(0, (line - 3) * lineHeight());
    }
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
    setText(next) {
      files[active] = next;
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
      const from = offsetOf(text, range.start);
      const to = Math.max(from, offsetOf(text, range.end ?? range.start));
      selection = { start: from, end: to };
      holdAround(range.start.line - 1);
      // Focus only when asked: a node clicked in the graph, or chosen with Enter in the search
      // box, must not send the next keystroke into the configuration.
      if (focus) textarea.focus({ preventScroll: true });
      textarea.setSelectionRange(from - held.from, to - held.from);
      scroller.scrollTop = Math.max(0, (range.start.line - 3) * lineHeight());
      if (lineStarts.length > TEXTAREA_AT) hold(around(TEXTAREA_AT, TEXTAREA_MARGIN));
      view = around(LAYERS_AT, LAYERS_MARGIN);
      renderLayers();
      showCursor();
    },
    lineCount: () => lines,
  };
}
