mod common;

use heaplab_logic::{
    enumerate, satisfies, CheckLimits, EnumConfig, IntEquivalence, NoSolver, SearchBounds, Verdict,
};

fn count(text: &str, depth: u32, objects: usize, ints: IntEquivalence) -> Vec<usize> {
    let defs = common::defs();
    let f = common::query(&defs, text);
    let cfg = EnumConfig {
        bounds: SearchBounds { max_depth: depth, max_objects: objects, max_states: 1_000_000 },
        ints,
        max_models: 1_000_000,
    };
    let e = enumerate(&defs, &f, cfg, &mut NoSolver).expect("enumerate");
    assert!(!e.incomplete);
    for m in &e.models {
        assert_eq!(
            satisfies(&defs, m, &f, CheckLimits::default()).expect("check"),
            Verdict::Holds,
            "{m}"
        );
    }
    let mut by_size = vec![0; objects + 1];
    for m in &e.models {
        by_size[m.objects.len()] += 1;
    }
    by_size
}

#[test]
fn catalan() {
    let c = count("tree(x)", 6, 5, IntEquivalence::Ignore);
    assert_eq!(c, vec![1, 1, 2, 5, 14, 42]);
}

#[test]
fn bst_by_height() {
    let mut totals = Vec::new();
    for k in 0..=3 {
        let c = count("exists int lo, int hi. bst(x, lo, hi)", k, 7, IntEquivalence::UpToOrder);
        totals.push(c.iter().sum::<usize>());
    }
    assert_eq!(totals, vec![1, 2, 5, 26]);
}
