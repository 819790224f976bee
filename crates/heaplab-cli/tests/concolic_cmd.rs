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

/// `heaplab csf-table` on a folder holding only the stack (stackli.hl, SIR's StackLi): one row,
/// CSF's numbers as the paper prints them next to ours; at depth 1 phase 1 makes one call per
/// disjunct of `stack` (2) per method, CSF's rule for its `#Calls`; no input is invalid.
#[test]
fn csf_table_puts_csf_row_next_to_ours() {
    let dir = std::env::temp_dir().join(format!("heaplab-csf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy("../../examples/stackli.hl", dir.join("stackli.hl")).expect("copy stackli.hl");
    // Written into its section of a document, as `./build.sh bench` does to docs/symbolic.md.
    let doc = dir.join("doc.md");
    let before = "# Doc\n\ntext before\n\n<!-- csf-table:begin -->\nstale\n<!-- csf-table:end -->\n\ntext after\n";
    std::fs::write(&doc, before).expect("write doc");
    let (ok, _, stderr) = heaplab(&[
        "csf-table",
        "--examples",
        dir.to_str().expect("utf-8"),
        "--timeout-ms",
        "5000",
        "--into",
        doc.to_str().expect("utf-8"),
    ]);
    assert!(ok, "{stderr}");
    let written = std::fs::read_to_string(&doc).expect("read doc");
    assert!(written.starts_with("# Doc\n\ntext before\n\n<!-- csf-table:begin -->\n| Subject |"));
    assert!(written.ends_with("<!-- csf-table:end -->\n\ntext after\n"), "{written}");
    assert!(!written.contains("stale"));
    let stdout = written;
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("| Stack |")).collect();
    assert_eq!(rows.len(), 1, "{stdout}");
    let cells: Vec<&str> = rows[0].split('|').map(str::trim).collect();
    // | Stack | methods | CSF tests | CSF cov | CSF calls | CSF T | tests (invalid) | cov | sl | calls | T |
    assert_eq!(&cells[3..7], &["18", "100", "16/2", "7"], "CSF's Table 1 row");
    let methods: usize = cells[2].parse().expect("methods");
    assert!(cells[7].ends_with("(0)"), "no invalid input: {}", cells[7]);
    let p1: usize = cells[10].split('/').next().and_then(|n| n.parse().ok()).expect("p1 calls");
    assert_eq!(p1, 2 * methods, "one phase-1 call per disjunct of stack per method");
    assert!(!stdout.contains("| BST |"), "only the subjects the folder holds");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--into` a document without the marker lines fails at once, naming the file and the markers,
/// and leaves the document as it was.
#[test]
fn csf_table_into_a_document_without_markers_says_so() {
    let dir = std::env::temp_dir().join(format!("heaplab-csf-nomark-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let doc = dir.join("doc.md");
    std::fs::write(&doc, "# Doc\nno section here\n").expect("write doc");
    let (ok, _, stderr) =
        heaplab(&["csf-table", "--examples", "examples", "--into", doc.to_str().expect("utf-8")]);
    assert!(!ok);
    assert!(stderr.contains("doc.md") && stderr.contains("<!-- csf-table:begin -->"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&doc).expect("read"), "# Doc\nno section here\n");
    let _ = std::fs::remove_dir_all(&dir);
}
