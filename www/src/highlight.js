// Syntax highlighting for HCL (Terraform's native syntax) as DOM nodes: a fragment of text
// nodes and <span class="tok-…"> elements whose text is exactly the input, so it can sit under
// the editor's transparent textarea. A lexer good enough for colour, not a parser: comments,
// strings (with ${…} interpolations), heredoc markers, numbers, literals, block types and
// labels, attribute names, and references (var., local., module., data., each., count.).

const TOKEN = new RegExp(
  [
    String.raw`(?<comment>#[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))`,
    String.raw`(?<string>"(?:[^"\\\n]|\\.)*"?)`,
    String.raw`(?<heredoc><<-?[A-Za-z_]\w*)`,
    String.raw`(?<number>\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)`,
    String.raw`(?<literal>\b(?:true|false|null)\b)`,
    String.raw`(?<keyword>\b(?:for|in|if|endfor|endif)\b)`,
    // An identifier that opens a line and is followed by a label or a brace: a block type.
    String.raw`(?<block>^[ \t]*[A-Za-z_][\w-]*(?=[ \t]+(?:"|\{|[A-Za-z_][\w-]*[ \t]*\{)|[ \t]*\{))`,
    String.raw`(?<attr>\b[A-Za-z_][\w-]*(?=[ \t]*=(?!=)))`,
    String.raw`(?<ref>\b(?:var|local|module|data|each|count|path|self|terraform)\.[\w-]+)`,
  ].join("|"),
  "gm",
);

/** Highlights inside a string: `${ … }` and `%{ … }` in another colour. */
function stringParts(text, out) {
  const re = /[$%]\{[^}]*\}?/g;
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push(span("tok-string", text.slice(at, m.index)));
    out.push(span("tok-interp", m[0]));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(span("tok-string", text.slice(at)));
}

function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  return s;
}

/** A DocumentFragment whose text content equals `text`. */
export function highlight(text) {
  const out = [];
  let at = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m[0] === "") continue;
    if (m.index > at) out.push(text.slice(at, m.index));
    const [kind] = Object.entries(m.groups).find(([, v]) => v !== undefined);
    if (kind === "string") stringParts(m[0], out);
    else if (kind === "block") {
      const indent = m[0].match(/^[ \t]*/)[0];
      if (indent) out.push(indent);
      out.push(span("tok-block", m[0].slice(indent.length)));
    } else out.push(span(`tok-${kind}`, m[0]));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  const fragment = document.createDocumentFragment();
  fragment.append(...out);
  return fragment;
}
