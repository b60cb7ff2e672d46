// The Tests panel: `terraform test` on the editor's files (the package's test(), run in
// engine-worker.js through main.js, against the mock providers: no init). Each test file and
// run appears as the runner reaches it (its events), with its status; a failed assertion or an
// error shows its message and links to its line in the editor; each run's outputs, its plan
// (as `terraform plan` prints it) and, after an apply run, its state can be opened; the
// runner's own text (what `terraform test` prints) is below. With no test file among the files,
// it offers a starter. Gets plain data from main.js; never imports the package.

import { el } from "./dom.js";

/** A test file as Terraform finds one: `*.tftest.hcl` / `.tftest.json` in the root or `tests/`. */
export const isTestFile = (path) => /^(tests\/)?[^/]+\.tftest\.(hcl|json)$/.test(path);

/** The words the panel shows for a status (`error` prints as `fail` in Terraform's text; here it is said). */
const WORDS = { pending: "pending", running: "running", pass: "pass", fail: "fail", error: "error", skip: "skip", teardown: "tearing down" };

/**
 * The starter test file for a configuration: a plan run and an apply run, each asserting on
 * `resource` (the first resource's address, when there is one: `!= null` holds for a single
 * object and for a list of instances alike).
 */
export function starterTest(resource) {
  const assert = (what) =>
    resource
      ? `

  assert {
    condition     = ${resource} != null
    error_message = "${resource} is ${what}"
  }`
      : "";
  return `# terraform test runs these runs in order: each plans
# (command = plan) or applies the module, then checks its
# assertions. An apply's state carries over to later runs;
# what was applied is destroyed at the end. The providers
# are tfgraph's mocks here. Edit a condition, run again.

run "plan" {
  command = plan${assert("planned")}
}

run "apply" {${assert("applied").replace(/^\n/, "")}
}
`;
}

/**
 * @param {HTMLElement} root
 * @param {{ available: boolean,
 *           run: (options: { onEvent: (event: object) => void }) => Promise<object>,
 *           testFiles: () => string[],
 *           addStarter: () => void,
 *           reveal: (range: object) => void,
 *           open: (path: string, name?: string) => void }} deps
 *   `run` resolves to test()'s result; `open(path, run)` shows a test file (at the run's block).
 */
export function createTestsPanel(root, { available, run, testFiles, addStarter, reveal, open }) {
  const runButton = el("button", { class: "primary", "data-testid": "run-tests", disabled: !available }, "Run tests");
  const starterButton = el("button", { "data-testid": "add-test", disabled: !available, title: "Add tests/main.tftest.hcl: a plan run and an apply run to start from" }, "Add a starter test file");
  const summary = el("span", { class: "run-summary", "data-testid": "tests-summary" });
  const list = el("ul", { class: "test-files", "data-testid": "test-files" });
  const none = el("p", { class: "muted", "data-testid": "tests-none", hidden: true }, "No test file here: terraform test reads *.tftest.hcl files in the root and in tests/. ", starterButton);
  const diagnostics = el("ul", { class: "diagnostics", "data-testid": "tests-diagnostics" });
  const output = el("pre", { class: "terminal", "data-testid": "tests-output" });
  root.append(
    el("div", { class: "engine-head" }, el("div", { class: "run-controls" }, runButton, summary)),
    el(
      "p",
      { class: "muted run-note" },
      available
        ? "terraform test, in this tab: the test files run in order against mock providers (hashicorp/mock, a generic mock for the others, or the files' mock_provider blocks), with no init. A failed assertion links to its line."
        : "This build of the package has no test(): the Tests tab is not available.",
    ),
    none,
    diagnostics,
    list,
    el("h3", {}, "Output ", el("span", { class: "muted" }, "(terraform test -verbose's text)")),
    output,
  );
  starterButton.addEventListener("click", () => addStarter());

  /** path -> { item, status, runs: Map(name -> { item, status, body }) } of the list shown. */
  let shown = new Map();

  const badge = (status) => el("span", { class: `test-status status-${status}`, "data-testid": "test-status" }, WORDS[status] ?? status);
  function setStatus(item, status) {
    item.dataset.status = status;
    item.querySelector(":scope > .test-head > .test-status")?.replaceWith(badge(status));
  }

  /** A diagnostic as the list shows it: its message, and its range as a link to the line. */
  function diagnostic(d) {
    const failed = d.summary === "Test assertion failed";
    return el(
      "li",
      { class: `diagnostic ${d.severity}`, "data-testid": failed ? "test-failure" : "test-diagnostic" },
      el("div", { class: "summary" }, `${d.severity === "warning" ? "Warning" : "Error"}: ${d.summary}`),
      d.range ? el("button", { class: "link", "data-testid": "test-link", onclick: () => reveal(d.range) }, `${d.range.filename}:${d.range.start.line}:${d.range.start.column}`) : "",
      d.detail ? el("div", { class: "detail" }, d.detail) : "",
    );
  }

  /** Lays out the files and runs the runner announced, all pending. */
  function outline(files) {
    shown = new Map();
    list.replaceChildren(
      ...files.map(({ path, runs }) => {
        const runList = el("ul", { class: "test-runs" });
        const item = el(
          "li",
          { class: "test-file", "data-testid": "test-file", "data-path": path },
          el("div", { class: "test-head" }, badge("pending"), el("button", { class: "link mono", onclick: () => open(path) }, path)),
          el("ul", { class: "diagnostics" }),
          runList,
        );
        item.dataset.status = "pending";
        const entry = { item, runs: new Map() };
        for (const name of runs) {
          const body = el("div", { class: "test-run-body" });
          const runItem = el(
            "li",
            { class: "test-run", "data-testid": "test-run", "data-run": name },
            el("div", { class: "test-head" }, badge("pending"), el("button", { class: "link mono", title: `Show run "${name}" in ${path}`, onclick: () => open(path, name) }, `run "${name}"`)),
            body,
          );
          runItem.dataset.status = "pending";
          entry.runs.set(name, { item: runItem, body });
          runList.append(runItem);
        }
        shown.set(path, entry);
        return item;
      }),
    );
  }

  const runOf = (ev) => shown.get(ev.file)?.runs.get(ev.run);

  function onEvent(ev) {
    if (ev.type === "abstract") outline(ev.files);
    else if (ev.type === "file") {
      const f = shown.get(ev.file);
      if (!f) return;
      setStatus(f.item, ev.progress === "starting" ? "running" : ev.progress === "teardown" ? "teardown" : ev.status);
      if (ev.progress === "complete" && ev.diagnostics?.length) f.item.querySelector(":scope > .diagnostics").replaceChildren(...ev.diagnostics.map(diagnostic));
    } else if (ev.type === "run") {
      const r = runOf(ev);
      if (!r || ev.progress === "teardown") return;
      setStatus(r.item, ev.progress === "starting" ? "running" : ev.status);
      if (ev.progress === "complete") r.body.replaceChildren(el("ul", { class: "diagnostics" }, ...(ev.diagnostics ?? []).map(diagnostic)));
    } else if (ev.type === "cleanup") {
      const f = shown.get(ev.file);
      const left = ev.left.length ? [{ severity: "error", summary: "Failed to clean up", detail: `Left in the state: ${ev.left.join(", ")}` }] : [];
      f?.item.querySelector(":scope > .diagnostics").append(...[...ev.diagnostics, ...left].map(diagnostic));
    } else if (ev.type === "diagnostics") diagnostics.replaceChildren(...ev.diagnostics.map(diagnostic));
  }

  const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
  /** A run's outputs, plan and state, each opened on demand (a state's text is made when opened). */
  function details(testid, label, text) {
    const pre = el("pre", { class: "terminal" });
    const d = el("details", { "data-testid": testid }, el("summary", {}, label), pre);
    d.addEventListener("toggle", () => {
      if (d.open && !pre.textContent) pre.textContent = text();
    });
    return d;
  }

  /** The result's runs: their outputs, plans and states under each run. */
  function finish(result) {
    for (const f of result.files) {
      const entry = shown.get(f.path);
      if (!entry) continue;
      setStatus(entry.item, f.status);
      for (const r of f.runs) {
        const shownRun = entry.runs.get(r.name);
        if (!shownRun) continue;
        setStatus(shownRun.item, r.status);
        const views = el("div", { class: "test-views" });
        if (r.outputs && Object.keys(r.outputs).length) views.append(details("test-outputs", "outputs", () => json(r.outputs)));
        if (r.plan) views.append(details("test-plan", "plan", () => r.plan));
        if (r.state) views.append(details("test-state", `state (${(r.state.resources ?? []).reduce((n, x) => n + (x.instances?.length ?? 0), 0)} objects)`, () => json(r.state)));
        if (views.childElementCount) shownRun.body.append(views);
      }
    }
  }

  function counts(result) {
    const runs = result.files.flatMap((f) => f.runs);
    const n = (s) => runs.filter((r) => r.status === s).length;
    return { pass: n("pass"), fail: n("fail") + n("error"), skip: n("skip") };
  }

  let running = false;
  async function start() {
    if (running || !available) return;
    running = true;
    runButton.disabled = true;
    root.dataset.tests = "running";
    summary.textContent = "Running…";
    diagnostics.replaceChildren();
    list.replaceChildren();
    output.textContent = "";
    let result;
    try {
      result = await run({ onEvent });
    } catch (e) {
      // The engine stopped (out of memory, a trap): it says what and where, and starts afresh.
      const stopped = e.diagnostics?.find((d) => d.severity === "error");
      summary.textContent = stopped ? `Stopped: ${stopped.summary}. The engine was restarted; the next run starts afresh.` : `Internal error: ${e.message}`;
      diagnostics.replaceChildren(...(e.diagnostics ?? []).map(diagnostic));
      root.dataset.tests = "error";
      return;
    } finally {
      running = false;
      enable();
    }
    finish(result);
    if (result.diagnostics.length) diagnostics.replaceChildren(...result.diagnostics.map(diagnostic));
    output.textContent = `${result.stdout}${result.stderr ? `\n${result.stderr}` : ""}`;
    const c = counts(result);
    summary.textContent =
      result.files.length === 0
        ? result.diagnostics.some((d) => d.severity === "error")
          ? "The test files do not load: see the errors."
          : "No test files ran."
        : `${result.status === "pass" ? "Success!" : "Failure!"} ${c.pass} passed, ${c.fail} failed${c.skip ? `, ${c.skip} skipped` : ""}.`;
    root.dataset.tests = result.status;
  }
  runButton.addEventListener("click", () => start());

  /** Whether there are test files decides what the panel offers. */
  function enable() {
    const have = testFiles().length > 0;
    none.hidden = have;
    runButton.disabled = !available || running || !have;
    runButton.title = have ? "terraform test: run every test file" : "Add a test file first";
  }

  return {
    /** The files changed: the test files among them may have come or gone. */
    filesChanged: enable,
    /** A new configuration: the last results go. */
    reset() {
      list.replaceChildren();
      diagnostics.replaceChildren();
      output.textContent = "";
      summary.textContent = "";
      delete root.dataset.tests;
    },
    run: start,
  };
}
