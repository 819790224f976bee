//! End-to-end tests of `heaplab run`: the papers' numbers through the real binary, named bounds,
//! emitted tests that `heaplab test` runs, and clear errors for bad input.

mod common;

use common::{heaplab, text};
use std::process::Output;

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("run --format json prints JSON")
}

#[test]
fn bst_insert_lazier_sharp_k2_has_21_tests() {
    let out = heaplab(&[
        "run",
        "examples/bst.hl",
        "--method",
        "BST.insert",
        "--strategy",
        "lazier#",
        "--k",
        "2",
        "--format",
        "json",
    ]);
    let v = json(&out);
    assert_eq!(v["tests"], 21);
    assert_eq!(v["strategy"], "lazier#");
    assert_eq!(v["k"], 2);
    for key in [
        "paths",
        "invalid_inputs",
        "errors",
        "branches_covered",
        "branches_total",
        "solver_calls",
        "time_ms",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
}

#[test]
fn infinite_loop_names_the_bound() {
    let dir = std::env::temp_dir().join(format!("heaplab-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("loop.hl");
    std::fs::write(&file, "int spin(int x) { while (true) { x = x + 0; } return x; }\n")
        .expect("write");
    let out = heaplab(&["run", &file.display().to_string(), "--method", "spin"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("bounded (by loop)"), "{}", text(&out.stdout));
}

#[test]
fn emitted_tests_run_with_heaplab_test() {
    let dir = std::env::temp_dir().join(format!("heaplab-emit-{}", std::process::id()));
    let out = heaplab(&[
        "run",
        "examples/bst.hl",
        "--method",
        "BST.findMin",
        "--pre",
        "ignore",
        "--emit",
        "hl",
        "--out",
        &dir.display().to_string(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let emitted = dir.join("bst_BST_findMin_tests.hl");
    let out = heaplab(&["test", &emitted.display().to_string()]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains(" 0 failed"));
}

#[test]
fn bad_method_is_a_clear_error() {
    let out = heaplab(&["run", "examples/bst.hl", "--method", "BST.nope"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("no method `BST.nope`"), "{err}");
    // It names what could have been meant.
    assert!(err.contains("BST.insert") && err.contains("BST.remove"), "{err}");
    let out = heaplab(&["run", "examples/bst.hl", "--method", "Tree.insert"]);
    assert!(text(&out.stderr).contains("`insert` is BST.insert"), "{}", text(&out.stderr));
    let out = heaplab(&["run", "examples/bst.hl", "--method", "BST.insert", "--strategy", "eager"]);
    assert!(!out.status.success());
}

/// `--max-questions` (a bound declared once in the engine's table; the flag comes from it):
/// the run stops after that many questions about path conditions and says which bound stopped
/// it, at the same point on every machine.
#[test]
fn max_questions_stops_a_run_by_count() {
    let args = ["run", "examples/bst.hl", "--method", "BST.insert", "--strategy", "lazy"];
    let all = json(&heaplab(&[&args[..], &["--format", "json"]].concat()));
    let asked = |v: &serde_json::Value| {
        let c = &v["solver_calls"];
        ["sent", "decided_locally", "cached"]
            .iter()
            .map(|k| c[k].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    assert!(asked(&all) > 100, "{all}");
    assert_eq!(all["stopped_by"], serde_json::Value::Null);
    let cut =
        json(&heaplab(&[&args[..], &["--max-questions", "100", "--format", "json"]].concat()));
    let by = cut["stopped_by"].as_str().unwrap_or_default();
    assert!(by.starts_with("max_questions"), "{cut}");
    assert!(cut["bounds_hit"].as_array().is_some_and(|b| b.contains(&"max_questions".into())));
    assert!(cut["paths_feasible"].as_u64() < all["paths_feasible"].as_u64(), "{cut}");
}

/// `--emit` never destroys a file it did not write: a hand-written `BST.java` where the JUnit
/// export would put its translation stops the run and stays as it was; `--force` replaces it,
/// and HeapLab's own output is replaced without asking.
#[test]
fn emit_refuses_to_overwrite_a_file_heaplab_did_not_write() {
    let dir = std::env::temp_dir().join(format!("heaplab-emit-safe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bst")).expect("temp dir");
    let mine = dir.join("bst/BST.java");
    let hand_written = "// my own BST, not generated\nclass BST {}\n";
    std::fs::write(&mine, hand_written).expect("write");
    let out_dir = dir.to_string_lossy().to_string();
    let emit = |extra: &[&str]| {
        let mut args =
            vec!["run", "examples/bst.hl", "--method", "BST.insert", "--emit", "junit", "--out"];
        args.push(&out_dir);
        args.extend_from_slice(extra);
        heaplab(&args)
    };
    let out = emit(&[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("not written by HeapLab"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&mine).expect("still there"), hand_written);

    let out = emit(&["--force"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&mine).expect("replaced").starts_with("// Generated by"));
    // Its own output is HeapLab's to replace.
    let out = emit(&[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file named `java.hl` exports its JUnit tests in a package the JVM loads (`hl_java`), not
/// in the prohibited package `java`.
#[test]
fn a_file_named_java_exports_a_legal_package() {
    let dir = std::env::temp_dir().join(format!("heaplab-java-pkg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("java.hl");
    std::fs::copy(common::workspace_root().join("examples/bst.hl"), &src).expect("copy");
    let out = heaplab(&[
        "run",
        &src.to_string_lossy(),
        "--method",
        "BST.insert",
        "--emit",
        "junit",
        "--out",
        &dir.join("out").to_string_lossy(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let test = dir.join("out/hl_java/BSTInsertTest.java");
    let body = std::fs::read_to_string(&test).expect("tests in package hl_java");
    assert!(body.contains("package hl_java;"), "{body}");
    let _ = std::fs::remove_dir_all(&dir);
}
