#!/usr/bin/env bash
# Fuzz configuration loading: seed fuzz/corpus/load_config from small files of the shared corpus
# (a mode byte + text, the target's input format), then run libFuzzer for the given seconds.
#   fuzz/run.sh [seconds=600] [extra libFuzzer flags...]
# Needs: rustup's nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# Crashes land in fuzz/artifacts/load_config/; reproduce one with
#   cargo +nightly fuzz run load_config fuzz/artifacts/load_config/crash-<hash>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
corpus_src="${TFGRAPH_CORPUS:-$repo/../shared/corpus}"
seconds="${1:-600}"
shift || true
out="$here/corpus/load_config"
mkdir -p "$out"

seed() { # seed NAME MODE FILE [MODULE_FILE]
  local name="$1" mode="$2" file="$3" module="${4:-}"
  {
    printf "\\x$(printf %02x "$mode")"
    head -c 4000 "$file"
    if [[ -n "$module" ]]; then printf '\0'; head -c 3000 "$module"; fi
  } >"$out/seed-$name"
}

if [[ -d "$corpus_src" ]]; then
  n=0
  # Small real files (300 B – 3 KB), every 12th in sorted order, as a root .tf (mode 0) or in env/ (mode 2).
  while IFS= read -r f; do
    n=$((n + 1))
    (( n % 12 == 0 )) || continue
    seed "corpus-$n" $(( (n / 12) % 2 * 2 )) "$corpus_src/$f"
  done < <(cd "$corpus_src" && find . -name '*.tf' -size +300c -size -3k | sort)
  # Files with templates, heredocs, dynamic blocks and for expressions.
  k=0
  for pat in '%{' '<<-' 'dynamic "' '\[for ' '{for ' 'provisioner "' 'moved {' 'check "'; do
    f="$(cd "$corpus_src" && { grep -rlF --include='*.tf' -e "${pat//\\/}" . || true; } | sort | sed -n 1p)"
    k=$((k + 1))
    [[ -n "$f" ]] && seed "feature-$k" 0 "$corpus_src/$f"
  done
  # A root with a local module (the NUL-separated form).
  fe="$corpus_src/hashicorp__learn-terraform-for-each"
  [[ -d "$fe" ]] && seed module-pair 0 "$fe/main.tf" "$fe/modules/aws-instance/main.tf"
  # JSON syntax: the start of a real .tf.json, cut (mode 1).
  j="$(cd "$corpus_src" && find . -name '*.tf.json' | sort | tail -1)"
  [[ -n "$j" ]] && seed json-cut 1 "$corpus_src/$j"
else
  echo "fuzz/run.sh: no corpus at $corpus_src; using the hand-written seeds only" >&2
fi
printf '\x01{"resource":{"aws_instance":{"web":{"ami":"${var.ami}","count":2,"depends_on":["aws_vpc.main"]}}},"variable":{"ami":{}},"output":{"id":{"value":"${aws_instance.web[0].id}"}}}' >"$out/seed-json-hand"
printf '\x01{"module":{"m":{"source":"./modules/m","x":"${local.a}"}},"locals":{"a":"${data.aws_ami.u.id}"}}\0{"variable":{"x":{}},"output":{"o":{"value":"${var.x}"}}}' >"$out/seed-json-module"

# libFuzzer writes its job log (fuzz-0.log) to the working directory: keep it in the ignored artifacts/.
mkdir -p "$here/artifacts"
cd "$here/artifacts"
echo "fuzz/run.sh: fuzzing for $seconds s; progress in fuzz/artifacts/fuzz-0.log" >&2
cargo +nightly fuzz run --fuzz-dir "$here" load_config "$out" -- \
  -dict="$here/hcl.dict" -max_len=8192 -max_total_time="$seconds" -jobs=1 -print_final_stats=1 "$@" || status=$?
tail -n 25 fuzz-0.log >&2
exit "${status:-0}"
