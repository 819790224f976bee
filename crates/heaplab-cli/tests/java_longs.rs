//! A Java class that mixes `long` and `int` (`examples/java/course/RunningTotal.java`: `int`
//! readings summed into a `long` total, and an `int` sum that overflows where the `long` one
//! does not) explores under every strategy with 0 invalid inputs, every generated test replays
//! on the interpreter (a disagreement fails the run), the overflow path is found, and the
//! emitted JUnit tests compile with `javac` next to the unmodified class and pass on the JVM,
//! the independent oracle for Java's two widths (`pastIntRange` needs a `long` input past
//! `int` range, written with its `L` suffix). (`java_semantics.rs` compares concrete runs of
//! `test_data/run/Longs.java` with the JVM.)

#![allow(clippy::unwrap_used)]

mod common;

const SOURCE: &str = "examples/java/course/RunningTotal.java";
const METHODS: [&str; 6] = ["add", "sum", "intSum", "pairOverflows", "mean", "pastIntRange"];

#[test]
fn long_and_int_mixed_explore_under_every_strategy_and_the_junit_passes() {
    // The path where the `int` sum overflows and the `long` one does not was found.
    let check = |strategy: &str, dir: &std::path::Path| {
        let emitted =
            std::fs::read_to_string(dir.join("course/RunningTotalPairOverflowsTest.java")).unwrap();
        assert!(emitted.contains("assertEquals(true, result)"), "{strategy}:\n{emitted}");
    };
    common::course_class_under_every_strategy(
        "java-longs",
        SOURCE,
        "RunningTotal",
        &METHODS,
        |_, _| vec![],
        check,
    );
}
