//! `heaplab compare`: every strategy on one method, with inputs judged by the model checker.

use std::path::Path;
use std::process::Command;

fn compare(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_heaplab"))
        .arg("compare")
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("the heaplab binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

fn rows(stdout: &str) -> Vec<serde_json::Value> {
    let json: serde_json::Value = serde_json::from_str(stdout).expect("valid JSON");
    json["strategies"].as_array().expect("a strategies array").clone()
}

fn n(row: &serde_json::Value, key: &str) -> u64 {
    row[key].as_u64().unwrap_or_else(|| panic!("{key} in {row}"))
}

#[test]
fn bst_insert_assumes_requires_in_every_row_by_default() {
    // The registry's explorer rows (`concolic`, its own driver, has its own test in
    // concolic_cmd.rs: on BST.insert it takes most of a minute in a debug build).
    let (ok, stdout, stderr) = compare(&[
        "examples/bst.hl",
        "--method",
        "BST.insert",
        "--strategies",
        "lazy,lazier,lazier#,sl,symheap",
        "--format",
        "json",
    ]);
    assert!(ok, "{stderr}");
    let rows = rows(&stdout);
    let names: Vec<&str> = rows.iter().filter_map(|r| r["strategy"].as_str()).collect();
    assert_eq!(names, ["lazy", "lazier", "lazier#", "sl", "symheap"]);
    for row in &rows {
        let name = row["strategy"].as_str().unwrap_or_default();
        // As `heaplab run` and the page's Compare: `requires` is assumed, so the model
        // checker finds every input valid and both coverage figures agree.
        assert_eq!(row["pre"], "assume", "{name}");
        assert_eq!(n(row, "invalid_inputs"), 0, "{name}: an input violates requires");
        assert!(n(row, "tests") > 0, "{name} generated no tests");
        assert_eq!(n(row, "branches_covered_valid"), n(row, "branches_covered"), "{name}");
        assert_eq!(n(row, "branches_covered"), 21, "{name}: sl's 21/26 directions at k = 2");
    }
    let sl = rows.iter().find(|r| r["strategy"] == "sl").expect("an sl row");
    assert_eq!(n(sl, "tests"), 21, "sl matches lazier#'s 21 valid cases at k = 2");
}

#[test]
fn pre_ignore_classifies_every_input_with_the_model_checker() {
    let (ok, stdout, stderr) = compare(&[
        "examples/bst.hl",
        "--method",
        "BST.insert",
        "--strategies",
        "lazy,lazier,lazier#,symheap",
        "--pre",
        "ignore",
        "--format",
        "json",
    ]);
    assert!(ok, "{stderr}");
    for row in rows(&stdout) {
        let name = row["strategy"].as_str().unwrap_or_default().to_string();
        assert_eq!(row["pre"], "ignore", "{name}");
        assert!(n(&row, "invalid_inputs") > 0, "{name} with --pre ignore must show invalid inputs");
        // BST.insert at k = 2: 24/26 directions over all inputs, 21/26 over valid ones,
        // which is what sl covers (the other three need an input violating `bst`).
        let covered = (n(&row, "branches_covered"), n(&row, "branches_covered_valid"));
        assert_eq!(covered, (24, 21), "{name}");
    }
}

/// A row stopped by a bound says which, in `stopped_by` and among `bounds_hit`, and the text
/// table names it; `compare` takes `run`'s bound flags.
#[test]
fn every_row_names_the_bound_that_stopped_it() {
    let args = ["examples/bst.hl", "--method", "BST.insert", "--max-paths", "3", "--k", "3"];
    let strategies = ["--strategies", "lazy,sl,symheap,concolic"];
    let (ok, stdout, stderr) =
        compare(&[&args[..], &strategies[..], &["--format", "json"]].concat());
    assert!(ok, "{stderr}");
    for row in rows(&stdout) {
        let name = row["strategy"].as_str().unwrap_or_default().to_string();
        let stopped = row["stopped_by"].as_str().unwrap_or_else(|| panic!("{name}: {row}"));
        assert!(stopped.starts_with("max_paths"), "{name}: {stopped}");
        let hit: Vec<&str> =
            row["bounds_hit"].as_array().into_iter().flatten().filter_map(|b| b.as_str()).collect();
        assert!(hit.contains(&"max_paths"), "{name}: bounds_hit {hit:?}");
    }
    let (ok, text, stderr) = compare(&[&args[..], &strategies[..]].concat());
    assert!(ok, "{stderr}");
    for name in ["lazy ", "sl ", "symheap ", "concolic "] {
        let row = text.lines().find(|l| l.starts_with(name)).unwrap_or_default();
        assert!(row.contains("max_paths"), "{name} row names no bound:\n{text}");
    }
}

#[test]
fn text_table_has_one_row_per_strategy() {
    let (ok, stdout, stderr) = compare(&["examples/swap.hl", "--method", "Node.swap"]);
    assert!(ok, "{stderr}");
    for name in ["lazy ", "lazier ", "lazier# ", "sl "] {
        assert!(stdout.lines().any(|l| l.starts_with(name)), "no row for {name}:\n{stdout}");
    }
    let header = stdout.lines().nth(1).unwrap_or_default();
    assert!(header.contains("branches") && header.contains("br_valid"), "{header}");
}

/// Issue 30's sweep, at a size for CI: heavy methods at k = 3 under every strategy, each run
/// cut by the time bound or by a count; whatever stopped a run, `stopped_by` is among its
/// `bounds_hit` (never a run that stopped with no bound named). Time decides where a run
/// stops, not whether the rule holds.
#[test]
fn a_run_that_stopped_always_names_its_bound() {
    let cases = [
        ("examples/treemap.hl", "TreeMap.put", &["--timeout-ms", "300"][..]),
        ("examples/avl.hl", "AvlTree.insert", &["--timeout-ms", "300"][..]),
        ("examples/bst.hl", "BST.remove", &["--max-states", "200"][..]),
        ("examples/dll.hl", "LinkedList.addAt", &["--max-questions", "40"][..]),
    ];
    let mut stopped = 0;
    for (file, method, bound) in cases {
        let args =
            [&[file, "--method", method, "--k", "3", "--format", "json"][..], bound].concat();
        let (ok, stdout, stderr) = compare(&args);
        assert!(ok, "{file} {method}: {stderr}");
        for row in rows(&stdout) {
            let name = format!("{method} {}", row["strategy"].as_str().unwrap_or_default());
            let hit: Vec<&str> = row["bounds_hit"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|b| b.as_str())
                .collect();
            if let Some(by) = row["stopped_by"].as_str() {
                stopped += 1;
                let by = by.split_whitespace().next().unwrap_or_default();
                assert!(hit.contains(&by), "{name}: stopped by {by}, bounds_hit {hit:?}: {row}");
            }
        }
    }
    assert!(stopped > 0, "no run was stopped: the sweep checked nothing");
}
