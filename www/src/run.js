// The run panel: Walk the drawn graph as Terraform walks it (the package's `walk`, with
// simulated provider latencies: base latency, seeded jitter, one chosen node failing), animated
// live on the graph, with progress, Cancel, a timeline (Gantt) with concurrency over time and
// the critical path, and the what-if parallelism curve (a greedy list schedule of the measured
// durations for parallelism 1 to 32). Plan, Apply and Destroy are engine-panel.js's.
// Gets the drawn graph and the walker from main.js; never imports the package.

import { el } from "./dom.js";
import { gantt, svgEl } from "./gantt.js";

/** Graphs with more nodes than this repaint the walk's colours at most every PAINT_EVERY_MS. */
const BIG_GRAPH = 150;
const PAINT_EVERY_MS = 250;

/** A seeded PRNG in [0, 1) for a (seed, name) pair: the same walk twice has the same latencies. */
function random(seed, name) {
  let h = (seed | 0) ^ 0x9e3779b9;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

/**
 * The makespan of a greedy list schedule: whenever a worker is free, start the ready node that
 * became ready first (ties by name). `durations`: name → ms; `deps`: name → names it waits for.
 */
export function makespan(names, deps, durations, parallelism) {
  const waiting = new Map(names.map((n) => [n, (deps.get(n) ?? []).length]));
  const dependents = new Map(names.map((n) => [n, []]));
  for (const n of names) for (const d of deps.get(n) ?? []) dependents.get(d)?.push(n);
  const ready = names.filter((n) => waiting.get(n) === 0).sort();
  let head = 0; // ready[head..] wait, first come first served
  // The running nodes: a binary heap on (end, start order), the order a stable sort by end gives.
  // (An array sorted and shifted per step made the what-if curve of a 501-node walk, 32 schedules,
  // a 100-275 ms task at the end of the walk on the bench machine.)
  const running = []; // [end, name, start order]
  const before = (a, b) => a[0] < b[0] || (a[0] === b[0] && a[2] < b[2]);
  const push = (x) => {
    running.push(x);
    for (let i = running.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (!before(running[i], running[up])) break;
      [running[i], running[up]] = [running[up], running[i]];
      i = up;
    }
  };
  const pop = () => {
    const top = running[0];
    const last = running.pop();
    if (running.length) {
      running[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        let m = i;
        if (l < running.length && before(running[l], running[m])) m = l;
        if (l + 1 < running.length && before(running[l + 1], running[m])) m = l + 1;
        if (m === i) break;
        [running[i], running[m]] = [running[m], running[i]];
        i = m;
      }
    }
    return top;
  };
  let order = 0;
  let now = 0;
  let done = 0;
  while (done < names.length) {
    while (running.length < parallelism && head < ready.length) {
      const n = ready[head++];
      push([now + (durations.get(n) ?? 0), n, order++]);
    }
    if (running.length === 0) break; // a cycle: cannot finish
    const [end, n] = pop();
    now = end;
    done++;
    for (const m of dependents.get(n)) {
      waiting.set(m, waiting.get(m) - 1);
      if (waiting.get(m) === 0) ready.push(m);
    }
  }
  return now;
}

/**
 * @param {HTMLElement} root
 * @param {{ graph: () => ({ nodes: Array<{ name: string, style: string }>, edges: Array<{ from: string, to: string }> } | null),
 *           graphView: { setState: (name: string, state: string | null) => void },
 *           walk: (dag: object, visit: Function, options: object) => Promise<object>,
 *           onSettings?: () => void }} deps
 */
export function createRun(root, { graph, graphView, walk, onSettings }) {
  const field = (label, input) => el("label", { class: "run-field" }, label, input);
  const parallelism = el("input", { type: "number", min: "1", max: "256", value: "10", "data-testid": "parallelism" });
  const latency = el("input", { type: "number", min: "0", max: "10000", value: "300", "data-testid": "latency" });
  const jitter = el("input", { type: "number", min: "0", max: "100", value: "50", "data-testid": "jitter" });
  const seed = el("input", { type: "number", value: "1", "data-testid": "seed" });
  const fail = el("input", { type: "text", list: "run-nodes", placeholder: "(none)", "data-testid": "fail-node", spellcheck: "false" });
  const options = el("datalist", { id: "run-nodes" });
  const failSelected = el("button", { "data-testid": "fail-selected", disabled: true, title: "Select a node on the graph to make it fail" }, "fail selected");
  const walkButton = el("button", { class: "primary", "data-testid": "walk" }, "Walk");
  const cancelButton = el("button", { "data-testid": "cancel", disabled: true }, "Cancel");
  const progress = el("progress", { max: "1", value: "0", "data-testid": "progress" });
  const summary = el("span", { class: "run-summary", "data-testid": "walk-summary" });
  const charts = el("div", { class: "run-charts", "data-testid": "walk-charts" });

  root.append(
    el(
      "div",
      { class: "run-controls" },
      walkButton,
      cancelButton,
      field("parallelism", parallelism),
      field("latency ms", latency),
      field("jitter %", jitter),
      field("seed", seed),
      field("fail", fail),
      failSelected,
      options,
    ),
    el("div", { class: "run-progress" }, progress, summary),
    el("p", { class: "muted run-note" }, "Walk visits the drawn graph as Terraform's walker does: a node starts once everything it depends on has finished, at most “parallelism” at a time; a failure skips its dependents. Resources take the simulated latency; other nodes a few ms. Plan, Apply and Destroy (against mock providers) are in the Plan / Apply tab."),
    charts,
  );

  let controller = null;
  /** Bumped by every walk's start and end and by reset(): a walk's late charts check it. */
  let generation = 0;
  let drawnNames = [];

  let optionsOf = null; // the drawing the fail field's suggestions were made for
  const setOptions = () => {
    const g = graph();
    drawnNames = g ? g.nodes.map((n) => n.name) : [];
    if (g === optionsOf) return;
    optionsOf = g;
    options.replaceChildren(...drawnNames.slice(0, 2000).map((n) => el("option", { value: n })));
  };

  fail.addEventListener("focus", setOptions);
  let selected = null;
  failSelected.addEventListener("click", () => {
    if (!selected) return;
    fail.value = selected;
    onSettings?.();
  });
  for (const input of [parallelism, latency, jitter, seed, fail]) input.addEventListener("change", () => onSettings?.());
  cancelButton.addEventListener("click", () => controller?.abort());

  walkButton.addEventListener("click", async () => {
    const g = graph();
    if (!g || controller) return;
    const p = Math.max(1, Math.floor(Number(parallelism.value) || 10));
    const base = Math.max(0, Number(latency.value) || 0);
    const j = Math.min(100, Math.max(0, Number(jitter.value) || 0)) / 100;
    const s = Number(seed.value) || 0;
    const failing = fail.value.trim();
    const isResource = new Map(g.nodes.map((n) => [n.name, ["resource", "data", "destroy"].includes(n.style)]));
    const duration = (name) => (isResource.get(name) ? base * (1 + j * (2 * random(s, name) - 1)) : 2 + 3 * random(s, name));
    controller = new AbortController();
    generation++;
    walkButton.disabled = true;
    cancelButton.disabled = false;
    charts.replaceChildren();
    root.dataset.walk = "running";
    // The click only starts things: every node set to pending (a style change across the whole
    // drawing) and the walk's first steps each run in a task of their own. Together with the
    // click they made one long task on the 501-node fan-out (bench/page).
    const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
    await nextTask();
    setOptions();
    for (const n of drawnNames) graphView.setState(n, "pending");
    const total = g.nodes.length;
    let finished = 0;
    const states = { done: 0, failed: 0, skipped: 0, cancelled: 0 };
    const tick = () => {
      progress.value = finished / Math.max(1, total);
      summary.textContent = `${finished} / ${total} · done ${states.done} · failed ${states.failed} · skipped ${states.skipped} · cancelled ${states.cancelled}`;
    };
    const STATE = { start: "running", finish: "done", fail: "failed", skip: "skipped", cancel: "cancelled" };
    // Animation: events queue up and are painted once per frame, so a large walk never paints per
    // event; on a large graph at most every PAINT_EVERY_MS, since each paint re-rasterises the
    // whole SVG's labels (the main-thread cost bench/page measures).
    let queued = [];
    let frame = 0; // a requestAnimationFrame id, or -1 while a timer waits to request one
    let timer = 0;
    let lastPaint = 0;
    const big = g.nodes.length > BIG_GRAPH;
    const schedule = () => {
      if (frame) return;
      const wait = big ? Math.max(0, lastPaint + PAINT_EVERY_MS - performance.now()) : 0;
      if (wait > 0) {
        frame = -1;
        timer = setTimeout(() => (frame = requestAnimationFrame(paint)), wait);
      } else frame = requestAnimationFrame(paint);
    };
    const paint = () => {
      frame = 0;
      lastPaint = performance.now();
      for (const ev of queued) graphView.setState(ev.node, STATE[ev.type]);
      queued = [];
      tick();
    };
    const signal = controller.signal;
    // Cancel stops new starts; visits already running finish, as Terraform lets in-flight
    // operations finish when interrupted.
    const visit = (name) =>
      new Promise((resolve, reject) => {
        setTimeout(() => (name === failing ? reject(new Error(`simulated failure of ${name}`)) : resolve()), duration(name));
      });
    let report = null;
    let error = null;
    await nextTask();
    const started = performance.now();
    try {
      report = await walk({ nodes: g.nodes.map((n) => n.name), edges: g.edges.map((e) => [e.from, e.to]) }, visit, {
        parallelism: p,
        signal,
        onEvent(ev) {
          if (ev.type !== "start") {
            finished++;
            states[STATE[ev.type]]++;
          }
          queued.push(ev);
          schedule();
        },
      });
    } catch (e) {
      error = e;
    }
    clearTimeout(timer);
    if (frame > 0) cancelAnimationFrame(frame);
    paint();
    const elapsed = performance.now() - started;
    controller = null;
    walkButton.disabled = false;
    cancelButton.disabled = true;
    if (error) {
      root.dataset.walk = "error";
      summary.textContent = `The walk did not start: ${error.diagnostics?.[0]?.summary?.split("\n")[0] ?? error.message}`;
      for (const n of drawnNames) graphView.setState(n, null);
      return;
    }
    summary.textContent =
      `${report.completed.length} done · ${report.failed.length} failed · ${report.skipped.length} skipped · ` +
      `${report.cancelled.length} cancelled · max concurrency ${report.maxConcurrency} · ${Math.round(elapsed)} ms`;
    // The charts come in a task of their own: with the walk's last paint they made the longest
    // task of a 501-node walk (bench/page). A reset or a new walk meanwhile drops them.
    const mine = ++generation;
    await nextTask();
    if (mine !== generation) return;
    charts.replaceChildren(...timeline(g, report, p));
    root.dataset.walk = signal.aborted ? "cancelled" : report.failed.length ? "failed" : "done";
  });

  /** The Gantt chart, concurrency over time and the what-if curve, as SVG elements. */
  function timeline(g, report, p) {
    const times = [...report.times].filter(([, t]) => t.end >= t.start);
    if (times.length === 0) return [el("p", { class: "muted" }, "Nothing ran.")];
    const t0 = Math.min(...times.map(([, t]) => t.start));
    const t1 = Math.max(...times.map(([, t]) => t.end));
    const span = Math.max(1, t1 - t0);
    const failed = new Set(report.failed.map((f) => f.node));
    const deps = new Map(g.nodes.map((n) => [n.name, []]));
    for (const e of g.edges) deps.get(e.from)?.push(e.to);
    // Critical path: back from the last node to end, each time through the dependency that ended last.
    const timeOf = new Map(times);
    const critical = new Set();
    let at = times.reduce((a, b) => (b[1].end > a[1].end ? b : a))[0];
    while (at) {
      critical.add(at);
      const prev = (deps.get(at) ?? []).filter((d) => timeOf.has(d));
      at = prev.length ? prev.reduce((a, b) => (timeOf.get(b).end > timeOf.get(a).end ? b : a)) : null;
    }
    const rows = times.sort((a, b) => a[1].start - b[1].start || a[0].localeCompare(b[0]));
    const shown = rows.slice(0, 60);
    const W = 560;
    const L = 190;
    const chart = gantt(
      shown.map(([name, t]) => ({
        name,
        start: t.start,
        end: t.end,
        classes: [critical.has(name) ? "critical" : null, failed.has(name) ? "failed" : null].filter(Boolean),
        title: `${name}: ${Math.round(t.start - t0)}–${Math.round(t.end - t0)} ms${critical.has(name) ? " (critical path)" : ""}`,
      })),
      { title: "Timeline of the walk: one bar per node; the critical path in red", testid: "gantt", barTestid: "gantt-bar", range: [t0, t1] },
    );

    // Concurrency over time: a step line of how many visits ran at once.
    const marks = [];
    for (const [, t] of times) marks.push([t.start, 1], [t.end, -1]);
    marks.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let running = 0;
    let peak = 1;
    const pts = [[0, 0]];
    for (const [t, d] of marks) {
      pts.push([t - t0, running]);
      running += d;
      pts.push([t - t0, running]);
      peak = Math.max(peak, running);
    }
    const H = 70;
    const conc = svgEl("svg", { viewBox: `0 0 ${W} ${H + 16}`, class: "concurrency", "data-testid": "concurrency", role: "img" });
    conc.append(svgEl("title", {}, `Concurrency over time (peak ${peak}, parallelism ${p})`));
    const px = (t) => L + (t / span) * (W - L - 8);
    const py = (c) => 4 + H - (c / Math.max(peak, p)) * H;
    conc.append(
      svgEl("line", { x1: L, x2: W - 8, y1: py(p), y2: py(p), class: "limit" }),
      svgEl("text", { x: L - 4, y: py(p) + 3, "text-anchor": "end", class: "gantt-label" }, `parallelism ${p}`),
      svgEl("polyline", { points: pts.map(([t, c]) => `${px(t).toFixed(1)},${py(c).toFixed(1)}`).join(" "), class: "conc-line" }),
      svgEl("text", { x: L - 4, y: H + 4, "text-anchor": "end", class: "gantt-label" }, `running (peak ${peak})`),
    );

    // What-if: the same durations under parallelism 1..32.
    const names = g.nodes.map((n) => n.name);
    const durations = new Map(times.map(([n, t]) => [n, t.end - t.start]));
    const curve = Array.from({ length: 32 }, (_, i) => [i + 1, makespan(names, deps, durations, i + 1)]);
    const maxM = Math.max(...curve.map(([, m]) => m), 1);
    const best = Math.min(...curve.map(([, m]) => m));
    const knee = curve.find(([, m]) => m <= best * 1.05)[0];
    const what = svgEl("svg", { viewBox: `0 0 ${W} ${H + 30}`, class: "whatif", "data-testid": "whatif", role: "img" });
    what.append(svgEl("title", {}, "Makespan by parallelism (greedy list schedule of the measured durations)"));
    const wx = (k) => L + ((k - 1) / 31) * (W - L - 8);
    const wy = (m) => 4 + H - (m / maxM) * H;
    what.append(
      svgEl("polyline", { points: curve.map(([k, m]) => `${wx(k).toFixed(1)},${wy(m).toFixed(1)}`).join(" "), class: "whatif-line" }),
      ...curve.map(([k, m]) => {
        const c = svgEl("circle", { cx: wx(k), cy: wy(m), r: k === p ? 4 : 2, class: k === p ? "whatif-now" : "whatif-pt", "data-testid": "whatif-point", "data-parallelism": k, "data-ms": Math.round(m) });
        c.append(svgEl("title", {}, `parallelism ${k}: ${Math.round(m)} ms`));
        return c;
      }),
      svgEl("text", { x: L - 4, y: 12, "text-anchor": "end", class: "gantt-label" }, `${Math.round(maxM)} ms`),
      svgEl("text", { x: L - 4, y: H + 4, "text-anchor": "end", class: "gantt-label" }, "makespan"),
      svgEl("text", { x: L, y: H + 22, class: "gantt-axis" }, "parallelism 1"),
      svgEl("text", { x: W - 8, y: H + 22, class: "gantt-axis", "text-anchor": "end" }, "32"),
    );
    return [
      el("h3", {}, "Timeline ", el("span", { class: "muted" }, "(red: the critical path; purple: failed)"), rows.length > shown.length ? el("span", { class: "muted" }, ` (first ${shown.length} of ${rows.length} nodes)`) : ""),
      chart,
      el("h3", {}, "Concurrency over time"),
      conc,
      el("h3", {}, "What if: parallelism 1 to 32"),
      el("p", { class: "muted", "data-testid": "whatif-text" }, `With these durations, more than ${knee} at a time gains under 5% (${Math.round(curve[knee - 1][1])} ms vs ${Math.round(best)} ms at best; ${Math.round(curve[p - 1]?.[1] ?? makespan(names, deps, durations, p))} ms at ${p}).`),
      what,
    ];
  }

  const whole = (v, lo, hi, fallback) => (Number.isFinite(Number(v)) && String(v).trim() !== "" ? Math.min(hi, Math.max(lo, Math.floor(Number(v)))) : fallback);
  return {
    /** The walk's settings, as the share link stores them. */
    settings: () => ({ parallelism: whole(parallelism.value, 1, 256, 10), latencyMs: whole(latency.value, 0, 10_000, 300), jitterPercent: whole(jitter.value, 0, 100, 50), seed: whole(seed.value, -(2 ** 31), 2 ** 31 - 1, 1), fail: fail.value.trim() }),
    /** Sets the inputs from a share link's settings (unreadable fields: the defaults). */
    setSettings(raw) {
      const o = raw && typeof raw === "object" ? raw : {};
      parallelism.value = String(whole(o.parallelism, 1, 256, 10));
      latency.value = String(whole(o.latencyMs, 0, 10_000, 300));
      jitter.value = String(whole(o.jitterPercent, 0, 100, 50));
      seed.value = String(whole(o.seed, -(2 ** 31), 2 ** 31 - 1, 1));
      fail.value = typeof o.fail === "string" ? o.fail : "";
    },
    /** The node selected on the graph (or null): what "fail selected" sets. */
    select(name) {
      selected = name;
      failSelected.disabled = !name;
      failSelected.title = name ? `Make ${name} fail` : "Select a node on the graph to make it fail";
    },
    /** The graph changed: stop any walk, clear the colours, refresh the node list. */
    reset() {
      generation++;
      controller?.abort();
      charts.replaceChildren();
      summary.textContent = "";
      progress.value = 0;
      delete root.dataset.walk;
    },
  };
}
