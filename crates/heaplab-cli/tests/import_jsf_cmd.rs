//! `heaplab import-jsf`: JSF/CSF predicate files become HeapLab text that checks and whose
//! predicates the logic decides; errors keep their JSF locations and exit 1; `check` on a JSF
//! file names the command; `--out` never replaces a file unasked.

mod common;

use common::{heaplab, text, workspace_root};

const OK: &str = "crates/heaplab-syntax/test_data/jsf/ok";

#[test]
fn every_sample_imports_to_a_program_that_checks() {
    let dir = workspace_root().join(OK);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the JSF samples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsf"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    for file in files {
        let out = heaplab(&["import-jsf", file.to_str().expect("utf-8")]);
        assert_eq!(out.status.code(), Some(0), "{}: {}", file.display(), text(&out.stderr));
        let hl = std::env::temp_dir().join(format!(
            "heaplab-import-{}-{}.hl",
            std::process::id(),
            stem(&file)
        ));
        std::fs::write(&hl, &out.stdout).expect("write the import");
        let check = heaplab(&["check", hl.to_str().expect("utf-8")]);
        let _ = std::fs::remove_file(&hl);
        assert_eq!(check.status.code(), Some(0), "{}: {}", file.display(), text(&check.stderr));
    }
}

fn stem(p: &std::path::Path) -> String {
    p.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The imported `sll` is the list the logic knows: a two-cell list is a model, a cycle is not.
#[test]
fn the_imported_predicate_means_what_it_meant() {
    let file = workspace_root().join(OK).join("jsf_sll.jsf");
    let out = heaplab(&["import-jsf", file.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let hl = text(&out.stdout);
    assert!(hl.contains("pred sll("), "{hl}");
    let path = std::env::temp_dir().join(format!("heaplab-import-sll-{}.hl", std::process::id()));
    std::fs::write(&path, &hl).expect("write");
    let p = path.to_str().expect("utf-8");
    let class = hl
        .lines()
        .find_map(|l| l.strip_prefix("class ").map(|c| c.trim_end_matches(" {").to_string()))
        .expect("a class");
    let sat = heaplab(&["sat", p, "--formula", "sll(x) & x != null"]);
    assert_eq!(sat.status.code(), Some(10), "sat: {}{}", text(&sat.stdout), text(&sat.stderr));
    let cyclic = format!("exists {class} y. sll(x) * x -> {class} {{ next: y }} & y == x");
    let unsat = heaplab(&["sat", p, "--formula", &cyclic]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        unsat.status.code(),
        Some(20),
        "{cyclic}: {}{}",
        text(&unsat.stdout),
        text(&unsat.stderr)
    );
}

#[test]
fn errors_point_into_the_jsf_file_and_check_names_the_command() {
    let bad = workspace_root().join("crates/heaplab-syntax/test_data/jsf/err/arity.jsf");
    let out = heaplab(&["import-jsf", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("arity.jsf:2:34: error"), "{err}");
    assert!(out.stdout.is_empty(), "nothing is printed for a file with errors");

    let sample = workspace_root().join(OK).join("csf_sll.jsf");
    let check = heaplab(&["check", sample.to_str().expect("utf-8")]);
    assert_eq!(check.status.code(), Some(1));
    assert!(text(&check.stderr).contains("heaplab import-jsf"), "{}", text(&check.stderr));
}

#[test]
fn out_never_replaces_a_file_unasked() {
    let sample = workspace_root().join(OK).join("csf_stack.jsf");
    let target = std::env::temp_dir().join(format!("heaplab-import-out-{}.hl", std::process::id()));
    std::fs::write(&target, "// mine\n").expect("write");
    let (s, t) = (sample.to_str().expect("utf-8"), target.to_str().expect("utf-8"));
    let out = heaplab(&["import-jsf", s, "--out", t]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&target).expect("read"), "// mine\n");
    let out = heaplab(&["import-jsf", s, "--out", t, "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&target).expect("read").contains("pred stack("));
    let _ = std::fs::remove_file(&target);
}
