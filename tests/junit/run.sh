#!/usr/bin/env bash
# JUnit export, checked for real: for every example method with a `requires`, export JUnit 5 tests
# (`heaplab run --emit junit`, lazier#: --pre assume at k = 2, --pre ignore at k = 1), compile them with javac against Debian's JUnit 5
# console standalone jar, run them, and fail unless every regression test passes and every
# error-revealing test (the `…ErrorTest` classes: a valid input breaking a contract) fails with a
# message naming the broken clause and its line (check_error_classes, shared with java.sh). Called by
# `./build.sh test` (test_junit). Needs target/release/heaplab (or HEAPLAB=...). Last, the
# export of a few hundred random programs is compiled and run the same way, and the Java
# examples through tests/junit/java.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=${JUNIT_JAR:-/usr/share/java/junit-platform-console-standalone.jar}
HEAPLAB=${HEAPLAB:-target/release/heaplab}
command -v javac >/dev/null || { echo "javac not found: run ./build.sh setup" >&2; exit 1; }
[ -f "$JAR" ] || { echo "no JUnit 5 console jar at $JAR: run ./build.sh setup (Debian package junit5)" >&2; exit 1; }
[ -x "$HEAPLAB" ] || { echo "no $HEAPLAB: run ./build.sh build" >&2; exit 1; }
source tests/junit/error_classes.sh
# Two passes: `--pre assume` (valid inputs only) and `--pre ignore` (invalid inputs too, so
# null dereferences and ensures violations reach the Java side).
run_pass() {
  local pre=$1 k=$2 out=tests/artifacts/junit/$1
  rm -rf "$out"; mkdir -p "$out/src" "$out/classes"
  local exported=0
  for f in examples/*.hl; do
    # Every method (Class.method) or top-level function with a `requires` (array return types too).
    targets=$(awk '
      /^class / { cls = $2 }
      /^[a-z]/ && !/^class / { cls = "" }
      /^[ \t]*(requires|ensures)/ { if (pending != "" && $1 == "requires") print (cls != "" ? cls "." : "") pending; pending = ""; next }
      /^[ \t]*(pure[ \t]+)*[A-Za-z_]+(\[\])?[ \t]+[A-Za-z_][A-Za-z0-9_]*\(/ {
        line = $0; sub(/^[ \t]*(pure[ \t]+)*[A-Za-z_]+(\[\])?[ \t]+/, "", line); sub(/\(.*/, "", line); pending = line; next
      }
      /\{/ { pending = "" }
    ' "$f" | sort -u)
    for m in $targets; do
      if ! "$HEAPLAB" run "$f" --method "$m" --strategy 'lazier#' --k "$k" --pre "$pre" \
          --emit junit --out "$out/src" >"$out/run.log" 2>&1; then
        echo "FAIL: heaplab run $f --method $m --pre $pre --emit junit" >&2; cat "$out/run.log" >&2; exit 1
      fi
      grep -h "warning" "$out/run.log" | sed "s|^|$f $m: |" >&2 || true
      exported=$((exported + 1))
    done
  done
  echo "--pre $pre, k = $k: exported $exported methods; compiling and running"
  find "$out/src" -name '*.java' > "$out/sources.txt"
  javac -nowarn -d "$out/classes" -cp "$JAR" @"$out/sources.txt"
  java -jar "$JAR" --class-path "$out/classes" --scan-class-path --disable-banner \
    --exclude-classname '.*ErrorTest' \
    --details=summary >"$out/junit.log" 2>&1 || { cat "$out/junit.log"; echo "JUnit: failures (--pre $pre)" >&2; exit 1; }
  grep -E "tests (found|successful|failed)" "$out/junit.log"
  grep -q "\[ *0 tests failed" "$out/junit.log"
  check_error_classes "$out/classes" "$out/errors.log" "--pre $pre"
}
run_pass assume 2
# k = 1 here: at k = 2 the invalid inputs make ~27 000 tests (all passing, 2 minutes).
run_pass ignore 1
check_known_bug crates/heaplab-cli/tests/data/student_list.hl tests/artifacts/junit/bug

# Random programs (fixed seeds; crates/heaplab-testgen/tests/programs): names Java reserves or
# the export itself uses, i64 edge literals, dead code after `return`, long names. One javac
# call for all of them; every export must compile and every test pass.
out=tests/artifacts/junit/generated
rm -rf "$out"; mkdir -p "$out/src" "$out/classes"
cargo run -q --release -p heaplab-testgen --example junit_corpus -- "$out/src" "${JUNIT_CORPUS:-300}"
find "$out/src" -name '*.java' > "$out/sources.txt"
javac -nowarn -d "$out/classes" -cp "$JAR" @"$out/sources.txt"
java -jar "$JAR" --class-path "$out/classes" --scan-class-path --disable-banner \
  --exclude-classname '.*ErrorTest' \
  --details=summary >"$out/junit.log" 2>&1 || { cat "$out/junit.log"; echo "JUnit: failures (generated programs)" >&2; exit 1; }
grep -E "tests (found|successful|failed)" "$out/junit.log"
grep -q "\[ *0 tests failed" "$out/junit.log"
check_error_classes "$out/classes" "$out/errors.log" "generated programs"

# The Java front end: JUnit tests of the user's own Java classes (examples/java).
bash tests/junit/java.sh
