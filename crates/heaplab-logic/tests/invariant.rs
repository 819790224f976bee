//! Predicate invariants: what every instance implies about its integer arguments, and what it
//! does not (a candidate that some unfolding violates must be dropped).

use heaplab_logic::invariant::{invariants, Invariant};
use heaplab_logic::Defs;
use std::collections::BTreeMap;

fn defs(src: &str) -> Defs {
    let (program, diags) = heaplab_syntax::parser::parse_program(src);
    assert!(diags.is_empty(), "{diags:?}");
    let (defs, errors) = Defs::from_program(&program);
    assert!(errors.is_empty(), "{errors:?}");
    defs
}

fn shown(inv: &BTreeMap<String, Invariant>, pred: &str) -> Vec<String> {
    inv[pred].iter().map(|p| p.to_string()).collect()
}

#[test]
fn heights_are_bounded_below_not_above() {
    let d = defs(
        "class N { N left; N right; }
         pred tree(N t, int h) := t == null & h == -1
           | exists N l, N r, int hl. t -> N { left: l, right: r }
               * tree(l, hl) * tree(r, hl) & h == hl + 1;",
    );
    let facts = shown(&invariants(&d), "tree");
    assert!(facts.iter().any(|f| f.replace(' ', "") == "-1<=h"), "{facts:?}");
    assert!(!facts.iter().any(|f| f.starts_with("h <=")), "{facts:?}");
}

#[test]
fn sorted_segment_bounds_are_ordered_not_strictly() {
    let d = defs(
        "class N { int v; N next; }
         pred sorted(N x, int lo, int hi) := x == null & lo <= hi
           | exists int v, N n. x -> N { v: v, next: n } * sorted(n, v, hi) & lo <= v;",
    );
    let facts = shown(&invariants(&d), "sorted");
    assert!(facts.iter().any(|f| f.replace(' ', "") == "lo<=hi"), "{facts:?}");
    assert!(!facts.iter().any(|f| f.replace(' ', "") == "lo<hi"), "{facts:?}");
}

#[test]
fn mutual_recursion_and_no_integers() {
    let d = defs(
        "class N { N next; }
         pred even(N x, int n) := x == null & n == 0 | exists N y. x -> N { next: y } * odd(y, n - 1);
         pred odd(N x, int n) := exists N y. x -> N { next: y } * even(y, n - 1);
         pred lst(N x) := x == null | exists N n. x -> N { next: n } * lst(n);",
    );
    let inv = invariants(&d);
    assert!(shown(&inv, "even").iter().any(|f| f.replace(' ', "") == "0<=n"), "{inv:?}");
    assert!(shown(&inv, "odd").iter().any(|f| f.replace(' ', "") == "0<=n"), "{inv:?}");
    assert!(inv["lst"].is_empty());
}

/// The example subjects get their invariants within the work cap: heights and levels are
/// bounded below.
#[test]
fn example_subjects() {
    let load = |name: &str| {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name);
        defs(&std::fs::read_to_string(path).expect("example"))
    };
    let avl = load("avl.hl");
    assert!(shown(&avl.invariants, "avl").iter().any(|f| f.replace(' ', "") == "-1<=h"));
    let aa = load("aatree.hl");
    let level = shown(&aa.invariants, "aaLevel");
    assert!(level.iter().any(|f| f.replace(' ', "") == "0<=lv"), "{level:?}");
}
