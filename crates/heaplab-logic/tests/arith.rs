//! The Rust decision procedure for pure parts: exact on difference logic, `Unknown` outside.
use heaplab_logic::arith::{decide, decide_pinned, PureResult, PureValue};
use heaplab_logic::formula::{CmpOp, Pure, Term};
use heaplab_logic::Sort;
use std::collections::BTreeMap;

fn v(name: &str) -> Term {
    Term::var(name)
}

fn sorts(ints: &[&str], refs: &[&str]) -> BTreeMap<String, Sort> {
    let mut s: BTreeMap<String, Sort> = ints.iter().map(|n| (n.to_string(), Sort::Int)).collect();
    s.extend(refs.iter().map(|n| (n.to_string(), Sort::Ref("L".into()))));
    s
}

fn lt(a: Term, b: Term) -> Pure {
    Pure::cmp(CmpOp::Lt, a, b)
}

#[test]
fn difference_constraints() {
    let s = sorts(&["a", "b", "c"], &[]);
    let facts = vec![
        lt(v("a"), v("b")),
        lt(v("b"), v("c")),
        Pure::eq(v("c"), Term::Add(Box::new(v("a")), Box::new(Term::Int(2)))),
    ];
    let PureResult::Sat(m) = decide(&facts, &s) else { panic!("sat expected") };
    let get = |n: &str| match m.get(n) {
        Some(PureValue::Int(i)) => *i,
        other => panic!("{n}: {other:?}"),
    };
    assert!(get("a") < get("b") && get("b") < get("c") && get("c") == get("a") + 2);
    // a < b < c < a + 2 has no integer solution (a cycle of weight −1).
    let facts = vec![
        lt(v("a"), v("b")),
        lt(v("b"), v("c")),
        lt(v("c"), Term::Add(Box::new(v("a")), Box::new(Term::Int(2)))),
    ];
    assert_eq!(decide(&facts, &s), PureResult::Unsat);
}

#[test]
fn disequalities_and_disjunctions_split() {
    let s = sorts(&["a", "b"], &[]);
    let facts = vec![
        Pure::cmp(CmpOp::Le, v("a"), v("b")),
        Pure::cmp(CmpOp::Le, v("b"), v("a")),
        Pure::ne(v("a"), v("b")),
    ];
    assert_eq!(decide(&facts, &s), PureResult::Unsat);
    let facts = vec![Pure::Or(vec![lt(v("a"), v("a")), Pure::eq(v("a"), Term::Int(4))])];
    let PureResult::Sat(m) = decide(&facts, &s) else { panic!("sat expected") };
    assert_eq!(m.get("a"), Some(&PureValue::Int(4)));
}

#[test]
fn references_by_union_find() {
    let s = sorts(&[], &["x", "y", "z"]);
    let facts =
        vec![Pure::eq(v("x"), v("y")), Pure::eq(v("y"), Term::Null), Pure::ne(v("z"), v("x"))];
    let PureResult::Sat(m) = decide(&facts, &s) else { panic!("sat expected") };
    assert_eq!(m.get("x"), Some(&PureValue::Null));
    assert!(matches!(m.get("z"), Some(PureValue::Loc(_))));
    let facts = vec![Pure::eq(v("x"), v("y")), Pure::ne(v("y"), v("x"))];
    assert_eq!(decide(&facts, &s), PureResult::Unsat);
}

#[test]
fn outside_the_fragment_is_unknown() {
    let s = sorts(&["a", "b", "c"], &[]);
    let sum = Term::Add(Box::new(v("a")), Box::new(v("b")));
    assert_eq!(decide(&[Pure::eq(sum, v("c"))], &s), PureResult::Unknown);
}

/// The engine's overflow checks put `i64::MIN` and `i64::MAX` into facts: negating or adding
/// them must not wrap (a wrapped constant gave a "model" that broke the facts), and a model that
/// needs an integer outside the `i64` range is not reported as one.
#[test]
fn extreme_constants_do_not_wrap() {
    let s = sorts(&["c", "x", "y"], &[]);
    let neg_c = Term::Sub(Box::new(Term::Int(0)), Box::new(v("c")));
    let facts = vec![
        Pure::cmp(CmpOp::Le, Term::Int(i64::MIN), neg_c.clone()),
        Pure::cmp(CmpOp::Le, neg_c.clone(), Term::Int(i64::MAX)),
        Pure::eq(neg_c, Term::Int(2)),
    ];
    let PureResult::Sat(m) = decide(&facts, &s) else { panic!("sat expected") };
    assert_eq!(m.get("c"), Some(&PureValue::Int(-2)));
    // y < x <= i64::MIN: integers have a model, i64s do not.
    let facts = vec![Pure::cmp(CmpOp::Le, v("x"), Term::Int(i64::MIN)), lt(v("y"), v("x"))];
    assert_eq!(decide(&facts, &s), PureResult::Unknown);
}

/// Issue 31: one step of a model grown 320 000 instances deep (a tree's size `n == nl + nr + 1`
/// with the left child's element pinning `nl` to 0) is a sum, outside difference logic, which
/// `decide` leaves to the solver; once the pinned variables are substituted it is decided
/// in-process, and the values satisfy every fact. A choice whose sum cannot hold is refuted.
#[test]
fn pinned_variables_turn_a_sum_into_differences() {
    let s = sorts(&["n", "nl", "nr"], &["t", "l"]);
    let sum = |k: i64| {
        Pure::eq(
            Term::Int(k),
            Term::Add(
                Box::new(Term::Add(Box::new(v("nl")), Box::new(v("nr")))),
                Box::new(Term::Int(1)),
            ),
        )
    };
    let le = |a: Term, b: Term| Pure::cmp(CmpOp::Le, a, b);
    let facts = vec![
        sum(320_001),
        le(v("nl"), Term::Int(0)),
        le(Term::Int(0), v("nl")),
        le(Term::Int(0), v("nr")),
        Pure::ne(v("t"), v("l")),
        Pure::ne(v("t"), Term::Null),
    ];
    assert_eq!(decide(&facts, &s), PureResult::Unknown, "a sum is outside difference logic");
    let PureResult::Sat(m) = decide_pinned(&facts, &s) else { panic!("sat expected") };
    assert_eq!(m.get("nl"), Some(&PureValue::Int(0)));
    assert_eq!(m.get("nr"), Some(&PureValue::Int(320_000)));
    // Both children empty: 0 + 0 + 1 is not 320 001.
    let facts = vec![
        sum(320_001),
        Pure::eq(v("nl"), Term::Int(0)),
        le(v("nr"), Term::Int(0)),
        le(Term::Int(0), v("nr")),
    ];
    assert_eq!(decide_pinned(&facts, &s), PureResult::Unsat);
}
