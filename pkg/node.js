// The package entry for Node, Deno and Bun (the "node" export condition), for both `import` and
// `require` (Node 20.19+ and 22.12+ load this ES module from require() because it has no
// top-level await). Reads the `.wasm` file beside this one and compiles it synchronously, so
// importing "tfgraph" is all a user does.

import { readFileSync } from "node:fs";
import { initSync } from "./api.js";

initSync(readFileSync(new URL("./tfgraph_bg.wasm", import.meta.url)));

export * from "./api.js";
