//! `heaplab run --dump-smt2 DIR`: one standalone SMT-LIB file per query sent to z3, as many as
//! the summary's `sent`, each answered by a fresh z3 as its `:status` says; earlier dumps are
//! replaced, files HeapLab did not write are not.

mod common;

use common::{heaplab, text, workspace_root};
use std::process::Command;

#[test]
fn every_query_sent_is_a_file_a_fresh_z3_answers_the_same() {
    let dir = std::env::temp_dir().join(format!("heaplab-dump-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    // A stale file of an earlier dump goes; the run's own files replace it.
    std::fs::write(dir.join("query-9999.smt2"), "; heaplab run old: query 9999\n").expect("write");
    // Division by an unknown: the Rust procedure leaves it to z3.
    let file = workspace_root().join("crates/heaplab-cli/tests/data/nonlinear.hl");
    let (f, d) = (file.to_str().expect("utf-8"), dir.to_str().expect("utf-8"));
    let run = |extra: &[&str]| {
        let mut args =
            vec!["run", f, "--method", "quotient", "--strategy", "lazier#", "--format", "json"];
        args.extend(extra);
        heaplab(&args)
    };
    let out = run(&["--dump-smt2", d]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let sent = summary["solver_calls"]["sent"].as_u64().expect("sent");
    assert!(sent > 0, "this run needs z3: {summary}");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the dump")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    assert_eq!(files.len() as u64, sent, "{files:?}");
    let mut answers = std::collections::BTreeMap::new();
    for path in &files {
        let script = std::fs::read_to_string(path).expect("read");
        let status = script
            .lines()
            .find_map(|l| l.strip_prefix("(set-info :status ").map(|s| s.trim_end_matches(')')))
            .expect("a status");
        let z3 = Command::new("z3").arg(path).output().expect("z3 runs");
        let answer = text(&z3.stdout).lines().next().unwrap_or_default().to_string();
        assert_eq!(answer, status, "{}", path.display());
        *answers.entry(answer).or_insert(0) += 1;
    }
    assert!(answers.contains_key("sat"), "{answers:?}");

    // A `query-*.smt2` HeapLab did not write stops the run and stays as it was.
    std::fs::write(dir.join("query-0001.smt2"), "(check-sat)\n").expect("write");
    let out = run(&["--dump-smt2", d]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("not written by HeapLab"), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.join("query-0001.smt2")).expect("read"),
        "(check-sat)\n"
    );
    let out = run(&["--dump-smt2", d, "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}
