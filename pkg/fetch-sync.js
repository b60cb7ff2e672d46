// Reading the package's own files (the .wasm, the encodings' tables) where no `await` may be used:
// a synchronous request, and where Vite's dev server moved the package. Used by index.js and
// api.js; not an export of the package.

/**
 * The bytes at `url`, by a synchronous request. A synchronous request may set responseType only
 * in a worker; on a page the bytes arrive as text in the x-user-defined charset, one char per
 * byte (bytes from 0x80 become U+F780 and up, whose low 8 bits are the byte: storing into a
 * Uint8Array keeps exactly those).
 */
export function fetchSync(url) {
  const request = new XMLHttpRequest();
  request.open("GET", url, false);
  const binaryText = globalThis.document !== undefined;
  if (binaryText) request.overrideMimeType("text/plain; charset=x-user-defined");
  else request.responseType = "arraybuffer";
  request.send();
  if (request.status !== 200 && request.status !== 0) {
    throw new Error(`tfgraph: cannot load ${url}: HTTP ${request.status} ${request.statusText}`);
  }
  if (!binaryText) return new Uint8Array(request.response);
  const text = request.responseText;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Vite's dev server pre-bundles dependencies into node_modules/.vite/deps/ without moving the
 * assets they point at (vitejs/vite#8427), so `url` (an asset of this package) names a file that
 * is not there and the server answers with its index.html. The package itself is then at
 * ../../tfgraph/ from there: the asset's URL in it, or null when `url` is not under Vite's deps.
 * (Built as a string so that no bundler tries to resolve it at build time.)
 */
export function viteDevUrl(url, file) {
  if (!url.pathname.includes("/node_modules/.vite/")) return null;
  const beside = "../../tfgraph/";
  return new URL(beside + file, url);
}
