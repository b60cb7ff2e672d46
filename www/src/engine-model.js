// Pure helpers for the plan/apply panel, on plain data (never the package): which drawn node an
// engine event animates, how a node's several instances add up to one colour, the log's line
// for an event (Terraform's, written by the engine), the plan's changes as `terraform plan` symbolises them, the
// panel's settings (parallelism, targets and the mock's knobs), which planned instances an
// address names, and the apply's timeline.

import { resourceKey as withoutLastKey } from "./model.js";

/** `module.a[0].x.y["k"]` → `module.a.x.y`: every instance key dropped. */
const withoutKeys = (address) => address.replace(/\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]/g, "");

/**
 * The drawn node an event belongs to, or null: the apply graph's own node for the operation
 * (`ADDR (destroy)`, `ADDR (destroy deposed KEY)`, `ADDR`), else the resource's node in the
 * resources view or the plan graph (`x.y`, `x.y (expand)`).
 *
 * @param {Set<string>} names  the drawn nodes
 * @param {{ address: string, operation: string, deposed: string | null }} ev
 */
export function nodeForEvent(names, ev) {
  const a = ev.address;
  const candidates = [];
  if (ev.deposed) candidates.push(`${a} (destroy deposed ${ev.deposed})`);
  if (ev.operation === "delete") candidates.push(`${a} (destroy)`);
  candidates.push(a, withoutLastKey(a), withoutKeys(a), `${withoutKeys(a)} (expand)`);
  const found = candidates.find((c) => names.has(c));
  if (ev.deposed && found !== candidates[0]) {
    // The apply graph names a deposed object by a key of its own (derived from the address, as
    // the graph is built before the apply deposes anything): the address's deposed destroy node.
    const prefix = `${a} (destroy deposed `;
    for (const n of names) if (n.startsWith(prefix)) return n;
  }
  return found ?? null;
}

/**
 * The colours of nodes that stand for several operations (a resource with count, a
 * replacement's delete and create): running while any runs, failed once any failed, skipped
 * or cancelled when all of its operations ended so, else done.
 */
export function createNodeStates() {
  const nodes = new Map(); // name -> { running, done, failed, skipped, cancelled }
  return {
    /** Records an event for node `name`; returns the node's state now. */
    record(name, kind) {
      const s = nodes.get(name) ?? { running: 0, done: 0, failed: 0, skipped: 0, cancelled: 0 };
      nodes.set(name, s);
      if (kind === "start") s.running++;
      else {
        if (kind === "finish" || kind === "fail") s.running = Math.max(0, s.running - 1);
        s[{ finish: "done", fail: "failed", skip: "skipped", cancel: "cancelled" }[kind]]++;
      }
      return this.state(name);
    },
    state(name) {
      const s = nodes.get(name);
      if (!s) return null;
      if (s.failed) return "failed";
      if (s.running) return "running";
      if (s.done) return "done";
      return s.cancelled ? "cancelled" : "skipped";
    },
    entries() {
      return [...nodes.keys()].map((n) => [n, this.state(n)]);
    },
  };
}

/** Whether an instance address is a data source's. */
export const isData = (address) => /^(module\.[^.[]+(\[(?:"(?:[^"\\]|\\.)*"|[^\]"]*)\])?\.)*data\./.test(address);

/**
 * The log's line for an engine event: Terraform's progress line, which the engine writes
 * (`ev.line`, src/engine/render/progress.rs: the CLI prints the same), or for a failure the page's own
 * `ADDR: SUMMARY` (Terraform prints the error apart); null when there is neither.
 */
export function progressLine(ev) {
  if (typeof ev.line === "string") return ev.line;
  if (ev.kind === "fail") return `${ev.address}: ${ev.diagnostics?.[0]?.summary ?? "failed"}`;
  return null;
}

/** `terraform plan`'s symbol for an action list. */
export function actionSymbol(actions) {
  const a = actions.join(",");
  return { create: "+", update: "~", delete: "-", "delete,create": "-/+", "create,delete": "+/-", read: "<=", forget: ".", "no-op": " " }[a] ?? a;
}

/** The changes that do something, with their symbols, and the plan's counts. */
export function summariseChanges(changes) {
  const rows = changes.filter((c) => c.actions.join() !== "no-op").map((c) => ({ ...c, symbol: actionSymbol(c.actions) }));
  const count = (pred) => rows.filter(pred).length;
  return {
    rows,
    add: count((c) => c.actions.includes("create")),
    change: count((c) => c.actions.join() === "update"),
    destroy: count((c) => c.actions.includes("delete")),
  };
}

/**
 * The panel's settings: Terraform's -parallelism, -target and -replace, and the mock providers'
 * knobs (the package's `MockOptions`: delay, seeded jitter, transient rate limits retried with
 * backoff, failing names and addresses, the operations that fail). `DEFAULT_SETTINGS` is what a
 * new page shows; the share link carries the rest.
 */
export const DEFAULT_SETTINGS = Object.freeze({
  parallelism: 10,
  delayMs: 300,
  jitterMs: 0,
  seed: 0,
  rateLimit: 0,
  maxRetries: 4,
  failNames: [],
  failAddresses: "",
  failOps: ["create"],
  targets: "",
  replace: "",
});

const LIMITS = { parallelism: [1, 256], delayMs: [0, 10_000], jitterMs: [0, 10_000], seed: [0, 2 ** 32 - 1], rateLimit: [0, 1], maxRetries: [0, 32] };
/** The operations the page offers to fail (the mock's failOps). */
export const FAIL_OPS = ["create", "update", "delete"];

/**
 * An address list as typed: comma-separated text, passed to the package as it is (the engine
 * splits it outside index brackets, `a.b["x,y"]` being one address, and reports a bad entry);
 * an array (a share link from before) is joined.
 */
function readAddressList(value) {
  if (typeof value === "string") return value.trim();
  return Array.isArray(value) ? value.filter((s) => typeof s === "string" && s.trim()).map((s) => s.trim()).join(", ") : "";
}

/** `list` (an address list's text) with `addresses` after it, leaving out those it already has. */
export function addAddresses(list, addresses) {
  const has = (a) => new RegExp(`(?:^|,)\\s*${a.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*(?:,|$)`).test(list);
  const more = [...new Set(addresses)].filter((a) => !has(a));
  return [list.trim(), ...more].filter(Boolean).join(", ");
}

/** A list field: an array, or a comma-separated string (`split` cuts it); trimmed, non-empty, unique. */
function readList(value, split) {
  const items = typeof value === "string" ? split(value) : Array.isArray(value) ? value : [];
  return [...new Set(items.filter((s) => typeof s === "string").map((s) => s.trim()).filter(Boolean))];
}

/**
 * Settings from anything (a share link's JSON, the inputs' values): each number within its
 * bounds (whole, but for `rateLimit`, a share from 0 to 1); `failNames` a list of non-empty
 * trimmed names (a comma-separated string is split); `failAddresses`, `targets` and `replace`
 * address lists' text (readAddressList); `failOps` some of FAIL_OPS; missing or unreadable
 * fields take the defaults.
 */
export function readSettings(raw) {
  const out = { ...DEFAULT_SETTINGS, failNames: [], failOps: [...DEFAULT_SETTINGS.failOps] };
  if (!raw || typeof raw !== "object") return out;
  for (const [key, [lo, hi]] of Object.entries(LIMITS)) {
    const v = typeof raw[key] === "string" && raw[key].trim() !== "" ? Number(raw[key]) : raw[key];
    if (typeof v !== "number" || !Number.isFinite(v)) continue;
    const n = key === "rateLimit" ? v : Math.floor(v);
    out[key] = Math.min(hi, Math.max(lo, n));
  }
  out.failNames = readList(raw.failNames, (s) => s.split(","));
  for (const key of ["failAddresses", "targets", "replace"]) out[key] = readAddressList(raw[key]);
  const ops = readList(raw.failOps, (s) => s.split(",")).filter((op) => FAIL_OPS.includes(op));
  if (ops.length) out.failOps = FAIL_OPS.filter((op) => ops.includes(op));
  return out;
}

/**
 * The package's plan/apply options for settings: `{ parallelism, targets?, replace?, mock }`,
 * address lists as typed (`mock.failAddresses` too, when there is one).
 */
export function engineOptions(settings) {
  const { parallelism, targets, replace, failAddresses, ...mock } = readSettings(settings);
  const out = { parallelism };
  if (targets) out.targets = targets;
  if (replace) out.replace = replace;
  out.mock = failAddresses ? { ...mock, failAddresses } : mock;
  return out;
}

/** An address's steps: `module.m[0].x.y["k"]` → `[["module"], ["m", "[0]"], ["x"], ["y", '["k"]']]`. */
function steps(address) {
  return splitAt(address, ".").map((step) => {
    const i = step.indexOf("[");
    return i < 0 ? [step] : [step.slice(0, i), step.slice(i)];
  });
}
/** `text` cut at `sep` outside index brackets (an address into its steps, at "."). */
function splitAt(text, sep) {
  const out = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === "\\") i++;
    else if (c === '"' && depth > 0) quoted = !quoted;
    else if (!quoted && c === "[") depth++;
    else if (!quoted && c === "]") depth--;
    else if (!quoted && depth === 0 && c === sep) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/**
 * Whether `address` names the instance at `instance`: step by step the same names, and the same
 * keys wherever `address` gives one (`module.m.x.y` names `module.m[1].x.y[0]`), as the mock's
 * failAddresses match.
 */
export function addressContains(address, instance) {
  const a = steps(address);
  const b = steps(instance);
  return a.length === b.length && a.every(([name, key], i) => name === b[i][0] && (key === undefined || key === b[i][1]));
}

/** The plan's instances (current objects, not deposed ones) that `address` names, in order. */
export function instancesOf(changes, address) {
  return [...new Set(changes.filter((c) => !c.deposed && addressContains(address, c.address)).map((c) => c.address))];
}

/**
 * The apply's timeline from its events: one row per provider operation, `{ address, operation,
 * deposed, start, end, failed }` (ms since the walk began), in the order they started; an
 * operation still running when the events end (none, after an apply) is left out.
 */
export function timelineRows(events) {
  const open = new Map();
  const rows = [];
  const key = (e) => `${e.operation}\0${e.address}\0${e.deposed ?? ""}`;
  for (const e of events) {
    if (e.phase !== "apply") continue;
    if (e.kind === "start") {
      const row = { address: e.address, operation: e.operation, deposed: e.deposed ?? null, start: e.time, end: null, failed: false };
      open.set(key(e), row);
      rows.push(row);
    } else if (e.kind === "finish" || e.kind === "fail") {
      const row = open.get(key(e));
      if (!row) continue;
      open.delete(key(e));
      row.end = e.time;
      row.failed = e.kind === "fail";
    }
  }
  return rows.filter((r) => r.end !== null);
}
