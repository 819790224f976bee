//! `heaplab run --strategy concolic` and the `concolic` row of `heaplab compare` (issue 16):
//! the emitted `.hl` tests pass under `heaplab test` (an independent replay), no input violates
//! `requires`, and the solver column is CSF's `#Calls`.

use std::path::Path;
use std::process::Command;

fn heaplab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_heaplab"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("the heaplab binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn run_concolic_emits_valid_tests_that_pass() {
    let dir = std::env::temp_dir().join(format!("heaplab-concolic-{}", std::process::id()));
    let out = dir.to_str().expect("utf-8 temp dir");
    let (ok, stdout, stderr) = heaplab(&[
        "run",
        "examples/sll.hl",
        "--method",
        "SLL.remove",
        "--strategy",
        "concolic",
        "--depth",
        "1",
        "--format",
        "json",
        "--emit",
        "hl",
        "--out",
        out,
    ]);
    assert!(ok, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    assert_eq!(json["strategy"], "concolic");
    assert_eq!(json["invalid"], 0);
    // sll has two disjuncts: CSF's phase-1 #Calls at depth 1.
    assert_eq!(json["phase1Calls"], 2);
    assert!(json["phase2Calls"].as_u64().expect("phase2Calls") > 0);
    assert!(json["tests"].as_u64().expect("tests") > json["phase1Inputs"].as_u64().unwrap_or(0));
    let file = dir.join("sll_SLL_remove_tests.hl");
    let (ok, stdout, stderr) = heaplab(&["test", file.to_str().expect("utf-8")]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains(" 0 failed"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_lists_concolic_with_its_phase_calls() {
    let (ok, stdout, stderr) = heaplab(&[
        "compare",
        "examples/sll.hl",
        "--method",
        "SLL.remove",
        "--strategies",
        "sl,concolic",
        "--format",
        "json",
    ]);
    assert!(ok, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    let rows = json["strategies"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    let (sl, cc) = (&rows[0], &rows[1]);
    assert_eq!(cc["strategy"], "concolic");
    assert_eq!(cc["invalid_inputs"], 0);
    assert!(cc["csf_calls"]["phase1"].as_u64().expect("phase1") > 0);
    assert!(sl["csf_calls"].is_null());
    let valid = |r: &serde_json::Value| r["branches_covered_valid"].as_u64().expect("covered");
    assert!(valid(cc) >= valid(sl), "concolic covers at least sl's directions on SLL.remove");
}
