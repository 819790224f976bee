//! Kiasan's case counts (digest seed-004a §3.7, §5): the number of feasible paths per method,
//! strategy and k. These are the golden numbers of the heap strategies.

mod common;

use heaplab_engine::symbolic::{Config, StrategyKind};

fn count(example: &str, target: &str, strategy: StrategyKind, k: u32) -> u64 {
    let a = common::load(example);
    let mut config = Config::default();
    config.strategy = strategy;
    config.bounds.k = k;
    let ex = common::explore(&a, target, config);
    for p in ex.paths() {
        if !p.outcome.is_feasible() {
            continue;
        }
        eprintln!("{}", p.describe());
    }
    eprintln!("{:?} {:?}", ex.stats(), ex.solver_counts());
    ex.stats().feasible
}

#[test]
fn bst_insert_lazier_sharp_k1_k2() {
    assert_eq!(count("bst.hl", "BST.insert", StrategyKind::LazierSharp, 1), 4);
    assert_eq!(count("bst.hl", "BST.insert", StrategyKind::LazierSharp, 2), 21);
}

#[test]
fn bst_insert_lazier_sharp_k3() {
    assert_eq!(count("bst.hl", "BST.insert", StrategyKind::LazierSharp, 3), 236);
}

/// The issue asks for 2 / 5 / 26 = a_k, the number of BSTs of height < k (Kiasan's "Pre"
/// column). findMin walks the left spine, so it has exactly one path per input tree; but
/// `examples/bst.hl` gives findMin the precondition `bst(..) & this.root != null` (Weiss's
/// findMin is undefined on an empty tree), which removes the empty tree: a_k − 1 = 1 / 4 / 25.
/// Without the `!= null` conjunct the empty tree would add its null-dereference path and the
/// counts would be a_k; `isEmpty` below has exactly that precondition and gives a_k.
#[test]
fn bst_find_min_lazier_sharp() {
    assert_eq!(count("bst.hl", "BST.findMin", StrategyKind::LazierSharp, 1), 1);
    assert_eq!(count("bst.hl", "BST.findMin", StrategyKind::LazierSharp, 2), 4);
    assert_eq!(count("bst.hl", "BST.findMin", StrategyKind::LazierSharp, 3), 25);
}

/// One path per input tree of height < k: a_k = 2 / 5 / 26 (digest §5.2), the pre-state count.
#[test]
fn bst_is_empty_one_path_per_tree() {
    assert_eq!(count("bst.hl", "BST.isEmpty", StrategyKind::LazierSharp, 1), 2);
    assert_eq!(count("bst.hl", "BST.isEmpty", StrategyKind::LazierSharp, 2), 5);
    assert_eq!(count("bst.hl", "BST.isEmpty", StrategyKind::LazierSharp, 3), 26);
}

/// Like findMin: non-empty trees only, a_k − 1.
#[test]
fn bst_find_max_one_path_per_tree() {
    assert_eq!(count("bst.hl", "BST.findMax", StrategyKind::LazierSharp, 1), 1);
    assert_eq!(count("bst.hl", "BST.findMax", StrategyKind::LazierSharp, 2), 4);
    assert_eq!(count("bst.hl", "BST.findMax", StrategyKind::LazierSharp, 3), 25);
}
