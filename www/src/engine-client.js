// The page's side of engine-worker.js: one plan, apply, destroy or test run as a promise, its
// events as callbacks, its AbortSignal forwarded. The worker starts on the first run.

let worker = null;
let nextId = 0;
const runs = new Map(); // id -> message handler

function engineWorker() {
  if (worker) return worker;
  worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => runs.get(data.id)?.(data);
  worker.onerror = (e) => {
    for (const handle of runs.values()) handle({ type: "error", message: `engine worker: ${e.message}` });
    runs.clear();
    worker = null;
  };
  return worker;
}

/**
 * Runs `kind` ("plan", "apply" or "destroy") on `files` in the worker. `options`: the package's
 * plan/apply options that cross to a worker (state, variables, mock, parallelism), plus `signal`,
 * `onEvent` and `onWalkEvent` (the apply walk's node events). `planned(plan)` is awaited once
 * the plan is made (not for an errored plan), before an apply starts. Resolves to `{ plan, diagnostics }` for a plan (or an errored or
 * aborted one), `{ plan, diagnostics, state, report }` after an apply.
 */
export function runEngine(kind, files, { signal, onEvent, onWalkEvent, ...options }, planned) {
  const w = engineWorker();
  const id = nextId++;
  const crossing = { ...options, destroy: kind === "destroy" };
  return new Promise((resolve, reject) => {
    const finish = (fn, value) => {
      runs.delete(id);
      signal?.removeEventListener("abort", abort);
      fn(value);
    };
    const abort = () => w.postMessage({ id, type: "abort" });
    signal?.addEventListener("abort", abort, { once: true });
    runs.set(id, async (msg) => {
      if (msg.type === "event") onEvent?.(msg.event);
      else if (msg.type === "walk") onWalkEvent?.(msg.event);
      else if (msg.type === "planned") {
        const plan = msg.plan;
        if (!plan.errored) await planned?.(plan);
        if (kind === "plan" || plan.errored || signal?.aborted) {
          w.postMessage({ id, type: "forget" });
          finish(resolve, { plan, diagnostics: plan.diagnostics });
        } else w.postMessage({ id, type: "apply", options: crossing });
      } else if (msg.type === "applied") finish(resolve, msg.result);
      else if (msg.type === "error") {
        // A TfgraphError's diagnostics (the module ran out of memory: it says where) and the
        // state an apply had written when it stopped.
        finish(reject, Object.assign(new Error(msg.message), { diagnostics: msg.diagnostics, state: msg.state }));
      }
    });
    w.postMessage({ id, type: "plan", files, options: crossing });
  });
}

/**
 * Runs `terraform test` (the package's test()) on `files` in the worker. `options`: test()'s
 * options that cross to a worker (variables, varFiles, filter, testDirectory, verbose), plus
 * `onEvent`, told of each file and run as the runner reaches it. Resolves to test()'s result.
 */
export function runTests(files, { onEvent, ...options }) {
  const w = engineWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    runs.set(id, (msg) => {
      if (msg.type === "event") return onEvent?.(msg.event);
      runs.delete(id);
      if (msg.type === "tested") resolve(msg.result);
      else reject(Object.assign(new Error(msg.message), { diagnostics: msg.diagnostics }));
    });
    w.postMessage({ id, type: "test", files, options });
  });
}
