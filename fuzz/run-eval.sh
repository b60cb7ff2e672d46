#!/usr/bin/env bash
# Fuzz the evaluator: seed fuzz/corpus/evaluate from the expression fixtures (locals + NUL +
# expression) and every local of the shared corpus' small files, then run libFuzzer.
#   fuzz/run-eval.sh [seconds=600] [extra libFuzzer flags...]
# Needs rustup's nightly toolchain and cargo-fuzz. Crashes land in fuzz/artifacts/evaluate/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
seconds="${1:-600}"
shift || true
out="$here/corpus/evaluate"
mkdir -p "$out"
# Every expression of the recorded fixtures, with its file's locals.
node -e '
const fs = require("fs"), path = require("path");
const dir = process.argv[1], out = process.argv[2];
const files = [path.join(dir, "expressions.json"), ...fs.readdirSync(path.join(dir, "functions")).filter((f) => f.endsWith(".json")).map((f) => path.join(dir, "functions", f))];
let n = 0;
for (const f of files) {
  const doc = JSON.parse(fs.readFileSync(f, "utf8"));
  const locals = Object.entries(doc.locals || {}).map(([k, v]) => `${k} = ${v}`).join("\n");
  for (const c of doc.cases) fs.writeFileSync(path.join(out, `seed-${n++}`), locals + "\0" + c.expr);
}
console.error(`fuzz/run-eval.sh: ${n} seeds`);
' "$repo/tests/fixtures/eval" "$out"
mkdir -p "$here/artifacts"
cd "$here/artifacts"
cargo +nightly fuzz run --fuzz-dir "$here" evaluate "$out" -- \
  -dict="$here/hcl.dict" -max_len=4096 -max_total_time="$seconds" -jobs=1 -print_final_stats=1 -timeout=10 "$@" || status=$?
tail -n 25 fuzz-0.log >&2
exit "${status:-0}"
