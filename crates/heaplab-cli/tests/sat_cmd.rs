//! `heaplab sat` end to end (issue #20): models re-checked, the stopping bound named, free
//! variables inferred, the search order, the time limit, and Korat's enumeration counts against
//! independently computed ground truth.

mod common;

use common::heaplab;
use std::time::Instant;

const LOGIC: &str = "crates/heaplab-cli/tests/data/logic.hl";
const KORAT: &str = "tests/bench/korat.hl";

/// stdout of `heaplab sat FILE --formula F ARGS...`, which must succeed.
fn sat(file: &str, formula: &str, extra: &[&str]) -> String {
    let mut args = vec!["sat", file, "--formula", formula];
    args.extend_from_slice(extra);
    let out = heaplab(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "heaplab {args:?} failed:\n{stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn models_are_checked_and_free_variables_inferred() {
    // Only disequalities between free variables: integers by default.
    let out = sat(LOGIC, "x1 != x2 & x2 != x3 & x1 != x3", &[]);
    assert!(out.starts_with("sat (the model checker accepts the model)"), "{out}");
    // A reference outside the footprint.
    let out = sat(LOGIC, "x -> L { next: y } & y != null & y != x", &[]);
    assert!(out.starts_with("sat (the model checker accepts the model)"), "{out}");
    assert!(out.contains("(outside the footprint)"), "{out}");
    // Issue #20's wrong answer: one(x) * q(x) is satisfiable.
    let out = sat(LOGIC, "one(x) * q(x)", &[]);
    assert!(out.starts_with("sat"), "{out}");
    assert_eq!(sat(LOGIC, "one(x) * q(x) & x == null", &[]).trim(), "unsat");
}

#[test]
fn an_unknown_names_only_the_bound_that_stopped_it() {
    // Beyond the depth, the base formulas over the integer parameters find a list of 10.
    let out = sat(LOGIC, "deep(x, 10)", &["--depth", "3"]);
    assert!(out.starts_with("sat (the model checker accepts the model)"), "{out}");
    let out = sat(LOGIC, "tri(x, n, s) & n == 2 & s == 4", &["--depth", "3"]);
    assert!(out.starts_with("unknown"), "{out}");
    assert!(out.contains("unfolding depth (3)"), "{out}");
    assert!(!out.contains("object") && !out.contains("states"), "{out}");
    let out = sat(
        LOGIC,
        "tree(x) * tri(y, n, s) & n == 2 & s == 4",
        &["--depth", "50", "--max-states", "40"],
    );
    assert!(out.contains("work limit (40 states)") && !out.contains("depth"), "{out}");
    // No finite model at all: proved, whatever the bounds.
    assert_eq!(sat(LOGIC, "never(x)", &["--depth", "3"]).trim(), "unsat");
}

/// Twenty trees of which only the last must be non-empty: depth-first takes each instance's
/// first disjunct that can hold (20 unfoldings and a cell), breadth-first visits every
/// combination of choices first and runs into the work limit. The base pairs find the model
/// whatever the order; with their caps at 0 the bounded search is left alone, and the
/// unknown names both the work limit and the caps (with the options that raise them).
#[test]
fn the_search_order_is_an_option() {
    let vars: Vec<String> = (1..=20).map(|i| format!("tree(a{i})")).collect();
    let f = format!("{} & a20 != null", vars.join(" * "));
    let no_proof = ["--max-pair-checks", "0", "--max-element-checks", "0"];
    let out = sat(LOGIC, &f, &[&["--order", "depth"][..], &no_proof].concat());
    assert!(out.starts_with("sat (the model checker accepts the model)"), "{out}");
    let out =
        sat(LOGIC, &f, &[&["--order", "breadth", "--max-states", "5000"][..], &no_proof].concat());
    assert!(out.starts_with("unknown") && out.contains("work limit"), "{out}");
    assert!(out.contains("--max-pair-checks") && out.contains("--max-element-checks"), "{out}");
    let out = sat(LOGIC, &f, &["--order", "breadth", "--max-states", "5000"]);
    assert!(out.starts_with("sat (the model checker accepts the model)"), "{out}");
}

#[test]
fn sat_has_a_time_limit() {
    let started = Instant::now();
    let out = sat(
        LOGIC,
        "tree(x) * tree(y) * deep(z, 5000)",
        &[
            "--depth",
            "1000",
            "--objects",
            "1000",
            "--max-states",
            "100000000",
            "--timeout-ms",
            "300",
        ],
    );
    assert!(out.starts_with("unknown") && out.contains("time limit"), "{out}");
    // Generous: the search stops itself at the limit, long before the work limit.
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
}

#[test]
fn enumeration_names_the_limit_that_stopped_it() {
    let out =
        heaplab(&["sat", KORAT, "--formula", "bt(t)", "--enumerate", "4", "--max-models", "3"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stopped by the model limit (3)"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("3 model(s)"), "{stdout}");
}

fn catalan(n: u64) -> u64 {
    (0..n).fold(1, |c, i| c * 2 * (2 * i + 1) / (i + 2))
}

/// Red-black trees with `n` nodes, either root color, by dynamic programming over (nodes,
/// black height, root color): the ground truth for Korat's TreeMap counts.
fn red_black(n: usize) -> u64 {
    const H: usize = 8;
    // t[n][bh][red]
    let mut t = vec![[[0u64; 2]; H]; n + 1];
    t[0][0][0] = 1;
    for m in 1..=n {
        for bh in 0..H {
            for l in 0..m {
                let r = m - 1 - l;
                // Red root: black (or null) children of the same black height.
                t[m][bh][1] += t[l][bh][0] * t[r][bh][0];
                // Black root: children of either color, black height one less.
                if bh > 0 {
                    let any = |k: usize| t[k][bh - 1][0] + t[k][bh - 1][1];
                    t[m][bh][0] += any(l) * any(r);
                }
            }
        }
    }
    (0..H).map(|bh| t[n][bh][0] + t[n][bh][1]).sum()
}

#[test]
fn korat_counts_binary_trees_and_red_black_trees() {
    for n in 1..=7u64 {
        let out = sat(
            KORAT,
            "bt(t)",
            &["--exactly", &n.to_string(), "--count", "--max-states", "1000000"],
        );
        assert_eq!(out.trim(), catalan(n).to_string(), "binary trees with {n} nodes");
    }
    for n in 1..=6usize {
        let ints = format!("0..{}", n - 1);
        let out = sat(
            KORAT,
            "exists int lo, int hi, int bh. rbt(t, lo, hi, bh)",
            &["--exactly", &n.to_string(), "--ints", &ints, "--count", "--max-states", "1000000"],
        );
        assert_eq!(out.trim(), red_black(n).to_string(), "red-black trees with {n} nodes");
    }
}
