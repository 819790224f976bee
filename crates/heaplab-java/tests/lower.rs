//! Data-driven tests of the Java front end: each `test_data/{ok,err}/NAME.java` is lowered and
//! checked; `NAME.expected` holds the rendered diagnostics and the lowered program as `.hl`
//! (written when missing, rewritten with `UPDATE_EXPECT=1`). Files under `ok/` must have no
//! error; files under `err/` must have at least one. Every lowered program must print as `.hl`
//! that parses and checks again (the lowering produces only what the language has).

use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::SourceFile;
use std::fs;
use std::path::{Path, PathBuf};

fn cases(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(dir);
    let mut out: Vec<PathBuf> = fs::read_dir(&root)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "java"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

fn render(path: &Path) -> (String, bool) {
    let text = fs::read_to_string(path).expect("test file");
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
    let file = SourceFile::new(name, text);
    let java = heaplab_java::analyze(&file);
    let a = &java.analysis;
    let mut out = String::new();
    out.push_str("// diagnostics\n");
    for line in render_all(&a.diagnostics, &file).lines() {
        out.push_str("// ");
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("// explorable: ");
    let targets: Vec<String> = java.map.targets().iter().map(|m| m.target.clone()).collect();
    out.push_str(&targets.join(", "));
    out.push('\n');
    let printed = heaplab_syntax::pretty::program(&a.program);
    out.push_str(&printed);
    // The printed program is a `.hl` file of its own: it must read back without errors when
    // the Java file had none.
    if !a.has_errors() {
        let again = heaplab_syntax::analyze(&SourceFile::new("printed.hl", printed.clone()));
        let errs: Vec<_> = again.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(
            errs.is_empty(),
            "{}: the lowered program does not check as .hl:\n{}\n{printed}",
            path.display(),
            render_all(&again.diagnostics, &SourceFile::new("printed.hl", printed.clone()))
        );
    }
    (out, a.has_errors())
}

fn run(dir: &str, want_errors: bool) {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut failures = Vec::new();
    let files = cases(dir);
    assert!(!files.is_empty(), "no cases in test_data/{dir}");
    for path in files {
        let (got, has_errors) = render(&path);
        if has_errors != want_errors {
            failures.push(format!(
                "{}: expected {} errors, got:\n{got}",
                path.display(),
                if want_errors { "some" } else { "no" }
            ));
            continue;
        }
        let expected_path = path.with_extension("expected");
        match fs::read_to_string(&expected_path) {
            Ok(want) if want == got => {}
            Ok(_) if !update => failures.push(format!(
                "{}: output differs from {} (UPDATE_EXPECT=1 to accept):\n{got}",
                path.display(),
                expected_path.display()
            )),
            _ => fs::write(&expected_path, &got).expect("write expectation"),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn ok_cases_lower_without_errors() {
    run("ok", false);
}

#[test]
fn err_cases_report_errors() {
    run("err", true);
}
