// What every `tfgraph` command shares: usage errors, output, reading a directory as Terraform
// sees it, Terraform's plain diagnostic rendering, and -var / JSON file parsing.

import { readFile, stat } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { readConfigDir } from "../read-dir.js";
import { loadConfig, TfgraphError } from "../node.js";

/** Bad arguments: the command prints the message and its usage, and exits 1. */
export class UsageError extends Error {}

export const out = (s) => process.stdout.write(s.endsWith("\n") ? s : s + "\n");
export const err = (s) => process.stderr.write(s.endsWith("\n") ? s : s + "\n");

/** The diagnostics of a TfgraphError; anything else is a bug and is thrown on. */
export function diagnosticsOf(e) {
  if (e instanceof TfgraphError) return e.diagnostics;
  throw e;
}

export function positional(values, names) {
  if (values.length > names.length) throw new UsageError(`Too many arguments: expected ${names.join(" ")}.`);
  return values;
}

/**
 * Reads DIR as Terraform would see it: its files, and when a local module source points above
 * it (`source = "../../"`, as in a module's examples/), the files of the ancestor that holds
 * that module too. Returns `{ files, root }` where `root` is DIR relative to the files read.
 */
export async function readDir(dir) {
  let st;
  try {
    st = await stat(dir);
  } catch {
    throw new UsageError(`The directory ${JSON.stringify(dir)} does not exist.`);
  }
  if (!st.isDirectory()) throw new UsageError(`${JSON.stringify(dir)} is not a directory.`);
  let base = resolve(dir);
  for (let up = 0; ; up++) {
    const files = await readConfigDir(base);
    const root = relative(base, resolve(dir)).split(sep).join("/");
    if (up === 8 || dirname(base) === base) return { files, root };
    let outside = false;
    try {
      loadConfig(files, { root });
    } catch (e) {
      outside = diagnosticsOf(e).some((d) => d.summary === "Invalid module source address" && d.detail.includes("points outside the loaded files"));
    }
    if (!outside) return { files, root };
    base = dirname(base);
  }
}

/**
 * The order Terraform prints diagnostics in (tfdiags.Diagnostics.Sort, stable): warnings before
 * errors, sourceless before sourced, files with fewer path segments first, then by name (Go's
 * byte order), then by position (start, then end byte); the rest as given. JSON output is not
 * sorted.
 */
export function sortDiagnostics(diagnostics) {
  const bytes = (s) => Buffer.from(s, "utf8");
  const order = (a, b) => {
    if (a.severity !== b.severity) return a.severity === "warning" ? -1 : 1;
    if (!a.range !== !b.range) return a.range ? 1 : -1;
    if (!a.range) return 0;
    const [x, y] = [a.range, b.range];
    if (x.filename !== y.filename) {
      const depth = (f) => f.split("/").length;
      return depth(x.filename) !== depth(y.filename) ? depth(x.filename) - depth(y.filename) : Buffer.compare(bytes(x.filename), bytes(y.filename));
    }
    return x.start.byte - y.start.byte || x.end.byte - y.end.byte;
  };
  return [...diagnostics].sort(order); // Array.prototype.sort is stable
}

/**
 * Terraform's plain (no-colour) rendering of one diagnostic (format.DiagnosticPlainFromJSON):
 * the summary, the object it is about (`with ADDR,`), its source snippet with the values of the
 * expression's references, then the detail.
 */
export function formatDiagnostic(d, files = {}, columns = (process.stderr.isTTY && process.stderr.columns) || 78) {
  const kind = d.severity === "warning" ? "Warning" : "Error";
  let s = `\n${kind}: ${d.summary}\n\n`;
  if (d.address) s += `  with ${d.address},\n`;
  if (d.range) {
    const { filename, start } = d.range;
    const context = d.snippet?.context ? `, in ${d.snippet.context}` : "";
    s += `  on ${filename} line ${start.line}${context}:\n`;
    const code = d.snippet?.code ?? files[filename]?.split("\n")[start.line - 1];
    if (code === undefined) s += "  (source code not available)\n";
    else {
      const first = d.snippet?.start_line ?? start.line;
      code.split("\n").forEach((line, i) => {
        s += `${String(first + i).padStart(4)}: ${line}\n`;
      });
    }
    const values = [...(d.snippet?.values ?? [])].sort((a, b) => (a.traversal < b.traversal ? -1 : a.traversal > b.traversal ? 1 : 0));
    if (values.length) {
      s += "    ├────────────────\n";
      for (const v of values) s += `    │ ${v.traversal} ${v.statement}\n`;
    }
    s += "\n";
  }
  if (d.detail) s += `${wrapDetail(d.detail, columns)}\n`;
  return s;
}

/**
 * The detail as DiagnosticPlain wraps it: each line that does not start with a space wrapped
 * to one column less than the stream's width (78 when it is not a terminal).
 */
function wrapDetail(detail, columns) {
  return detail
    .split("\n")
    .map((line) => (line.startsWith(" ") ? line : wordWrap(line, columns - 1)))
    .join("\n");
}

/** `-var NAME=VALUE`: VALUE as JSON when it parses (numbers, lists, objects), else a string. */
export function parseVar(text) {
  const i = text.indexOf("=");
  if (i <= 0) throw new UsageError(`--var takes NAME=VALUE, not ${JSON.stringify(text)}.`);
  const raw = text.slice(i + 1);
  let value = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: a string, as -var gives it.
  }
  return [text.slice(0, i), value];
}

/**
 * Adds each `--var-file` to `files` as an auto-loaded tfvars file whose name sorts after the
 * directory's own, so it overrides them as Terraform's -var-file does.
 */
export async function addVarFiles(files, root, paths = []) {
  for (const [i, f] of paths.entries()) {
    try {
      const name = `~var-file-${String(i).padStart(3, "0")}.auto.tfvars${f.endsWith(".json") ? ".json" : ""}`;
      files[root ? `${root}/${name}` : name] = await readFile(f, "utf8");
    } catch {
      throw new UsageError(`Cannot read the variables file ${JSON.stringify(f)}.`);
    }
  }
}

/**
 * The JSON file at `path`, checked to parse, as its text: what the package reads without losing
 * a number's digits (JSON.parse would keep 53 bits of them). UsageError when it cannot be read.
 */
export async function readJsonFile(path, what) {
  let text;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new UsageError(`Cannot read the ${what} ${JSON.stringify(path)}.`);
  }
  try {
    JSON.parse(text);
  } catch (e) {
    throw new UsageError(`The ${what} ${JSON.stringify(path)} is not valid JSON: ${e.message}`);
  }
  return text;
}

/**
 * Terraform's format.WordWrap: breaks each line at spaces to fit `width` columns, keeping a
 * line's leading indentation on its continuation lines.
 */
export function wordWrap(text, width = 78) {
  return text
    .split("\n")
    .map((line) => {
      if ([...line].length <= width) return line;
      const indent = line.match(/^\s*/)[0];
      const words = line.slice(indent.length).split(" ");
      const lines = [];
      let cur = indent;
      for (const w of words) {
        if (cur.trim() !== "" && [...cur].length + 1 + [...w].length > width) {
          lines.push(cur);
          cur = indent + w;
        } else cur = cur.trim() === "" ? indent + w : `${cur} ${w}`;
      }
      lines.push(cur);
      return lines.join("\n");
    })
    .join("\n");
}
