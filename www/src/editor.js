// The editor panel: a plain textarea holding main.tf. It reports edits (debounced) and the
// caret position, and can move the caret to a diagnostic's or reference's line:column.
//
// Positions are tfgraph's: 1-based line, 1-based column counted in Unicode code points. A
// textarea counts UTF-16 code units, so the conversion happens here and nowhere else.

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

/**
 * @param {HTMLTextAreaElement} textarea
 * @param {HTMLElement} gutter       shows the line numbers, scrolled with the text
 * @param {HTMLElement} cursorLabel  shows "Ln 3, Col 5"
 * @param {{ onChange: (text: string) => void }} handlers
 */
export function createEditor(textarea, gutter, cursorLabel, { onChange }) {
  let timer = 0;
  let lines = 0;
  const showGutter = () => {
    const count = textarea.value.split("\n").length;
    if (count !== lines) {
      lines = count;
      gutter.textContent = Array.from({ length: count }, (_, i) => i + 1).join("\n") + "\n";
    }
    gutter.scrollTop = textarea.scrollTop;
  };
  textarea.addEventListener("scroll", () => (gutter.scrollTop = textarea.scrollTop));
  const showCursor = () => {
    const { line, column } = positionOf(textarea.value, textarea.selectionStart);
    cursorLabel.textContent = `Ln ${line}, Col ${column}`;
  };
  textarea.addEventListener("input", () => {
    showGutter();
    showCursor();
    clearTimeout(timer);
    timer = setTimeout(() => onChange(textarea.value), DEBOUNCE_MS);
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
    setText(text) {
      textarea.disabled = false;
      textarea.value = text;
      textarea.setSelectionRange(0, 0);
      showGutter();
      showCursor();
      onChange(text);
    },
    /** Moves the caret to a tfgraph position (optionally selecting up to `end`) and focuses. */
    reveal(start, end = start) {
      const from = offsetOf(textarea.value, start);
      const to = Math.max(from, offsetOf(textarea.value, end));
      textarea.focus();
      textarea.setSelectionRange(from, to);
      // Scroll the line into view: roughly line index × line height.
      const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 18;
      textarea.scrollTop = Math.max(0, (start.line - 3) * lineHeight);
      showGutter();
      showCursor();
    },
  };
}
