//! `heaplab grade`: a folder of 12 submissions of a list `remove` (the reference, eight mutants,
//! a syntax error, a type error and a correct recursive alternative) graded with one command and
//! `--jobs 2`. Every row of the CSV is checked, and every counterexample is run: appended to
//! its submission as a test that expects the violation it names, `heaplab test` passes it, and
//! on the reference the same input breaks nothing.

mod common;

use common::{heaplab, text, workspace_root};

const DIR: &str = "crates/heaplab-cli/tests/data/grading";

/// RFC 4180 rows: fields split at commas outside quotes, `""` inside quotes is one quote.
fn parse_csv(s: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (c, _) => field.push(c),
        }
    }
    rows
}

#[test]
fn a_folder_of_submissions_is_graded_in_one_command() {
    let out_file = std::env::temp_dir().join(format!("heaplab-grades-{}.csv", std::process::id()));
    let out = heaplab(&[
        "grade",
        DIR,
        "--method",
        "SLL.remove",
        "--jobs",
        "2",
        "--summary",
        "csv",
        "--out",
        &out_file.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(1), "flagged submissions exit 1: {}", text(&out.stderr));
    let csv = std::fs::read_to_string(&out_file).expect("the CSV");
    let _ = std::fs::remove_file(&out_file);
    let rows = parse_csv(&csv);
    let header = &rows[0];
    assert_eq!(header[..3], ["file", "method", "status"], "{header:?}");
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let (file, status, tests, detail) = (col("file"), col("status"), col("tests"), col("detail"));
    let (covered, total) = (col("branches_covered"), col("branches_total"));
    let body = &rows[1..];
    assert_eq!(body.len(), 12, "one row per submission:\n{csv}");

    let want = |name: &str| match name {
        "01_reference" | "12_recursive" => "ok",
        "10_syntax_error" | "11_type_error" => "error",
        _ => "violation",
    };
    let reference = std::fs::read_to_string(workspace_root().join(DIR).join("01_reference.hl"))
        .expect("reference");
    for row in body {
        let name = std::path::Path::new(&row[file])
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        assert_eq!(row[status], want(&name), "{name}: {row:?}");
        match want(&name) {
            "ok" => {
                assert!(row[tests].parse::<u64>().unwrap_or(0) > 0, "{name}: {row:?}");
                assert_eq!(row[covered], row[total], "{name}: every branch covered: {row:?}");
                assert_eq!(row[detail], "", "{name}");
            }
            "error" => {
                let at = row[detail].split(':').take(2).collect::<Vec<_>>();
                assert!(at.iter().all(|p| p.parse::<u32>().is_ok()), "{name}: line:col: {row:?}");
            }
            _ => {
                // `ensures_failed at L:C: … (test NAME: INPUT)`: the input is a counterexample.
                let d = &row[detail];
                assert!(d.starts_with("ensures_failed at "), "{name}: {d}");
                let input = d
                    .split_once("(test ")
                    .and_then(|(_, rest)| rest.split_once(": "))
                    .map(|(_, i)| i.strip_suffix(')').unwrap_or(i))
                    .expect("a counterexample");
                assert!(input.contains(".remove("), "{name}: {input}");
                let test =
                    format!("\ntest counterexample expects ensures_failed {{\n  {input}\n}}\n");
                let source =
                    std::fs::read_to_string(workspace_root().join(&row[file])).expect("read");
                let dir = std::env::temp_dir()
                    .join(format!("heaplab-grade-{}-{name}", std::process::id()));
                std::fs::create_dir_all(&dir).expect("temp dir");
                let on_it = dir.join("submission.hl");
                std::fs::write(&on_it, format!("{source}{test}")).expect("write");
                let r = heaplab(&["test", &on_it.to_string_lossy()]);
                assert!(
                    r.status.success(),
                    "{name}: the counterexample breaks the submission:\n{}",
                    text(&r.stdout)
                );
                let on_reference = dir.join("reference.hl");
                std::fs::write(&on_reference, format!("{reference}{test}")).expect("write");
                let r = heaplab(&["test", &on_reference.to_string_lossy()]);
                assert_eq!(
                    r.status.code(),
                    Some(1),
                    "{name}: the reference keeps its contract on it"
                );
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
    }
}

/// JSON rows carry the same verdicts; a method a submission lacks is its own status.
#[test]
fn json_rows_and_a_missing_method() {
    let one = format!("{DIR}/01_reference.hl");
    let out = heaplab(&[
        "grade",
        &one,
        "--method",
        "SLL.remove",
        "--method",
        "SLL.insert",
        "--summary",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows = rows.as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["status"], "ok");
    assert_eq!(rows[1]["status"], "no_method");
}

/// Every bound flag of `heaplab run` reaches each graded run: a path bound of 1 cuts the
/// reference's run (`cut`, stopped by `max_paths`), which the default bounds let finish (`ok`).
#[test]
fn the_bound_flags_reach_every_run() {
    let one = format!("{DIR}/01_reference.hl");
    let grade = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["grade", &one, "--method", "SLL.remove", "--summary", "json"];
        args.extend(extra);
        let out = heaplab(&args);
        assert!(out.status.code().is_some_and(|c| c <= 1), "{}", text(&out.stderr));
        let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        rows[0].clone()
    };
    let whole = grade(&[]);
    assert_eq!(whole["status"], "ok", "{whole}");
    let cut = grade(&["--max-paths", "1"]);
    assert_eq!(cut["status"], "cut", "{cut}");
    assert!(cut["stopped_by"].as_str().is_some_and(|s| s.starts_with("max_paths")), "{cut}");
    assert!(cut["tests"].as_u64() < whole["tests"].as_u64(), "{cut} vs {whole}");
}
