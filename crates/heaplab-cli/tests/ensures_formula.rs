//! A predicate as a postcondition (`ensures exists int lo, hi. bst(this.root, lo, hi)`, and
//! JML's `//@ ensures bst(...)` in Java): checked at exit by the interpreter, so every strategy
//! finds the method that breaks the shape, never the one that keeps it, and every generated
//! test replays (HeapLab's own `test` runs the emitted `.hl` file).

#![allow(clippy::unwrap_used)]

mod common;

use common::{heaplab, text};

fn run_json(file: &str, method: &str, strategy: &str, extra: &[&str]) -> serde_json::Value {
    let mut args =
        vec!["run", file, "--method", method, "--strategy", strategy, "--format", "json"];
    args.extend_from_slice(extra);
    let out = heaplab(&args);
    let stdout = text(&out.stdout);
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{method} {strategy}: {e}\n{stdout}\n{}", text(&out.stderr)))
}

const STRATEGIES: [&str; 6] = ["lazy", "lazier", "lazier#", "sl", "symheap", "concolic"];

#[test]
fn every_strategy_finds_the_broken_shape_and_only_it() {
    for file in [
        "crates/heaplab-cli/tests/data/ensures_formula.hl",
        "crates/heaplab-cli/tests/data/EnsuresFormula.java",
    ] {
        let class = if file.ends_with(".java") { "EnsuresFormula" } else { "BST" };
        for strategy in STRATEGIES {
            let good = run_json(file, &format!("{class}.insert"), strategy, &[]);
            let bad = run_json(file, &format!("{class}.insertBad"), strategy, &[]);
            for (what, r) in [("insert", &good), ("insertBad", &bad)] {
                assert_eq!(r["internal_errors"], 0, "{file} {what} {strategy}: {r}");
                assert_eq!(r["invalid_inputs"], 0, "{file} {what} {strategy}: {r}");
                assert!(r["tests"].as_u64().unwrap() > 0, "{file} {what} {strategy}: no tests");
            }
            assert_eq!(good["errors"], 0, "{file} insert {strategy}: {good}");
            assert!(bad["errors"].as_u64().unwrap() > 0, "{file} insertBad {strategy}: {bad}");
        }
    }
}

#[test]
fn emitted_tests_of_a_broken_shape_replay() {
    let dir = std::env::temp_dir().join(format!("heaplab-ensures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let file = "crates/heaplab-cli/tests/data/ensures_formula.hl";
    let r = heaplab(&["run", file, "--method", "BST.insertBad", "--emit", "hl", "--out", out]);
    // The broken `ensures` on valid inputs is what `run` reports with exit 1 (docs/cli.md).
    assert_eq!(r.status.code(), Some(1), "{}", text(&r.stderr));
    let emitted: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "hl"))
        .collect();
    assert_eq!(emitted.len(), 1, "{emitted:?}");
    let source = std::fs::read_to_string(&emitted[0]).unwrap();
    // The broken shape on a valid input is an error-revealing test: `heaplab test` replays it
    // and reports the bug it still shows (exit 1); the other tests pass.
    assert!(source.contains("expects bug ensures_failed"), "no failing test emitted:\n{source}");
    let t = heaplab(&["test", emitted[0].to_str().unwrap()]);
    let printed = text(&t.stdout);
    assert_eq!(t.status.code(), Some(1), "{printed}{}", text(&t.stderr));
    let bugs = printed.lines().filter(|l| l.starts_with("BUG")).count();
    let fails = printed.lines().filter(|l| l.starts_with("FAIL")).count();
    assert!(bugs > 0 && fails == 0, "{printed}");
    assert!(printed.contains(&format!("({bugs} of them found bugs)")), "{printed}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ensures shape & count == old(count) + 1` in one clause: the `old` fact is checked against
/// the entry state, the shape on the final heap; every strategy finds the method that forgets
/// the count and never the one that keeps it.
#[test]
fn an_old_fact_beside_a_shape_is_checked_against_the_entry() {
    let file = "crates/heaplab-cli/tests/data/ensures_old.hl";
    let check = heaplab(&["check", file]);
    assert!(check.status.success(), "{}", text(&check.stderr));
    for strategy in STRATEGIES {
        let good = run_json(file, "Stack.push", strategy, &[]);
        let bad = run_json(file, "Stack.pushLost", strategy, &[]);
        assert_eq!(good["errors"], 0, "push {strategy}: {good}");
        assert!(good["tests"].as_u64().unwrap() > 0, "push {strategy}: {good}");
        assert!(bad["errors"].as_u64().unwrap() > 0, "pushLost {strategy}: {bad}");
        let kinds: Vec<&str> = bad["findings"]
            .as_array()
            .unwrap_or_else(|| panic!("pushLost {strategy}: no findings: {bad}"))
            .iter()
            .filter_map(|f| f["kind"].as_str())
            .collect();
        assert!(kinds.contains(&"ensures_failed"), "pushLost {strategy}: {bad}");
    }
}
