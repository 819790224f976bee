//! `heaplab duel`: a student's method against a reference, end to end with real z3.
//!
//! Oracles: what is known about each student version independently of HeapLab. The starter
//! `insert` of `examples/duels/bst-insert.hl` differs from a correct insert exactly on inputs
//! with a non-empty tree that does not hold `x`; a correct iterative insert differs nowhere; a
//! version that stops descending at depth 2 differs only on trees deeper than that, so a duel
//! at k = 1 must say "no difference" and name k as the bound that limited it, while k = 3 finds
//! it. The clue inputs are parsed back from the JSON and checked against these descriptions.

mod common;

use common::{heaplab, text, workspace_root};
use serde_json::Value;

const DUEL: &str = "examples/duels/bst-insert.hl";

/// The starter file with the student's `insert` body replaced by `body`, written to a
/// temporary file; returns its path.
fn with_insert(name: &str, body: &str) -> std::path::PathBuf {
    let original = std::fs::read_to_string(workspace_root().join(DUEL)).expect("the duel example");
    let start = original.find("  {\n    if (this.root == null)").expect("the starter body");
    let end = original[start..].find("\n  }\n").expect("its end") + start + "\n  }\n".len();
    let text = format!("{}  {{\n{body}\n  }}\n{}", &original[..start], &original[end..]);
    let dir = std::env::temp_dir().join(format!("heaplab-duel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

fn duel_json(file: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["duel", file, "--method", "BST.insert", "--reference", "insertRef"];
    args.extend_from_slice(&["--format", "json"]);
    args.extend_from_slice(extra);
    let out = heaplab(&args);
    let code = out.status.code().unwrap_or(-1);
    let json = serde_json::from_str(&text(&out.stdout))
        .unwrap_or_else(|e| panic!("JSON ({e}): {}\n{}", text(&out.stdout), text(&out.stderr)));
    (code, json)
}

/// `this = BST { root: Node { key: 3, ... } }` and `x = 5` back to (keys of the tree, x).
fn keys_and_x(input: &Value) -> (Vec<i64>, i64) {
    let lines: Vec<&str> =
        input.as_array().expect("input lines").iter().filter_map(Value::as_str).collect();
    let this = lines.iter().find(|l| l.starts_with("this = ")).expect("this");
    let keys = this
        .split("key: ")
        .skip(1)
        .map(|s| {
            s.split(|c: char| c != '-' && !c.is_ascii_digit())
                .next()
                .unwrap_or("")
                .parse()
                .expect("a key")
        })
        .collect();
    let x =
        lines.iter().find_map(|l| l.strip_prefix("x = ")).expect("x").parse().expect("x is an int");
    (keys, x)
}

#[test]
fn the_starter_differs_exactly_where_the_tree_is_non_empty_and_lacks_x() {
    let (code, v) = duel_json(DUEL, &["--clues", "5"]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["differ"], true);
    let clues = v["clues"].as_array().expect("clues");
    assert_eq!(clues.len(), 5, "--clues 5 stops after five differing paths: {v:#}");
    for c in clues {
        let (keys, x) = keys_and_x(&c["input"]);
        assert!(
            !keys.is_empty() && !keys.contains(&x),
            "a clue outside the known difference: {c:#}"
        );
        assert_eq!(c["input_satisfies_requires"], true, "{c:#}");
        let said = c["differences"][0].as_str().expect("a difference");
        assert!(said.contains("after yours") && said.contains("after the reference"), "{said}");
        assert!(said.starts_with("this.root"), "named by the field path that reaches it: {said}");
    }
    assert_eq!(v["unconfirmed"].as_array().map(Vec::len), Some(0));
}

#[test]
fn a_correct_insert_has_no_difference_up_to_k_3_and_names_k() {
    let body = "    if (this.root == null) { this.root = new Node { key: x }; return; }
    Node t = this.root;
    while (true) {
      if (x < t.key) { if (t.left == null) { t.left = new Node { key: x }; return; } t = t.left; }
      else if (x > t.key) { if (t.right == null) { t.right = new Node { key: x }; return; } t = t.right; }
      else return;
    }";
    let file = with_insert("correct.hl", body);
    let (code, v) = duel_json(file.to_str().expect("utf-8 path"), &[]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["differ"], false);
    assert_eq!(v["k"], 3);
    let limits: Vec<&str> =
        v["limited_by"].as_array().expect("limits").iter().filter_map(Value::as_str).collect();
    assert!(limits.iter().any(|l| l.starts_with("k = 3")), "{limits:?}");
    assert!(v["paths_agreeing"].as_u64().unwrap_or(0) > 0);

    let out = heaplab(&[
        "duel",
        file.to_str().expect("path"),
        "--method",
        "BST.insert",
        "--reference",
        "insertRef",
    ]);
    let said = text(&out.stdout);
    assert!(said.contains("no difference up to k = 3"), "{said}");
    assert!(said.contains("limited by:\n  k = 3"), "{said}");
}

#[test]
fn a_bug_below_depth_two_is_found_at_k_3_and_not_claimed_absent_at_k_1_without_naming_k() {
    // Descends at most two levels; deeper it replaces the subtree (wrong on deeper trees only).
    let body = "    if (this.root == null) { this.root = new Node { key: x }; return; }
    Node t = this.root;
    int depth = 0;
    while (true) {
      depth = depth + 1;
      if (x == t.key) return;
      if (depth == 2) { if (x < t.key) t.left = new Node { key: x }; else t.right = new Node { key: x }; return; }
      if (x < t.key) { if (t.left == null) { t.left = new Node { key: x }; return; } t = t.left; }
      else { if (t.right == null) { t.right = new Node { key: x }; return; } t = t.right; }
    }";
    let file = with_insert("shallow.hl", body);
    let path = file.to_str().expect("path");
    let (code, v) = duel_json(path, &["--k", "1"]);
    assert_eq!(code, 0, "too small a k sees no difference: {v:#}");
    let limits = v["limited_by"].to_string();
    assert!(limits.contains("k = 1"), "and says k limited the search: {limits}");
    let (code, v) = duel_json(path, &["--k", "3", "--clues", "3"]);
    assert_eq!(code, 1, "{v:#}");
    for c in v["clues"].as_array().expect("clues") {
        let (keys, _) = keys_and_x(&c["input"]);
        assert!(keys.len() >= 2, "only trees with a node below the second level differ: {c:#}");
    }
}

#[test]
fn setup_errors_exit_2_with_a_reason() {
    let out = heaplab(&["duel", DUEL, "--method", "BST.insert", "--reference", "nothere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("there is no reference `nothere`"), "{}", text(&out.stderr));
    let out = heaplab(&["duel", DUEL, "--method", "BST.insert", "--reference", "insertRefAt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("its first parameter must be the BST"),
        "{}",
        text(&out.stderr)
    );
}

/// `heaplab duel` on the lists file: exit code and JSON.
fn lists(method: &str, reference: &str) -> (i32, Value) {
    let out = heaplab(&[
        "duel",
        "crates/heaplab-cli/tests/data/duel_lists.hl",
        "--method",
        method,
        "--reference",
        reference,
        "--format",
        "json",
        "--clues",
        "2",
    ]);
    let v = serde_json::from_str(&text(&out.stdout))
        .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stderr)));
    (out.status.code().unwrap_or(-1), v)
}

#[test]
fn runtime_errors_exceptions_results_and_sharing_are_differences() {
    // Equivalent: an iterative and a recursive length; a push that throws the same exception.
    assert_eq!(lists("len", "lenRef").0, 0);
    assert_eq!(lists("push", "pushRef").0, 0);
    // lenWrong dereferences an empty list.
    let (code, v) = lists("lenWrong", "lenRef");
    assert_eq!(code, 1);
    let c = &v["clues"][0];
    assert_eq!(c["input"][0], "n = null");
    assert!(
        c["student"].as_str().unwrap_or("").starts_with("fails with a null dereference at line"),
        "{c:#}"
    );
    assert_eq!(c["reference"], "returns 0");
    // pushWrong never throws Dup.
    let (code, v) = lists("pushWrong", "pushRef");
    assert_eq!(code, 1);
    for c in v["clues"].as_array().expect("clues") {
        assert!(c["input"].to_string().contains("e = 7"), "{c:#}");
        assert_eq!(c["reference"], "throws Dup");
        assert_eq!(c["differences"][0], "yours returns, the reference throws Dup");
    }
    // pushShare, for e == 3, links the new node past the first one.
    let (code, v) = lists("pushShare", "pushRef");
    assert_eq!(code, 1);
    for c in v["clues"].as_array().expect("clues") {
        assert!(c["input"].to_string().contains("e = 3"), "{c:#}");
        assert!(c["differences"][0].as_str().unwrap_or("").contains("result.next"), "{c:#}");
    }
}
