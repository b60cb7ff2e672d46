// A tiny static server for the playground: `/` serves www/, `/pkg/` serves the built package.
// No dependencies; bound to 127.0.0.1. Used by scripts/serve and by the page tests
// (tests/page/), which call startServer({ port: 0 }) for a free port.
//
//   node scripts/serve.mjs [port]     (default 8080; PORT in the environment works too)

import { createServer } from "node:http";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));

/** URL prefix → folder. The longest matching prefix wins. */
const ROOTS = [
  ["/pkg/", join(repo, "pkg")],
  ["/", join(repo, "www")],
];

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".tf": "text/plain; charset=utf-8",
  ".ts": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".woff2": "font/woff2",
};

/** The file a URL path names, or null when it escapes its root. */
function resolve(pathname) {
  const [prefix, dir] = ROOTS.find(([p]) => pathname.startsWith(p));
  let rel = decodeURIComponent(pathname.slice(prefix.length));
  if (rel === "" || rel.endsWith("/")) rel += "index.html";
  const file = normalize(join(dir, rel));
  return file === dir || file.startsWith(dir + sep) ? file : null;
}

async function handle(req, res) {
  const send = (status, text) => {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
    res.end(text);
  };
  if (req.method !== "GET" && req.method !== "HEAD") return send(405, "method not allowed\n");
  let file;
  try {
    file = resolve(new URL(req.url, "http://localhost").pathname);
  } catch {
    return send(400, "bad request\n");
  }
  if (!file) return send(403, "forbidden\n");
  let info;
  try {
    info = await stat(file);
  } catch {
    return send(404, `not found: ${req.url}\n`);
  }
  if (info.isDirectory()) {
    res.writeHead(301, { location: req.url.replace(/\/?(\?|$)/, "/$1") });
    return res.end();
  }
  res.writeHead(200, {
    "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    "content-length": info.size,
    // A development server: always serve what is on disk now.
    "cache-control": "no-store",
  });
  if (req.method === "HEAD") return res.end();
  createReadStream(file).pipe(res);
}

/** Starts the server; resolves to `{ server, url }` once it listens. */
export function startServer({ port = 8080, host = "127.0.0.1" } = {}) {
  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolvePromise({ server, url: `http://${host}:${actual}/` });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const { url } = await startServer({ port });
  console.log(`tfgraph playground: ${url}  (www/ at /, pkg/ at /pkg/; Ctrl-C stops)`);
}
