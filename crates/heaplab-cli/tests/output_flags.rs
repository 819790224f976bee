//! `-q`, `-v`, `--color` and `NO_COLOR`: colour only when asked or on a terminal, never with
//! `NO_COLOR`; `-q` keeps results and errors and drops warnings and passing tests; `-v` adds
//! the bounds in effect.

mod common;

use common::{heaplab, text, workspace_root};
use std::process::Command;

const ESC: &str = "\x1b[";
const WARNS: &str = "crates/heaplab-cli/tests/data/no_base_case.hl";

fn broken_file(tag: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("heaplab-colour-{}-{tag}.hl", std::process::id()));
    std::fs::write(&path, "int f() { return y; }\n").expect("write");
    path
}

#[test]
fn colour_is_asked_for_or_left_out() {
    let bad = broken_file("colour");
    let b = bad.to_str().expect("utf-8");
    let always = heaplab(&["--color", "always", "check", b]);
    let err = text(&always.stderr);
    assert!(err.contains("\x1b[1;31merror\x1b[0m"), "{err:?}");
    assert!(err.contains("\x1b[1;31m^"), "the marker has the severity's colour: {err:?}");
    // Piped output (auto) and `never` have none; neither has `NO_COLOR` with auto.
    for args in [vec!["check", b], vec!["--color", "never", "check", b]] {
        let out = heaplab(&args);
        assert!(!text(&out.stderr).contains(ESC), "{args:?}: {:?}", text(&out.stderr));
        assert_eq!(out.status.code(), Some(1));
    }
    let exe = env!("CARGO_BIN_EXE_heaplab");
    let out = Command::new(exe)
        .args(["--color", "auto", "check", b])
        .env("NO_COLOR", "1")
        .current_dir(workspace_root())
        .output()
        .expect("heaplab runs");
    assert!(!text(&out.stderr).contains(ESC));
    // The text is the same with and without colour, escapes aside.
    let plain = text(&heaplab(&["check", b]).stderr);
    let stripped = err.replace("\x1b[1;31m", "").replace("\x1b[0m", "");
    assert_eq!(stripped, plain);
    let _ = std::fs::remove_file(&bad);
}

#[test]
fn quiet_keeps_results_and_errors() {
    let loud = text(&heaplab(&["check", WARNS]).stderr);
    assert!(loud.contains("warning:"), "{loud}");
    let quiet = heaplab(&["-q", "check", WARNS]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(text(&quiet.stderr).is_empty(), "{:?}", text(&quiet.stderr));

    let bad = broken_file("quiet");
    let out = heaplab(&["-q", "check", bad.to_str().expect("utf-8")]);
    assert!(text(&out.stderr).contains("error:"), "errors stay under -q");
    let _ = std::fs::remove_file(&bad);

    let tests = heaplab(&["test", "examples/bst.hl"]);
    let quiet = heaplab(&["-q", "test", "examples/bst.hl"]);
    assert_eq!(tests.status.code(), quiet.status.code());
    let (t, q) = (text(&tests.stdout), text(&quiet.stdout));
    assert!(t.lines().any(|l| l.starts_with("ok ")), "{t}");
    assert!(!q.lines().any(|l| l.starts_with("ok ")), "{q}");
    assert_eq!(t.lines().last(), q.lines().last(), "the tally stays");
}

#[test]
fn verbose_names_the_bounds_and_quiet_and_verbose_conflict() {
    let out = heaplab(&["-v", "run", "examples/bst.hl", "--method", "BST.insert", "--k", "3"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("bounds: k 3, loop 10"), "{err}");
    let plain = heaplab(&["run", "examples/bst.hl", "--method", "BST.insert"]);
    assert!(!text(&plain.stderr).contains("bounds:"));
    let both = heaplab(&["-q", "-v", "check", "examples/bst.hl"]);
    assert_eq!(both.status.code(), Some(2));
}
