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
