#!/usr/bin/env bash
# The Java front end, checked for real: every Java example (examples/java: the twins of the .hl
# subjects, and course/: course classes as an algorithms course writes them, with JML-style
# specs added) passes `heaplab check`; every method with a spec is explored under each of the
# six strategies (k = 2, each run capped at JAVA_TIMEOUT_MS) with no invalid input, and the
# JUnit tests exported for the user's own class compile with javac next to the unmodified
# .java file and pass on the JUnit 5 console with `java -ea` (the class's own asserts run).
# Called by tests/junit/run.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=${JUNIT_JAR:-/usr/share/java/junit-platform-console-standalone.jar}
HEAPLAB=${HEAPLAB:-target/release/heaplab}
TIMEOUT_MS=${JAVA_TIMEOUT_MS:-3000}
out=tests/artifacts/junit/java
rm -rf "$out"; mkdir -p "$out"
strategies=(lazy lazier 'lazier#' sl symheap concolic)
files=(examples/java/*.java examples/java/course/*.java)
for f in "${files[@]}"; do
  "$HEAPLAB" check "$f" 2>"$out/check.log" || { cat "$out/check.log" >&2; echo "FAIL: heaplab check $f" >&2; exit 1; }
done
runs=0
for f in "${files[@]}"; do
  cls=$(basename "$f" .java)
  # The methods with a spec: the first method declared after a `//@ requires` line.
  methods=$(awk '/\/\/@ requires/ { want = 1; next }
    want && /(public|private|protected|static|[A-Za-z>\]])[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/ && !/^[ \t]*(\/\/|\*|\/\*)/ {
      line = $0; sub(/\(.*/, "", line); n = split(line, w, /[ \t]+/); print w[n]; want = 0 }' "$f" | sort -u)
  for m in $methods; do
    for s in "${strategies[@]}"; do
      dir="$out/$s"
      if ! "$HEAPLAB" run "$f" --method "$cls.$m" --strategy "$s" --k 2 --timeout-ms "$TIMEOUT_MS" \
          --emit junit --out "$dir" --format json >"$out/run.json" 2>"$out/run.log"; then
        echo "FAIL: heaplab run $f --method $cls.$m --strategy $s" >&2; cat "$out/run.log" >&2; exit 1
      fi
      invalid=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get("invalid_inputs", d.get("invalid", 0)))' "$out/run.json")
      if [ "$invalid" != "0" ]; then
        echo "FAIL: $f $cls.$m under $s generated $invalid invalid inputs" >&2; exit 1
      fi
      runs=$((runs + 1))
    done
  done
done
echo "Java examples: $runs runs (${#files[@]} files x methods with a spec x ${#strategies[@]} strategies), 0 invalid inputs; compiling and running the JUnit export"
for s in "${strategies[@]}"; do
  dir="$out/$s"
  [ -d "$dir" ] || continue
  mkdir -p "$dir.classes"
  { find "$dir" -name '*.java'; printf '%s\n' "${files[@]}"; } >"$dir.sources"
  javac -nowarn -d "$dir.classes" -cp "$JAR" @"$dir.sources" 2>"$dir.javac" || { cat "$dir.javac" >&2; echo "FAIL: javac ($s)" >&2; exit 1; }
  java -ea -jar "$JAR" --class-path "$dir.classes" --scan-class-path --disable-banner \
    --details=summary >"$dir.junit" 2>&1 || { cat "$dir.junit"; echo "JUnit: failures (Java, $s)" >&2; exit 1; }
  printf '%-9s' "$s:"; grep -E "tests (successful|failed)" "$dir.junit" | tr -s ' ' | tr '\n' ' '; echo
  grep -q "\[ *0 tests failed" "$dir.junit"
done
