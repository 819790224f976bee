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

#[test]
fn bst_insert_lists_every_strategy_and_sl_has_no_invalid_input() {
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
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    let rows = json["strategies"].as_array().expect("a strategies array");
    let names: Vec<&str> = rows.iter().filter_map(|r| r["strategy"].as_str()).collect();
    assert_eq!(names, ["lazy", "lazier", "lazier#", "sl", "symheap"]);
    for row in rows {
        let name = row["strategy"].as_str().unwrap_or_default();
        let tests = row["tests"].as_u64().expect("tests");
        let invalid = row["invalid_inputs"].as_u64().expect("invalid_inputs");
        assert!(tests > 0, "{name} generated no tests");
        let covered = row["branches_covered"].as_u64().expect("branches_covered");
        let covered_valid = row["branches_covered_valid"].as_u64().expect("branches_covered_valid");
        assert!(covered <= row["branches_total"].as_u64().expect("branches_total"));
        assert!(covered_valid <= covered, "{name}: valid inputs are a subset of all inputs");
        if name == "sl" {
            assert_eq!(covered_valid, covered, "every sl input is valid");
            assert_eq!(invalid, 0, "sl explores only inputs that satisfy `requires`");
            assert_eq!(tests, 21, "sl matches lazier#'s 21 valid cases at k = 2");
        } else {
            assert!(invalid > 0, "{name} with --pre ignore must show invalid inputs");
            // BST.insert at k = 2: 24/26 directions over all inputs, 21/26 over valid ones,
            // which is what sl covers (the other three need an input violating `bst`).
            assert_eq!((covered, covered_valid), (24, 21), "{name}");
        }
    }
    let sl = rows.iter().find(|r| r["strategy"] == "sl").expect("an sl row");
    assert_eq!(sl["branches_covered"].as_u64(), Some(21));
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
