//! Data-driven tests of the type checker (and of the parser and checker together, since cases
//! are run through `heaplab_syntax::analyze`, exactly what a front end shows a student).
//!
//! Each case is `test_data/check/{ok,err}/NNNN_name.hl` with the rendered diagnostics beside it
//! in `NNNN_name.expected`. `ok` cases must produce no diagnostics, `err` cases at least one. A
//! missing `.expected` is written; `UPDATE_EXPECT=1` rewrites them all, for review in the diff.

use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::{analyze, SourceFile};
use std::fs;
use std::path::{Path, PathBuf};

/// The one helper every case goes through: source in, rendered diagnostics out.
fn check(name: &str, text: &str) -> String {
    let file = SourceFile::new(name, text);
    let analysis = analyze(&file);
    render_all(&analysis.diagnostics, &file)
}

fn cases(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/check").join(dir);
    let mut paths: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "hl"))
        .collect();
    paths.sort();
    paths
}

fn run_suite(dir: &str) {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let paths = cases(dir);
    assert!(!paths.is_empty(), "no cases in test_data/check/{dir}");
    for path in paths {
        let text = fs::read_to_string(&path).expect("readable case");
        let name = path.file_name().and_then(|n| n.to_str()).expect("utf-8 file name");
        let actual = check(name, &text);
        match dir {
            "ok" if !actual.is_empty() => failures.push(format!("{name}: expected no diagnostics")),
            "err" if actual.is_empty() => failures.push(format!("{name}: expected diagnostics")),
            _ => {}
        }
        let expected_path = path.with_extension("expected");
        if update || !expected_path.exists() {
            fs::write(&expected_path, &actual).expect("writable expectation");
            continue;
        }
        let expected = fs::read_to_string(&expected_path).expect("readable expectation");
        if expected != actual {
            failures.push(format!(
                "{name}: output differs (UPDATE_EXPECT=1 to rewrite)\n--- expected\n{expected}--- actual\n{actual}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ok_cases() {
    run_suite("ok");
}

#[test]
fn err_cases() {
    run_suite("err");
}

/// Every prefix of every case is a broken program; parsing and checking must never panic on
/// whatever partial tree comes out.
#[test]
fn no_panic_on_truncated_input() {
    for dir in ["ok", "err"] {
        for path in cases(dir) {
            let text = fs::read_to_string(&path).expect("readable case");
            for (cut, _) in text.char_indices() {
                let _ = check("prefix.hl", &text[..cut]);
            }
        }
    }
}
