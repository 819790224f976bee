# Sourced by tests/junit/run.sh and java.sh (needs $JAR). The error-revealing classes of a JUnit
# export (`…ErrorTest`: a valid input on which the method breaks a contract) must fail, every
# test of them, each with a message naming the broken clause and its line (`ensures … (line N)`).
# Usage: check_error_classes CLASSES_DIR LOG LABEL [JAVA_OPTION...]
check_error_classes() {
  local classes=$1 log=$2 label=$3 found failed named
  shift 3
  # The console exits 1 when a test fails, which is what these tests must do.
  java "$@" -jar "$JAR" --class-path "$classes" --scan-class-path --disable-banner \
    --include-classname '.*ErrorTest' --details=tree >"$log" 2>&1 || true
  found=$(grep -E "tests found" "$log" | grep -oE '[0-9]+' | head -1)
  failed=$(grep -E "tests failed" "$log" | grep -oE '[0-9]+' | head -1)
  [ -n "$found" ] && [ -n "$failed" ] || { cat "$log"; echo "JUnit: no summary ($label, error-revealing)" >&2; exit 1; }
  [ "$found" = "$failed" ] || { cat "$log"; echo "JUnit: $found error-revealing tests but $failed failed ($label)" >&2; exit 1; }
  named=$(grep -cE '=> .*(ensures|requires).*\(line [0-9]+\)' "$log" || true)
  [ "$named" -ge "$failed" ] || { cat "$log"; echo "JUnit: $failed error-revealing tests failed, $named naming the clause and line ($label)" >&2; exit 1; }
  echo "$label: $failed error-revealing tests, each failing with the broken clause named"
}

# A program with a known bug (a list `remove` that never removes the first cell): `heaplab run`
# must exit 1 (a found bug), its regression class pass and its error-revealing class hold failing
# tests, so the checks above are never vacuous. Usage: check_known_bug SOURCE OUT [JAVA_OPTION...]
# (a .java SOURCE is compiled with its tests, as tests of the original class).
check_known_bug() {
  local source=$1 out=$2 rc
  shift 2
  rm -rf "$out"; mkdir -p "$out/src" "$out/classes"
  set +e
  "$HEAPLAB" run "$source" --method StudentList.remove --emit junit --out "$out/src" >"$out/run.log" 2>&1
  rc=$?
  set -e
  [ "$rc" = 1 ] || { cat "$out/run.log"; echo "FAIL: $source: exit $rc, expected 1 (a found bug)" >&2; exit 1; }
  { find "$out/src" -name '*.java'; case "$source" in *.java) echo "$source" ;; esac; } >"$out/sources.txt"
  javac -nowarn -d "$out/classes" -cp "$JAR" @"$out/sources.txt"
  java "$@" -jar "$JAR" --class-path "$out/classes" --scan-class-path --disable-banner \
    --exclude-classname '.*ErrorTest' --details=summary >"$out/junit.log" 2>&1 \
    || { cat "$out/junit.log"; echo "JUnit: failures ($source, regression)" >&2; exit 1; }
  check_error_classes "$out/classes" "$out/errors.log" "$source" "$@"
  grep -qE "\[ *[1-9][0-9]* tests failed" "$out/errors.log" \
    || { cat "$out/errors.log"; echo "FAIL: $source: no failing error-revealing test" >&2; exit 1; }
}
