// node scripts/order-functions.mjs IN.wasm OUT.wasm (OUT may be IN)
//
// Renames the module's functions (the "name" section's function names) so that sorting them by
// name gives the order gzip compresses best; scripts/build then runs wasm-opt with
// --reorder-functions-by-name, which lays the code out in that order (the names themselves are
// dropped by wasm-opt). The order: each function's Rust path without its symbol hash
// (`::h0123…`), crate disambiguators (`[c5930c85a12de822]`) and a leading `<`, then its size.
// So the copies of one generic (a `BTreeMap` insert per key and value type) sit side by side,
// smallest first, within gzip's 32 KB window of each other (bench/RESULTS.md, 2026-11-27 "size2").
import { readFileSync, writeFileSync } from "node:fs";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node scripts/order-functions.mjs IN.wasm OUT.wasm");
  process.exit(2);
}
const bytes = readFileSync(input);

function leb(at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}
function encodeLeb(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}
const utf8 = new TextDecoder();

// Sections: [id, start of contents, end].
const sections = [];
for (let at = 8; at < bytes.length; ) {
  const id = bytes[at];
  const [size, start] = leb(at + 1);
  sections.push([id, start, start + size]);
  at = start + size;
}

// Function imports come first in the function index space.
let imported = 0;
for (const [id, start] of sections.filter((s) => s[0] === 2)) {
  let [count, at] = leb(start);
  for (let i = 0; i < count; i++) {
    for (let part = 0; part < 2; part++) {
      const [len, next] = leb(at);
      at = next + len;
    }
    const kind = bytes[at++];
    if (kind === 0) {
      imported++;
      at = leb(at)[1];
    } else if (kind === 1 || kind === 2) {
      if (kind === 1) at++; // table: element type
      const [flags, next] = leb(at);
      at = leb(next)[1];
      if (flags & 1) at = leb(at)[1];
    } else if (kind === 3) {
      at += 2;
    } else {
      throw new Error(`import kind ${kind} (section ${id}) not understood`);
    }
  }
}

// Each defined function's body size, by function index.
const sizes = new Map();
for (const [, start] of sections.filter((s) => s[0] === 10)) {
  let [count, at] = leb(start);
  for (let i = 0; i < count; i++) {
    const [len, next] = leb(at);
    sizes.set(imported + i, len);
    at = next + len;
  }
}

const nameSection = sections.find(([id, start]) => {
  if (id !== 0) return false;
  const [len, at] = leb(start);
  return utf8.decode(bytes.subarray(at, at + len)) === "name";
});
if (!nameSection) throw new Error(`${input} has no name section: nothing to order by`);

const [, nameStart, nameEnd] = nameSection;
let [nameLen, at] = leb(nameStart);
at += nameLen;
const subsections = [];
while (at < nameEnd) {
  const id = bytes[at];
  const [size, start] = leb(at + 1);
  subsections.push([id, bytes.subarray(start, start + size)]);
  at = start + size;
}
const functionNames = subsections.find(([id]) => id === 1);
if (!functionNames) throw new Error(`${input} has no function names`);

const names = new Map();
{
  const sub = functionNames[1];
  const read = (p) => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = sub[p++];
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return [value, p];
    }
  };
  let [count, p] = read(0);
  for (let i = 0; i < count; i++) {
    const [index, q] = read(p);
    const [len, r] = read(q);
    names.set(index, utf8.decode(sub.subarray(r, r + len)));
    p = r + len;
  }
}

const key = (name) => name.replace(/^</, "").replace(/\[[0-9a-f]+\]/g, "").replace(/::h[0-9a-f]{16}$/, "");
const defined = [...sizes.keys()].map((index) => ({ index, key: key(names.get(index) ?? ""), size: sizes.get(index) }));
defined.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.size - b.size || a.index - b.index));

const renamed = new Map([...names].filter(([index]) => index < imported));
const width = String(defined.length).length;
defined.forEach(({ index }, rank) => renamed.set(index, String(rank).padStart(width, "0")));

const entries = [encodeLeb(renamed.size)];
for (const index of [...renamed.keys()].sort((a, b) => a - b)) {
  const name = Buffer.from(renamed.get(index));
  entries.push(encodeLeb(index), encodeLeb(name.length), name);
}
functionNames[1] = Buffer.concat(entries);

const contents = [encodeLeb(4), Buffer.from("name")];
for (const [id, sub] of subsections) contents.push(Buffer.from([id]), encodeLeb(sub.length), sub);
const section = Buffer.concat(contents);
const headerStart = sections.indexOf(nameSection) === 0 ? 8 : sections[sections.indexOf(nameSection) - 1][2];
writeFileSync(
  output,
  Buffer.concat([bytes.subarray(0, headerStart), Buffer.from([0]), encodeLeb(section.length), section, bytes.subarray(nameEnd)]),
);
