// The session in the URL, so that a link reproduces it: the files (or just the gallery
// example's id while they are unchanged), the open file, the view, reduction, the selected
// node, the Run and Plan / Apply tabs' settings (parallelism, latency, -target and -replace,
// the mock's seed, jitter, rate limits and failing names and addresses), and the key the Plan /
// Apply tab keeps this configuration's state under. Stored in the hash as `#s=` +
// base64url(deflate(JSON)), with the vendored fflate.

import { deflateSync, inflateSync, strFromU8, strToU8 } from "../vendor/fflate.js";

const KEY = "s=";

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The hash for a session `{ example?, files?, open, view, reduce, selected?, run?, engine?, config? }`. */
export function encodeSession(session) {
  return `#${KEY}${toBase64Url(deflateSync(strToU8(JSON.stringify(session)), { level: 9 }))}`;
}

/** The session in a hash, or null when there is none or it cannot be read. */
export function decodeSession(hash) {
  const at = hash.indexOf(KEY);
  if (at < 0) return null;
  try {
    const session = JSON.parse(strFromU8(inflateSync(fromBase64Url(hash.slice(at + KEY.length)))));
    if (typeof session !== "object" || session === null) return null;
    if (session.files !== undefined) {
      const ok = typeof session.files === "object" && session.files !== null &&
        Object.entries(session.files).every(([k, v]) => typeof k === "string" && typeof v === "string");
      if (!ok) return null;
    }
    return session;
  } catch {
    return null;
  }
}

let saves = 0;

/**
 * Replaces the URL's hash without adding a history entry. Compresses with the browser's own
 * CompressionStream (the same raw DEFLATE decodeSession reads) off the JavaScript thread: fflate
 * at level 9 held the page 130 ms for a 2,000-resource file on every edit. A save that a newer
 * one overtook is dropped.
 */
export async function saveSession(session) {
  const mine = ++saves;
  const json = JSON.stringify(session);
  let hash;
  if (typeof CompressionStream === "function") {
    const stream = new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    hash = `#${KEY}${toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()))}`;
  } else hash = encodeSession(session);
  if (mine === saves) history.replaceState(null, "", hash);
}
