// The tfgraph API: every public export, in one module that the entries re-export. It does not
// load the WebAssembly module itself: the zero-init entries (index.js for browsers and
// bundlers, node.js for Node, Deno and Bun) load it synchronously before re-exporting this,
// and `tfgraph/init` (this module as it is) leaves it to the caller's `await init()`.
// Types: index.d.ts. The raw exports of tfgraph.js are not part of the API and may change.

import { bindings } from "./tfgraph.js";
import { fetchSync, viteDevUrl } from "./fetch-sync.js";

/** The package version (also the Rust crate's version); "" until the module is initialised. */
export let version = "";

let initialised = false;
let pending = null;

function finish() {
  initialised = true;
  version = raw.version();
  live.lastWords = raw.lastWords?.() ?? 0;
  raw.setEncodingLoader(encodingTables);
}

// ---- The text encodings' data file -------------------------------------------------------------
//
// x/text's tables for 49 of the encodings of `textencodebase64` / `textdecodebase64` (Shift_JIS,
// GBK, Big5, the ISO-8859 and windows code pages, ...) are a file beside this module,
// tfgraph_encodings.bin (328 KB, 128 KB gzipped), not part of the .wasm. The module asks for it,
// synchronously, the first time a configuration uses one of those encodings: from disk where
// this module is a file: URL (Node, Deno, Bun), otherwise with a synchronous request (pages and
// workers; the URL is the pattern bundlers emit as an asset). Fetched once per page.

let encodingBytes = null;

function encodingTablesUrl() {
  try {
    return new URL("./tfgraph_encodings.bin", import.meta.url);
  } catch {
    const script = globalThis.document?.currentScript?.src ?? globalThis.location?.href;
    return new URL("./tfgraph_encodings.bin", script);
  }
}

/** The data file's bytes for the module, or a string saying why they cannot be read. */
function encodingTables() {
  try {
    return readEncodingFile();
  } catch (e) {
    return String(e?.message ?? e);
  }
}

function readEncodingFile() {
  if (encodingBytes) return encodingBytes;
  const url = encodingTablesUrl();
  let bytes = readEncodingTables(url);
  const retry = isEncodingTables(bytes) ? null : viteDevUrl(url, "tfgraph_encodings.bin");
  if (retry) bytes = readEncodingTables(retry);
  if (!isEncodingTables(bytes)) throw new Error(`${url} is not tfgraph's encoding tables (serve the package's tfgraph_encodings.bin there)`);
  encodingBytes = bytes;
  return bytes;
}

const isEncodingTables = (b) => String.fromCharCode(...b.subarray(0, 7)) === "TFENC1\n";

function readEncodingTables(url) {
  return url.protocol === "file:" ? readFileSync(url) : fetchSync(url);
}


// ---- The module instance, and its replacement after a trap (issue #26) -----------------------
//
// A trap (`RuntimeError`: a Rust panic under panic = "abort", a failed allocation at wasm32's
// 4 GiB, `unreachable`), a stack overflow (`RangeError`) or any exception thrown through the
// module leaves the instance's Rust state half-changed: nothing may run in it again. Every
// export of every instance is guarded here (tfgraph.js is a factory of copies, see
// scripts/wrap-bindings.mjs, whose `hooks.exports` lands below): the first exception through
// it marks the instance stopped, rejects the promises of its calls still running (an async
// call's trap fires from a microtask or a timer, far from its call site) with a TfgraphError
// saying what ran out and where, and the next call starts a fresh copy with a fresh instance
// of the same compiled module. A stopped instance's callbacks (timers, promise reactions,
// finalizers freeing its handles) become no-ops; its Graph and Plan objects refuse with an error.

/**
 * The live copy of the bindings (this module's own: another copy of api.js, `?fresh` in the
 * tests, has its own), replaced with its instance.
 */
let raw;
/** The live instance (see `guardExports`), set as each copy initialises. */
let live = null;
/** > 0 while api.js is inside a synchronous call into the module (a trap there is thrown to it). */
let apiDepth = 0;
/** How deep calls into the module are nested (wasm → JS → wasm). */
let wasmDepth = 0;
let instances = 0;

/** How this module's copies of the bindings install each instance: guarded, and made `live`. */
const hooks = {
  exports(exports, module) {
    live = {
      exports, module, memory: exports.memory, stopped: null, pending: new Set(), lastWords: 0, id: ++instances,
      objects: new Set(), // WeakRefs to the Graph and Plan objects made in it
    };
    return guardExports(live);
  },
};
raw = bindings(hooks);

function guardExports(inst) {
  const out = {};
  for (const [name, f] of Object.entries(inst.exports)) out[name] = typeof f === "function" ? guarded(inst, f) : f;
  return out;
}

/**
 * What a call into a stopped instance from the event loop returns: the glue reads results as
 * `ret[0]`, `ret[1]` (a pointer and a length, or a value and an "is error" flag), all zero here:
 * no error, nothing returned.
 */
const NOTHING = Object.freeze([0, 0, 0, 0]);

function guarded(inst, f) {
  return (...args) => {
    if (inst.stopped) {
      // A stopped instance's timer, promise reaction or finalizer: nothing left to do.
      if (wasmDepth === 0 && apiDepth === 0) return NOTHING;
      throw inst.stopped.error;
    }
    wasmDepth++;
    try {
      return f(...args);
    } catch (e) {
      if (!inst.stopped) stop(inst, e);
      if (wasmDepth > 1 || apiDepth > 0) throw e;
      return NOTHING; // from the event loop: the promises it served are rejected already
    } finally {
      wasmDepth--;
    }
  };
}

/** Marks `inst` stopped by exception `e` and rejects its calls still running. */
function stop(inst, e) {
  inst.stopped = { error: e, words: lastWords(inst) };
  for (const reject of inst.pending) reject(inst);
  inst.pending.clear();
}

/**
 * What the module wrote down before it stopped (src/bindings/heap.rs, `lastWords`): what ran
 * out or the panic's message, and the configuration block it was working on.
 */
function lastWords(inst) {
  try {
    if (!inst.lastWords) return { what: "", site: "" };
    const bytes = new Uint8Array(inst.memory.buffer);
    const text = (at) => {
      const len = new DataView(inst.memory.buffer).getUint32(at, true);
      return new TextDecoder().decode(bytes.subarray(at + 4, at + 4 + Math.min(len, LAST_WORDS_BYTES)));
    };
    return { what: text(inst.lastWords), site: text(inst.lastWords + 4 + LAST_WORDS_BYTES) };
  } catch {
    return { what: "", site: "" };
  }
}

/** The size of each text buffer of heap.rs's `LastWords`. */
const LAST_WORDS_BYTES = 508;

/** The diagnostic of a stopped instance, for the call `api` ("planning", ...). */
function stoppedDiagnostic(inst, api) {
  const { error, words } = inst.stopped;
  const message = String(error?.message ?? error);
  // The site: "file\tline\tcolumn\tbyte\tend line\tend column\tend byte\twhat" (heap.rs).
  const [filename, ...rest] = words.site.split("\t");
  const n = rest.slice(0, 6).map(Number);
  const site = rest[6] ?? "";
  const range = filename && n.length === 6 && n.every(Number.isInteger)
    ? { filename, start: { line: n[0], column: n[1], byte: n[2] }, end: { line: n[3], column: n[4], byte: n[5] } }
    : undefined;
  const where = site ? ` ${site}` : "";
  // Rust's "capacity overflow": a collection asked for more than wasm32's 2 GiB allocation limit.
  const outOfMemory = /allocation .* failed|out of memory|capacity overflow/i.test(words.what) || /out of memory|Cannot allocate|could not allocate/i.test(message);
  const stack = error instanceof RangeError && /call stack/i.test(message);
  let summary, cause;
  if (outOfMemory) {
    summary = "Out of memory";
    cause = `the WebAssembly module ran out of memory${where ? ` at${where}` : ""} (${words.what || message}; a wasm32 module's memory ends at 4 GiB)`;
  } else if (stack) {
    summary = "Stack overflow";
    cause = `the WebAssembly module ran out of stack${where ? ` at${where}` : ""} (${message})`;
  } else {
    summary = "Internal error";
    cause = `the WebAssembly module stopped${where ? ` at${where}` : ""}: ${words.what || `${error?.name ?? "Error"}: ${message}`}`;
  }
  const detail = `While ${api}, ${cause}. This is a limit of tfgraph, not an error in the configuration. ` +
    "The module instance was replaced: the next call starts afresh (Graph and Plan objects made before are gone).";
  return { severity: "error", summary, detail, ...(range ? { range } : {}) };
}

/**
 * Wasm memory grows and never shrinks: after a call that took it past this, the instance is
 * replaced as soon as nothing made in it is reachable (no Graph or Plan object, no call
 * running), so a long-lived page keeps at most this much between large runs, not its largest
 * run's memory. Replacing costs an instantiation of the compiled module (milliseconds).
 */
const RETIRE_BYTES = 256 * 1024 * 1024;

/** Whether `inst` holds memory nothing needs any more. */
function idleAndLarge(inst) {
  if (inst.memory.buffer.byteLength <= RETIRE_BYTES || inst.pending.size > 0) return false;
  for (const ref of inst.objects) {
    if (ref.deref() === undefined) inst.objects.delete(ref);
    else return false;
  }
  return true;
}

/** Notes an object made in `inst` (see `idleAndLarge`). */
function made(inst, object) {
  inst.objects.add(new WeakRef(object));
  return object;
}

/** The live instance, replacing a stopped one with a fresh instance of the same compiled module. */
function instance() {
  checkInitialised();
  if (live.stopped || idleAndLarge(live)) {
    const copy = bindings(hooks);
    copy.initSync({ module: live.module }); // hooks.exports sets `live`
    raw = copy;
    raw.setEncodingLoader(encodingTables);
    live.lastWords = raw.lastWords?.() ?? 0;
  }
  return live;
}

/** Calls into the module synchronously for `api`: a stop there throws TfgraphError. */
function call(api, f) {
  const inst = instance();
  // A new call's site is its own: a stop before it names a block must not name the last call's.
  if (apiDepth === 0 && inst.lastWords) new DataView(inst.memory.buffer).setUint32(inst.lastWords + 4 + LAST_WORDS_BYTES, 0, true);
  apiDepth++;
  try {
    return f();
  } catch (e) {
    if (inst.stopped) throw new TfgraphError([stoppedDiagnostic(inst, api)]);
    throw e;
  } finally {
    apiDepth--;
  }
}

/** `promise` of a call into `inst`, rejected with TfgraphError if the instance stops first. */
function settles(inst, api, promise, onStop) {
  return new Promise((resolve, reject) => {
    const stopped = () => {
      const error = new TfgraphError([stoppedDiagnostic(inst, api)]);
      onStop?.(error);
      reject(error);
    };
    if (inst.stopped) return stopped();
    inst.pending.add(stopped);
    promise.then(
      (v) => {
        // A handle resolved stays the instance's until the object made of it is collected.
        if (typeof v === "object" && v !== null) made(inst, v);
        inst.pending.delete(stopped);
        resolve(v);
      },
      (e) => (inst.pending.delete(stopped), reject(e)),
    );
  });
}

/** Throws when `inst` (the instance an object was made in) is not the live one. */
function sameInstance(inst, what) {
  if (inst.stopped || inst !== live) {
    throw new TfgraphError([{
      severity: "error",
      summary: `${what} is gone`,
      detail: `This ${what} was made by a tfgraph module instance that has since stopped (${inst.stopped ? stoppedDiagnostic(inst, "running").summary.toLowerCase() : "replaced"}); make it again.`,
    }]);
  }
}

/** The module's memory now, in bytes (wasm memory grows and never shrinks). */
export function memoryBytes() {
  return live?.memory?.buffer?.byteLength ?? 0;
}

/**
 * Loads the WebAssembly module, once: later calls return the first call's promise. `source` is
 * the `.wasm` file's URL (by default the one beside this file, which bundlers emit as an asset),
 * a Response or promise of one, its bytes, or a compiled WebAssembly.Module. A file: URL is read
 * from disk (Node, Deno, Bun); anything else is fetched and compiled while it streams in.
 */
export function init(source) {
  if (initialised) return Promise.resolve();
  pending ??= (async () => {
    let input = source ?? new URL("./tfgraph_bg.wasm", import.meta.url);
    if (input instanceof URL && input.protocol === "file:") input = readFileSync(input);
    await raw.default({ module_or_path: input });
    finish();
  })().catch((e) => {
    pending = null;
    throw e;
  });
  return pending;
}

/** Loads the WebAssembly module synchronously from its bytes or a compiled WebAssembly.Module. */
export function initSync(source) {
  if (initialised) return;
  raw.initSync({ module: source });
  finish();
}

/** Reads a local file without importing `node:fs` (which browser bundlers refuse to resolve). */
function readFileSync(url) {
  const fs = globalThis.process?.getBuiltinModule?.("node:fs");
  if (fs) return fs.readFileSync(url);
  if (globalThis.Deno) return globalThis.Deno.readFileSync(url);
  throw new Error(`tfgraph: cannot read ${url} in this runtime: pass the .wasm file's bytes to init()`);
}

function checkInitialised() {
  if (!initialised) {
    throw new Error(
      'tfgraph: the WebAssembly module is not loaded yet: `await init()` first (from "tfgraph/init"), ' +
        'or import "tfgraph", which loads it on import',
    );
  }
}

/** How many errors a TfgraphError's message lists before "and N more". */
const MESSAGE_ERRORS = 3;

/** `main.tf:3:5: summary`, or just the summary when the diagnostic has no range. */
function describe(diagnostic) {
  const r = diagnostic.range;
  return r ? `${r.filename}:${r.start.line}:${r.start.column}: ${diagnostic.summary}` : diagnostic.summary;
}

/**
 * Thrown when the user's input has errors. `diagnostics` holds every diagnostic (errors and
 * warnings, Terraform's JSON shape); `config` what could be loaded despite the errors, when the
 * operation produces one.
 */
export class TfgraphError extends Error {
  constructor(diagnostics, config = null) {
    const errors = diagnostics.filter((d) => d.severity === "error");
    const lines = errors.slice(0, MESSAGE_ERRORS).map(describe);
    if (errors.length > MESSAGE_ERRORS) lines.push(`(and ${errors.length - MESSAGE_ERRORS} more)`);
    const head = errors.length === 1 ? "1 error" : `${errors.length} errors`;
    super(`tfgraph: ${head}:\n  ${lines.join("\n  ")}`);
    this.name = "TfgraphError";
    this.diagnostics = diagnostics;
    this.config = config;
  }
}

/** Where a loaded configuration came from, so buildGraph can take the configuration itself. */
const SOURCE = Symbol("tfgraph.source");
/** The directory a files object was read from (set by `tfgraph/read-dir`'s readConfigDir). */
const DIR = Symbol.for("tfgraph.dir");

/**
 * The working directory Terraform would run in: `options.cwd`, else the directory the files
 * were read from joined with the root module's folder (`path.cwd`, `abspath`).
 */
function cwdOf(files, options, root) {
  if (options?.cwd !== undefined && options?.cwd !== null) return options.cwd;
  const dir = files?.[DIR];
  if (typeof dir !== "string") return undefined;
  return root ? `${dir.replace(/\/+$/, "")}/${root}` : dir;
}

/**
 * The options every export shares, each of its type (a TypeError naming the option otherwise,
 * not silence): `options` an object, `cwd` a string, `variables` an object of name to value,
 * `state` a state object or its JSON text.
 */
function checkOptions(api, options) {
  if (options === undefined || options === null) return;
  if (typeof options !== "object" || Array.isArray(options)) throw new TypeError(`${api}: \`options\` must be an object`);
  if (options.cwd !== undefined && options.cwd !== null && typeof options.cwd !== "string") {
    throw new TypeError(`${api}: \`options.cwd\` must be a string`);
  }
  const v = options.variables;
  if (v !== undefined && v !== null && (typeof v !== "object" || Array.isArray(v))) {
    throw new TypeError(`${api}: \`options.variables\` must be an object of variable name to value`);
  }
  const state = options.state;
  if (state !== undefined && state !== null && typeof state !== "string" && (typeof state !== "object" || Array.isArray(state))) {
    throw new TypeError(`${api}: \`options.state\` must be a state v4 object or its JSON text`);
  }
}

const hasError = (diagnostics) => diagnostics.some((d) => d.severity === "error");

// ---- The tape: how loadConfig's result crosses from wasm (src/bindings/tape.rs) ----------------------
//
// `words` holds one u32 per value: a 4-bit tag and a 28-bit payload (all ones: the payload is
// the next word). Strings are sliced in order off `text`; objects take their keys from
// `shapes`. Decoding gives exactly what JSON.parse of the same value's JSON gives
// (tests/js/tape.test.mjs), several times faster: no text to scan, and each distinct short
// string made once.

const TAG_NUM = 0, TAG_STR = 1, TAG_ARR = 2, TAG_OBJ = 3, TAG_NULL = 4, TAG_FALSE = 5, TAG_TRUE = 6;
const TAG_STR_AGAIN = 7, TAG_STR_KEEP = 8, TAG_MAP = 9, TAG_F64 = 10;
const PAYLOAD = 0x0fffffff;

/**
 * Object builders for the most frequent shapes (positions, ranges, references, expressions,
 * resources): a literal makes each object in one step with its final layout, where building
 * key by key costs a keyed store each. Used only when a shape's keys are exactly these; any
 * other shape (and any of these, should the model change) is built key by key.
 */
const BUILDERS = new Map([
  ["line,column,byte", (v) => ({ line: v(), column: v(), byte: v() })],
  ["filename,start,end", (v) => ({ filename: v(), start: v(), end: v() })],
  ["subject,kind,traversal,range,in", (v) => ({ subject: v(), kind: v(), traversal: v(), range: v(), in: v() })],
  ["source,range,references", (v) => ({ source: v(), range: v(), references: v() })],
  [
    "address,mode,type,name,provider,count,for_each,depends_on,lifecycle,provisioners,connection,references,range",
    (v) => ({
      address: v(), mode: v(), type: v(), name: v(), provider: v(), count: v(), for_each: v(), depends_on: v(),
      lifecycle: v(), provisioners: v(), connection: v(), references: v(), range: v(),
    }),
  ],
  ["local_name,alias,fqn,implied,range", (v) => ({ local_name: v(), alias: v(), fqn: v(), implied: v(), range: v() })],
  [
    "create_before_destroy,prevent_destroy,ignore_changes,replace_triggered_by,preconditions,postconditions",
    (v) => ({
      create_before_destroy: v(), prevent_destroy: v(), ignore_changes: v(), replace_triggered_by: v(),
      preconditions: v(), postconditions: v(),
    }),
  ],
]);

function builder(keys) {
  const known = BUILDERS.get(keys.join(","));
  if (known) return known;
  return (v) => {
    const o = {};
    for (const k of keys) define(o, k, v());
    return o;
  };
}

/** `o[k] = value` as JSON.parse does it: an own data property, even for `__proto__`. */
function define(o, k, value) {
  if (k === "__proto__") Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });
  else o[k] = value;
}

function decodeTape(words, text, shapes) {
  const build = JSON.parse(shapes).map(builder);
  const kept = [];
  const f64 = new Float64Array(1);
  const f64Words = new Uint32Array(f64.buffer);
  let w = 0;
  let t = 0;
  const value = () => {
    const word = words[w++];
    let p = word & PAYLOAD;
    if (p === PAYLOAD) p = words[w++];
    switch (word >>> 28) {
      case TAG_NUM:
        return p;
      case TAG_STR:
        return text.slice(t, (t += p));
      case TAG_STR_KEEP: {
        const s = text.slice(t, (t += p));
        kept.push(s);
        return s;
      }
      case TAG_STR_AGAIN:
        return kept[p];
      case TAG_OBJ:
        return build[p](value);
      case TAG_ARR: {
        const a = [];
        for (let i = 0; i < p; i++) a.push(value());
        return a;
      }
      case TAG_NULL:
        return null;
      case TAG_FALSE:
        return false;
      case TAG_TRUE:
        return true;
      case TAG_MAP: {
        const o = {};
        for (let i = 0; i < p; i++) {
          const k = value();
          define(o, k, value());
        }
        return o;
      }
      case TAG_F64:
        f64Words[0] = words[w++];
        f64Words[1] = words[w++];
        return f64[0];
      default:
        throw new Error(`tfgraph: internal error: bad tape word ${word} at ${w - 1}`);
    }
  };
  return value();
}

/**
 * Loads a Terraform configuration from in-memory files (`{ "main.tf": "..." }`, slash-separated
 * relative paths). Returns the configuration with its warnings in `diagnostics`; throws
 * TfgraphError when there is an error, and TypeError when the arguments have the wrong types.
 */
export function loadConfig(files, options = {}) {
  checkInitialised();
  checkOptions("loadConfig", options);
  const { config, diagnostics } = decodeTape(...call("loading the configuration", () => raw.loadConfigTape(files, options)));
  if (hasError(diagnostics)) {
    throw new TfgraphError(diagnostics, config);
  }
  const loaded = { ...config, diagnostics };
  Object.defineProperty(loaded, SOURCE, { value: { files, root: options.root, cwd: options.cwd } });
  return loaded;
}

/**
 * One of Terraform's graphs. Built by buildGraph; queries and renderings are computed in wasm
 * on demand. `free()` (or `using`) releases its memory early; otherwise the garbage collector does.
 */
export class Graph {
  #handle;
  #inst;

  constructor(handle, loadDiagnostics, inst = live) {
    this.#handle = handle;
    this.#inst = inst;
    made(inst, this);
    /** Every diagnostic: loading and input warnings, then the build's (one error per cycle). */
    this.diagnostics = [...loadDiagnostics, ...this.#use((h) => h.diagnostics())];
  }

  /** Calls the handle in the instance it was made in (an error once that instance stopped). */
  #use(f) {
    sameInstance(this.#inst, "Graph");
    return call("querying a graph", () => f(this.#handle));
  }

  /** Each transformer that ran, in order: name, reason, counts (and its text with traceSteps). */
  get steps() { return this.#use((h) => h.steps()); }
  nodes() { return JSON.parse(this.#use((h) => h.nodes())); }
  /** Edges `from -> to`: `from` depends on `to`; `why` lists every reason, each with a sentence. */
  edges() { return JSON.parse(this.#use((h) => h.edges())); }
  /** Edges transitive reduction removed: the dependency still holds through other edges. */
  impliedEdges() { return JSON.parse(this.#use((h) => h.impliedEdges())); }
  /** Exactly Terraform's `Graph.String()`. */
  toString() { return this.#use((h) => h.toText()); }
  /** `type: "resources"` (terraform graph's default since 1.7) or `"full"` (`-type=plan`). */
  toDot({ type = "resources", drawCycles = false } = {}) {
    const resources = checkType(type);
    return this.#use((h) => h.toDot(resources, Boolean(drawCycles)));
  }
  toMermaid({ type = "resources", drawCycles = false } = {}) {
    const resources = checkType(type);
    return this.#use((h) => h.toMermaid(resources, Boolean(drawCycles)));
  }
  dependencies(name) { return this.#use((h) => h.dependencies(name)); }
  dependents(name) { return this.#use((h) => h.dependents(name)); }
  ancestors(name) { return this.#use((h) => h.ancestors(name)); }
  descendants(name) { return this.#use((h) => h.descendants(name)); }
  /** Why `from` depends on `to`, one sentence per reason. */
  explain(from, to) { return this.#use((h) => h.explain(from, to)); }
  /** Each strongly connected component of more than one node (empty for a valid graph). */
  cycles() { return this.#use((h) => h.cycles()); }
  free() {
    // A stopped instance's memory is gone with it: nothing to free.
    if (this.#inst === live && !this.#inst.stopped) call("freeing a graph", () => this.#handle.free());
  }
  [Symbol.dispose ?? Symbol.for("Symbol.dispose")]() { this.free(); }
}

function checkType(type) {
  if (type !== "resources" && type !== "full") {
    throw new TypeError(`tfgraph: graph type must be "resources" or "full", not ${JSON.stringify(type)}`);
  }
  return type === "resources";
}

/**
 * State and changes cross into wasm as JSON text: `JSON.stringify` here and one parse in wasm
 * are several times cheaper than converting a large object property by property. Text (a
 * `terraform.tfstate` as read from disk) passes as it is.
 */
const asJsonText = (v) => (v === undefined || v === null || typeof v === "string" ? v : JSON.stringify(v));

/**
 * `options.state` as the JSON text the engine reads. A state object JSON cannot write (nested
 * past V8's stack, longer than its longest string) is refused as Terraform refuses a state file
 * it cannot read, with a diagnostic; one that is not JSON data at all (circular, a BigInt) is
 * misuse, a TypeError.
 */
function stateText(state, api) {
  try {
    return asJsonText(state);
  } catch (e) {
    if (!(e instanceof RangeError)) throw new TypeError(`${api}: \`options.state\` cannot be written as JSON: ${e.message}`);
    throw new TfgraphError([{
      severity: "error",
      summary: "Unsupported state file format",
      detail: `The state could not be written as JSON text for the engine to read: ${e.message}.`,
    }]);
  }
}

/**
 * Builds the graph Terraform builds for `operation` ("plan" by default, "destroy", "apply",
 * "validate") and `mode` ("normal" by default, "destroy": apply a destroy plan) from files or
 * from a configuration returned by loadConfig. A graph with cycles is
 * still returned (its `diagnostics` hold one error per cycle); errors in the configuration,
 * state or changes throw TfgraphError.
 */
export function buildGraph(filesOrConfig, options = {}) {
  checkInitialised();
  checkOptions("buildGraph", options);
  options ??= {};
  const source = filesOrConfig?.[SOURCE];
  const files = source ? source.files : filesOrConfig;
  const root = options.root ?? source?.root;
  const state = stateText(options.state, "buildGraph");
  const changes = asJsonText(options.changes);
  const cwd = cwdOf(files, { cwd: options.cwd ?? source?.cwd }, root);
  return call("building the graph", () => {
    const handle = raw.buildGraphRaw(files, { ...options, root, cwd, state, changes });
    const loadDiagnostics = handle.loadDiagnostics();
    if (hasError(loadDiagnostics)) {
      handle.free();
      throw new TfgraphError(loadDiagnostics);
    }
    return new Graph(handle, loadDiagnostics);
  });
}

/**
 * Evaluates one expression in the root module's scope, as `terraform console` does: input
 * variables from `options.variables` (like -var), tfvars files among the files and defaults;
 * locals; module outputs; resource attributes from `options.state` (unknown without it).
 * Returns the value as JSON-compatible data with `unknown` / `sensitive` marks in the shape of
 * plan JSON's `after_unknown` / `after_sensitive`, its exact `jsonencode` text, its `type()` and
 * its console rendering. Errors throw TfgraphError.
 */
export function evaluate(filesOrConfig, expression, options = {}) {
  checkInitialised();
  if (typeof expression !== "string") throw new TypeError("evaluate: `expression` must be a string");
  checkOptions("evaluate", options);
  options ??= {};
  const source = filesOrConfig?.[SOURCE];
  const files = source ? source.files : filesOrConfig;
  const root = options.root ?? source?.root;
  const evalOptions = {
    root,
    cwd: cwdOf(files, { cwd: options.cwd ?? source?.cwd }, root),
    module: options.module,
    variables: asJsonText(options.variables),
    state: stateText(options.state, "evaluate"),
  };
  const result = JSON.parse(call("evaluating the expression", () => raw.evaluateRaw(files, expression, evalOptions)));
  if (hasError(result.diagnostics)) throw new TfgraphError(result.diagnostics);
  return result;
}

/**
 * Whether console lines entered so far leave a bracket, a heredoc or a template sequence open,
 * so that a console reads another line before it evaluates them (terraform console's rule; an
 * empty last line always ends the entry).
 */
export function expressionContinues(lines) {
  checkInitialised();
  if (!Array.isArray(lines) || lines.some((l) => typeof l !== "string")) {
    throw new TypeError("expressionContinues: `lines` must be an array of strings");
  }
  return call("reading console input", () => raw.expressionContinues(lines));
}

/**
 * Runs Terraform's test files (`*.tftest.hcl` in the root and in `tests/`, or
 * `options.testDirectory`) as `terraform test` does, against the in-memory mocks: each file's
 * and run's status, diagnostics, outputs and state, the text `terraform test` prints (`stdout`,
 * `stderr`), its `-json` lines (`json`), its JUnit XML (`junit`) and `exitCode`. Each event
 * (a file or run starting, completing, tearing down) reaches `options.onEvent` as it happens.
 */
export async function test(files, options = {}) {
  checkInitialised();
  const onEvent = options.onEvent;
  if (onEvent !== undefined && typeof onEvent !== "function") throw new TypeError("test: `options.onEvent` must be a function");
  checkLimits(options.limits);
  const request = JSON.stringify({
    variables: options.variables ?? {},
    varFiles: options.varFiles ?? {},
    filter: options.filter ?? [],
    testDirectory: options.testDirectory,
    verbose: !!options.verbose,
    limits: options.limits ?? undefined,
  });
  // Through `call`: a trap or an allocation failure while the tests run rejects with a
  // TfgraphError saying what ran out, and the next call gets a fresh instance (issue #26).
  const text = call("running tests", () => raw.runTestsRaw(files, request, onEvent ? (text) => onEvent(JSON.parse(text)) : undefined));
  return JSON.parse(text);
}

/**
 * Walks a DAG as Terraform does: each node once all it depends on has finished, at most
 * `parallelism` (10) visits at a time; a failure skips its dependents. `dag` is a Graph or
 * `{ nodes, edges: [from, to][] }` where `from` depends on `to`.
 */
export async function walk(dag, visit, options) {
  checkInitialised();
  if (dag instanceof Graph) {
    dag = { nodes: dag.nodes().map((n) => n.name), edges: dag.edges().map((e) => [e.from, e.to]) };
  }
  try {
    const inst = instance();
    return await settles(inst, "walking the graph", call("walking the graph", () => raw.walk(dag, visit, options)));
  } catch (e) {
    // The scheduler reports bad input as an Error named TfgraphError; make it ours.
    if (e?.name === "TfgraphError" && Array.isArray(e.diagnostics) && !(e instanceof TfgraphError)) {
      throw new TfgraphError(e.diagnostics);
    }
    throw e;
  }
}

// ---- plan, apply, destroy (src/bindings/engine) ---------------------------------------------

/** The handle of a Plan: its wasm data, and the options it was made with (for `apply(plan)`). */
const PLAN = Symbol("tfgraph.plan");

/** What the engine's options cross as: state, variables and mock as JSON text. */
function engineOptions(options) {
  if (options !== undefined && options !== null && typeof options !== "object") {
    throw new TypeError("tfgraph: `options` must be an object");
  }
  const o = options ?? {};
  // Address lists: an array, or one comma-separated string the engine splits outside index
  // brackets (`a.b["x,y"]` is one address), as the mock splits MOCK_FAIL_ADDRESS.
  const addressList = (v) => v === undefined || v === null || typeof v === "string" || (Array.isArray(v) && v.every((a) => typeof a === "string"));
  for (const key of ["targets", "replace"]) {
    if (!addressList(o[key])) throw new TypeError(`tfgraph: \`options.${key}\` must be an array of address strings or a comma-separated string`);
  }
  if (!addressList(o.mock?.failAddresses)) {
    throw new TypeError("tfgraph: `options.mock.failAddresses` must be an array of address strings or a comma-separated string");
  }
  checkMock(o.mock);
  checkLimits(o.limits);
  checkOptions("tfgraph", o);
  if (o.signal !== undefined && o.signal !== null && !(typeof o.signal?.aborted === "boolean" && typeof o.signal.addEventListener === "function")) {
    throw new TypeError("tfgraph: `options.signal` must be an AbortSignal");
  }
  return {
    ...o,
    targets: o.targets ?? undefined,
    replace: o.replace ?? undefined,
    state: stateText(o.state, "tfgraph"),
    variables: o.variables === undefined || o.variables === null ? undefined : JSON.stringify(o.variables),
    mock: o.mock === undefined || o.mock === null ? undefined : JSON.stringify(o.mock),
  };
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** `options.mock`'s knobs, each of its type (index.d.ts's MockOptions); unknown keys are left alone. */
function checkMock(mock) {
  if (mock === undefined || mock === null) return;
  if (!isObject(mock)) throw new TypeError("tfgraph: `options.mock` must be an object of the mock's settings");
  const number = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0;
  const whole = (v) => Number.isSafeInteger(v) && v >= 0;
  const strings = (v) => Array.isArray(v) && v.every((x) => typeof x === "string");
  const kinds = {
    delayMs: [number, "a number of milliseconds >= 0"],
    jitterMs: [number, "a number of milliseconds >= 0"],
    rateLimit: [(v) => number(v) && v <= 1, "a probability between 0 and 1"],
    seed: [whole, "a whole number >= 0"],
    maxRetries: [whole, "a whole number >= 0"],
    delayByName: [(v) => isObject(v) && Object.values(v).every(number), "an object of name to milliseconds"],
    failNames: [strings, "an array of names"],
    failOps: [strings, 'an array of operations ("create", "update", "delete")'],
  };
  for (const [key, [ok, what]] of Object.entries(kinds)) {
    if (mock[key] !== undefined && mock[key] !== null && !ok(mock[key])) {
      throw new TypeError(`tfgraph: \`options.mock.${key}\` must be ${what}, not ${JSON.stringify(mock[key]) ?? typeof mock[key]}`);
    }
  }
}

/** The limits a plan may raise (src/eval/limits.rs): each a whole number >= 1. */
const LIMITS = ["instances", "moduleInstances", "elements", "bytes"];

function checkLimits(limits) {
  if (limits === undefined || limits === null) return;
  if (!isObject(limits)) throw new TypeError(`tfgraph: \`options.limits\` must be an object ({ ${LIMITS.join(", ")} })`);
  for (const [key, v] of Object.entries(limits)) {
    if (!LIMITS.includes(key)) throw new TypeError(`tfgraph: \`options.limits.${key}\` is not a limit (${LIMITS.join(", ")})`);
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= 1)) {
      throw new TypeError(`tfgraph: \`options.limits.${key}\` must be a whole number >= 1, not ${JSON.stringify(v)}`);
    }
  }
}

/**
 * Defines `o[key]` as an own enumerable property whose value `compute` makes on first read;
 * from then on (or once assigned) it is a plain data property, as if it had been set eagerly.
 */
function lazyProperty(o, key, compute) {
  const settle = (value) => Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(o, key, {
    get() {
      const value = compute();
      settle(value);
      return value;
    },
    set: settle,
    enumerable: true,
    configurable: true,
  });
}

/**
 * A plan: what `terraform plan` decided. `changes` and `diagnostics` are plain data; `toJSON()`
 * is `terraform show -json`'s document, `toString()` `terraform plan`'s text. Apply it with
 * `apply(plan)`. `changes`, `events`, the JSON and the text are made in wasm when first read
 * (an apply of a large plan reads none of them), each time the same.
 */
export class Plan {
  constructor(handle, options, inst = live) {
    // `use`: the handle, in the instance it was made in (an error once that instance stopped).
    const use = (f) => {
      sameInstance(inst, "Plan");
      if (this[PLAN].freed) throw new TfgraphError([{ severity: "error", summary: "Plan is freed", detail: "This Plan's memory was released with free(); make it again." }]);
      return call("reading a plan", () => f(handle));
    };
    Object.defineProperty(this, PLAN, { value: { handle, options, inst, use, freed: false } });
    made(inst, this);
    lazyProperty(this, "changes", () => JSON.parse(use((h) => h.changes())));
    this.diagnostics = JSON.parse(use((h) => h.diagnostics()));
    this.errored = use((h) => h.errored());
    this.hasChanges = use((h) => h.hasChanges());
    this.destroy = use((h) => h.destroy());
    lazyProperty(this, "events", () => JSON.parse(use((h) => h.events())));
  }
  toJSON() { return JSON.parse(this[PLAN].use((h) => h.json())); }
  toString() { return this[PLAN].use((h) => h.text()); }
  /**
   * Releases the plan's wasm memory now (its configuration, prior state, changes, renderings).
   * Otherwise that happens only when the garbage collector collects the Plan, which wasm memory
   * does not prompt: a process that keeps making large plans without freeing them grows run over
   * run (bench/RESULTS.md "limits2"). Reading or applying a freed Plan is a TfgraphError.
   */
  free() {
    const p = this[PLAN];
    if (p.freed) return;
    p.freed = true;
    // A stopped or replaced instance's memory is gone with it: nothing to free.
    if (p.inst === live && !p.inst.stopped) call("freeing a plan", () => p.handle.free());
  }
  [Symbol.dispose ?? Symbol.for("Symbol.dispose")]() { this.free(); }
}

function filesOf(filesOrConfig) {
  const source = filesOrConfig?.[SOURCE];
  return source ? [source.files, source.root, source.cwd] : [filesOrConfig, undefined, undefined];
}

/**
 * Plans as `terraform plan` does, against the built-in mock provider or JS providers.
 * Resolves to a Plan; problems in the configuration, a cycle or an unknown count are in its
 * `diagnostics` (`errored`). Rejects only for misuse (TypeError).
 */
export async function plan(filesOrConfig, options = {}) {
  checkInitialised();
  const [files, root, cwd] = filesOf(filesOrConfig);
  const rawOptions = engineOptions(options);
  const planRoot = options?.root ?? root;
  const planOptions = { ...rawOptions, root: planRoot, cwd: cwdOf(files, { cwd: options?.cwd ?? cwd }, planRoot) };
  const inst = instance();
  const planning = call("planning", () => raw.enginePlan(files, planOptions));
  const handle = await settles(inst, "planning", planning);
  return new Plan(handle, options ?? {}, inst);
}

/** A fresh state lineage, as Terraform makes one (a random UUID). */
function newLineage() {
  return globalThis.crypto?.randomUUID?.() ?? "00000000-0000-0000-0000-000000000000";
}

/**
 * Applies as `terraform apply` does: files (or a configuration) are planned first; a Plan is
 * applied exactly, refused when `options.state` is not the state it was made from. Resolves
 * to `{ state, diagnostics, report, plan }`; never rejects for the user's input or a
 * provider's failure (see `diagnostics`).
 */
export async function apply(input, options = {}) {
  checkInitialised();
  let p = input;
  let opts = options ?? {};
  if (input instanceof Plan) {
    // The plan's providers and mock settings, unless given again.
    opts = { ...input[PLAN].options, state: undefined, ...opts };
  }
  const onEvent = withWalkEvents(opts.onEvent, opts.onWalkEvent);
  if (!(input instanceof Plan)) p = await plan(input, opts);
  const rawOptions = engineOptions(opts);
  // The last state passed to onState: what a stopped apply had written (issue #26).
  let last = null;
  const onState = opts.onState;
  const applyOptions = {
    state: input instanceof Plan && "state" in (options ?? {}) ? rawOptions.state ?? null : undefined,
    providers: opts.providers,
    parallelism: opts.parallelism,
    // The plan's limits (or those given again) hold for what the apply evaluates.
    limits: opts.limits,
    signal: opts.signal,
    onEvent,
    onState: typeof onState === "function"
      ? (state, text) => {
          last = text;
          return onState(state, text);
        }
      : onState,
    lineage: newLineage(),
  };
  const { inst, handle } = p[PLAN];
  p[PLAN].use(() => null); // a Plan of a stopped instance, or freed: a TfgraphError
  const applying = call("applying", () => raw.engineApply(handle, applyOptions));
  const [stateText, rest] = await settles(inst, "applying", applying, (error) => {
    // The state the apply had written when it stopped, as onState last had it.
    if (last !== null) {
      error.stateText = last;
      error.state = JSON.parse(last);
    }
  });
  // `stateText`: the engine's text of the state, its numbers exact (a JS number keeps 53 bits).
  const result = { state: JSON.parse(stateText), stateText, ...JSON.parse(rest) };
  result.plan = p;
  return result;
}

/**
 * The one callback the engine calls during an apply: `onEvent`'s provider operations, and, when
 * `onWalkEvent` is given, the walk's node events (`{ type, node, time }`, told apart by `node`),
 * which the engine sends only when the callback it gets carries `walkEvents`.
 */
function withWalkEvents(onEvent, onWalkEvent) {
  if (onWalkEvent === undefined || onWalkEvent === null) return onEvent;
  if (typeof onWalkEvent !== "function") throw new TypeError("tfgraph: `options.onWalkEvent` must be a function");
  // A malformed onEvent goes through as it is, for the engine to refuse.
  if (onEvent !== undefined && onEvent !== null && typeof onEvent !== "function") return onEvent;
  const both = (e) => (e.node === undefined ? onEvent?.(e) : onWalkEvent(e));
  both.walkEvents = true;
  return both;
}

/** `terraform destroy`: a destroy plan of `options.state`, applied. */
export async function destroy(filesOrConfig, options = {}) {
  return apply(filesOrConfig, { ...(options ?? {}), destroy: true });
}
