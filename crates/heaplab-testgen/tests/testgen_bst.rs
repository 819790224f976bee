//! End to end: explore, concretize, replay, emit — and run the emitted `.hl` tests.

mod common;

use heaplab_engine::run_tests;
use heaplab_engine::symbolic::{Config, PreMode, StrategyKind};
use heaplab_engine::Limits;
use heaplab_syntax::{analyze, SourceFile};
use heaplab_testgen::{emit, generate, Validity};

fn gen(
    example: &str,
    target: &str,
    strategy: StrategyKind,
    k: u32,
    pre: PreMode,
) -> (heaplab_testgen::Generation, String) {
    let a = common::load(example);
    let mut config = Config::default();
    config.strategy = strategy;
    config.bounds.k = k;
    config.pre = pre;
    let mut ex = common::explore(&a, target, config);
    let g = generate(&mut ex, &a.program, &a.info).expect("every test replays");
    let path = format!("{}/../../examples/{example}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("example");
    (g, source)
}

/// Every emitted test, appended to the original program, passes under `heaplab test` semantics.
fn emitted_tests_pass(source: &str, g: &heaplab_testgen::Generation) {
    let text = emit::hl(source, g);
    let a = analyze(&SourceFile::new("generated.hl", text.clone()));
    assert!(!a.has_errors(), "{:?}\n{text}", a.diagnostics);
    let results = run_tests(&a.program, &a.info, Limits::default());
    let generated: Vec<_> = results.iter().filter(|r| r.name.starts_with("gen_")).collect();
    assert_eq!(generated.len(), g.tests.len());
    for r in generated {
        assert!(r.passed, "{}: {}\n{text}", r.name, r.message);
    }
}

#[test]
fn bst_insert_k2_generates_21_replayed_tests() {
    let (g, source) = gen("bst.hl", "BST.insert", StrategyKind::LazierSharp, 2, PreMode::Assume);
    assert_eq!(g.tests.len(), 21);
    assert!(g.tests.iter().all(|t| t.validity == Validity::Assumed));
    emitted_tests_pass(&source, &g);
    let json = emit::json(&g);
    assert!(json.starts_with("{\"target\":\"BST.insert\""));
}

#[test]
fn bst_find_max_pre_ignore_classifies_inputs() {
    let (g, source) = gen("bst.hl", "BST.findMax", StrategyKind::LazierSharp, 2, PreMode::Ignore);
    let valid = g.tests.iter().filter(|t| t.validity == Validity::Valid).count();
    let invalid = g.invalid_inputs();
    eprintln!("{} tests, {valid} valid, {invalid} invalid", g.tests.len());
    assert!(invalid > 0, "the empty tree (and unordered keys) violate `requires`");
    assert!(valid > 0);
    emitted_tests_pass(&source, &g);
}
