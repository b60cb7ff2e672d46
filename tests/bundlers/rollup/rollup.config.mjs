// Rollup resolves bare imports only through @rollup/plugin-node-resolve; `browser: true` picks
// the package's browser entry. The .wasm is copied beside the bundle by the build script.
import { nodeResolve } from "@rollup/plugin-node-resolve";

export default {
  input: "src/main.js",
  output: { dir: "dist", format: "es" },
  plugins: [nodeResolve({ browser: true })],
};
