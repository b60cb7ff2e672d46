// The JS engine's services (NFC, Go's `\p{..}` classes, `(?i)` case folding, the clock) reach
// every export, not only evaluate(): the first call in this process is a plan, on a fresh
// module instance, and its outputs are computed as Terraform computes them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { plan } from "../../pkg/index.js";

const files = {
  "main.tf": `
output "class" {
  value = regex("\\\\p{Lu}+", "abcDÉF")
}
output "fold" {
  value = regex("(?i)straSSe", "STRASSE")
}
output "nfc" {
  value = length("e\\u0301")
}
output "year" {
  value = tonumber(formatdate("YYYY", plantimestamp())) > 2000
}
`,
};

test("a plan on a fresh instance evaluates with the JS engine's services", async () => {
  const p = await plan(files);
  assert.equal(p.errored, false, JSON.stringify(p.diagnostics));
  const outputs = p.toJSON().planned_values.outputs;
  const value = (name) => outputs[name].value;
  assert.equal(value("class"), "DÉF");
  assert.equal(value("fold"), "STRASSE");
  assert.equal(value("nfc"), 1);
  assert.equal(value("year"), true);
});
