// Pure helpers for the plan/apply panel, on plain data (never the package): which drawn node an
// engine event animates, how a node's several instances add up to one colour, Terraform's
// progress line for an event, and the plan's changes as `terraform plan` symbolises them.

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
    return `${ev.address}: ${DONE[ev.operation]} after ${Math.round((ev.elapsedMs ?? 0) / 1000)}s${id}`;
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
