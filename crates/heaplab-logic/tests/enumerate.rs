//! Enumeration counts against ground truth; every model is re-checked by the model checker.
mod common;

use heaplab_logic::{
    enumerate, satisfies, CheckLimits, EnumConfig, IntEquivalence, SearchBounds, Verdict,
};

/// Models of `text` within the bounds, counted by number of objects.
fn count(text: &str, depth: u32, objects: usize, ints: IntEquivalence) -> Vec<usize> {
    let defs = common::defs();
    let f = common::query(&defs, text);
    let cfg = EnumConfig {
        bounds: SearchBounds { max_depth: depth, max_objects: objects, max_states: 2_000_000 },
        ints,
        max_models: 1_000_000,
        ..EnumConfig::default()
    };
    let e = enumerate(&defs, &f, cfg, &mut common::solver()).expect("enumerate");
    assert!(!e.incomplete, "enumeration of `{text}` incomplete");
    for m in &e.models {
        let v = satisfies(&defs, m, &f, CheckLimits::default()).expect("check");
        assert_eq!(v, Verdict::Holds, "model of `{text}` rejected by the model checker:\n{m}");
    }
    // Counted by footprint: objects outside it (dangling references) do not count.
    let mut by_size = vec![0; objects + 1];
    for m in &e.models {
        by_size[m.objects.len() - m.unclaimed.len()] += 1;
    }
    by_size
}

#[test]
fn binary_tree_shapes_are_catalan() {
    assert_eq!(count("tree(x)", 6, 5, IntEquivalence::Ignore), vec![1, 1, 2, 5, 14, 42]);
}

/// Kiasan §5.2: BSTs of height < k (the empty tree has height −1), keys up to order-isomorphism:
/// a_k = 1, 2, 5, 26 for k = 0..3. The depth bound is exactly "height < k".
#[test]
fn bsts_by_height_match_kiasan() {
    let mut totals = Vec::new();
    for k in 0..=3 {
        let c = count("exists int lo, int hi. bst(x, lo, hi)", k, 7, IntEquivalence::UpToOrder);
        totals.push(c.iter().sum::<usize>());
    }
    assert_eq!(totals, vec![1, 2, 5, 26]);
}

/// A BST with n nodes has exactly one key ordering per shape: Catalan again.
#[test]
fn bsts_by_nodes_are_catalan() {
    assert_eq!(
        count("exists int lo, int hi. bst(x, lo, hi)", 5, 4, IntEquivalence::UpToOrder),
        vec![1, 1, 2, 5, 14]
    );
}

/// Free integer variables take part in the ordering: a one-node BST with a free `x` has 3 cases
/// (x below, equal to, above the key), as in Kiasan's 2n+1 lemma.
#[test]
fn free_ints_are_ordered_with_the_keys() {
    let c =
        count("exists int lo, int hi. bst(t, lo, hi) & x <= x", 1, 1, IntEquivalence::UpToOrder);
    assert_eq!(c, vec![1, 3]);
}

/// Kiasan §5.4: AVL trees of exact height h (empty tree height 0): 1, 1, 3, 15.
#[test]
fn avl_shapes_by_height() {
    let mut got = Vec::new();
    for h in 0..=3 {
        let c = count(
            &format!("exists int lo, int hi. avl(t, lo, hi, {h})"),
            h,
            7,
            IntEquivalence::Ignore,
        );
        got.push(c.iter().sum::<usize>());
    }
    assert_eq!(got, vec![1, 1, 3, 15]);
}

/// Kiasan §5.3: red-black trees (black root) of height ≤ 3 by black height k: a(3,k) = 1, 4, 25, 1.
#[test]
fn red_black_trees_by_black_height() {
    let mut got = Vec::new();
    for k in 0..=3 {
        let c = count(&format!("rbb(t, {k})"), 3, 7, IntEquivalence::Ignore);
        got.push(c.iter().sum::<usize>());
    }
    assert_eq!(got, vec![1, 4, 25, 1]);
}

#[test]
fn lists_and_lists_segments() {
    assert_eq!(count("sll(x)", 6, 4, IntEquivalence::Ignore), vec![1, 1, 1, 1, 1]);
    // lseg(x, y) with y free: y is not a cell of the segment (x != y at every cell), so it is
    // null or a location outside the footprint; the empty segment has x == y, null or outside.
    let c = count("lseg(x, y)", 6, 3, IntEquivalence::Ignore);
    assert_eq!(c, vec![2, 2, 2, 2]);
}

#[test]
fn circular_doubly_linked_lists() {
    let c = count("exists int n. cdll(h, n)", 6, 4, IntEquivalence::Ignore);
    assert_eq!(c, vec![0, 1, 1, 1, 1]);
}

/// Trees with linked leaves: full binary trees, Catalan(leaves − 1) shapes.
#[test]
fn trees_with_linked_leaves() {
    let c = count("exists Leaf ll. tll(x, ll, null)", 6, 7, IntEquivalence::Ignore);
    assert_eq!(c, vec![0, 1, 0, 1, 0, 2, 0, 5]);
}

/// The k = 4 entry of Kiasan's table (677 shapes with up to 15 nodes); a few seconds.
#[test]
fn bsts_of_height_below_4_are_677() {
    let c = count("exists int lo, int hi. bst(x, lo, hi)", 4, 15, IntEquivalence::UpToOrder);
    assert_eq!(c.iter().sum::<usize>(), 677);
}

/// Trees counted through a non-difference size constraint decided by z3: Catalan(3) = 5.
#[test]
fn sizes_through_the_solver() {
    assert_eq!(count("sized(t, 3)", 3, 3, IntEquivalence::Ignore), vec![0, 0, 0, 5]);
}

/// The model checker is a real oracle: breaking any generated BST's order makes it fail.
#[test]
fn the_checker_rejects_broken_models() {
    use heaplab_logic::{Model, Value};
    let defs = common::defs();
    let f = common::query(&defs, "exists int lo, int hi. bst(x, lo, hi)");
    let cfg = EnumConfig {
        bounds: SearchBounds { max_depth: 3, max_objects: 7, max_states: 1_000_000 },
        ints: IntEquivalence::UpToOrder,
        max_models: 1_000,
        ..EnumConfig::default()
    };
    let e = enumerate(&defs, &f, cfg, &mut common::solver()).expect("enumerate");
    let mut broken = 0;
    for m in e.models.iter().filter(|m| m.objects.len() >= 2) {
        // Swap the keys of the root and of its first child: the order is violated.
        let mut bad: Model = m.clone();
        let child = bad.objects[0]
            .fields
            .iter()
            .find_map(|(f, v)| match (f.as_str(), v) {
                ("left" | "right", Value::Ref(o)) => Some(*o),
                _ => None,
            })
            .expect("a child");
        let k0 = bad.objects[0].fields[0].1.clone();
        let k1 = bad.objects[child].fields[0].1.clone();
        bad.objects[0].fields[0].1 = k1;
        bad.objects[child].fields[0].1 = k0;
        let v = satisfies(&defs, &bad, &f, CheckLimits::default()).expect("check");
        assert_eq!(v, Verdict::Fails, "broken model accepted:\n{bad}");
        broken += 1;
    }
    assert_eq!(broken, 26 - 2);
}
