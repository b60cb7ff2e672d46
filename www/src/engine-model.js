// Pure helpers for the plan/apply panel, on plain data (never the package): which drawn node an
// engine event animates, how a node's several instances add up to one colour, Terraform's
// progress line for an event, the plan's changes as `terraform plan` symbolises them, the
// panel's settings (parallelism and the mock's knobs), the names the mock fails a node by, and
// the apply's timeline.

/** `module.a[0].x.y["k"]` → `module.a.x.y`: every instance key dropped. */
const withoutKeys = (address) => address.replace(/\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]/g, "");
/** `x.y["k"]` → `x.y`: the last instance key dropped. */
const withoutLastKey = (address) => address.replace(/\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]$/, "");

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
  return candidates.find((c) => names.has(c)) ?? null;
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

const START = { create: "Creating...", update: "Modifying...", delete: "Destroying...", read: "Reading..." };
const DONE = { create: "Creation complete", update: "Modifications complete", delete: "Destruction complete", read: "Read complete" };
/** Go's time.Duration.String() for whole seconds: `0s`, `1m5s`, `1h0m0s`. */
function goDuration(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? `${h}h${m}m${s}s` : m ? `${m}m${s}s` : `${s}s`;
}
const isData = (address) => /^(module\.[^.[]+(\[[^\]]*\])?\.)*data\./.test(address);

/** Terraform's progress line for an engine event (hook_ui.go), or null for events it prints nothing for. */
export function progressLine(ev) {
  if (ev.phase === "plan" && ev.operation === "read" && !isData(ev.address)) {
    return ev.kind === "start" ? `${ev.address}: Refreshing state...${ev.priorId ? ` [id=${ev.priorId}]` : ""}` : null;
  }
  if (ev.kind === "start") {
    const who = ev.deposed ? `${ev.address} (deposed object ${ev.deposed})` : ev.address;
    const id = (ev.operation === "update" || ev.operation === "delete") && ev.priorId ? ` [id=${ev.priorId}]` : "";
    return `${who}: ${START[ev.operation]}${id}`;
  }
  if (ev.kind === "finish") {
    const id = ev.operation !== "delete" && ev.id ? ` [id=${ev.id}]` : "";
    // Terraform's elapsed time: the end and the start each rounded to the second, subtracted.
    const end = ev.time ?? ev.elapsedMs ?? 0;
    const seconds = Math.max(0, Math.round(end / 1000) - Math.round((end - (ev.elapsedMs ?? 0)) / 1000));
    return `${ev.address}: ${DONE[ev.operation]} after ${goDuration(seconds)}${id}`;
  }
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
 * The panel's settings: Terraform's -parallelism and the mock providers' knobs (the package's
 * `MockOptions`: delay, seeded jitter, transient rate limits retried with backoff, failing
 * names). `DEFAULT_SETTINGS` is what a new page shows; the share link carries the rest.
 */
export const DEFAULT_SETTINGS = Object.freeze({ parallelism: 10, delayMs: 300, jitterMs: 0, seed: 0, rateLimit: 0, maxRetries: 4, failNames: [] });

const LIMITS = { parallelism: [1, 256], delayMs: [0, 10_000], jitterMs: [0, 10_000], seed: [0, 2 ** 32 - 1], rateLimit: [0, 1], maxRetries: [0, 32] };

/**
 * Settings from anything (a share link's JSON, the inputs' values): each field a number within
 * its bounds (whole, but for `rateLimit`, a share from 0 to 1), `failNames` a list of non-empty
 * trimmed strings (a comma-separated string is split); missing or unreadable fields take the
 * defaults.
 */
export function readSettings(raw) {
  const out = { ...DEFAULT_SETTINGS, failNames: [] };
  if (!raw || typeof raw !== "object") return out;
  for (const [key, [lo, hi]] of Object.entries(LIMITS)) {
    const v = typeof raw[key] === "string" && raw[key].trim() !== "" ? Number(raw[key]) : raw[key];
    if (typeof v !== "number" || !Number.isFinite(v)) continue;
    const n = key === "rateLimit" ? v : Math.floor(v);
    out[key] = Math.min(hi, Math.max(lo, n));
  }
  const names = typeof raw.failNames === "string" ? raw.failNames.split(",") : Array.isArray(raw.failNames) ? raw.failNames : [];
  out.failNames = [...new Set(names.filter((s) => typeof s === "string").map((s) => s.trim()).filter(Boolean))];
  return out;
}

/** The package's plan/apply options for settings: `{ parallelism, mock }`. */
export function engineOptions(settings) {
  const { parallelism, failNames, ...mock } = readSettings(settings);
  return { parallelism, mock: { ...mock, failNames } };
}

/**
 * The `name` attributes the mock fails by, of the objects that drawn node `node` stands for
 * and that the plan creates (a replacement's too): the mock fails creates by default (`names`:
 * the drawn nodes, to map each change to its node as events are).
 */
export function failNamesFor(changes, names, node) {
  const out = [];
  for (const c of changes) {
    if (!c.actions.includes("create")) continue;
    if (nodeForEvent(names, { address: c.address, operation: "create", deposed: c.deposed }) !== node) continue;
    const name = c.after?.name;
    if (typeof name === "string" && name !== "" && !out.includes(name)) out.push(name);
  }
  return out;
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
