#!/usr/bin/env bash
# How close `heaplab sat` (and its enumeration) stop to their time and memory bounds (issue 31:
# within 10 %). Heavy inputs whose search would run far past the bounds, each run with a time
# bound and then a memory bound; prints the wall time, the peak resident memory (`/usr/bin/time`'s
# maximum resident set) and the bound the answer names. Markdown on stdout.
# Uses ./target/release/heaplab (or $HEAPLAB).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${HEAPLAB:-./target/release/heaplab}
file=crates/heaplab-cli/tests/data/logic.hl
out=$(mktemp)
trap 'rm -f "$out" "$out.time"' EXIT
no_proof=(--max-pair-checks 0 --max-element-checks 0)
deep=(--depth 60 --objects 1000 --max-states 100000000)
# (`sat` exits 10 on a satisfiable formula: the time's status is not the script's.)
/usr/bin/time -f "%M" -o "$out.time" "$bin" sat "$file" --formula 'one(x)' > /dev/null 2>&1 || true
base_kb=$(tail -1 "$out.time")
echo "## \`heaplab sat\` against its bounds (resident memory at rest: $((base_kb / 1024)) MB)"
echo
echo "| run | bound | wall (ms) | time / bound | peak (MB) | (peak - rest) / bound | stopped by |"
echo "|---|---|---:|---:|---:|---:|---|"
run() {
  local name=$1 kind=$2 value=$3
  shift 3
  /usr/bin/time -f "%e %M" -o "$out.time" "$bin" sat "$file" "$@" > "$out" 2>&1 || true
  read -r secs kb < <(tail -1 "$out.time")
  local ms stopped ratio_t ratio_m
  ms=$(awk -v s="$secs" 'BEGIN { printf "%d", s * 1000 }')
  stopped=$(grep -o 'the \(time limit\|memory bound\) ([0-9]* [mM][sB])' "$out" | head -1 || true)
  if [[ $kind == time ]]; then
    ratio_t=$(awk -v a="$ms" -v b="$value" 'BEGIN { printf "%.2f", a / b }'); ratio_m=""
    echo "| $name | $value ms | $ms | $ratio_t | $((kb / 1024)) | | ${stopped:-none} |"
  else
    ratio_m=$(awk -v a="$kb" -v r="$base_kb" -v b="$value" 'BEGIN { printf "%.2f", (a - r) / (b * 1024) }')
    echo "| $name | $value MB | $ms | | $((kb / 1024)) | $ratio_m | ${stopped:-none} |"
  fi
}
trees='tree(x) * tree(y) * tree(z) * never(u)'
for ms in 500 2000 10000; do
  run "sat, breadth-first trees" time "$ms" --formula "$trees" "${deep[@]}" "${no_proof[@]}" --max-memory-mb 0 --timeout-ms "$ms"
  run "sat, with the procedures" time "$ms" --formula "$trees" "${deep[@]}" --max-memory-mb 0 --timeout-ms "$ms"
  run "enumerate 30" time "$ms" --formula 'tree(x) * tree(y)' --enumerate 30 --max-states 100000000 --max-models 100000000 --count --max-memory-mb 0 --timeout-ms "$ms"
done
for mb in 64 256 1024; do
  run "sat, breadth-first trees" memory "$mb" --formula "$trees" "${deep[@]}" "${no_proof[@]}" --timeout-ms 0 --max-memory-mb "$mb"
  run "enumerate 30" memory "$mb" --formula 'tree(x) * tree(y)' --enumerate 30 --max-states 100000000 --max-models 100000000 --count --timeout-ms 0 --max-memory-mb "$mb"
done
