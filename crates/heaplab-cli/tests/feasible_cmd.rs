//! Coverage of the feasible, minimized suites and the self-raising bound (issue 33) through
//! the real binary. Counts only: the oracles are the interpreter (each kept test is replayed by
//! `heaplab test`), arithmetic a reader checks (`x > 0 && x < 0` has no model), and the
//! coverage each k reaches run by run. The heavier Gantt/SUSHI sweeps run with
//! `HEAPLAB_HEAVY=1`.

mod common;

use common::{heaplab, text};
use serde_json::Value;
use std::process::Output;

fn json(out: &Output) -> Value {
    assert!(out.stdout.first() == Some(&b'{'), "{}{}", text(&out.stdout), text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("run --format json prints JSON")
}

fn run_json(args: &[&str]) -> Value {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    json(&heaplab(&all))
}

#[test]
fn a_complete_exploration_proves_the_direction_no_input_reaches() {
    let v = run_json(&["crates/heaplab-cli/tests/data/feasible_sign.hl", "--method", "sign"]);
    let f = &v["feasibility"];
    // `sign`'s two `if`s; `positive`, which only its `ensures` calls, is left out (the run's
    // total still counts it).
    assert_eq!(f["directions"], 4, "{f}");
    assert_eq!(v["branches_total"], 8);
    // `x < 0` under `x > 0`: its then-direction is line 10's, proved; the other three covered.
    assert_eq!(
        f["infeasible"],
        serde_json::json!([{"line": 10, "column": 5, "direction": "then"}])
    );
    assert_eq!(f["unknown"], serde_json::json!([]));
    assert_eq!((f["covered"].as_u64(), f["feasible"].as_u64()), (Some(3), Some(3)));
    assert!(f["proof"].as_str().is_some_and(|p| p.contains("complete exploration")), "{f}");
}

/// `findMax` requires a non-null root, and `findMaxAt`'s `while` over right children keeps
/// every run incomplete: the nullness analysis proves the `t != null` else direction (line
/// 100), and the report says which rule did.
#[test]
fn the_nullness_analysis_proves_what_no_complete_run_can() {
    let v = run_json(&["examples/bst.hl", "--method", "BST.findMax"]);
    let f = &v["feasibility"];
    let at = |key: &str| -> Vec<(u64, String)> {
        f[key]
            .as_array()
            .expect("a list")
            .iter()
            .map(|d| {
                (d["line"].as_u64().unwrap_or(0), d["direction"].as_str().unwrap_or("").to_string())
            })
            .collect()
    };
    assert!(at("infeasible").contains(&(100, "else".to_string())), "{f}");
    assert!(!at("unknown").contains(&(100, "else".to_string())), "{f}");
    assert!(f["proof"].as_str().is_some_and(|p| p.contains("nullness analysis")), "{f}");
    let t = text(&heaplab(&["run", "examples/bst.hl", "--method", "BST.findMax"]).stdout);
    assert!(t.contains("proved infeasible: ") && t.contains("nullness analysis found"), "{t}");
}

#[test]
fn specification_only_branches_are_not_the_methods() {
    let v = run_json(&["crates/heaplab-cli/tests/data/feasible_sign.hl", "--method", "one"]);
    assert_eq!(v["feasibility"]["directions"], 0, "{v}");
    assert_eq!(v["branches_total"], 2, "`positive`'s if is still in the total");
}

#[test]
fn a_cut_run_proves_nothing_and_names_the_bound() {
    let out = heaplab(&["run", "examples/sushi.hl", "--method", "Main.sample", "--k", "2"]);
    let t = text(&out.stdout);
    assert!(t.contains("proved infeasible: none"), "{t}");
    assert!(t.contains("were cut by k (k = 2"), "{t}");
    let v = run_json(&["examples/sushi.hl", "--method", "Main.sample", "--k", "2"]);
    let f = &v["feasibility"];
    assert_eq!(f["proof"], Value::Null);
    assert_eq!(f["infeasible"], serde_json::json!([]));
    let unknown = f["unknown"].as_array().expect("a list").len() as u64;
    let count = |key: &str| f[key].as_u64().expect("a count");
    assert_eq!(count("covered") + unknown, count("directions"));
}

/// SUSHI's `sample` removes the element at index 4: k = 2 and 3 cover the same 2 directions,
/// k = 4 more, k = 5 the most; raising stops after two steps without growth and reports k = 5.
#[test]
fn raise_bound_finds_sushis_k() {
    let v = run_json(&["examples/sushi.hl", "--method", "Main.sample", "--raise-bound"]);
    let r = &v["raised"];
    assert_eq!(r["chosen_k"], 5, "{r}");
    assert_eq!(v["k"], 5);
    let covered: Vec<u64> = r["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["covered"].as_u64())
        .collect();
    assert_eq!(covered, [2, 2, 8, 9, 9, 9], "{r}");
    // The reported run is k = 5's, as a run asked for k = 5 reports it.
    let at5 =
        run_json(&["examples/sushi.hl", "--method", "Main.sample", "--k", "5", "--depth", "11"]);
    assert_eq!(v["feasibility"], at5["feasibility"]);
    assert_eq!(v["tests"], at5["tests"]);
}

/// Gantt's `rollbackTransaction` covers 5 of its 6 directions at k = 2 and all at k = 3.
#[test]
fn raise_bound_covers_gantts_rollback() {
    let v = run_json(&[
        "examples/gantt.hl",
        "--method",
        "DependencyGraph.rollbackTransaction",
        "--raise-bound",
    ]);
    assert_eq!(v["raised"]["chosen_k"], 3, "{v}");
    let f = &v["feasibility"];
    assert_eq!((f["covered"].as_u64(), f["directions"].as_u64()), (Some(6), Some(6)), "{f}");
}

/// The minimized suite keeps the directions valid inputs cover and every error outcome, and
/// its tests still pass when the interpreter replays them.
#[test]
fn minimized_suite_keeps_coverage_and_replays() {
    let whole = run_json(&["examples/bst.hl", "--method", "BST.remove", "--k", "3"]);
    let dir = std::env::temp_dir().join(format!("heaplab-min-{}", std::process::id()));
    let out_dir = dir.display().to_string();
    let min = run_json(&[
        "examples/bst.hl",
        "--method",
        "BST.remove",
        "--k",
        "3",
        "--minimize",
        "--emit",
        "hl",
        "--out",
        &out_dir,
    ]);
    assert_eq!(min["tests_generated"], whole["tests"]);
    assert!(min["tests"].as_u64() < whole["tests"].as_u64(), "{min}");
    assert_eq!(min["branches_covered_valid"], whole["branches_covered_valid"]);
    assert_eq!(min["feasibility"]["covered"], whole["feasibility"]["covered"]);
    assert_eq!(min["errors"].as_u64() > Some(0), whole["errors"].as_u64() > Some(0));
    let emitted = min["emitted"].as_str().expect("written").to_string();
    let test = heaplab(&["test", &emitted]);
    assert!(test.status.success(), "{}{}", text(&test.stdout), text(&test.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Gantt's `rollbackTransaction` and SUSHI's `sample` in full, with the strategies that differ
/// most (`HEAPLAB_HEAVY=1`).
#[test]
fn raise_bound_on_the_peers_subjects() {
    if std::env::var_os("HEAPLAB_HEAVY").is_none() {
        eprintln!("skipped: set HEAPLAB_HEAVY=1");
        return;
    }
    for strategy in ["lazy", "lazier", "lazier#", "sl", "symheap"] {
        let g = run_json(&[
            "examples/gantt.hl",
            "--method",
            "DependencyGraph.rollbackTransaction",
            "--strategy",
            strategy,
            "--raise-bound",
        ]);
        let f = &g["feasibility"];
        assert_eq!(f["covered"], f["directions"], "{strategy}: {g}");
        assert!(g["raised"]["chosen_k"].as_u64().is_some(), "{strategy}");
    }
}
