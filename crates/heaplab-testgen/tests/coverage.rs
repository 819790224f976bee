//! Line coverage of generated tests, checked against the source text of `examples/bst.hl`.

mod common;

use heaplab_engine::symbolic::{Config, StrategyKind};
use heaplab_engine::Value;
use heaplab_syntax::SourceFile;
use heaplab_testgen::coverage::Lines;
use heaplab_testgen::generate;

fn source() -> String {
    let path = format!("{}/../../examples/bst.hl", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("example")
}

/// The 1-based line of the first occurrence of `needle` after `after`.
fn line_of(text: &str, after: &str, needle: &str) -> usize {
    let start = text.find(after).unwrap_or_else(|| panic!("{after}"));
    let at = start + text[start..].find(needle).unwrap_or_else(|| panic!("{needle}"));
    text[..at].matches('\n').count() + 1
}

#[test]
fn insert_lines_follow_the_replayed_statements() {
    let text = source();
    let a = common::load("bst.hl");
    let mut config = Config::default();
    config.strategy = StrategyKind::LazierSharp;
    let mut ex = common::explore(&a, "BST.insert", config);
    let g = generate(&mut ex, &a.program, &a.info).expect("tests replay");
    let lines = Lines::new(&a.program, &SourceFile::new("bst.hl", text.clone()));
    let cov = lines.coverage(&a.program, &ex, &g);

    let null_test = line_of(&text, "Node insertAt", "if (t == null)");
    let new_node = line_of(&text, "Node insertAt", "t = new Node");
    let go_left = line_of(&text, "Node insertAt", "t.left = insertAt");
    let body = line_of(&text, "void insert", "this.root = insertAt");
    let contains = line_of(&text, "pure bool contains", "if (t.key == x)");
    let find_at = line_of(&text, "Node findAt", "return findAt(x, t.left)");
    let size = line_of(&text, "pure int size", "return 1 + size");

    // The method, what it calls and what its `ensures` calls; nothing else.
    for l in [null_test, new_node, go_left, body, contains] {
        assert!(cov.executable.contains(&l), "line {l} executable: {:?}", cov.executable);
    }
    for l in [find_at, size] {
        assert!(!cov.executable.contains(&l), "line {l} is not reachable from insert");
    }
    assert!(cov.covered.iter().all(|l| cov.executable.contains(l)));
    assert!(cov.covered.contains(&go_left));

    // The test on the empty tree runs the null test and allocates, never goes left.
    let empty = g
        .tests
        .iter()
        .find(|t| {
            let r = t.input.receiver.expect("a method");
            t.input.heap.field(r, "root") == Some(Value::Ref(None))
        })
        .expect("a test on the empty tree");
    let mine = lines.of_test(empty);
    assert!(mine.contains(&null_test) && mine.contains(&new_node) && mine.contains(&body));
    assert!(!mine.contains(&go_left), "{mine:?}");
    for t in &g.tests {
        assert!(lines.of_test(t).iter().all(|l| cov.covered.contains(l)));
    }

    // Branches: the explorer's sites, by line; both directions of the null test are taken.
    let site = cov.branches.iter().find(|b| b.line == null_test).expect("a branch site");
    assert_eq!(site.covered, [true, true]);
    let taken: usize = cov.branches.iter().map(|b| b.covered.iter().filter(|c| **c).count()).sum();
    assert_eq!((taken, cov.branches.len() * 2), ex.branch_coverage());
    // `&&` in `ensures` is a branch site on a line with no statement.
    let ensures = line_of(&text, "void insert", "ensures contains");
    assert!(cov.branches.iter().any(|b| b.line == ensures));
    assert!(cov.branches.iter().all(|b| cov.executable.contains(&b.line) || b.line == ensures));
}
