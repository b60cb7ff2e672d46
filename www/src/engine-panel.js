// The Plan / Apply panel: Plan, Apply and Destroy against the mock providers (the package's
// plan/apply/destroy, run in engine-worker.js through main.js), the plan as `terraform plan` prints it and its
// changes, the apply's progress lines as they happen with the walk animated on the drawn graph,
// Cancel (an AbortSignal: nothing new starts, what runs finishes), the mock's delay and failing
// names, and the state: kept for the browser tab's session (sessionStorage), shown, downloadable
// as terraform.tfstate, and reset on demand. Gets plain data from main.js; never imports the
// package.

import { el } from "./dom.js";
import { createNodeStates, nodeForEvent, progressLine, summariseChanges } from "./engine-model.js";

const STORE = "tfgraph.engine.state";
/** Drawings with more nodes than this are restyled at most every PAINT_EVERY_MS during an apply. */
const BIG_GRAPH = 150;
/** Rows of the changes table (a 2,000-resource plan's full table took a long task to build). */
const MAX_ROWS = 200;
const PAINT_EVERY_MS = 250;

/**
 * @param {HTMLElement} root
 * @param {{ available: boolean,
 *           run: (kind: "plan" | "apply" | "destroy", options: object) => Promise<object>,
 *           fileState: () => object | null,
 *           graphView: { setState: (name: string, state: string | null) => void, names: () => string[] },
 *           reveal: (range: object) => void }} deps
 */
export function createEnginePanel(root, { available, run, fileState, graphView, reveal }) {
  const field = (label, input) => el("label", { class: "run-field" }, label, input);
  const button = (label, id, primary = false) => el("button", { "data-testid": id, class: primary ? "primary" : null, disabled: !available }, label);
  const planButton = button("Plan", "plan", true);
  const applyButton = button("Apply", "apply", true);
  const destroyButton = button("Destroy", "destroy");
  const cancelButton = el("button", { "data-testid": "engine-cancel", disabled: true }, "Cancel");
  const resetButton = el("button", { "data-testid": "reset-state", disabled: !available, title: "Forget the state kept in this session: the next plan starts from the terraform.tfstate file among the files, or from nothing" }, "Reset state");
  const parallelism = el("input", { type: "number", min: "1", max: "256", value: "10", "data-testid": "engine-parallelism" });
  const delay = el("input", { type: "number", min: "0", max: "10000", value: "300", "data-testid": "mock-delay" });
  const failNames = el("input", { type: "text", placeholder: "(none)", spellcheck: "false", "data-testid": "mock-fail", title: "mock_resource names (their name attribute), comma-separated, whose create fails" });
  const progress = el("progress", { max: "1", value: "0", "data-testid": "engine-progress" });
  const summary = el("span", { class: "run-summary", "data-testid": "engine-summary" });

  const planText = el("pre", { class: "terminal", "data-testid": "plan-text" });
  const changes = el("table", { class: "changes", "data-testid": "changes" });
  const log = el("pre", { class: "terminal", "data-testid": "apply-log" });
  const diagnostics = el("ul", { class: "diagnostics", "data-testid": "engine-diagnostics" });
  const stateInfo = el("span", { class: "muted", "data-testid": "state-info" });
  const download = el("a", { "data-testid": "state-download", download: "terraform.tfstate", class: "button-link", href: "#" }, "Download terraform.tfstate");
  const stateJson = el("pre", { class: "terminal state-json", "data-testid": "state-json" });

  const stateDetails = el("details", { "data-testid": "state-details" }, el("summary", {}, "terraform.tfstate"), stateJson);
  const applySection = el("section", {}, el("h3", {}, "Apply"), diagnostics, log, el("h3", {}, "State ", stateInfo, " ", download), stateDetails);
  root.append(
    el(
      "div",
      { class: "engine-head" },
      el("div", { class: "run-controls" }, planButton, applyButton, destroyButton, cancelButton, resetButton, field("parallelism", parallelism), field("mock delay ms", delay), field("fail names", failNames)),
      el("div", { class: "run-progress" }, progress, summary),
    ),
    el(
      "p",
      { class: "muted run-note" },
      available
        ? "Terraform's plan and apply walks, in this tab, against mock providers (hashicorp/mock, and a generic mock for the others). Apply is terraform apply -auto-approve."
        : "This build of the package has no plan/apply engine.",
    ),
    el(
      "div",
      { class: "engine-out" },
      el("section", {}, el("h3", {}, "Plan"), changes, planText),
      applySection,
    ),
  );

  // ---- State ----------------------------------------------------------------------------------

  let kept = null; // the state this session's applies produced, or null
  try {
    kept = JSON.parse(sessionStorage.getItem(STORE) ?? "null");
  } catch {
    kept = null;
  }
  let url = null;
  const current = () => kept ?? fileState();
  // The state's text is made only when it is looked at (the details opened, the download
  // clicked): the summary line is refreshed on every edit, and a large state's JSON is not free.
  let textOf = { state: undefined, text: "" };
  const stateText = () => {
    const s = current();
    if (textOf.state !== s) textOf = { state: s, text: s ? `${JSON.stringify(s, null, 2)}\n` : "" };
    return textOf.text;
  };
  function showState() {
    const s = current();
    const from = kept ? "this session's" : s ? "from the terraform.tfstate file" : "empty";
    const count = (s?.resources ?? []).reduce((n, r) => n + (r.instances?.length ?? 0), 0);
    stateInfo.textContent = s ? `(${from}: serial ${s.serial ?? 0}, ${count} object${count === 1 ? "" : "s"})` : "(empty: nothing applied yet)";
    if (stateDetails.open) stateJson.textContent = stateText();
    download.hidden = !s;
    root.dataset.stateSerial = String(s?.serial ?? "");
    root.dataset.stateObjects = String(count);
  }
  stateDetails.addEventListener("toggle", () => {
    if (stateDetails.open) stateJson.textContent = stateText();
  });
  // The link's target is made as it is followed (the click's default action reads it after).
  download.addEventListener("click", () => {
    if (url) URL.revokeObjectURL(url);
    url = URL.createObjectURL(new Blob([stateText()], { type: "application/json" }));
    download.setAttribute("href", url);
  });
  function keep(state) {
    kept = state;
    try {
      if (state) sessionStorage.setItem(STORE, JSON.stringify(state));
      else sessionStorage.removeItem(STORE);
    } catch {
      // Storage full or off: the state still lives in the page.
    }
    showState();
  }
  resetButton.addEventListener("click", () => {
    keep(null);
    summary.textContent = "State reset.";
  });

  // ---- Showing results ----------------------------------------------------------------------------

  function showPlan(p) {
    planText.textContent = p ? p.text : "";
    changes.replaceChildren();
    if (!p) return;
    const { rows } = summariseChanges(p.changes);
    // The table lists the first MAX_ROWS changes; the plan text below has every one.
    for (const c of rows.slice(0, MAX_ROWS)) {
      changes.append(
        el(
          "tr",
          { "data-testid": "change", "data-address": c.address, "data-actions": c.actions.join(",") },
          el("td", { class: `symbol symbol-${c.actions.join("-")}` }, c.symbol),
          el("td", { class: "mono" }, c.deposed ? `${c.address} (deposed ${c.deposed})` : c.address),
          el("td", { class: "muted" }, c.actionReason ?? ""),
        ),
      );
    }
    if (rows.length > MAX_ROWS) changes.append(el("tr", {}, el("td", {}), el("td", { class: "muted", colspan: "2" }, `… and ${rows.length - MAX_ROWS} more (all of them in the plan below)`)));
  }

  function showDiagnostics(list) {
    diagnostics.replaceChildren(
      ...list.map((d) =>
        el(
          "li",
          { class: `diagnostic ${d.severity}`, "data-testid": "engine-diagnostic" },
          el("div", { class: "summary" }, `${d.severity === "warning" ? "Warning" : "Error"}: ${d.summary}`),
          d.range ? el("button", { class: "link", onclick: () => reveal(d.range) }, `${d.range.filename}:${d.range.start.line}:${d.range.start.column}`) : "",
          d.address ? el("div", { class: "muted mono" }, `with ${d.address}`) : "",
          d.detail ? el("div", { class: "detail" }, d.detail) : "",
        ),
      ),
    );
  }

  // ---- Running ---------------------------------------------------------------------------------

  let controller = null;
  const buttons = [planButton, applyButton, destroyButton, resetButton];

  async function start(kind) {
    if (controller || !available) return;
    controller = new AbortController();
    for (const b of buttons) b.disabled = true;
    cancelButton.disabled = false;
    root.dataset.engine = "running";
    root.dataset.kind = kind;
    let names = new Set(graphView.names());
    for (const n of names) graphView.setState(n, null);
    log.textContent = "";
    summary.textContent = "Planning…";
    progress.value = 0;
    showDiagnostics([]);
    const nodeStates = createNodeStates();
    let total = 0; // the provider operations the plan needs (a replacement is two)
    let ended = 0;
    const counts = { running: 0, done: 0, failed: 0, skipped: 0 };
    const onPlan = (plan) => {
      names = new Set(graphView.names()); // the apply view may have been drawn again for this plan
      showPlan(plan);
      total = summariseChanges(plan.changes).rows.reduce((n, c) => n + (c.actions.length === 2 && c.actions.includes("delete") ? 2 : c.actions.join() === "forget" ? 0 : 1), 0);
      summary.textContent = `Applying: 0 of ${total} operations`;
      // What will change waits (grey) until its operation starts.
      for (const c of summariseChanges(plan.changes).rows) {
        const node = nodeForEvent(names, { address: c.address, operation: c.actions.join() === "delete" ? "delete" : c.actions[0], deposed: c.deposed });
        if (node) graphView.setState(node, "pending");
      }
    };
    // Events are recorded as they come and painted once per frame: a large apply never paints
    // per event (each paint restyles the drawing and appends to the log).
    let pendingLines = [];
    const dirty = new Set();
    let frame = 0; // a requestAnimationFrame id, or -1 while a timer waits to request one
    let timer = 0;
    let lastPaint = 0;
    // A large drawing is restyled at most every PAINT_EVERY_MS (each restyle re-rasterises its
    // labels), as the Run tab's walk does.
    const schedule = () => {
      if (frame) return;
      const wait = names.size > BIG_GRAPH ? Math.max(0, lastPaint + PAINT_EVERY_MS - performance.now()) : 0;
      if (wait > 0) {
        frame = -1;
        timer = setTimeout(() => (frame = requestAnimationFrame(paint)), wait);
      } else frame = requestAnimationFrame(paint);
    };
    const paint = () => {
      frame = 0;
      lastPaint = performance.now();
      if (pendingLines.length) log.append(`${pendingLines.join("\n")}\n`);
      pendingLines = [];
      for (const node of dirty) graphView.setState(node, nodeStates.state(node));
      dirty.clear();
      progress.value = total ? Math.min(1, ended / total) : 0;
      if (total || ended) summary.textContent = `Applying: ${counts.done} of ${total} done · ${counts.running} running${counts.failed ? ` · ${counts.failed} failed` : ""}${counts.skipped ? ` · ${counts.skipped} skipped` : ""}`;
    };
    const onEvent = (ev) => {
      const line = progressLine(ev);
      if (line) pendingLines.push(line);
      if (ev.phase === "apply") {
        if (ev.kind === "start") counts.running++;
        else {
          ended++;
          if (ev.kind === "finish" || ev.kind === "fail") counts.running--;
          if (ev.kind === "finish") counts.done++;
          if (ev.kind === "fail") counts.failed++;
          if (ev.kind === "skip" || ev.kind === "cancel") counts.skipped++;
        }
        const node = nodeForEvent(names, ev);
        if (node) {
          nodeStates.record(node, ev.kind);
          dirty.add(node);
        }
      }
      schedule();
    };
    let result = null;
    let failure = null;
    try {
      result = await run(kind, {
        state: current(),
        parallelism: Math.max(1, Math.floor(Number(parallelism.value) || 10)),
        mock: {
          delayMs: Math.max(0, Number(delay.value) || 0),
          failNames: failNames.value.split(",").map((s) => s.trim()).filter(Boolean),
        },
        signal: controller.signal,
        onEvent,
        onPlan,
      });
    } catch (e) {
      failure = e;
    }
    clearTimeout(timer);
    if (frame > 0) cancelAnimationFrame(frame);
    paint();
    const aborted = controller.signal.aborted;
    controller = null;
    for (const b of buttons) b.disabled = false;
    cancelButton.disabled = true;
    if (failure) {
      root.dataset.engine = "error";
      summary.textContent = `Internal error: ${failure.message}`;
      showDiagnostics(failure.diagnostics ?? []);
      return;
    }
    showPlan(result.plan);
    showDiagnostics(result.diagnostics);
    if (result.state !== undefined) keep(result.state);
    const errors = result.diagnostics.some((d) => d.severity === "error");
    if (kind === "plan") {
      const { add, change, destroy } = summariseChanges(result.plan.changes);
      summary.textContent = result.plan.errored ? "Planning failed." : result.plan.hasChanges ? `Plan: ${add} to add, ${change} to change, ${destroy} to destroy.` : "No changes. Your infrastructure matches the configuration.";
    } else if (result.report) {
      const r = result.report;
      const done = kind === "destroy" ? `Destroy complete! Resources: ${r.destroyed} destroyed.` : `Apply complete! Resources: ${r.added} added, ${r.changed} changed, ${r.destroyed} destroyed.`;
      summary.textContent = aborted ? `Cancelled: what was running finished and is in the state (${r.added} added, ${r.changed} changed, ${r.destroyed} destroyed).` : errors ? `Apply failed: ${r.added} added, ${r.changed} changed, ${r.destroyed} destroyed before the error.` : done;
      progress.value = 1;
    } else summary.textContent = aborted ? "Cancelled while planning: nothing was applied." : "Planning failed.";
    root.dataset.engine = aborted ? "cancelled" : errors ? "failed" : "done";
    // After an apply, its log and the state are what to read first.
    if (kind !== "plan") applySection.scrollIntoView({ block: "start" });
  }

  planButton.addEventListener("click", () => start("plan"));
  applyButton.addEventListener("click", () => start("apply"));
  destroyButton.addEventListener("click", () => start("destroy"));
  cancelButton.addEventListener("click", () => controller?.abort());
  showState();

  return {
    /** The state this session's applies produced, or null (then the terraform.tfstate file is). */
    sessionState: () => kept,
    /** The files changed: the state file among them may be the prior state now. */
    filesChanged: () => showState(),
    /** Another configuration (an example, a dropped folder): as in another directory, no state. */
    newConfiguration() {
      controller?.abort();
      keep(null);
      showPlan(null);
      showDiagnostics([]);
      log.textContent = "";
      summary.textContent = "";
      progress.value = 0;
      delete root.dataset.engine;
    },
  };
}
