#!/usr/bin/env bash
# SL-COMP's satisfiability divisions read in their own format (issue 31): `heaplab sat FILE.smt2`
# on every file of each division folder given, against the status the file declares
# (`(set-info :status ...)`), each run with a time and a memory bound. Prints a markdown table:
# per division right / wrong / unknown / error / abort next to the best counts of SL-COMP'18
# (S2S's on the shls/shid/shidlia divisions, CVC4's on the bsl ones: the competition's results
# pages), the sat answers whose model the model checker did not re-check, and how far the runs
# went past their bounds (issue 31 Done-when 3: within 10 %); then one line per file not right.
#
#   error: heaplab ended by itself without an answer (exit 1 or 2, e.g. "internal error", or
#          an input it does not read);
#   abort: killed by a signal (an out-of-memory abort, or the safety net below).
#
# The benchmark files are not part of this repository (CI has no network): give the division
# folders of SL-COMP's own repository (sl-comp/SL-COMP18, bench/qf_shid_sat, ...):
#
#   tests/bench/slcomp.sh /path/to/bench/qf_shls_sat /path/to/bench/qf_shid_sat ...
#
# Environment: HEAPLAB (default ./target/release/heaplab), TIMEOUT_MS (60000) and MAX_MEMORY_MB
# (1024), given to every run as --timeout-ms / --max-memory-mb; ENUMERATE=N also runs
# `--enumerate N --count` on every file with the same bounds (its overshoot is measured the
# same way); SAT_ARGS, more options for every run; RESULTS=FILE writes one tab-separated line
# per run (division, file, mode, expected, outcome, exit code, ms, peak kB).
# Safety net, so that a run which ignores its bounds cannot take the shared machine down: each
# run is killed 2 x its time bound + 10 s after it starts, and its address space is capped at
# 4 x its memory bound + 2 GB (an allocation past it aborts); both count as aborts.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${HEAPLAB:-./target/release/heaplab}
timeout_ms=${TIMEOUT_MS:-60000}
memory_mb=${MAX_MEMORY_MB:-1024}
read -r -a extra <<< "${SAT_ARGS:-}"
bounds=(--timeout-ms "$timeout_ms" --max-memory-mb "$memory_mb")
kill_after=$(( (2 * timeout_ms + 10000) / 1000 ))
vmem_kb=$(( (4 * memory_mb + 2048) * 1024 ))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -n "${RESULTS:-}" ]] && : > "$RESULTS"

# The resident memory at rest: `--max-memory-mb` counts what the process holds above its start.
printf '(set-logic QF_SHID)\n(declare-sort U 0)\n(declare-heap (U U))\n(declare-const x U)\n(assert (pto x x))\n(check-sat)\n' > "$tmp/rest.smt2"
/usr/bin/time -f "%M" -o "$tmp/rest" "$bin" sat "$tmp/rest.smt2" > /dev/null 2>&1 || true
rest_kb=$(tail -1 "$tmp/rest")

# The best count of SL-COMP'18 per division (doc/www/org/<division>.org of the competition).
best() {
  case $1 in
    qf_shls_sat) echo "110 (S2S)" ;; qf_shid_sat) echo "71 (S2S)" ;;
    qf_shidlia_sat) echo "33 (S2S)" ;; qf_bsl_sat) echo "44 (CVC4)" ;;
    qf_bsllia_sat) echo "24 (CVC4)" ;; *) echo "" ;;
  esac
}

# One run: sets $outcome (right|wrong|unknown|error|abort), $answer, $rc, $ms, $kb.
run_one() {
  local f=$1 expected=$2 mode=$3
  local args=("${bounds[@]}" "${extra[@]}")
  [[ $mode == enumerate ]] && args+=(--enumerate "$ENUMERATE" --count)
  set +e
  ( ulimit -v "$vmem_kb"
    exec /usr/bin/time -f "%e %M" -o "$tmp/time" timeout -s KILL "$kill_after" "$bin" sat "$f" "${args[@]}" ) \
    > "$tmp/out" 2> "$tmp/err"
  rc=$?
  set -e
  local secs
  read -r secs kb < <(tail -1 "$tmp/time" | grep -E '^[0-9.]+ [0-9]+$' || echo "0 0")
  ms=$(awk -v s="$secs" 'BEGIN { printf "%d", s * 1000 }')
  answer=$(grep -E '^(sat|unsat|unknown)' "$tmp/out" | tail -1 || true)
  local word=${answer%%[ :(]*}
  if (( rc >= 124 )); then
    # timeout's 124/137 and 128 + signal (SIGABRT 134 on an allocation failure, SIGKILL 137).
    outcome=abort; answer="abort (exit $rc$(grep -m1 -o 'memory allocation.*' "$tmp/err" | sed 's/^/: /'))"
  elif [[ $mode == enumerate ]]; then
    # An enumeration prints a count and whether it completed; only stopping matters here.
    if (( rc == 0 )); then outcome=right; answer=$(tail -1 "$tmp/out"); else
      outcome=error; answer="error (exit $rc): $(head -c 160 "$tmp/err" | tr '\n' ' ')"; fi
  elif [[ ( $rc -ne 0 && $rc -ne 10 && $rc -ne 20 ) || -z "$word" ]]; then
    outcome=error; answer="error (exit $rc): $(head -c 160 "$tmp/err" | tr '\n' ' ')"
  elif [[ $word == "$expected" ]]; then
    outcome=right
  elif [[ $word == sat || $word == unsat ]]; then
    outcome=wrong; answer="WRONG: $answer"
  else
    outcome=unknown
  fi
}

rows=(); notes=()
worst_t=0; worst_t_at=""; worst_m=0; worst_m_at=""
for dir in "$@"; do
  division=$(basename "$dir")
  declare -A count=([right]=0 [wrong]=0 [unknown]=0 [error]=0 [abort]=0)
  n=0; unchecked=0; slowest=0; peak=0; enum_stopped=0
  for f in "$dir"/*.smt2; do
    n=$((n + 1))
    expected=$(grep -o ':status *[a-z]*' "$f" | head -1 | awk '{print $2}')
    modes=(sat); [[ -n "${ENUMERATE:-}" ]] && modes+=(enumerate)
    for mode in "${modes[@]}"; do
      run_one "$f" "$expected" "$mode"
      [[ -n "${RESULTS:-}" ]] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$division" "$(basename "$f")" "$mode" "$expected" "$outcome" "$rc" "$ms" "$kb" >> "$RESULTS"
      # How far past its bounds the run went: wall time / time bound, and the resident memory
      # above the process's memory at rest / memory bound.
      rt=$(awk -v a="$ms" -v b="$timeout_ms" 'BEGIN { printf "%.3f", a / b }')
      rm_=$(awk -v a="$kb" -v r="$rest_kb" -v b="$memory_mb" 'BEGIN { printf "%.3f", (a - r) / (b * 1024) }')
      if awk -v a="$rt" -v b="$worst_t" 'BEGIN { exit !(a > b) }'; then worst_t=$rt; worst_t_at="$(basename "$f") ($mode)"; fi
      if awk -v a="$rm_" -v b="$worst_m" 'BEGIN { exit !(a > b) }'; then worst_m=$rm_; worst_m_at="$(basename "$f") ($mode)"; fi
      (( ms > slowest )) && slowest=$ms
      (( kb > peak )) && peak=$kb
      if [[ $mode == enumerate ]]; then
        if [[ $outcome != right ]]; then
          count[$outcome]=$(( count[$outcome] + 1 )); notes+=("| $division | $(basename "$f") | enumerate | ${answer:0:160} | $ms | $((kb / 1024)) |")
        elif grep -q 'the enumeration is incomplete' "$tmp/err"; then enum_stopped=$((enum_stopped + 1)); fi
        continue
      fi
      count[$outcome]=$(( count[$outcome] + 1 ))
      if [[ $outcome == right && $answer == sat* && $answer != *"model checker accepts"* ]]; then
        unchecked=$((unchecked + 1)); notes+=("| $division | $(basename "$f") | $expected | ${answer:0:160} | $ms | $((kb / 1024)) |")
      elif [[ $outcome != right ]]; then
        notes+=("| $division | $(basename "$f") | $expected | ${answer:0:160} | $ms | $((kb / 1024)) |")
      fi
    done
  done
  enum_col=""; [[ -n "${ENUMERATE:-}" ]] && enum_col=" $enum_stopped |"
  rows+=("| $division | $n | ${count[right]} | $(best "$division") | ${count[wrong]} | ${count[unknown]} | ${count[error]} | ${count[abort]} | $unchecked |$enum_col $slowest | $((peak / 1024)) |")
  unset count
done

echo "## SL-COMP'18 satisfiability divisions: \`heaplab sat\` at --timeout-ms $timeout_ms --max-memory-mb $memory_mb${SAT_ARGS:+ $SAT_ARGS}"
echo
echo "$(date -u +%F), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); resident memory at rest $((rest_kb / 1024)) MB.${ENUMERATE:+ Each file also run with --enumerate $ENUMERATE --count (its errors and aborts in the same columns).}"
echo
hdr_enum=""; sep_enum=""
[[ -n "${ENUMERATE:-}" ]] && { hdr_enum=" enumerations stopped by a bound |"; sep_enum="---:|"; }
echo "| division | files | right | best of SL-COMP'18 | wrong | unknown | error | abort | sat not re-checked |$hdr_enum slowest (ms) | peak memory (MB) |"
echo "|---|---:|---:|---|---:|---:|---:|---:|---:|${sep_enum}---:|---:|"
printf '%s\n' "${rows[@]}"
echo
echo "Worst overshoot: wall time / --timeout-ms = $worst_t (${worst_t_at:-none}); (peak resident - at rest) / --max-memory-mb = $worst_m (${worst_m_at:-none}). Within the bounds means at most 1.10."
echo
if (( ${#notes[@]} > 0 )); then
  echo "| division | file | expected | answer | ms | MB |"
  echo "|---|---|---|---|---:|---:|"
  printf '%s\n' "${notes[@]}"
  echo
fi
