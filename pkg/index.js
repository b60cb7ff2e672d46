// The package entry for browsers, workers and bundlers: loads the WebAssembly module while this
// module is evaluated, so importing "tfgraph" is all a user does. No top-level await (Vite 6's
// default build target and every `es2020`-era target reject it): the `.wasm` file is fetched
// with a synchronous request and compiled synchronously. Both are allowed on a page's main
// thread for a module of this size (browsers cap synchronous compilation at several MB) and in
// workers. Pages that must not block while it loads import "tfgraph/init" and `await init()`.
//
// `new URL("./tfgraph_bg.wasm", import.meta.url)` is the pattern Vite and webpack 5 recognise:
// they emit the file as an asset and rewrite the URL to it. Where a bundler leaves the module
// without `import.meta.url` (esbuild's default IIFE format), the URL is taken relative to the
// script being run, so the `.wasm` file belongs beside the bundle.

import { initSync } from "./api.js";
import { fetchSync, viteDevUrl } from "./fetch-sync.js";

function wasmUrl() {
  try {
    return new URL("./tfgraph_bg.wasm", import.meta.url);
  } catch {
    const script = globalThis.document?.currentScript?.src ?? globalThis.location?.href;
    return new URL("./tfgraph_bg.wasm", script);
  }
}

const isWasm = (bytes) => bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;

function loadSync() {
  const url = wasmUrl();
  if (url.protocol === "file:") {
    // A server-side bundle that resolved this entry instead of node.js: read the file from disk.
    const fs = globalThis.process?.getBuiltinModule?.("node:fs");
    if (fs) return fs.readFileSync(url);
    throw new Error(`tfgraph: cannot load ${url} here: import "tfgraph/init" and \`await init(bytes)\``);
  }
  const bytes = fetchSync(url);
  if (isWasm(bytes)) return bytes;
  const retry = viteDevUrl(url, "tfgraph_bg.wasm");
  if (retry) {
    const again = fetchSync(retry);
    if (isWasm(again)) return again;
  }
  throw new Error(
    `tfgraph: ${url} is not the WebAssembly module (the server sent something else): serve the ` +
      "package's tfgraph_bg.wasm there (with Vite, add optimizeDeps: { exclude: [\"tfgraph\"] })",
  );
}

initSync(loadSync());

export * from "./api.js";
