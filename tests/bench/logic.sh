#!/usr/bin/env bash
# Logic bench (issue #20): `heaplab sat` on the problems of tests/bench/logic-problems.txt per
# family (answered / wrong / unknown and time), then Korat's enumeration counts with their time
# (tests/bench/korat.hl). Prints markdown to stdout. Uses ./target/release/heaplab (or $HEAPLAB).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${HEAPLAB:-./target/release/heaplab}
now() { date +%s%N; }
echo "## Logic: satisfiability per family (\`heaplab sat\`, default bounds)"
echo
echo "| family | problems | answered | wrong | unknown | time (ms) |"
echo "|---|---:|---:|---:|---:|---:|"
declare -A n ok wrong unknown ms
order=()
while IFS='|' read -r family expected formula; do
  [[ -z "$family" || "$family" == \#* ]] && continue
  [[ -v "n[$family]" ]] || { order+=("$family"); n[$family]=0; ok[$family]=0; wrong[$family]=0; unknown[$family]=0; ms[$family]=0; }
  t0=$(now)
  # `sat` exits 10 / 20 for sat / unsat: the answer is read from the output.
  answer=$({ "$bin" sat tests/bench/logic.hl --formula "$formula" 2>/dev/null || true; } | head -1 | cut -d' ' -f1 | tr -d ':')
  t1=$(now)
  n[$family]=$((n[$family] + 1))
  ms[$family]=$((ms[$family] + (t1 - t0) / 1000000))
  if [[ "$answer" == "$expected" ]]; then ok[$family]=$((ok[$family] + 1));
  elif [[ "$answer" == sat || "$answer" == unsat ]]; then wrong[$family]=$((wrong[$family] + 1));
  else unknown[$family]=$((unknown[$family] + 1)); fi
done < tests/bench/logic-problems.txt
for f in "${order[@]}"; do
  echo "| $f | ${n[$f]} | ${ok[$f]} | ${wrong[$f]} | ${unknown[$f]} | ${ms[$f]} |"
done
echo
echo "## Logic: Korat's finitizations (\`heaplab sat --exactly N\`, keys \`--ints 0..N-1\`)"
echo
echo "| structure | N | models | Korat / known | time (ms) |"
echo "|---|---:|---:|---:|---:|"
catalan=(1 1 2 5 14 42 132 429 1430 4862 16796)
redblack=(1 2 2 3 8 14 20 35 64 122)
for N in $(seq 1 10); do
  t0=$(now)
  c=$("$bin" sat tests/bench/korat.hl --formula 'bt(t)' --exactly "$N" --count --max-states 10000000 --max-models 10000000 2>/dev/null)
  t1=$(now)
  echo "| binary tree | $N | $c | ${catalan[$N]} | $(((t1 - t0) / 1000000)) |"
done
for N in $(seq 1 9); do
  t0=$(now)
  c=$("$bin" sat tests/bench/korat.hl --formula 'exists int lo, int hi, int bh. rbt(t, lo, hi, bh)' --exactly "$N" --ints "0..$((N - 1))" --count --max-states 10000000 --max-models 10000000 2>/dev/null)
  t1=$(now)
  echo "| red-black tree | $N | $c | ${redblack[$N]} | $(((t1 - t0) / 1000000)) |"
done
