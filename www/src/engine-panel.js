// The Plan / Apply panel: Plan, Apply and Destroy against the mock providers (the package's
// plan/apply/destroy, run in engine-worker.js through main.js), the plan as `terraform plan` prints it and its
// changes, the apply's progress lines as they happen with the walk animated on the drawn graph,
// Cancel (an AbortSignal: nothing new starts, what runs finishes), -target and -replace (typed,
// or the node selected on the graph), the mock providers' knobs (delay, seeded jitter, rate
// limits, failing names or addresses: the selected node's), the apply's timeline, and the
// state: kept per configuration for the browser tab's session (sessionStorage), shown,
// downloadable as terraform.tfstate, and reset on demand. Gets plain data from main.js; never
// imports the package.

import { el } from "./dom.js";
import { addAddresses, createNodeStates, engineOptions, FAIL_OPS, instancesOf, isData, nodeForEvent, progressLine, readSettings, summariseChanges, timelineRows } from "./engine-model.js";
import { gantt } from "./gantt.js";
import { keptStates } from "./kept-states.js";

/** Drawings with more nodes than this are restyled at most every PAINT_EVERY_MS during an apply. */
const BIG_GRAPH = 150;
/** Rows of the changes table (a 2,000-resource plan's full table took a long task to build). */
const MAX_ROWS = 200;
/** Bars of the apply's timeline. */
const MAX_BARS = 60;
const PAINT_EVERY_MS = 250;

/**
 * @param {HTMLElement} root
 * @param {{ available: boolean,
 *           run: (kind: "plan" | "apply" | "destroy", options: object) => Promise<object>,
 *           fileState: () => object | null,
 *           graphView: { setState: (name: string, state: string | null) => void, names: () => string[] },
 *           drawsApply: () => boolean,
 *           reveal: (range: object) => void, onSettings: () => void, onReset: () => void }} deps
 *   `drawsApply()`: the drawn graph is the apply graph of the plan being applied (the apply
 *   view), whose every node the walk's own events colour.
 */
export function createEnginePanel(root, { available, run, fileState, graphView, drawsApply = () => false, reveal, onSettings, onReset }) {
  const field = (label, input) => el("label", { class: "run-field" }, label, input);
  const button = (label, id, primary = false) => el("button", { "data-testid": id, class: primary ? "primary" : null, disabled: !available }, label);
  const planButton = button("Plan", "plan", true);
  const applyButton = button("Apply", "apply", true);
  const destroyButton = button("Destroy", "destroy");
  const cancelButton = el("button", { "data-testid": "engine-cancel", disabled: true }, "Cancel");
  const resetButton = el("button", { "data-testid": "reset-state", disabled: !available, title: "Forget the state kept for this configuration: the next plan starts from the terraform.tfstate file among the files, or from nothing" }, "Reset state");
  const number = (id, min, max, step, title) => el("input", { type: "number", min, max, step, "data-testid": id, title });
  const parallelism = number("engine-parallelism", "1", "256", "1", "At most this many provider operations at once (terraform apply -parallelism)");
  const delay = number("mock-delay", "0", "10000", "1", "How long each provider operation takes");
  const jitter = number("mock-jitter", "0", "10000", "1", "Each operation's duration moves by up to this many ms either way, drawn from the seed");
  const seed = number("mock-seed", "0", "4294967295", "1", "The jitter's and rate limits' seed: the same seed gives the same timeline");
  const rateLimit = number("mock-rate-limit", "0", "100", "1", "The share of calls throttled (Rate exceeded); the provider retries with backoff from 100 ms, doubling");
  const maxRetries = number("mock-retries", "0", "32", "1", "Retries of a throttled call before the provider gives up");
  const text = (id, title, placeholder = "(none)") => el("input", { type: "text", placeholder, spellcheck: "false", "data-testid": id, title });
  const failNames = text("mock-fail", "The mock fails objects whose name attribute is listed (comma-separated)");
  const failAddresses = text("mock-fail-addresses", "The mock fails these resource instances (comma-separated addresses: aws_instance.web[1]; a resource's address fails all its instances)");
  const failOps = el(
    "select",
    { "data-testid": "mock-fail-ops", title: "Which operations of the failing objects fail (the mock's failOps)" },
    ...[["create", "creates"], ["update", "updates"], ["delete", "deletes"], [FAIL_OPS.join(","), "any change"]].map(([value, label]) => el("option", { value }, label)),
  );
  const failSelected = el("button", { "data-testid": "mock-fail-selected", disabled: true, title: "Select a resource on the graph: its address joins the failing addresses" }, "fail selected");
  const targets = text("engine-targets", "terraform plan -target: resource, instance or module addresses, comma-separated");
  const replace = text("engine-replace", "terraform plan -replace: resource instance addresses, comma-separated");
  const targetSelected = el("button", { "data-testid": "target-selected", disabled: true, title: "Select a resource or module on the graph: its address joins the targets" }, "target selected");
  const replaceSelected = el("button", { "data-testid": "replace-selected", disabled: true, title: "Select a resource on the graph: its planned instances join -replace" }, "replace selected");
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
  const timeline = el("div", { class: "engine-timeline", "data-testid": "engine-timeline" });
  const applySection = el("section", {}, el("h3", {}, "Apply"), diagnostics, log, timeline, el("h3", {}, "State ", stateInfo, " ", download), stateDetails);
  root.append(
    el(
      "div",
      { class: "engine-head" },
      el("div", { class: "run-controls" }, planButton, applyButton, destroyButton, cancelButton, resetButton, field("parallelism", parallelism)),
      el(
        "div",
        { class: "run-controls mock-controls" },
        el("span", { class: "muted", title: "The mock providers' knobs (hashicorp/mock and the generic mock)" }, "mock:"),
        field("delay ms", delay),
        field("jitter ± ms", jitter),
        field("seed", seed),
        field("rate limit %", rateLimit),
        field("retries", maxRetries),
        field("fail names", failNames),
        field("fail addresses", failAddresses),
        field("on", failOps),
        failSelected,
      ),
      el(
        "div",
        { class: "run-controls plan-controls" },
        el("span", { class: "muted", title: "Terraform's plan options" }, "plan:"),
        field("-target", targets),
        targetSelected,
        field("-replace", replace),
        replaceSelected,
      ),
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

  // ---- Settings --------------------------------------------------------------------------------

  /** The inputs' settings, read as the share link stores them (engine-model.js readSettings). */
  function settings() {
    const percent = rateLimit.value.trim() === "" ? undefined : Number(rateLimit.value) / 100;
    return readSettings({
      parallelism: parallelism.value,
      delayMs: delay.value,
      jitterMs: jitter.value,
      seed: seed.value,
      rateLimit: percent,
      maxRetries: maxRetries.value,
      failNames: failNames.value,
      failAddresses: failAddresses.value,
      failOps: failOps.value,
      targets: targets.value,
      replace: replace.value,
    });
  }
  function setSettings(raw) {
    const s = readSettings(raw);
    parallelism.value = String(s.parallelism);
    delay.value = String(s.delayMs);
    jitter.value = String(s.jitterMs);
    seed.value = String(s.seed);
    rateLimit.value = String(Math.round(s.rateLimit * 10_000) / 100);
    maxRetries.value = String(s.maxRetries);
    failNames.value = s.failNames.join(", ");
    failAddresses.value = s.failAddresses;
    const ops = s.failOps.join(",");
    // A combination the menu does not offer (from a share link) gets an entry of its own.
    if (![...failOps.options].some((o) => o.value === ops)) failOps.append(el("option", { value: ops }, s.failOps.map((op) => `${op}s`).join(" + ")));
    failOps.value = ops;
    targets.value = s.targets;
    replace.value = s.replace;
  }
  setSettings({});
  for (const input of [parallelism, delay, jitter, seed, rateLimit, maxRetries, failNames, failAddresses, failOps, targets, replace]) input.addEventListener("change", () => onSettings?.());

  // The node selected on the graph: `{ name, address, kind }` (main.js says which address and
  // kind of block it stands for), or null.
  let selected = null;
  let lastChanges = null; // the last plan's changes, or null
  const isResource = (sel) => sel?.kind?.startsWith("resource") && sel.address;
  const isManaged = (sel) => isResource(sel) && !isData(sel.address);
  const isModule = (sel) => (sel?.kind === "module_expand" || sel?.kind === "module_close") && sel.address;

  // "fail selected": the selected resource's address joins the failing addresses (every instance
  // of it fails; an instance node of the apply view: that instance).
  failSelected.addEventListener("click", () => {
    if (!isResource(selected)) return;
    const { address } = selected;
    setSettings({ ...settings(), failAddresses: addAddresses(settings().failAddresses, [address]) });
    const ops = settings().failOps.join(", ");
    const planned = lastChanges ? instancesOf(lastChanges, address).length : null;
    summary.textContent = `The mock will fail ${ops} operations of ${address}${planned === null ? "" : ` (${planned} instance${planned === 1 ? "" : "s"} in the last plan)`}.`;
    onSettings?.();
  });

  // "target selected": the selected resource's or module's address joins -target.
  targetSelected.addEventListener("click", () => {
    const address = isResource(selected) || isModule(selected);
    if (!address) return;
    setSettings({ ...settings(), targets: addAddresses(settings().targets, [address]) });
    summary.textContent = `Plans now target ${settings().targets} (and what they depend on).`;
    onSettings?.();
  });

  // "replace selected": -replace names instances, so the selected resource's instances come
  // from the plan (Plan runs first when there is none yet).
  replaceSelected.addEventListener("click", async () => {
    const sel = selected;
    if (!isManaged(sel)) return;
    if (!lastChanges) await start("plan");
    const found = instancesOf(lastChanges ?? [], sel.address);
    if (found.length === 0) {
      summary.textContent = `The plan has no instance of ${sel.address} to replace.`;
      return;
    }
    setSettings({ ...settings(), replace: addAddresses(settings().replace, found) });
    summary.textContent = `Plans now replace ${found.join(", ")}.`;
    onSettings?.();
  });

  // ---- State ----------------------------------------------------------------------------------

  // The state is kept per configuration (main.js names it by a key the share link carries): a
  // reload or the same link again finds it, another configuration starts from none.
  const { load, store } = keptStates(sessionStorage);
  let configKey = null;
  let kept = null; // the state this configuration's applies produced, or null
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
    const from = kept ? "kept for this configuration" : s ? "from the terraform.tfstate file" : "empty";
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
    if (configKey !== null) store(configKey, state);
    showState();
  }
  resetButton.addEventListener("click", () => {
    keep(null);
    summary.textContent = "State reset.";
    onReset?.();
  });

  // ---- Showing results ----------------------------------------------------------------------------

  function showPlan(p) {
    lastChanges = p ? p.changes : null;
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

  /** The apply's operations as a timeline (the jitter, the backoffs and the waits show here). */
  function showTimeline(report) {
    const rows = report ? timelineRows(report.events) : [];
    if (rows.length === 0) return timeline.replaceChildren();
    const SYMBOL = { create: "+", update: "~", delete: "-", read: "<=" };
    const shown = rows.slice(0, MAX_BARS);
    const chart = gantt(
      shown.map((r) => {
        const name = r.deposed ? `${r.address} (deposed ${r.deposed})` : r.address;
        const ms = r.end - r.start;
        return {
          name,
          label: `${SYMBOL[r.operation] ?? ""} ${name}`,
          start: r.start,
          end: r.end,
          classes: r.failed ? ["failed"] : [],
          title: `${name}: ${r.operation} ${Math.round(r.start)}–${Math.round(r.end)} ms (${Math.round(ms)} ms)${r.failed ? ", failed" : ""}`,
          data: { address: r.address, operation: r.operation, start: Math.round(r.start), ms: Math.round(ms) },
        };
      }),
      { title: "The apply's provider operations over time", testid: "engine-gantt", barTestid: "engine-bar", range: [0, Math.max(...rows.map((r) => r.end))] },
    );
    const more = rows.length > shown.length ? ` (first ${shown.length} of ${rows.length} operations)` : "";
    timeline.replaceChildren(
      el("h3", {}, "Timeline ", el("span", { class: "muted" }, `${report.maxConcurrency} at most at once · ${Math.round(report.elapsedMs)} ms${more}; purple: failed`)),
      chart,
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
    showTimeline(null);
    summary.textContent = "Planning…";
    progress.value = 0;
    showDiagnostics([]);
    const nodeStates = createNodeStates();
    // Drawn nodes the apply walk's own events colour: every node in the apply view; elsewhere
    // those no provider operation colours (the providers, their close, modules, outputs, ...),
    // a resource's node there standing for all of its instances' operations.
    const walked = new Set();
    const operated = new Set(); // drawn nodes a planned operation colours
    let walkView = false;
    let total = 0; // the provider operations the plan needs (a replacement is two)
    let ended = 0;
    const counts = { running: 0, done: 0, failed: 0, skipped: 0 };
    const onPlan = (plan) => {
      names = new Set(graphView.names()); // the apply view may have been drawn again for this plan
      showPlan(plan);
      total = summariseChanges(plan.changes).rows.reduce((n, c) => n + (c.actions.length === 2 && c.actions.includes("delete") ? 2 : c.actions.join() === "forget" ? 0 : 1), 0);
      summary.textContent = `Applying: 0 of ${total} operations`;
      // What will change waits (grey) until its operation starts.
      walkView = drawsApply();
      for (const c of summariseChanges(plan.changes).rows) {
        const node = nodeForEvent(names, { address: c.address, operation: c.actions.join() === "delete" ? "delete" : c.actions[0], deposed: c.deposed });
        if (node) graphView.setState(node, "pending");
        if (node) operated.add(node);
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
        if (node && !walked.has(node)) {
          nodeStates.record(node, ev.kind);
          dirty.add(node);
        }
      }
      schedule();
    };
    // The apply walk's node events: every node of the apply graph as the walk runs it,
    // providers, their `(close)`, variables, outputs and modules included. A resource node's
    // start comes before its operation's event, so the operation never colours it twice.
    const onWalkEvent = (ev) => {
      if (!names.has(ev.node) || (!walkView && operated.has(ev.node))) return;
      walked.add(ev.node);
      nodeStates.record(ev.node, ev.type);
      dirty.add(ev.node);
      schedule();
    };
    let result = null;
    let failure = null;
    try {
      result = await run(kind, {
        state: current(),
        ...engineOptions(settings()),
        signal: controller.signal,
        onEvent,
        onWalkEvent,
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
      // The engine stopped (out of memory, a trap): it says what and where, and starts afresh.
      const stopped = failure.diagnostics?.find((d) => d.severity === "error");
      summary.textContent = stopped ? `Stopped: ${stopped.summary}. The engine was restarted; the next run starts afresh.` : `Internal error: ${failure.message}`;
      showDiagnostics(failure.diagnostics ?? []);
      if (failure.state) keep(failure.state);
      return;
    }
    showPlan(result.plan);
    showDiagnostics(result.diagnostics);
    showTimeline(result.report ?? null);
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
    /** The settings (parallelism and the mock's knobs), as the share link stores them. */
    settings,
    /** Sets the inputs from a share link's settings (unreadable fields: the defaults). */
    setSettings,
    /**
     * The node selected on the graph, or null: `{ name, address, kind }`, the address and kind
     * of the block it stands for (what "fail / target / replace selected" add).
     */
    select(node) {
      selected = node?.name ? node : null;
      const name = selected?.name;
      failSelected.disabled = !available || !isResource(selected);
      targetSelected.disabled = !available || !(isResource(selected) || isModule(selected));
      replaceSelected.disabled = !available || !isManaged(selected);
      failSelected.title = isResource(selected) ? `Fail ${selected.address} (every instance the node stands for) with the mock` : "Select a resource on the graph: its address joins the failing addresses";
      targetSelected.title = targetSelected.disabled ? "Select a resource or module on the graph: its address joins the targets" : `Target ${selected.address} (-target)`;
      replaceSelected.title = replaceSelected.disabled ? "Select a managed resource on the graph: its planned instances join -replace" : `Replace ${name}'s instances (-replace)`;
    },
    /** The state this configuration's applies produced, or null (then the terraform.tfstate file is). */
    sessionState: () => kept,
    /** The files changed: the state file among them may be the prior state now. */
    filesChanged: () => showState(),
    /**
     * The configuration is the one `key` names (main.js: a share link's, or a new one's): its
     * kept state comes back, or none; `fresh`: a new configuration (an example, a dropped
     * folder), as in another directory, starts from no state.
     */
    useConfiguration(key, { fresh = false } = {}) {
      controller?.abort();
      configKey = key;
      if (fresh) store(key, null);
      kept = fresh ? null : load(key);
      showPlan(null);
      showDiagnostics([]);
      log.textContent = "";
      showTimeline(null);
      summary.textContent = "";
      progress.value = 0;
      delete root.dataset.engine;
      showState();
    },
  };
}
