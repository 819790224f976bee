//! JSF's least fixed point of base unfoldings on the digest's worked examples (seed-000 §4.4).
use heaplab_logic::unfold::{lfp, LfpLimits};
use heaplab_logic::Defs;

const PROGRAM: &str = r#"
class N { int val; N next; }
class T { T left; T right; }
class N2 { N2 prev; N2 next; }
pred pre(N a, N b) := a == null & b == null
  | exists N n1, N n2. a -> N { next: n1 } * b -> N { next: n2 } * pre(n1, n2);
pred tree(T x) := x == null | exists T l, T r. x -> T { left: l, right: r } * tree(l) * tree(r);
pred dll(N2 root, N2 prev) := root == null
  | exists N2 next. root -> N2 { prev: prev, next: next } * dll(next, root);
pred lseg(N x, N y) := x == y | exists N n. x -> N { next: n } * lseg(n, y);
pred bst(T x, int lo, int hi) := x == null | exists T l, T r. x -> T { left: l, right: r } * bst(l, lo, hi) * bst(r, lo, hi) & lo < hi;
"#;

#[test]
fn worked_examples() {
    let (program, diags) = heaplab_syntax::parser::parse_program(PROGRAM);
    assert!(diags.is_empty(), "{diags:?}");
    let (defs, errors) = Defs::from_program(&program);
    assert!(errors.is_empty(), "{errors:?}");
    let res = lfp(&defs, LfpLimits::default());
    assert!(res.converged);
    let n = |p: &str| res.preds[p].contexts.len();
    // Example 1 of the paper: SV¹, two contexts.
    assert_eq!(n("pre"), 2);
    // Single-parameter predicates give the one-step unfolding.
    assert_eq!(n("tree"), 2);
    // Integer parameters are ignored by the abstraction.
    assert_eq!(n("bst"), 2);
    // dll: null; one node with next == null; two nodes and a residual instance.
    assert_eq!(n("dll"), 3);
    // lseg: lengths 0, 1, 2 and "≥ 3 with a residual lseg".
    assert_eq!(n("lseg"), 4);
    for entry in res.preds.values() {
        assert!(!entry.abstraction.is_empty());
    }
    // Each context remembers the body disjunct it unfolds: the base case stays one context,
    // the recursive disjunct holds the rest (dll: next == null, or a second node).
    let per = |p: &str| {
        let mut n = [0; 2];
        for o in &res.preds[p].origins {
            n[o.expect("every context unfolds a disjunct")] += 1;
        }
        n
    };
    assert_eq!(per("pre"), [1, 1]);
    assert_eq!(per("dll"), [1, 2]);
    assert_eq!(per("lseg"), [1, 3]);
}

/// A capped analysis keeps an exact unfolding, with its origins.
#[test]
fn capped_result_keeps_origins() {
    let (program, _) = heaplab_syntax::parser::parse_program(PROGRAM);
    let (defs, _) = Defs::from_program(&program);
    let res = lfp(&defs, LfpLimits { max_rounds: 8, max_contexts: 3 });
    let lseg = &res.preds["lseg"];
    assert!(!res.converged);
    assert_eq!(lseg.contexts.len(), lseg.origins.len());
    assert!(lseg.origins.iter().all(|o| o.is_some()), "{:?}", lseg.origins);
}
