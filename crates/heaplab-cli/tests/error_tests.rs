//! Error-revealing tests apart from regression tests (issue 33, Done-when 1), end to end on a
//! student's list whose `remove` never removes the first cell
//! (tests/data/student_list.hl and its Java twin tests/data/student/StudentList.java): the JUnit
//! export holds a `…ErrorTest` class whose tests fail on the real JVM with a message naming the
//! broken `ensures` and its line, and a regression class that passes; `heaplab test` on the
//! `.hl` export reports the found bug and exits 1.

mod common;

use common::{heaplab, text, workspace_root};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("heaplab-error-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn java_files(dir: &Path, acc: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable").flatten() {
        let p = entry.path();
        if p.is_dir() {
            java_files(&p, acc);
        } else if p.extension().is_some_and(|e| e == "java") {
            acc.push(p);
        }
    }
}

/// Compiles every Java file under `src` (and `extra`), then runs one class on the JUnit 5
/// console: (tests found, tests failed, the console's report).
fn run_class(src: &Path, extra: &[PathBuf], class: &str) -> (u32, u32, String) {
    let classes = src.join("classes");
    let mut files = Vec::new();
    java_files(src, &mut files);
    files.extend(extra.iter().cloned());
    common::junit_console(&classes, &files, &["--select-class", class])
}

/// `heaplab run FILE --method StudentList.remove --emit KIND --out DIR`.
fn emit_remove(file: &str, kind: &str, dir: &std::path::Path) -> std::process::Output {
    let out = dir.to_str().expect("utf-8");
    heaplab(&["run", file, "--method", "StudentList.remove", "--emit", kind, "--out", out])
}

#[test]
fn student_list_junit_has_a_failing_error_class_and_a_passing_regression_class() {
    let dir = scratch("hl");
    let out = emit_remove("crates/heaplab-cli/tests/data/student_list.hl", "junit", &dir);
    // A broken `ensures` on a valid input is a found bug: exit 1.
    assert_eq!(out.status.code(), Some(1), "{}{}", text(&out.stdout), text(&out.stderr));
    let (found, failed, report) = run_class(&dir, &[], "student_list.StudentListRemoveErrorTest");
    assert!(found > 0 && failed == found, "every error-revealing test fails:\n{report}");
    let clause = "StudentList.remove: ensures result == old(member(this.head, x)) (line 14)";
    // The console prints each failure's message (in the tree and again in its summary).
    assert!(
        report.matches(clause).count() as u32 >= failed,
        "each failure names the clause:\n{report}"
    );
    assert!(
        report.contains("_breaksEnsuresLine14()"),
        "the test's name says the clause's line:\n{report}"
    );
    let (found, failed, report) = run_class(&dir, &[], "student_list.StudentListRemoveTest");
    assert!(found > 0 && failed == 0, "the regression class passes:\n{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn student_list_java_junit_has_a_failing_error_class_and_a_passing_regression_class() {
    let dir = scratch("java");
    let source = "crates/heaplab-cli/tests/data/student/StudentList.java";
    let out = emit_remove(source, "junit", &dir);
    assert_eq!(out.status.code(), Some(1), "{}{}", text(&out.stdout), text(&out.stderr));
    let original = [workspace_root().join(source)];
    let (found, failed, report) = run_class(&dir, &original, "student.StudentListRemoveErrorTest");
    assert!(found > 0 && failed == found, "every error-revealing test fails:\n{report}");
    let clause = "StudentList.remove breaks `ensures";
    assert!(
        report.matches(clause).count() as u32 >= failed && report.contains("(line 23)"),
        "each failure names the clause and line:\n{report}"
    );
    let (found, failed, report) = run_class(&dir, &original, "student.StudentListRemoveTest");
    assert!(found > 0 && failed == 0, "the regression class passes:\n{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn heaplab_test_reports_the_found_bug_of_the_hl_export() {
    let dir = scratch("test");
    let out = emit_remove("crates/heaplab-cli/tests/data/student_list.hl", "hl", &dir);
    assert_eq!(out.status.code(), Some(1), "{}{}", text(&out.stdout), text(&out.stderr));
    let emitted =
        std::fs::read_dir(&dir).expect("emitted").flatten().next().expect("a file").path();
    let source = std::fs::read_to_string(&emitted).expect("readable");
    let marked = source.matches("expects bug ensures_failed").count();
    assert!(marked > 0, "{source}");
    let out = heaplab(&["test", emitted.to_str().expect("utf-8")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "found bugs exit 1:\n{stdout}");
    let bugs: Vec<&str> = stdout.lines().filter(|l| l.starts_with("BUG ")).collect();
    assert_eq!(bugs.len(), marked, "{stdout}");
    for b in &bugs {
        assert!(
            b.contains(":14:13: an `ensures` clause of `remove` is false on return: `result == old(member(this.head, x))`"),
            "the place and the clause: {b}"
        );
    }
    assert!(
        stdout.contains(&format!(" {marked} failed ({marked} of them found bugs)")),
        "{stdout}"
    );
    assert!(!stdout.contains("FAIL "), "the regression tests pass:\n{stdout}");
    // Fixed code: the bug no longer occurs, so the marked tests pass.
    let fixed = source.replacen(
        "    if (this.head == null) return false;\n",
        "    if (this.head == null) return false;\n    if (this.head.elem == x) { this.head = this.head.next; return true; }\n",
        1,
    );
    assert_ne!(fixed, source);
    let fixed_file = dir.join("fixed.hl");
    std::fs::write(&fixed_file, fixed).expect("writable");
    let out = heaplab(&["test", fixed_file.to_str().expect("utf-8")]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("(the bug it recorded no longer occurs)"), "{stdout}");
    assert!(!stdout.contains("BUG "), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
