//! The Rust decision procedure for pure parts: exact on difference logic; a fact outside it is
//! left out of its branch, so the answer is `Unsat` when the rest contradicts, else `Unknown`.
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

/// A fact outside difference logic (here the engine's encoding of a Java `int` that wraps:
/// `h + 2^31 == 2^32 * q + r`) is left out of its branch, not the end of it: the other facts
/// still refute the branch (an AVL height below zero whose child's height is at least -1), and
/// without a contradiction the answer stays `Unknown`, never `Sat`.
#[test]
fn a_fact_outside_the_fragment_does_not_hide_a_contradiction() {
    let s = sorts(&["h", "hl", "q", "r"], &[]);
    let add = |a: Term, b: Term| Term::Add(Box::new(a), Box::new(b));
    let wrapped = Pure::eq(
        add(v("h"), Term::Int(1 << 31)),
        add(Term::Mul(Box::new(Term::Int(1 << 32)), Box::new(v("q"))), v("r")),
    );
    let le = |a: Term, b: Term| Pure::cmp(CmpOp::Le, a, b);
    let facts = vec![
        wrapped.clone(),
        le(Term::Int(0), v("r")),
        lt(v("r"), Term::Int(1 << 32)),
        Pure::eq(v("h"), add(v("hl"), Term::Int(1))),
        le(Term::Int(-1), v("hl")),
    ];
    assert_eq!(decide(&facts, &s), PureResult::Unknown, "satisfiable, but not in the fragment");
    let mut refuted = facts.clone();
    refuted.push(lt(v("h"), Term::Int(0)));
    assert_eq!(decide(&refuted, &s), PureResult::Unsat);
    // In a disjunction: the branch the differences refute is dropped, the other is unknown.
    let facts = vec![
        le(Term::Int(0), v("h")),
        Pure::Or(vec![
            Pure::And(vec![wrapped.clone(), lt(v("h"), Term::Int(0))]),
            Pure::eq(v("h"), Term::Int(4)),
        ]),
    ];
    let PureResult::Sat(m) = decide(&facts, &s) else { panic!("sat expected") };
    assert_eq!(m.get("h"), Some(&PureValue::Int(4)));
    let facts = vec![
        le(Term::Int(0), v("h")),
        Pure::Or(vec![
            Pure::And(vec![wrapped.clone(), lt(v("h"), Term::Int(0))]),
            Pure::And(vec![wrapped, Pure::eq(v("h"), Term::Int(4))]),
        ]),
    ];
    assert_eq!(decide(&facts, &s), PureResult::Unknown);
}

/// Soundness against brute force: random conjunctions mixing differences, sums and products
/// over four integers. An `Unsat` answer must have no model in a small box (a necessary
/// condition), a `Sat` model must satisfy every fact.
#[test]
fn answers_agree_with_brute_force() {
    let names = ["a", "b", "c", "d"];
    let s = sorts(&names, &[]);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut decided = [0usize; 3];
    for _ in 0..3000 {
        let mut facts = Vec::new();
        for _ in 0..1 + next(5) {
            let term = |next: &mut dyn FnMut(u64) -> u64| -> Term {
                let x = v(names[next(4) as usize]);
                match next(5) {
                    0 => Term::Int(next(7) as i64 - 3),
                    1 => Term::Add(Box::new(x), Box::new(v(names[next(4) as usize]))),
                    2 => Term::Mul(Box::new(Term::Int(next(3) as i64 + 2)), Box::new(x)),
                    3 => Term::Add(Box::new(x), Box::new(Term::Int(next(5) as i64 - 2))),
                    _ => x,
                }
            };
            let (a, b) = (term(&mut next), term(&mut next));
            let op = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le][next(4) as usize];
            facts.push(Pure::cmp(op, a, b));
        }
        let answer = decide(&facts, &s);
        let holds = |m: &BTreeMap<&str, i64>| facts.iter().all(|f| eval(f, m));
        match &answer {
            PureResult::Sat(model) => {
                let m = names
                    .iter()
                    .map(|n| match model.get(*n) {
                        Some(PureValue::Int(i)) => (*n, *i),
                        other => panic!("{n}: {other:?}"),
                    })
                    .collect();
                assert!(holds(&m), "the model {m:?} breaks {facts:?}");
                decided[0] += 1;
            }
            PureResult::Unsat => {
                let r = -6..=6i64;
                for a in r.clone() {
                    for b in r.clone() {
                        for c in r.clone() {
                            for d in r.clone() {
                                let m = BTreeMap::from([("a", a), ("b", b), ("c", c), ("d", d)]);
                                assert!(!holds(&m), "{facts:?} called unsat, but {m:?} holds");
                            }
                        }
                    }
                }
                decided[1] += 1;
            }
            PureResult::Unknown => decided[2] += 1,
        }
    }
    // The run must exercise each answer, the refutations with a fact left out among them.
    assert!(decided.iter().all(|&n| n > 100), "sat/unsat/unknown: {decided:?}");
}

fn eval(p: &Pure, m: &BTreeMap<&str, i64>) -> bool {
    fn term(t: &Term, m: &BTreeMap<&str, i64>) -> i64 {
        match t {
            Term::Var(x) => m[x.as_str()],
            Term::Int(i) => *i,
            Term::Add(a, b) => term(a, m) + term(b, m),
            Term::Sub(a, b) => term(a, m) - term(b, m),
            Term::Mul(a, b) => term(a, m) * term(b, m),
            Term::Neg(a) => -term(a, m),
            other => panic!("not an integer term: {other:?}"),
        }
    }
    match p {
        Pure::Cmp(op, a, b) => {
            let (a, b) = (term(a, m), term(b, m));
            match op {
                CmpOp::Eq => a == b,
                CmpOp::Ne => a != b,
                CmpOp::Lt => a < b,
                CmpOp::Le => a <= b,
            }
        }
        other => panic!("not a comparison: {other:?}"),
    }
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
