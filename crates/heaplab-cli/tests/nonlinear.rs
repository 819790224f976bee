//! Non-linear path conditions reach Z3 (issue 30 item 2): `x * y == 391` and a division by an
//! unknown divisor get their tests under every strategy, and every emitted test replays in
//! HeapLab's own interpreter. A solver that does not work is an error naming it.

#![allow(clippy::unwrap_used)]

mod common;

use common::{heaplab, text};

const FILE: &str = "crates/heaplab-cli/tests/data/nonlinear.hl";
const STRATEGIES: [&str; 6] = ["lazy", "lazier", "lazier#", "sl", "symheap", "concolic"];

/// Runs `method` under `strategy`, emits `.hl` tests, replays them with `heaplab test` and
/// returns the emitted source.
fn emitted_and_replayed(method: &str, strategy: &str) -> String {
    let dir = std::env::temp_dir().join(format!(
        "heaplab-nonlinear-{}-{method}-{}",
        std::process::id(),
        strategy.replace('#', "sharp")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let r = heaplab(
        &["run", FILE, "--method", method, "--strategy", strategy, "--emit", "hl"]
            .iter()
            .copied()
            .chain(["--out", out])
            .collect::<Vec<_>>(),
    );
    let printed = text(&r.stdout);
    assert!(r.status.success(), "{method} {strategy}: {printed}{}", text(&r.stderr));
    assert!(!printed.contains("unknown:"), "{method} {strategy}: paths without a model\n{printed}");
    let emitted = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "hl"));
    let emitted = emitted.unwrap_or_else(|| panic!("{method} {strategy}: nothing emitted"));
    let t = heaplab(&["test", emitted.to_str().unwrap()]);
    let replay = text(&t.stdout);
    assert!(t.status.success() && replay.contains(" 0 failed"), "{method} {strategy}: {replay}");
    let source = std::fs::read_to_string(&emitted).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    source
}

#[test]
fn a_factorization_is_found_by_every_strategy() {
    for strategy in STRATEGIES {
        let source = emitted_and_replayed("factor", strategy);
        // The one path that returns 1 needs x * y == 391 with both factors above 1.
        assert!(
            source.contains("assert r == 1;"),
            "{strategy}: no test reaches `return 1`\n{source}"
        );
    }
}

#[test]
fn division_by_an_unknown_truncates_as_the_interpreter_does() {
    for strategy in STRATEGIES {
        let source = emitted_and_replayed("quotient", strategy);
        assert!(
            source.contains("assert r == 1;"),
            "{strategy}: a / b == -3 && a % b == -2 missed\n{source}"
        );
    }
}

#[test]
fn a_broken_solver_is_an_error_naming_it() {
    let r =
        heaplab(&["run", FILE, "--method", "factor", "--strategy", "lazy", "--z3", "/bin/false"]);
    let err = text(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{}{err}", text(&r.stdout));
    assert!(err.contains("the solver `/bin/false` failed"), "{err}");
}

/// z3 starts on its first question: a run the Rust procedure decides needs none, and a run that
/// needs one without it is an error naming the solver it looked for.
#[test]
fn a_missing_solver_matters_only_when_asked() {
    let r =
        heaplab(&["run", "examples/bst.hl", "--method", "BST.insert", "--z3", "/nonexistent/z3"]);
    assert!(r.status.success(), "{}{}", text(&r.stdout), text(&r.stderr));
    assert!(text(&r.stdout).contains("0 sent"), "{}", text(&r.stdout));
    let r = heaplab(&["run", FILE, "--method", "factor", "--z3", "/nonexistent/z3"]);
    let err = text(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("the solver `/nonexistent/z3` failed: z3 not found"), "{err}");
}
