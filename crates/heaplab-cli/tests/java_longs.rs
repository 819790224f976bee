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

use common::{heaplab, text, workspace_root};
use std::path::Path;

const SOURCE: &str = "examples/java/course/RunningTotal.java";
const STRATEGIES: [&str; 6] = ["lazy", "lazier", "lazier#", "sl", "symheap", "concolic"];
const METHODS: [&str; 6] = ["add", "sum", "intSum", "pairOverflows", "mean", "pastIntRange"];

/// Compiles the tests in `dir` with the original class and runs them: (found, failed, report).
fn junit(dir: &Path) -> (u32, u32, String) {
    let classes = dir.join("classes");
    let mut files = vec![workspace_root().join(SOURCE)];
    for e in std::fs::read_dir(dir.join("course")).unwrap().flatten() {
        files.push(e.path());
    }
    common::junit_console(&classes, &files, &["--select-package", "course"])
}

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
            let args = [
                "run",
                SOURCE,
                "--method",
                &method,
                "--strategy",
                strategy,
                "--k",
                "2",
                "--format",
                "json",
                "--emit",
                "junit",
                "--out",
                &out_dir,
            ];
            let out = heaplab(&args);
            let stdout = text(&out.stdout);
            assert!(out.status.success(), "{m} {strategy}: {stdout}{}", text(&out.stderr));
            let r: serde_json::Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{m} {strategy}: {e}\n{stdout}"));
            assert_eq!(r["invalid_inputs"], 0, "{m} {strategy}: {r}");
            assert_eq!(r["internal_errors"], 0, "{m} {strategy}: {r}");
            let n = r["tests"].as_u64().unwrap();
            assert!(n > 0, "{m} {strategy}: no tests");
            tests += n;
        }
        // The path where the `int` sum overflows and the `long` one does not was found.
        let emitted =
            std::fs::read_to_string(dir.join("course/RunningTotalPairOverflowsTest.java")).unwrap();
        assert!(emitted.contains("assertEquals(true, result)"), "{strategy}:\n{emitted}");
        let (found, failed, report) = junit(&dir);
        assert!(found as u64 >= tests && failed == 0, "{strategy}: {tests} generated\n{report}");
    }
    let _ = std::fs::remove_dir_all(&root);
}
