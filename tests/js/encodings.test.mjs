// textencodebase64 / textdecodebase64 through the package in Node: the tables of 49 encodings
// come from tfgraph_encodings.bin beside the module, read the first time one is used. Every
// case Terraform 1.11.4 answered (encoding_text.json) and every x/text case
// (encoding_text_xtext.json) give the same answers here as natively.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { evaluate, TfgraphError } from "../../pkg/index.js";

const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/eval/functions/${name}`, import.meta.url), "utf8"));

function run(expr) {
  try {
    const r = evaluate({ "main.tf": "" }, expr);
    return { value: r.value, rendered: r.rendered };
  } catch (e) {
    if (!(e instanceof TfgraphError)) throw e;
    return { error: e.diagnostics[0] };
  }
}

test("Shift_JIS, GBK, Big5, EUC-KR, KOI8-R and the others, as Terraform encodes and decodes them", () => {
  assert.equal(run('textencodebase64("日本語", "Shift_JIS")').value, "k/qWe4zq");
  assert.equal(run('textdecodebase64("gUA=", "csGBK")').value, "丂");
  assert.equal(run('textdecodebase64("iGI=", "Big5")').value, "Ê̄");
  const refused = run('textencodebase64("☃", "KOI8-R")').error;
  assert.equal(refused.detail, 'Invalid value for "string" parameter: the given string contains characters that cannot be represented in KOI8-R.');
  let n = 0;
  for (const c of fixture("encoding_text.json").cases) {
    const got = run(c.expr);
    if (c.error) {
      assert.ok(got.error, `${c.expr}: want an error, got ${JSON.stringify(got.value)}`);
      assert.equal(got.error.detail, c.error.detail, c.expr);
    } else {
      assert.equal(got.rendered, c.rendered, c.expr);
    }
    n++;
  }
  assert.ok(n >= 290, `only ${n} cases`);
});

test("every x/text case, through the WebAssembly module", () => {
  const quote = (s) => JSON.stringify(s).replace(/\\[bf]/g, (m) => (m === "\\b" ? "\\u0008" : "\\u000c")).replaceAll("${", "$${").replaceAll("%{", "%%{");
  let n = 0;
  for (const [f, input, enc, want] of fixture("../encoding_text_xtext.json").cases) {
    const expr = `text${f}base64(${quote(input)}, ${quote(enc)})`;
    const got = run(expr);
    if (want === null) assert.ok(got.error, `${expr}: want an error, got ${JSON.stringify(got.value)}`);
    else assert.equal(got.value, want, expr);
    n++;
  }
  assert.ok(n >= 2900, `only ${n} cases`);
});
