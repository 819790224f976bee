//! The procedure against hand-checked cases and against exhaustive enumeration of small
//! boxes (an oracle that needs no solver).
#![allow(clippy::unwrap_used)]

use super::*;
use crate::model::{Model, Value};
use crate::term::{Term, Var};

fn x(i: usize) -> Var {
    Var::int(format!("x{i}"))
}

fn sat(conj: &[Term]) -> bool {
    match decide(conj, &[]) {
        Decision::Sat(m) => {
            assert_eq!(m.satisfies_exact(conj), Ok(true));
            true
        }
        Decision::Unsat => false,
        Decision::Outside(why) => panic!("outside: {why} for {conj:?}"),
    }
}

#[test]
fn integer_reasoning_is_not_rational() {
    let (a, b) = (x(0), x(1));
    // 2a = 2b + 1 has rational solutions only.
    assert!(!sat(&[Term::eq(Term::mul(2, &a), Term::add([Term::mul(2, &b), Term::Int(1)]))]));
    // 0 < 3a < 3 has no integer solution.
    assert!(!sat(&[Term::lt(0, Term::mul(3, &a)), Term::lt(Term::mul(3, &a), 3)]));
    // 2a + 3b = 17, a > 5, b > 0: a = 7, b = 1.
    let q = [
        Term::eq(Term::add([Term::mul(2, &a), Term::mul(3, &b)]), 17),
        Term::gt(&a, 5),
        Term::gt(&b, 0),
    ];
    match decide(&q, &[]) {
        Decision::Sat(m) => assert_eq!((m.int(&a), m.int(&b)), (Some(7), Some(1))),
        other => panic!("{other:?}"),
    }
    // Branch and bound: 1 ≤ 4a - 4b ≤ 3 (no integer point between multiples of 4).
    let d = Term::sub(Term::mul(4, &a), Term::mul(4, &b));
    assert!(!sat(&[Term::le(1, d.clone()), Term::le(d, 3)]));
}

#[test]
fn disequalities_split_lazily() {
    let refs: Vec<Var> = (0..6).map(|i| Var::reference(format!("p{i}"))).collect();
    let mut conj = vec![Term::distinct(refs.iter().map(Var::term).chain([Term::Null]))];
    assert!(sat(&conj));
    // Three distinct non-null references within 1..=2: pigeonhole.
    let few = &refs[..3];
    let mut small = vec![Term::distinct(few.iter().map(Var::term).chain([Term::Null]))];
    for r in few {
        small.push(Term::ge(r, 1));
        small.push(Term::le(r, 2));
    }
    assert!(!sat(&small));
    // Six into five is beyond the branch budget: outside, never a guess.
    for r in &refs {
        conj.push(Term::ge(r, 1));
        conj.push(Term::le(r, 5));
    }
    assert!(matches!(decide(&conj, &[]), Decision::Outside(_)));
}

/// References only disequalities mention (symheap's, once their equalities are substituted)
/// are free: they take values after the rest, each avoiding the values its disequalities
/// exclude, with no branch and bound (forty pairwise distinct non-null references were beyond
/// its budget). A disequality that also mentions a bounded variable is satisfied around its
/// value; an equality makes two references one, and their disequality is then unsat.
#[test]
fn free_references_take_distinct_values_without_search() {
    let refs: Vec<Var> = (0..40).map(|i| Var::reference(format!("r{i}"))).collect();
    let mut conj = vec![Term::distinct(refs.iter().map(Var::term).chain([Term::Null]))];
    let k = x(0);
    conj.push(Term::ge(&k, 1));
    conj.push(Term::le(&k, 1));
    conj.push(Term::ne(&refs[0], &k));
    conj.push(Term::ne(&refs[1], Term::add([k.term(), Term::Int(1)])));
    assert!(sat(&conj));
    conj.push(Term::eq(&refs[2], &refs[3]));
    assert!(!sat(&conj));
}

#[test]
fn range_facts_and_overflow_guards() {
    let v = x(0);
    let max = Term::Int(i64::MAX);
    let min = Term::Int(i64::MIN);
    let range = [Term::le(&v, max.clone()), Term::ge(&v, min)];
    let mut q = range.to_vec();
    q.push(Term::not(Term::le(Term::add([v.term(), Term::Int(1)]), max.clone())));
    // x + 1 > MAX with x ≤ MAX: x = MAX (the re-check evaluates x + 1 beyond i64).
    match decide(&q, &[]) {
        Decision::Sat(m) => assert_eq!(m.int(&v), Some(i64::MAX)),
        other => panic!("{other:?}"),
    }
    let mut q = range.to_vec();
    q.push(Term::lt(&v, 5));
    q.push(Term::not(Term::le(Term::add([v.term(), Term::Int(1)]), max)));
    assert_eq!(decide(&q, &[]), Decision::Unsat);
}

#[test]
fn div_mod_ite_and_booleans() {
    let (a, b) = (x(0), Var::bool("b"));
    assert!(sat(&[Term::eq(Term::modulo(&a, 5), 3), Term::eq(Term::div(&a, 5), -2)]));
    assert!(!sat(&[Term::eq(Term::modulo(&a, 5), 5)]));
    let t = Term::ite(b.term(), Term::Int(3), Term::Int(7));
    assert!(sat(&[Term::eq(t.clone(), 7)]));
    assert!(!sat(&[Term::eq(t.clone(), 7), b.term()]));
    assert!(!sat(&[Term::eq(t, 5)]));
    assert!(sat(&[Term::or([Term::lt(&a, 0), b.term()]), Term::ge(&a, 0)]));
    assert!(!sat(&[Term::or([Term::lt(&a, 0), b.term()]), Term::ge(&a, 0), Term::not(&b)]));
    assert!(!sat(&[Term::implies(b.term(), Term::lt(&a, 0)), b.term(), Term::ge(&a, 0)]));
    assert!(sat(&[Term::eq(b.term(), Term::lt(&a, 0)), Term::ge(&a, 2)]));
    assert!(!sat(&[Term::eq(b.term(), Term::lt(&a, 0)), Term::ge(&a, 2), b.term()]));
}

#[test]
fn wanted_variables_get_values() {
    let (a, c) = (x(0), Var::reference("c"));
    match decide(&[Term::gt(&a, 2)], &[a.clone(), c.clone()]) {
        Decision::Sat(m) => {
            assert_eq!(m.int(&c), Some(0));
            assert!(m.int(&a).unwrap() > 2);
        }
        other => panic!("{other:?}"),
    }
}

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
    fn small(&mut self, r: i64) -> i64 {
        self.below((2 * r + 1) as u64) as i64 - r
    }
}

fn random_atom(rng: &mut Lcg, vars: &[Var]) -> Term {
    let mut lin = Vec::new();
    for v in vars {
        let c = rng.small(3);
        if c != 0 && rng.below(2) == 0 {
            lin.push(Term::mul(c, v));
        }
    }
    lin.push(Term::Int(rng.small(6)));
    let lhs = Term::add(lin);
    match rng.below(6) {
        0 => Term::le(lhs, 0),
        1 => Term::lt(lhs, 0),
        2 => Term::eq(lhs, 0),
        3 => Term::ne(lhs, 0),
        4 => Term::or([Term::eq(lhs.clone(), 0), Term::gt(lhs, 2)]),
        _ => Term::ge(Term::modulo(lhs, 3), 1),
    }
}

/// Exhaustive search of the box [-r, r]^n: the oracle for queries whose box bounds are asserted.
fn brute_force(conj: &[Term], vars: &[Var], r: i64) -> bool {
    let n = vars.len();
    let side = (2 * r + 1) as usize;
    let mut m = Model::new();
    for idx in 0..side.pow(n as u32) {
        let mut k = idx;
        for v in vars {
            m.insert(v, Value::Int((k % side) as i64 - r));
            k /= side;
        }
        if m.satisfies(conj) == Ok(true) {
            return true;
        }
    }
    false
}

/// The procedure's answer to `conj` (with values for `want`), asserted to be the oracle's
/// `expected` and decided; a model is checked. Whether it was sat.
fn agrees(case: usize, conj: &[Term], want: &[Var], expected: bool) -> bool {
    match decide(conj, want) {
        Decision::Sat(m) => {
            assert!(expected, "case {case}: sat claimed for {conj:?}");
            assert_eq!(m.satisfies(conj), Ok(true));
            true
        }
        Decision::Unsat => {
            assert!(!expected, "case {case}: unsat claimed for {conj:?}");
            false
        }
        Decision::Outside(why) => panic!("case {case}: outside ({why}) for {conj:?}"),
    }
}

#[test]
fn agrees_with_exhaustive_search_on_small_boxes() {
    let mut rng = Lcg(17);
    let vars: Vec<Var> = (0..3).map(x).collect();
    let r = 3;
    let (mut n_sat, mut n_unsat) = (0, 0);
    for case in 0..1500 {
        let mut conj: Vec<Term> =
            vars.iter().flat_map(|v| [Term::ge(v, -r), Term::le(v, r)]).collect();
        for _ in 0..1 + rng.below(5) {
            conj.push(random_atom(&mut rng, &vars));
        }
        let expected = brute_force(&conj, &vars, r);
        match agrees(case, &conj, &vars, expected) {
            true => n_sat += 1,
            false => n_unsat += 1,
        }
    }
    // The generator produces both answers in quantity, so the comparison means something.
    assert!(n_sat > 200 && n_unsat > 200, "sat {n_sat}, unsat {n_unsat}");
}

#[test]
fn budgets_make_large_queries_outside_not_wrong() {
    // 300 variables in a chain: a tableau of 599 × 299 cells, beyond the size budget.
    let chain: Vec<Term> = (0..299).map(|i| Term::lt(x(i), x(i + 1))).collect();
    assert!(matches!(decide(&chain, &[]), Decision::Outside(_)));
    // The same chain of 60 is decided, both ways.
    let short: Vec<Term> = chain[..59].to_vec();
    assert!(sat(&short));
    let mut cycle = short.clone();
    cycle.push(Term::lt(x(59), x(0)));
    assert!(!sat(&cycle));
}

/// symheap's shape: one implication per guarded value (`r ≠ null → y = v`, written
/// `r = null ∨ y = v`) with the guard's literal stated in the same path condition. Forty of
/// them are beyond the split budget one point at a time; unit propagation settles them.
#[test]
fn implications_whose_guards_are_stated_propagate() {
    let refs: Vec<Var> = (0..40).map(|i| Var::reference(format!("r{i}"))).collect();
    let ys: Vec<Var> = (0..40).map(|i| x(100 + i)).collect();
    let mut conj: Vec<Term> = Vec::new();
    for (i, (r, y)) in refs.iter().zip(&ys).enumerate() {
        conj.push(Term::ne(r, Term::Null));
        conj.push(Term::or([Term::eq(r, Term::Null), Term::eq(y, i as i64)]));
    }
    let m = match decide(&conj, &[]) {
        Decision::Sat(m) => m,
        other => panic!("{other:?}"),
    };
    for (i, y) in ys.iter().enumerate() {
        assert_eq!(m.int(y), Some(i as i64));
    }
    // The same implications into one `y`: it cannot be 0 and 1 at once.
    let y = x(99);
    let mut one: Vec<Term> = Vec::new();
    for (i, r) in refs.iter().enumerate() {
        one.push(Term::ne(r, Term::Null));
        one.push(Term::or([Term::eq(r, Term::Null), Term::eq(&y, i as i64)]));
    }
    assert!(!sat(&one));
    // A disjunct the literals state satisfies its disjunction, whatever the other says.
    let q =
        [Term::eq(&refs[0], 3), Term::or([Term::eq(&refs[0], 3), Term::lt(&y, Term::sub(&y, 1))])];
    assert!(sat(&q));
}

/// Boolean definitions no other assertion reads are set aside and evaluated after the search
/// (`crate::definitions`); the model still satisfies every definition (`sat` re-checks it).
#[test]
fn unread_definitions_are_solved_after_the_rest() {
    let refs: Vec<Var> = (0..80).map(|i| Var::reference(format!("r{i}"))).collect();
    let mut conj = vec![Term::eq(&refs[0], 5)];
    for i in 0..79 {
        let b = Var::bool(format!("b{i}"));
        let guard = Term::and([Term::ne(&refs[i], Term::Null), Term::eq(&refs[i + 1], &refs[i])]);
        conj.push(Term::eq(b.term(), guard));
    }
    assert!(sat(&conj));
    // A definition that is read is kept: `b ⇔ r = null`, `b`, `r = 1` is unsat.
    let (b, r) = (Var::bool("b"), Var::reference("r"));
    assert!(!sat(&[Term::eq(b.term(), Term::eq(&r, Term::Null)), b.term(), Term::eq(&r, 1)]));
    // `b ⇔ ¬b` is no definition: unsat.
    assert!(!sat(&[Term::eq(b.term(), Term::not(b.term()))]));
    // A chain: `c` reads `b`, nothing reads `c`; both are set aside and both evaluate.
    let c = Var::bool("c");
    let chain = [
        Term::eq(b.term(), Term::eq(&r, 7)),
        Term::eq(c.term(), Term::not(b.term())),
        Term::eq(&r, 7),
    ];
    match decide(&chain, &[]) {
        Decision::Sat(m) => assert_eq!((m.bool(&b), m.bool(&c)), (Some(true), Some(false))),
        other => panic!("{other:?}"),
    }
}

/// Disjunctions split into disjoint branches (`d₀ ∨ (¬d₀ ∧ d₁) ∨ …`), so a later branch does
/// not search again what an earlier one refuted. On random 3-CNF formulas over ten Booleans at
/// the satisfiability threshold (mostly unsat: every branch must be refuted), the procedure
/// decides them within the split budget and agrees with trying all 1024 assignments.
#[test]
fn boolean_splits_are_disjoint_and_exact() {
    let mut rng = Lcg(5);
    let bools: Vec<Var> = (0..10).map(|i| Var::bool(format!("p{i}"))).collect();
    let (mut decided, mut n_unsat) = (0, 0);
    let cases = 200;
    for case in 0..cases {
        let clauses: Vec<Term> = (0..43)
            .map(|_| {
                Term::or((0..3).map(|_| {
                    let v = bools[rng.below(10) as usize].term();
                    if rng.below(2) == 0 {
                        v
                    } else {
                        Term::not(v)
                    }
                }))
            })
            .collect();
        let expected = (0..1u32 << 10).any(|bits| {
            let mut m = Model::new();
            for (i, b) in bools.iter().enumerate() {
                m.insert(b, Value::Bool(bits >> i & 1 == 1));
            }
            m.satisfies(&clauses) == Ok(true)
        });
        match decide(&clauses, &[]) {
            Decision::Sat(m) => {
                assert!(expected, "case {case}: sat claimed for {clauses:?}");
                assert_eq!(m.satisfies(&clauses), Ok(true));
                decided += 1;
            }
            Decision::Unsat => {
                assert!(!expected, "case {case}: unsat claimed for {clauses:?}");
                decided += 1;
                n_unsat += 1;
            }
            Decision::Outside(_) => {}
        }
    }
    eprintln!("decided {decided} of {cases} ({n_unsat} unsat)");
    assert!(n_unsat > 50, "the generator must give unsat formulas ({n_unsat})");
    assert!(decided == cases, "decided only {decided} of {cases}");
}

/// A literal in symheap's shapes over references `refs` (each within `[0, 3]`) and Booleans:
/// a reference compared with one location, or bounded on one side, or a Boolean; or a
/// difference of two variables compared with a constant (AVL trees' heights).
fn reference_literal(rng: &mut Lcg, refs: &[Var], bools: &[Var]) -> Term {
    let r = refs[rng.below(refs.len() as u64) as usize].term();
    let c = rng.below(5) as i64 - 1;
    // r - s + d, compared with 0 below
    let s = refs[rng.below(refs.len() as u64) as usize].term();
    let diff = Term::add([r.clone(), Term::mul(-1, s), Term::Int(rng.below(5) as i64 - 2)]);
    match rng.below(9) {
        0 => Term::eq(r, c),
        1 => Term::ne(r, c),
        2 => Term::le(r, c),
        3 => Term::ge(r, c),
        4 => Term::not(bools[rng.below(bools.len() as u64) as usize].term()),
        5 => Term::eq(diff, 0),
        6 => Term::ne(diff, 0),
        7 => Term::le(diff, 0),
        _ => bools[rng.below(bools.len() as u64) as usize].term(),
    }
}

/// Propagation narrows each reference's range by the literals over it alone (`r ≠ 0` at the
/// range's end, bounds, a value) and decides the disjuncts that compare it with a location
/// outside the range; literals over two variables are decided by both ranges and fix one
/// variable once the other is fixed. Checked against trying every assignment of three references over
/// `[0, 3]` and four Booleans, on conjunctions of such literals and disjunctions of them.
#[test]
fn reference_ranges_agree_with_enumeration() {
    let mut rng = Lcg(23);
    let refs: Vec<Var> = (0..3).map(x).collect();
    let bools: Vec<Var> = (0..4).map(|i| Var::bool(format!("b{i}"))).collect();
    let (mut n_sat, mut n_unsat) = (0, 0);
    for case in 0..2000 {
        let mut conj: Vec<Term> =
            refs.iter().flat_map(|v| [Term::ge(v, 0), Term::le(v, 3)]).collect();
        for _ in 0..3 + rng.below(8) {
            conj.push(match rng.below(3) {
                0 => reference_literal(&mut rng, &refs, &bools),
                _ => Term::or(
                    (0..2 + rng.below(2)).map(|_| reference_literal(&mut rng, &refs, &bools)),
                ),
            });
        }
        let expected = (0..64 * 16).any(|bits: u32| {
            let mut m = Model::new();
            for (i, r) in refs.iter().enumerate() {
                m.insert(r, Value::Int(i64::from(bits >> (2 * i) & 3)));
            }
            for (i, b) in bools.iter().enumerate() {
                m.insert(b, Value::Bool(bits >> (6 + i) & 1 == 1));
            }
            m.satisfies(&conj) == Ok(true)
        });
        match agrees(case, &conj, &[], expected) {
            true => n_sat += 1,
            false => n_unsat += 1,
        }
    }
    assert!(n_sat > 300 && n_unsat > 300, "sat {n_sat}, unsat {n_unsat}");
}

/// What the ranges settle costs no split: `0 ≤ r ≤ 3` with `r ≠ 0`, `r ≠ 1` and `r ≠ 3` leaves
/// `r = 2`, so the implications guarded by `r = 2` hold their conclusions and those guarded by
/// a location outside the range drop out, and one theory check decides the query (a budget of
/// one check). Without the ranges, the theory's point violates an implication and the split
/// exceeds the budget.
#[test]
fn reference_ranges_settle_implications_without_a_split() {
    let r = x(0);
    let bools: Vec<Var> = (0..4).map(|i| Var::bool(format!("b{i}"))).collect();
    let mut conj = vec![Term::ge(&r, 0), Term::le(&r, 3), Term::ne(&r, 3), Term::ne(&r, 0)];
    // r = 2 → b0, r = 2 → ¬b1, r = 5 → b2 (r ≤ 3), r = 1 → b3 (stated before r ≠ 1)
    conj.push(Term::or([Term::ne(&r, 2), bools[0].term()]));
    conj.push(Term::or([Term::ne(&r, 2), Term::not(bools[1].term())]));
    conj.push(Term::or([Term::ne(&r, 5), bools[2].term()]));
    conj.push(Term::or([Term::ne(&r, 1), bools[3].term()]));
    conj.push(Term::ne(&r, 1));
    let one = Limits { splits: 1, ..Limits::default() };
    match decide_with(&conj, &[], one) {
        Decision::Sat(m) => {
            assert_eq!(m.get(&r), Some(Value::Int(2)));
            assert_eq!(m.get(&bools[0]), Some(Value::Bool(true)));
            assert_eq!(m.get(&bools[1]), Some(Value::Bool(false)));
        }
        other => panic!("{other:?}"),
    }
    // The same with `r ≠ 2` too: no location is left, unsat before any theory check.
    conj.push(Term::ne(&r, 2));
    assert_eq!(decide_with(&conj, &[], one), Decision::Unsat);
}

/// AVL trees' heights: `-1` at each empty subtree and `h = child + 1` above it. Propagation
/// carries the fixed values through the equalities (`a = -1`, `c = a + 1`: `c = 0`) and decides
/// the disjuncts over several variables by the values (`c ≠ d` is false when both are 0), so
/// one theory check decides the query; a contradiction among them is unsat before any check.
#[test]
fn fixed_values_travel_through_equalities_without_a_split() {
    let [a, b, c, d] = [x(0), x(1), x(2), x(3)];
    let [p, q] = [Var::bool("p"), Var::bool("q")];
    let minus = |u: &Var, v: &Var, k: i64| Term::add([u.term(), Term::mul(-1, v), Term::Int(k)]);
    let mut conj = vec![
        Term::eq(&a, -1),
        Term::eq(&b, -1),
        Term::eq(minus(&c, &a, -1), 0),
        Term::eq(minus(&d, &b, -1), 0),
        // c ≠ d → ¬p, and c - d = 1 ∨ q
        Term::or([Term::eq(minus(&c, &d, 0), 0), Term::not(p.term())]),
        Term::or([Term::eq(minus(&c, &d, -1), 0), q.term()]),
        // c + d ≤ 5 ∨ p: holds by the values whatever p is
        Term::or([Term::le(Term::add([c.term(), d.term()]), 5), p.term()]),
    ];
    let one = Limits { splits: 1, ..Limits::default() };
    match decide_with(&conj, &[], one) {
        Decision::Sat(m) => {
            assert_eq!(m.get(&c), Some(Value::Int(0)));
            assert_eq!(m.get(&q), Some(Value::Bool(true)));
        }
        other => panic!("{other:?}"),
    }
    conj.push(Term::not(q.term()));
    assert_eq!(
        decide_with(&conj, &[], Limits { splits: 1, nodes: 0, ..Limits::default() }),
        Decision::Unsat
    );
}

/// Random queries of various sizes, the same for the same seed.
fn mixed_queries(seed: u64) -> Vec<Vec<Term>> {
    let mut rng = Lcg(seed);
    (0..240)
        .map(|_| {
            let vars: Vec<Var> = (0..2 + rng.below(5) as usize).map(x).collect();
            let mut conj: Vec<Term> =
                vars.iter().flat_map(|v| [Term::ge(v, -4), Term::le(v, 4)]).collect();
            for _ in 0..1 + rng.below(8) {
                conj.push(random_atom(&mut rng, &vars));
            }
            conj
        })
        .collect()
}

/// The theory check keeps its buffers from one query to the next (per thread): whatever came
/// before, a query gets the answer and model it gets on a thread that decided nothing yet.
#[test]
fn reused_theory_buffers_change_no_answer() {
    let decide_all = |reverse: bool| {
        std::thread::spawn(move || {
            let queries = mixed_queries(29);
            let mut order: Vec<usize> = (0..queries.len()).collect();
            if reverse {
                order.reverse();
            }
            let mut out = vec![None; queries.len()];
            for i in order {
                out[i] = Some(decide(&queries[i], &[]));
            }
            out
        })
        .join()
        .unwrap()
    };
    let (forward, backward) = (decide_all(false), decide_all(true));
    assert_eq!(forward, backward);
    for i in (0..forward.len()).step_by(20) {
        let fresh = std::thread::spawn(move || decide(&mixed_queries(29)[i], &[])).join().unwrap();
        assert_eq!(forward[i].as_ref(), Some(&fresh), "query {i}");
    }
    let sat = forward.iter().filter(|d| matches!(d, Some(Decision::Sat(_)))).count();
    assert!(sat > 30 && sat < 210, "{sat} of {} sat", forward.len());
}

/// A random literal over `n` variables, coefficients in -2..=2: an equality (which the
/// substitution solves where a coefficient is ±1), an inequality or a disequality.
fn random_lit(rng: &mut Lcg, n: usize) -> encode::Lit {
    let pairs: Vec<(usize, i128)> = (0..n).map(|v| (v, rng.small(2) as i128)).collect();
    let pairs: Vec<(usize, i128)> = pairs.into_iter().filter(|p| p.1 != 0).collect();
    let lin = encode::Lin::of(&pairs, rng.small(4) as i128);
    match rng.below(3) {
        0 => encode::Lit::Eq(lin),
        1 => encode::Lit::Le(lin),
        _ => encode::Lit::Ne(lin),
    }
}

/// A theory check of `lits` over `n` integers from `from`, with the default budgets.
fn check_from(
    n: usize,
    lits: &encode::Lits,
    from: &theory::Prefix,
) -> (theory::TheoryResult, Option<theory::Prefix>) {
    let limits = Limits::default();
    let (mut pivots, mut substitutions) = (limits.pivots, limits.substitutions);
    let budget = theory::Budget {
        nodes: limits.nodes,
        pivots: &mut pivots,
        cells: limits.cells,
        substitutions: &mut substitutions,
    };
    theory::check(n, 0, lits, from, budget)
}

/// Whether `lit` holds at `values`.
fn lit_holds(lit: &encode::Lit, values: &[i128]) -> bool {
    let value =
        |l: &encode::Lin| l.constant + l.coeffs.iter().map(|(&x, &c)| c * values[x]).sum::<i128>();
    match lit {
        encode::Lit::Le(l) => value(l) <= 0,
        encode::Lit::Eq(l) => value(l) == 0,
        encode::Lit::Ne(l) => value(l) != 0,
        encode::Lit::Bool(..) => true,
    }
}

/// `lits` as [`encode::Lits`], sealed after each position of `seals`.
fn chunked(lits: &[encode::Lit], seals: &[usize]) -> encode::Lits {
    let mut out = encode::Lits::default();
    for (i, lit) in lits.iter().enumerate() {
        if seals.contains(&i) {
            out.seal();
        }
        out.push(lit.clone());
    }
    out
}

/// Literals sealed into shared chunks read as the list they were pushed as, from any position.
#[test]
fn sealed_literals_read_as_pushed() {
    let lits: Vec<encode::Lit> = (0..7).map(|i| encode::Lit::Bool(i, i % 2 == 0)).collect();
    for seals in [&[][..], &[0], &[3], &[1, 2, 6], &[7]] {
        let mut chunks = chunked(&lits, seals);
        let copy = chunks.clone();
        chunks.push(encode::Lit::Bool(9, true));
        assert_eq!(copy.len(), lits.len());
        for from in 0..=lits.len() + 1 {
            let read: Vec<&encode::Lit> = copy.after(from).collect();
            assert_eq!(read, lits.iter().skip(from).collect::<Vec<_>>(), "{seals:?} from {from}");
        }
        assert_eq!(chunks.iter().count(), lits.len() + 1);
    }
}

/// A theory check resumed from a prefix its literals start with (prepared, or left by the
/// check of a shorter conjunction, or prepared from another prefix) answers as enumeration of
/// the box does, with values that satisfy every literal.
#[test]
fn checks_resumed_from_a_prefix_answer_as_enumeration_does() {
    let n = 4;
    let mut rng = Lcg(41);
    let (mut sat, mut unsat) = (0, 0);
    for _ in 0..150 {
        // The box -3..=3 first, then random literals.
        let mut lits: Vec<encode::Lit> = (0..n)
            .flat_map(|v| {
                [
                    encode::Lit::Le(encode::Lin::of(&[(v, 1)], -3)),
                    encode::Lit::Le(encode::Lin::of(&[(v, -1)], -3)),
                ]
            })
            .collect();
        for _ in 0..2 + rng.below(7) {
            lits.push(random_lit(&mut rng, n));
        }
        let points = (0..7i128.pow(n as u32))
            .map(|i| (0..n).map(|v| (i / 7i128.pow(v as u32)) % 7 - 3).collect::<Vec<_>>());
        let expected = points.into_iter().any(|p| lits.iter().all(|l| lit_holds(l, &p)));
        for m in 0..=lits.len() {
            let half = theory::prepare(
                0,
                &chunked(&lits[..m / 2], &[]),
                &theory::Prefix::default(),
                SUBSTITUTIONS,
            );
            let prepared = theory::prepare(0, &chunked(&lits[..m], &[m / 2]), &half, SUBSTITUTIONS);
            let left = match check_from(n, &chunked(&lits[..m], &[]), &half) {
                (theory::TheoryResult::Sat(..), Some(prefix)) => Some(prefix),
                _ => None,
            };
            // Chunks that end before, at and after the prefixes.
            let all = chunked(&lits, &[1, m / 2, m]);
            for from in [Some(prepared), left].into_iter().flatten() {
                match check_from(n, &all, &from).0 {
                    theory::TheoryResult::Sat(values, _) => {
                        assert!(expected, "sat where enumeration finds no point: {lits:?}");
                        assert!(
                            lits.iter().all(|l| lit_holds(l, &values)),
                            "{values:?} for {lits:?}"
                        );
                    }
                    theory::TheoryResult::Unsat => {
                        assert!(!expected, "unsat with a point: {lits:?}")
                    }
                    theory::TheoryResult::Outside(why) => panic!("outside: {why}"),
                }
            }
        }
        if expected {
            sat += 1
        } else {
            unsat += 1
        }
    }
    assert!(sat > 20 && unsat > 20, "{sat} sat, {unsat} unsat");
}
