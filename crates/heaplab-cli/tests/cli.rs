//! End-to-end tests of the `heaplab` binary: exit codes, diagnostics with positions, test
//! summaries. They run the real binary on real files, as a user would.

mod common;

use common::{heaplab, text, workspace_root};

fn examples() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(workspace_root().join("examples"))
        .expect("examples/ exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "hl"))
        .map(|p| format!("examples/{}", p.file_name().unwrap_or_default().to_string_lossy()))
        .collect();
    files.sort();
    files
}

#[test]
fn examples_check_clean() {
    let files = examples();
    assert!(files.len() >= 10, "expected the papers' subjects in examples/, found {files:?}");
    let args: Vec<&str> =
        std::iter::once("check").chain(files.iter().map(String::as_str)).collect();
    let out = heaplab(&args);
    assert!(out.status.success(), "check failed:\n{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "no diagnostics expected");
}

#[test]
fn example_tests_all_pass() {
    let files = examples();
    let args: Vec<&str> = std::iter::once("test").chain(files.iter().map(String::as_str)).collect();
    let out = heaplab(&args);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "tests failed:\n{stdout}\n{}", text(&out.stderr));
    let last = stdout.lines().last().unwrap_or_default();
    let passed: usize = last.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(last.ends_with(" passed, 0 failed"), "summary line: {last}");
    // Every file has hand-written tests; a run that executes few of them is suspicious.
    assert!(passed >= 2 * files.len(), "only {passed} tests ran for {} files", files.len());
}

#[test]
fn four_mistakes_give_four_diagnostics_with_positions() {
    let out = heaplab(&["check", "crates/heaplab-cli/tests/data/four_errors.hl"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    let headers: Vec<&str> = stderr.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(headers.len(), 4, "expected four errors, got:\n{stderr}");
    let at = |line_col: &str, word: &str| {
        headers
            .iter()
            .any(|h| h.contains(&format!("four_errors.hl:{line_col}: error")) && h.contains(word))
    };
    assert!(at("6:13", "nxt"), "field typo at 6:13:\n{stderr}");
    assert!(stderr.contains("did you mean `next`"), "suggestion for the typo:\n{stderr}");
    assert!(at("7:11", "bool"), "type error at 7:11:\n{stderr}");
    assert!(
        headers.iter().any(|h| h.contains("four_errors.hl:8:") && h.contains(';')),
        "missing `;` on line 8:\n{stderr}"
    );
    assert!(at("12:28", "lsegg"), "unknown predicate at 12:28:\n{stderr}");
    assert!(!stderr.contains("panicked"));
}

#[test]
fn runtime_errors_are_test_failures_with_kind_and_line() {
    let out = heaplab(&["test", "crates/heaplab-cli/tests/data/runtime_errors.hl"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let line_of =
        |name: &str| stdout.lines().find(|l| l.contains(name)).unwrap_or_default().to_string();
    let null = line_of("reads_null_head");
    assert!(null.starts_with("FAIL"), "{stdout}");
    assert!(
        null.contains("null dereference") && null.contains("at 4:10"),
        "names the error and line 4: {null}"
    );
    let ens = line_of("broken_ensures");
    assert!(ens.starts_with("FAIL"), "{stdout}");
    assert!(
        ens.contains("ensures") && ens.contains("at 8:"),
        "names the ensures clause on line 8: {ens}"
    );
    assert!(line_of("expected_null").starts_with("ok"), "{stdout}");
    assert!(line_of("passes").starts_with("ok"), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("2 passed, 2 failed"));
}

#[test]
fn exec_prints_result_or_runtime_error() {
    // twice(4) returns 9, which breaks its ensures clause: that is the outcome, not 8.
    let out = heaplab(&[
        "exec",
        "crates/heaplab-cli/tests/data/runtime_errors.hl",
        "--call",
        "twice(4) - 1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("ensures"), "{}", text(&out.stdout));
    let out = heaplab(&[
        "exec",
        "crates/heaplab-cli/tests/data/runtime_errors.hl",
        "--call",
        "head(new Node { val: 5 })",
    ]);
    assert_eq!(text(&out.stdout).trim(), "5");
    let out = heaplab(&[
        "exec",
        "crates/heaplab-cli/tests/data/runtime_errors.hl",
        "--call",
        "head(null)",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("null dereference"), "{}", text(&out.stdout));
}

#[test]
fn bad_input_never_panics() {
    let dir = std::env::temp_dir().join(format!("heaplab-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases: &[&[u8]] = &[
        b"",
        b"class {",
        b"\xff\xfe not utf8",
        b"test t { while (true) { } }",
        b"(((((((((((((((",
    ];
    for (i, case) in cases.iter().enumerate() {
        let path = dir.join(format!("case{i}.hl"));
        std::fs::write(&path, case).expect("write case");
        let path = path.to_string_lossy().into_owned();
        for args in [vec!["check", path.as_str()], vec!["test", path.as_str(), "--steps", "10000"]]
        {
            let out = heaplab(&args);
            let stderr = text(&out.stderr);
            assert!(!stderr.contains("panicked"), "{args:?} panicked:\n{stderr}");
            assert!(out.status.code().is_some(), "{args:?} was killed");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn predicate_without_base_case_is_a_warning_not_an_error() {
    let out = heaplab(&["check", "crates/heaplab-cli/tests/data/no_base_case.hl"]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "a warning must not fail the check:\n{stderr}");
    assert!(
        stderr.contains("no_base_case.hl:2:6: warning:") && stderr.contains("`loop`"),
        "names the predicate and its position:\n{stderr}"
    );
    assert!(!stderr.contains("`ok`"), "the well-founded predicate gets no warning:\n{stderr}");
}

#[test]
fn exec_with_an_unknown_function_points_into_the_call_text() {
    let out = heaplab(&[
        "exec",
        "crates/heaplab-cli/tests/data/runtime_errors.hl",
        "--call",
        "1 + heda(null)",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("--call:1:5: error: unknown function `heda`"), "{stderr}");
    assert!(!stderr.contains("internal"), "a user's typo is not an internal error:\n{stderr}");
}

/// `--lang` overrides the extension: a Java class saved as `.txt` (a download, a pasted
/// snippet) is read as Java when asked; without `--lang` it is read as HeapLab, and the first
/// error says it looks like Java and how to read it so.
#[test]
fn lang_overrides_the_extension() {
    let dir = std::env::temp_dir().join(format!("heaplab-lang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let java =
        std::fs::read_to_string(workspace_root().join("examples/java/course/LinkedStack.java"))
            .expect("LinkedStack.java");
    let file = dir.join("stack.txt");
    std::fs::write(&file, java).expect("write");
    let path = file.to_string_lossy().to_string();

    let out = heaplab(&["check", "--lang", "java", &path]);
    assert!(out.status.success(), "--lang java: {}", text(&out.stderr));
    let out =
        heaplab(&["run", &path, "--lang", "java", "--method", "LinkedStack.push", "--k", "2"]);
    assert!(out.status.success(), "run --lang java: {}", text(&out.stderr));
    assert!(text(&out.stdout).contains("tests:"), "{}", text(&out.stdout));

    let out = heaplab(&["check", &path]);
    assert_eq!(out.status.code(), Some(1), "read as HeapLab, it has errors");
    assert!(text(&out.stderr).contains("--lang java"), "{}", text(&out.stderr));

    // And the other way: a `.java` name read as HeapLab.
    let hl = dir.join("Swap.java");
    std::fs::copy(workspace_root().join("examples/swap.hl"), &hl).expect("copy");
    let out = heaplab(&["check", "--lang", "hl", &hl.to_string_lossy()]);
    assert!(out.status.success(), "--lang hl: {}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-` reads the program from standard input; a Java class is recognised by its text.
#[test]
fn a_dash_reads_the_program_from_standard_input() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let run = |args: &[&str], file: &str| {
        let text = std::fs::read(workspace_root().join(file)).expect("example");
        let mut child = Command::new(env!("CARGO_BIN_EXE_heaplab"))
            .args(args)
            .current_dir(workspace_root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("heaplab runs");
        child.stdin.take().expect("stdin").write_all(&text).expect("write stdin");
        child.wait_with_output().expect("heaplab ends")
    };
    let out = run(&["run", "-", "--method", "BST.insert"], "examples/bst.hl");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("paths: 21 feasible"), "{}", text(&out.stdout));
    let java = "examples/java/course/LinkedStack.java";
    let out = run(&["run", "-", "--method", "LinkedStack.push"], java);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&["check", "-"], "examples/bst.hl");
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// One unreadable file does not stop a batch: `test` and `check` go on with the others, report
/// it, print their tally and exit 2 (the command could not read all its input).
#[test]
fn a_missing_file_does_not_stop_the_batch() {
    let out = heaplab(&["test", "examples/swap.hl", "no/such.hl", "examples/sll.hl"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("examples/sll.hl:"), "the file after the missing one ran:\n{stdout}");
    assert!(stdout.contains("FAIL no/such.hl (cannot be read)"), "{stdout}");
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.ends_with(" passed, 1 failed"), "the tally counts the missing file: {last}");
    assert!(text(&out.stderr).contains("cannot read `no/such.hl`"), "{}", text(&out.stderr));

    let out = heaplab(&["check", "no/such.hl", "examples/bst.hl", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let files = doc["files"].as_array().expect("files");
    assert_eq!(files.len(), 2, "{doc}");
    assert_eq!(files[0]["diagnostics"][0]["severity"], "error");
    assert_eq!(files[1]["file"], "examples/bst.hl");
}

/// `bench --suite DIR` measures every file it can: one with a syntax error is named and has no
/// rows, the others have theirs, and the exit code says something was wrong (1).
#[test]
fn bench_goes_past_a_file_with_errors() {
    let dir = std::env::temp_dir().join(format!("heaplab-bench-suite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy(workspace_root().join("examples/swap.hl"), dir.join("a_swap.hl")).expect("copy");
    std::fs::write(dir.join("b_broken.hl"), "class C { int f; }\nint g( {\n").expect("write");
    std::fs::copy(workspace_root().join("examples/swap.hl"), dir.join("c_swap.hl")).expect("copy");
    let suite = dir.to_string_lossy().to_string();
    let out = heaplab(&["bench", "--suite", &suite, "--strategies", "lazy", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("b_broken.hl"), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let files: std::collections::BTreeSet<String> = doc["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["summary"]["file"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(files.iter().any(|f| f.ends_with("a_swap.hl")), "{files:?}");
    assert!(files.iter().any(|f| f.ends_with("c_swap.hl")), "{files:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
