// The engine beside the page: the Plan / Apply tab's plan(), apply() and destroy() and the Tests
// tab's test() run here,
// so the seconds a large configuration takes (500 resources: about 2 s to plan, 3 s to apply in
// the package today) never freeze the page. The package is imported by its served path (module
// workers have no import map). Messages, each with the run's `id`:
//   in:  { type: "plan", files, options }   plan; the Plan is kept for the apply that may follow
//        { type: "apply", options }         apply the kept Plan exactly
//        { type: "abort" }                  abort the run's signal (nothing new starts)
//        { type: "forget" }                 drop the kept Plan
//        { type: "test", files, options }   terraform test: the package's test()
//   out: { type: "event", event }           every EngineEvent, as it happens
//        { type: "walk", event }            every node's WalkEvent of the apply walk, as it happens
//        { type: "planned", plan }          the plan as plain data (text, changes, JSON, ...)
//        { type: "applied", result }        { plan, diagnostics, state, report }
//        { type: "tested", result }         test()'s result (its events came as "event"s)
//        { type: "error", message, diagnostics?, state? }   the package threw: a bug, or the
//                                           module ran out of memory (a TfgraphError with its
//                                           diagnostics; an apply's state so far); the package
//                                           has replaced its instance, the next run works

import * as tfgraph from "../pkg/index.js";

const plans = new Map();
const controllers = new Map();

/** A Plan as the page shows it: plain, structured-clonable data. */
const plainPlan = (p) => ({
  text: p.toString(),
  changes: p.changes,
  diagnostics: p.diagnostics,
  errored: p.errored,
  hasChanges: p.hasChanges,
  json: p.errored ? null : p.toJSON(),
});

self.onmessage = async ({ data: { id, type, files, options } }) => {
  if (type === "abort") return controllers.get(id)?.abort();
  if (type === "forget") {
    // Freed now: the garbage collector, which wasm memory does not prompt, would free it late.
    plans.get(id)?.free();
    plans.delete(id);
    controllers.delete(id);
    return;
  }
  if (!controllers.has(id)) controllers.set(id, new AbortController());
  const run = {
    ...options,
    signal: controllers.get(id).signal,
    onEvent: (event) => self.postMessage({ id, type: "event", event }),
    onWalkEvent: (event) => self.postMessage({ id, type: "walk", event }),
    // Given, so that the package keeps the state as the apply writes it (paced, see
    // drive.rs): an apply that stops midway (the module out of memory) rejects with the state
    // written so far, which reaches the page in the "error" message (issue #26).
    onState: () => {},
  };
  try {
    if (type === "test") {
      // test() takes no signal (it runs to the end in one call): only its events cross.
      const r = await tfgraph.test(files, { ...options, onEvent: run.onEvent });
      controllers.delete(id);
      self.postMessage({ id, type: "tested", result: r });
    } else if (type === "plan") {
      const p = await tfgraph.plan(files, run);
      plans.set(id, p);
      self.postMessage({ id, type: "planned", plan: plainPlan(p) });
    } else if (type === "apply") {
      const p = plans.get(id);
      plans.delete(id);
      const r = await tfgraph.apply(p, run);
      controllers.delete(id);
      self.postMessage({ id, type: "applied", result: { plan: plainPlan(r.plan), diagnostics: r.diagnostics, state: r.state, report: r.report } });
      p.free();
    }
  } catch (e) {
    plans.get(id)?.free();
    plans.delete(id);
    controllers.delete(id);
    self.postMessage({ id, type: "error", message: e?.message ?? String(e), diagnostics: e?.diagnostics, state: e?.state });
  }
};
