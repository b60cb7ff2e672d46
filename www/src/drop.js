// Dropping a configuration onto the page: a folder (DataTransferItem.webkitGetAsEntry) or a
// .zip (unpacked with the vendored fflate), e.g. a root module after `terraform init`, with its
// .terraform/modules/ folders and modules.json manifest. Produces the `{ path: contents }`
// object loadConfig takes, paths relative to the dropped folder (a single top folder, as a zip
// of a folder has, is stripped).

const WANTED = /(\.tf|\.tf\.json|\.tfvars|\.tfvars\.json|\.tftest\.hcl|\.tftest\.json|\.tfmock\.hcl|\.tfmock\.json)$|(^|\/)\.terraform\/modules\/modules\.json$|(^|\/)terraform\.tfstate$/;
const SKIPPED_DIR = /(^|\/)(\.git|node_modules|\.terraform\/providers)(\/|$)/;

const wanted = (path) => WANTED.test(path) && !SKIPPED_DIR.test(path);

/** Where the package looks for the directory files were read from (`path.cwd`). */
export const DIR = Symbol.for("tfgraph.dir");

/**
 * Strip the one top-level folder every path shares, if there is one. Its name stays with the
 * files (not enumerable, under DIR) as `/NAME`: a page knows no absolute path, and modules
 * mostly read `basename(path.cwd)`.
 */
function stripCommonTop(files) {
  const paths = Object.keys(files);
  const top = paths[0]?.split("/")[0];
  if (!top || !paths.every((p) => p.startsWith(`${top}/`))) return files;
  const stripped = Object.fromEntries(paths.map((p) => [p.slice(top.length + 1), files[p]]));
  Object.defineProperty(stripped, DIR, { value: `/${top}` });
  return stripped;
}

/** The configuration files of a zip archive (an ArrayBuffer or Uint8Array). */
export async function filesFromZip(bytes) {
  const { unzipSync, strFromU8 } = await import("../vendor/fflate.js");
  const entries = unzipSync(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), {
    filter: (f) => wanted(f.name.replace(/\\/g, "/")),
  });
  const files = {};
  for (const [name, data] of Object.entries(entries)) files[name.replace(/\\/g, "/")] = strFromU8(data);
  return stripCommonTop(files);
}

/** Every file under a FileSystemEntry, as [path, File] pairs. */
async function walkEntry(entry, prefix, out) {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    if (wanted(path)) out.push([path, await new Promise((ok, fail) => entry.file(ok, fail))]);
    return;
  }
  if (SKIPPED_DIR.test(path)) return;
  const reader = entry.createReader();
  // readEntries returns the entries in batches until an empty one.
  for (;;) {
    const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) break;
    for (const e of batch) await walkEntry(e, path, out);
  }
}

/**
 * The configuration from a list of files: File objects (with webkitRelativePath from a folder
 * picker, or plain names) or [path, File] pairs. A single .zip is unpacked.
 */
export async function filesFromList(list) {
  const pairs = Array.from(list, (f) => (Array.isArray(f) ? f : [f.webkitRelativePath || f.name, f]));
  if (pairs.length === 1 && /\.zip$/i.test(pairs[0][0])) return filesFromZip(await pairs[0][1].arrayBuffer());
  // A state file on its own (any name): the prior state for the configuration on the page.
  if (pairs.length === 1 && /\.tfstate$/i.test(pairs[0][0])) return { "terraform.tfstate": await pairs[0][1].text() };
  const files = {};
  for (const [path, file] of pairs) {
    const p = path.replace(/\\/g, "/").replace(/^\/+/, "");
    if (wanted(p)) files[p] = await file.text();
  }
  return stripCommonTop(files);
}

/** The configuration from a drop's DataTransfer: folders through their entries, else files. */
export async function filesFromDataTransfer(dt) {
  const entries = Array.from(dt.items ?? [], (i) => i.kind === "file" && i.webkitGetAsEntry?.()).filter(Boolean);
  if (entries.length > 0 && entries.some((e) => e.isDirectory)) {
    const pairs = [];
    for (const e of entries) await walkEntry(e, "", pairs);
    // One dropped folder: paths relative to it.
    return filesFromList(pairs);
  }
  return filesFromList(dt.files ?? []);
}

/**
 * Make `target` accept drops; `onFiles(files)` receives the `{ path: contents }` object of a
 * dropped folder or zip. Returns a function that removes the listeners.
 */
export function installDrop(target, onFiles, onError = console.error) {
  const over = (e) => {
    e.preventDefault();
    target.dataset.dragging = "true";
  };
  const leave = () => delete target.dataset.dragging;
  const drop = async (e) => {
    e.preventDefault();
    leave();
    try {
      const files = await filesFromDataTransfer(e.dataTransfer);
      if (Object.keys(files).length > 0) onFiles(files);
    } catch (err) {
      onError(err);
    }
  };
  target.addEventListener("dragover", over);
  target.addEventListener("dragleave", leave);
  target.addEventListener("drop", drop);
  return () => {
    target.removeEventListener("dragover", over);
    target.removeEventListener("dragleave", leave);
    target.removeEventListener("drop", drop);
  };
}
