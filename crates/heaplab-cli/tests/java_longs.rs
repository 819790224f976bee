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
const STRATEGIES: [&str; 6] = ["lazy", "lazier", "lazier#", "sl", "symheap", "concolic"];
const METHODS: [&str; 6] = ["add", "sum", "intSum", "pairOverflows", "mean", "pastIntRange"];

#[test]
fn long_and_int_mixed_explore_under_every_strategy_and_the_junit_passes() {
    let root = std::env::temp_dir().join(format!("heaplab-java-longs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for strategy in STRATEGIES {
        let dir = root.join(strategy.replace('#', "sharp"));
        let out_dir = dir.to_string_lossy().to_string();
        let mut tests = 0;
        for m in METHODS {
            let method = format!("RunningTotal.{m}");
            tests += common::run_course_method(SOURCE, &method, strategy, &out_dir, &[]);
        }
        // The path where the `int` sum overflows and the `long` one does not was found.
        let emitted =
            std::fs::read_to_string(dir.join("course/RunningTotalPairOverflowsTest.java")).unwrap();
        assert!(emitted.contains("assertEquals(true, result)"), "{strategy}:\n{emitted}");
        let (found, failed, report) = common::course_junit(&dir, SOURCE);
        assert!(found as u64 >= tests && failed == 0, "{strategy}: {tests} generated\n{report}");
    }
    let _ = std::fs::remove_dir_all(&root);
}
