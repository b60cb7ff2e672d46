// usage: node bench/encodings/textdecoder-vs-xtext.mjs XTEXT_DIR
// Compares this JS engine's TextDecoder with the decode tables of Go's golang.org/x/text (the
// encodings Terraform's textencodebase64/textdecodebase64 use, through ianaindex), pointer by
// pointer: whether the engine could supply those tables at run time. XTEXT_DIR is a checkout of
// golang.org/x/text (its tables.go files are generated from the WHATWG indexes and ICU's .ucm
// files, and did not change between v0.22.0, Terraform 1.11, and v0.41.0, Terraform 1.15).
import { readFileSync } from "node:fs";
import { join } from "node:path";
const dir = process.argv[2];
const read = (p) => readFileSync(join(dir, p), "utf8");

// charmap: `var name = Charmap{ name: "...", mib: identifier.X, ..., decode: [256]utf8Enc{{n,[3]byte{..}}, ...}`
const charmaps = {};
const cm = read("encoding/charmap/tables.go");
for (const m of cm.matchAll(/var (\w+) = Charmap\{\s*name:\s*"[^"]*",\s*mib:\s*identifier\.(\w+),[\s\S]*?decode:\s*\[256\]utf8Enc\{([\s\S]*?)\},\s*encode/g)) {
  const dec = [...m[3].matchAll(/\{(\d+),\s*\[3\]byte\{0x(\w+),\s*0x(\w+),\s*0x(\w+)\}\}/g)].map((e) =>
    new TextDecoder().decode(Uint8Array.from([e[2], e[3], e[4]].slice(0, +e[1]).map((h) => parseInt(h, 16)))).codePointAt(0));
  charmaps[m[1]] = dec;
}
const array = (src, name) => {
  const s = src.indexOf(`var ${name} = [...]`), e = src.indexOf("\n}\n", s);
  const out = new Map();
  for (const m of src.slice(s, e).matchAll(/(\d+):\s*0x([0-9A-Fa-f]+),/g)) out.set(+m[1], parseInt(m[2], 16));
  return out;
};
const cjk = {
  gbk: array(read("encoding/simplifiedchinese/tables.go"), "decode"),
  big5: array(read("encoding/traditionalchinese/tables.go"), "decode"),
  jis0208: array(read("encoding/japanese/tables.go"), "jis0208Decode"),
  jis0212: array(read("encoding/japanese/tables.go"), "jis0212Decode"),
  euckr: array(read("encoding/korean/tables.go"), "decode"),
};

const decoder = (label) => { try { return new TextDecoder(label); } catch { return null; } };
const one = (td, bytes) => {
  const cps = [...td.decode(Uint8Array.from(bytes))].map((c) => c.codePointAt(0));
  return cps.length === 1 && cps[0] !== 0xfffd ? cps[0] : null;
};
const rows = [];
const single = { iso8859_2: "iso-8859-2", iso8859_3: "iso-8859-3", iso8859_4: "iso-8859-4", iso8859_5: "iso-8859-5",
  iso8859_6: "iso-8859-6", iso8859_7: "iso-8859-7", iso8859_8: "iso-8859-8", iso8859_10: "iso-8859-10",
  iso8859_13: "iso-8859-13", iso8859_14: "iso-8859-14", iso8859_15: "iso-8859-15", iso8859_16: "iso-8859-16",
  koi8R: "koi8-r", koi8U: "koi8-u", macintosh: "macintosh", windows874: "windows-874", codePage866: "ibm866" };
for (let w = 1250; w <= 1258; w++) single[`windows${w}`] = `windows-${w}`;
for (const [name, dec] of Object.entries(charmaps)) {
  const label = single[name];
  if (!label) { rows.push([name, "-", "not a WHATWG encoding", ""]); continue; }
  const td = decoder(label);
  if (!td) { rows.push([name, label, "unsupported by this engine", ""]); continue; }
  const diffs = [];
  for (let b = 0; b < 256; b++) {
    const got = one(td, [b]), want = dec[b] === 0xfffd ? null : dec[b];
    if (got !== want) diffs.push(b);
  }
  rows.push([name, label, `${256 - diffs.length}/256`, diffs.slice(0, 6).map((b) => b.toString(16)).join(" ")]);
}
const multi = [
  ["gbk", "gbk", 126 * 190, (p) => [0x81 + Math.floor(p / 190), p % 190 < 0x3f ? p % 190 + 0x40 : p % 190 + 0x41]],
  ["gbk", "gb18030", 126 * 190, (p) => [0x81 + Math.floor(p / 190), p % 190 < 0x3f ? p % 190 + 0x40 : p % 190 + 0x41]],
  ["big5", "big5", 126 * 157, (p) => [0x81 + Math.floor(p / 157), p % 157 < 0x3f ? p % 157 + 0x40 : p % 157 + 0x62]],
  ["euckr", "euc-kr", 126 * 190, (p) => [0x81 + Math.floor(p / 190), p % 190 + 0x41]],
  ["jis0208", "euc-jp", 94 * 94, (p) => [0xa1 + Math.floor(p / 94), 0xa1 + (p % 94)]],
  ["jis0212", "euc-jp", 94 * 94, (p) => [0x8f, 0xa1 + Math.floor(p / 94), 0xa1 + (p % 94)]],
  ["jis0208", "shift_jis", 94 * 94, (p) => { const r = Math.floor(p / 94), c = p % 94; return [r < 62 ? 0x81 + (r >> 1) : 0xe0 + ((r - 62) >> 1), r & 1 ? c + 0x9f : c < 63 ? c + 0x40 : c + 0x41]; }],
];
for (const [table, label, n, bytes] of multi) {
  const td = decoder(label);
  if (!td) { rows.push([table, label, "unsupported by this engine", ""]); continue; }
  let same = 0, samePua = 0; const ex = [];
  for (let p = 0; p < n; p++) {
    const got = one(td, bytes(p)), want = cjk[table].get(p) ?? null;
    if (got === want) same++;
    else if (want === null && got >= 0xe000 && got <= 0xf8ff) samePua++;
    else if (ex.length < 4) ex.push(`${p}:${want?.toString(16) ?? "-"}/${got?.toString(16) ?? "-"}`);
  }
  rows.push([table, label, `${same}/${n} (+${samePua} private use where x/text has none)`, ex.join(" ")]);
}
console.log(`${process.version} ICU ${process.versions.icu}`);
console.log("| x/text table | label | pointers the engine decodes as x/text | first differences (pointer: x/text/engine) |\n| --- | --- | --- | --- |");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
