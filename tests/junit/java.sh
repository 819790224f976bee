#!/usr/bin/env bash
# The Java front end, checked for real: every Java example (examples/java: the twins of the .hl
# subjects, and course/: course classes as an algorithms course writes them, with JML-style
# specs added) passes `heaplab check`; every method with a spec is explored (k = 2, each run
# capped at JAVA_TIMEOUT_MS) with no invalid input, the course classes under all six
# strategies and the twins under `lazier#` and `sl` (tests/java_twins.rs compares the twins'
# runs with their .hl twins under every strategy); and the JUnit tests exported for the user's
# own class compile with javac next to the unmodified .java file and pass on the JUnit 5
# console with `java -ea` (the class's own asserts run): the regression classes pass, and every
# test of an error-revealing `…ErrorTest` class fails naming the broken clause and its line.
# Called by tests/junit/run.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=${JUNIT_JAR:-/usr/share/java/junit-platform-console-standalone.jar}
export HEAPLAB=${HEAPLAB:-target/release/heaplab}
export TIMEOUT_MS=${JAVA_TIMEOUT_MS:-2000}
export OUT=tests/artifacts/junit/java
source tests/junit/error_classes.sh
rm -rf "$OUT"; mkdir -p "$OUT/runs"
all=(lazy lazier 'lazier#' sl symheap concolic)
files=(examples/java/*.java examples/java/course/*.java)
for f in "${files[@]}"; do
  "$HEAPLAB" check "$f" 2>"$OUT/check.log" || { cat "$OUT/check.log" >&2; echo "FAIL: heaplab check $f" >&2; exit 1; }
done
# One job per (file, method, strategy): the methods with a spec are the first method declared
# after a `//@ requires` line.
jobs="$OUT/jobs"; : >"$jobs"
for f in "${files[@]}"; do
  cls=$(basename "$f" .java)
  case "$f" in */course/*) strategies=("${all[@]}") ;; *) strategies=('lazier#' sl) ;; esac
  methods=$(awk '/\/\/@ requires/ { want = 1; next }
    want && /[A-Za-z>\]][ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/ && !/^[ \t]*(\/\/|\*|\/\*)/ {
      line = $0; sub(/\(.*/, "", line); n = split(line, w, /[ \t]+/); print w[n]; want = 0 }' "$f" | sort -u)
  for m in $methods; do
    for s in "${strategies[@]}"; do printf '%s %s %s\n' "$f" "$cls.$m" "$s" >>"$jobs"; done
  done
done
run_one() {
  local f=$1 m=$2 s=$3 tag
  tag=$(printf '%s_%s_%s' "$(basename "$f" .java)" "$m" "$s" | tr -c 'A-Za-z0-9_.\n' '_')
  if ! "$HEAPLAB" run "$f" --method "$m" --strategy "$s" --k 2 --timeout-ms "$TIMEOUT_MS" \
      --emit junit --out "$OUT/$s" --format json >"$OUT/runs/$tag.json" 2>"$OUT/runs/$tag.log"; then
    echo "FAIL: heaplab run $f --method $m --strategy $s" >&2; cat "$OUT/runs/$tag.log" >&2; return 1
  fi
  local invalid
  invalid=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["invalid_inputs"])' "$OUT/runs/$tag.json")
  [ "$invalid" = 0 ] || { echo "FAIL: $f $m under $s generated $invalid invalid inputs" >&2; return 1; }
}
export -f run_one
xargs -P 2 -L 1 bash -c 'run_one "$0" "$1" "$2"' <"$jobs"
echo "Java examples: $(wc -l <"$jobs") runs (${#files[@]} files), 0 invalid inputs; compiling and running the JUnit export"
for s in "${all[@]}"; do
  dir="$OUT/$s"
  [ -d "$dir" ] || continue
  mkdir -p "$dir.classes"
  { find "$dir" -name '*.java'; printf '%s\n' "${files[@]}"; } >"$dir.sources"
  javac -nowarn -d "$dir.classes" -cp "$JAR" @"$dir.sources" 2>"$dir.javac" || { cat "$dir.javac" >&2; echo "FAIL: javac ($s)" >&2; exit 1; }
  java -ea -jar "$JAR" --class-path "$dir.classes" --scan-class-path --disable-banner \
    --exclude-classname '.*ErrorTest' \
    --details=summary >"$dir.junit" 2>&1 || { cat "$dir.junit"; echo "JUnit: failures (Java, $s)" >&2; exit 1; }
  printf '%-9s' "$s:"; grep -E "tests (successful|failed)" "$dir.junit" | tr -s ' ' | tr '\n' ' '; echo
  grep -q "\[ *0 tests failed" "$dir.junit"
  check_error_classes "$dir.classes" "$dir.errors" "Java, $s" -ea
done
check_known_bug crates/heaplab-cli/tests/data/student/StudentList.java "$OUT/bug" -ea
