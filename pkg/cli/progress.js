// Terraform's progress lines (command/views/hook_ui.go) as the engine's events arrive. The
// engine writes each event's line (`e.line`: `ADDR: Creating...`, `ADDR: Creation complete
// after 1s [id=...]`, `ADDR: Refreshing state... [id=...]`, in src/engine/render/progress.rs, the one
// place the lines are made for the CLI, the page and the apply's report); this prints them,
// and, while an operation runs, its `ADDR: Still creating... [00m10s elapsed]` every 10 s, the
// one line no event carries (a timer's, not the engine's).

// The JSON UI's messages (json-ui.js, Terraform's views/json) word their starts and ends so too.
export const START = { create: "Creating...", update: "Modifying...", delete: "Destroying...", read: "Reading..." };
export const DONE = { create: "Creation complete", update: "Modifications complete", delete: "Destruction complete", read: "Read complete" };
const STILL = { create: "Still creating...", update: "Still modifying...", delete: "Still destroying...", read: "Still reading..." };
/** Terraform's periodicUiTimer. */
export const STILL_EVERY_MS = 10_000;
/** Terraform's maxIdLen for the id in a "Still ..." line. */
const MAX_ID_LEN = 80;

/** True for a data source instance address (`data.x.y`, `module.m[0].data.x.y`). */
export const isDataAddress = (address) => /^(module\.[^.[]+(\[(?:"(?:[^"\\]|\\.)*"|[^\]"]*)\])?\.)*data\./.test(address);

/** Go's time.Duration.String() for whole seconds: `0s`, `59s`, `1m0s`, `1h2m3s`. */
export function goDuration(seconds) {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}

/** Terraform's truncateId: the id's start and end around "...", `maxLen` characters in all. */
export function truncateId(id, maxLen) {
  const r = [...id];
  if (r.length <= maxLen) return id;
  const max = Math.max(5, maxLen);
  const part = Math.floor(max / 2);
  let right = r.length - part - 1;
  const overlap = max - (part * 2 + 3);
  if (overlap < 0) right -= overlap;
  return `${r.slice(0, part - 1).join("")}...${r.slice(right).join("")}`;
}

const roundedSeconds = (ms) => Math.round(ms / 1000);
/** Terraform's UiHook keys its running operations by the instance address alone. */
const key = (e) => e.address;

/**
 * A printer of progress lines: `event(e)` prints the line of an EngineEvent (if it has one),
 * and while operations run, their "Still ..." lines. `stop()` ends the timer. `now` is the
 * clock (milliseconds), `print` where lines go.
 */
export function progressPrinter({ print, now = Date.now, stillEveryMs = STILL_EVERY_MS }) {
  const running = new Map(); // key -> { e, start, next }
  let timer = null;
  const tick = () => {
    const t = now();
    for (const r of running.values()) {
      if (t < r.next) continue;
      r.next += stillEveryMs;
      const elapsed = roundedSeconds(t) - r.start;
      const id = r.e.priorId ? `id=${truncateId(r.e.priorId, MAX_ID_LEN)}, ` : "";
      const mm = String(Math.floor(elapsed / 60)).padStart(2, "0");
      const ss = String(elapsed % 60).padStart(2, "0");
      print(`${r.e.address}: ${STILL[r.e.operation]} [${id}${mm}m${ss}s elapsed]`);
    }
  };
  const track = (e) => {
    // Terraform's UiHook times what it applies and reads, not refreshes or imports.
    const refresh = e.phase === "plan" && e.operation === "read" && !isDataAddress(e.address);
    if (e.operation === "import" || refresh) return;
    if (e.kind === "start") {
      const t = now();
      running.set(key(e), { e, start: roundedSeconds(t), next: t + stillEveryMs });
      timer ??= setInterval(tick, Math.min(1000, stillEveryMs));
      timer.unref?.();
      return;
    }
    running.delete(key(e));
    if (running.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
  return {
    event(e) {
      track(e);
      if (typeof e.line === "string") print(e.line);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      running.clear();
    },
  };
}
