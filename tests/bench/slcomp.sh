#!/usr/bin/env bash
# SL-COMP's satisfiability divisions read in their own format (issue 31): `heaplab sat FILE.smt2`
# on every file of each division folder given, against the status the file declares
# (`(set-info :status ...)`). Prints a markdown table per division: solved, unknown, wrong,
# aborts (exit code other than 0, 10 or 20, or killed), sat answers whose model the model checker did
# not re-check, the slowest file's time and the highest peak memory; then one line per file
# that was not solved. The benchmark files are not part of this repository: fetch SL-COMP's
# own (github.com/sl-comp, e.g. SL-COMP18/bench/qf_shid_sat) and give their folders.
#
#   tests/bench/slcomp.sh /path/to/bench/qf_shls_sat /path/to/bench/qf_shid_sat ...
#
# Uses ./target/release/heaplab (or $HEAPLAB) with its default bounds, plus $SAT_ARGS if set.
# Each run is also killed 60 s after its own time bound, as a safety net (counted as an abort).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${HEAPLAB:-./target/release/heaplab}
read -r -a extra <<< "${SAT_ARGS:-}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for dir in "$@"; do
  division=$(basename "$dir")
  solved=0; unknown=0; wrong=0; aborts=0; unchecked=0; n=0; slowest=0; peak=0
  notes=()
  for f in "$dir"/*.smt2; do
    n=$((n + 1))
    expected=$(grep -o ':status *[a-z]*' "$f" | head -1 | awk '{print $2}')
    set +e
    /usr/bin/time -f "%e %M" -o "$out.time" timeout "${KILL_AFTER:-660}" "$bin" sat "$f" "${extra[@]}" > "$out" 2>/dev/null
    rc=$?
    set -e
    read -r secs kb < <(tail -1 "$out.time")
    answer=$(grep -E '^(sat|unsat|unknown)' "$out" | tail -1 || true)
    word=${answer%%[ :]*}
    ms=$(awk -v s="$secs" 'BEGIN { printf "%d", s * 1000 }')
    (( ms > slowest )) && slowest=$ms
    (( kb > peak )) && peak=$kb
    # `sat` exits 10 for sat, 20 for unsat and 0 for unknown (docs/cli.md); anything else aborted.
    if [[ ( $rc -ne 0 && $rc -ne 10 && $rc -ne 20 ) || -z "$word" ]]; then
      aborts=$((aborts + 1)); notes+=("| $division | $(basename "$f") | $expected | abort (exit $rc) | $ms |")
    elif [[ "$word" == "$expected" ]]; then
      solved=$((solved + 1))
      if [[ "$word" == sat && "$answer" != *"model checker accepts"* ]]; then
        unchecked=$((unchecked + 1)); notes+=("| $division | $(basename "$f") | $expected | ${answer:0:160} | $ms |")
      fi
    elif [[ "$word" == sat || "$word" == unsat ]]; then
      wrong=$((wrong + 1)); notes+=("| $division | $(basename "$f") | $expected | WRONG: $word | $ms |")
    else
      unknown=$((unknown + 1)); notes+=("| $division | $(basename "$f") | $expected | ${answer:0:160} | $ms |")
    fi
  done
  echo "| division | files | solved | unknown | wrong | aborts | sat not re-checked | slowest (ms) | peak memory (MB) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  echo "| $division | $n | $solved | $unknown | $wrong | $aborts | $unchecked | $slowest | $((peak / 1024)) |"
  echo
  if (( ${#notes[@]} > 0 )); then
    echo "| division | file | expected | answer | ms |"
    echo "|---|---|---|---|---:|"
    printf '%s\n' "${notes[@]}"
    echo
  fi
done
