//! The frontend's local decisions, cache and counters, with a real `z3` behind it.
#![allow(clippy::unwrap_used)]

use heaplab_smt::{
    block_on, lia::OUTSIDE_FRAGMENT, Answer, NoZ3, Query, SmtSolver, Solver, SolverFrontend, Term,
    Var, Z3Process,
};

fn frontend() -> SolverFrontend<SmtSolver<Z3Process>> {
    SolverFrontend::new(SmtSolver::new(Z3Process::default()))
}

fn check(f: &SolverFrontend<SmtSolver<Z3Process>>, q: &Query) -> Answer {
    let answer = block_on(f.check(q)).unwrap();
    if let Answer::Sat(m) = &answer {
        assert_eq!(m.satisfies(&q.assertions), Ok(true), "model {m:?} for {q:?}");
        for v in &q.want {
            assert!(m.get(v).is_some(), "no value for {}", v.name);
        }
    }
    answer
}

#[test]
fn trivial_and_reference_queries_never_reach_z3() {
    let f = frontend();
    let (p, q, r) = (Var::reference("p"), Var::reference("q"), Var::reference("r"));
    let x = Var::int("x");
    let b = Var::bool("b");
    let all = vec![p.clone(), q.clone(), r.clone(), x.clone(), b.clone()];
    let cases = [
        (vec![], true),
        (vec![Term::Bool(true), Term::le(1, 2)], true),
        (vec![Term::eq(&x, 1), Term::eq(&x, 2)], false),
        (vec![Term::eq(&p, &q), Term::eq(&q, &r), Term::ne(&p, &r)], false),
        (vec![Term::eq(&p, Term::Null), Term::ne(&q, Term::Null), Term::eq(&p, &q)], false),
        (vec![Term::ne(&p, Term::Null), Term::eq(&q, &p), Term::ne(&r, &q), b.term()], true),
        (vec![Term::distinct([p.term(), q.term(), r.term(), Term::Null]), Term::eq(&x, 5)], true),
        (vec![b.term(), Term::not(&b)], false),
        // A contradiction among the equalities decides even with other conjuncts present.
        (vec![Term::eq(&p, &q), Term::ne(&q, &p), Term::lt(&x, 10)], false),
    ];
    for (assertions, sat) in cases {
        let query = Query::new(assertions).want(all.clone());
        assert_eq!(check(&f, &query).is_sat(), sat, "{query:?}");
    }
    let s = f.stats();
    assert_eq!(s.solver_calls, 0, "{s:?}");
    assert_eq!(s.decided_locally, 9);
    assert_eq!(f.inner().transport().starts(), 0, "z3 was never started");
}

#[test]
fn arithmetic_goes_to_z3_once_then_hits_the_cache() {
    let f = frontend().with_procedure(false);
    let (x, y) = (Var::int("x"), Var::int("y"));
    let a = Query::new([Term::lt(&x, &y), Term::gt(&x, 3)]).want([x.clone(), y.clone()]);
    // The same set in another order, with a redundant `true`: same normalized query.
    let b = Query::new([Term::Bool(true), Term::gt(&x, 3), Term::lt(&x, &y)])
        .want([x.clone(), y.clone()]);
    assert!(check(&f, &a).is_sat());
    assert!(check(&f, &b).is_sat());
    let unsat = Query::new([Term::lt(&x, &y), Term::lt(&y, &x)]);
    assert!(check(&f, &unsat).is_unsat());
    assert!(check(&f, &unsat).is_unsat());
    let s = f.stats();
    assert_eq!((s.queries, s.solver_calls, s.cache_hits, s.decided_locally), (4, 2, 2, 0));
    assert!(s.solver_time_ms > 0.0);
}

/// Six distinct non-null references among five addresses: unsat, and beyond the procedure's
/// branch-and-bound budget (it splits disequalities one by one).
fn pigeonhole() -> Query {
    let refs: Vec<Var> = (0..6).map(|i| Var::reference(format!("p{i}"))).collect();
    let mut conj = vec![Term::distinct(refs.iter().map(Var::term).chain([Term::Null]))];
    for r in &refs {
        conj.push(Term::ge(r, 1));
        conj.push(Term::le(r, 5));
    }
    Query::new(conj)
}

#[test]
fn linear_arithmetic_is_decided_by_the_procedure() {
    let f = frontend();
    let (x, y) = (Var::int("x"), Var::int("y"));
    let sat = Query::new([Term::lt(&x, &y), Term::gt(&x, 3), Term::ne(&y, 5)]).want([x.clone()]);
    assert!(check(&f, &sat).is_sat());
    let unsat = Query::new([Term::lt(&x, &y), Term::lt(&y, Term::add([x.term(), Term::Int(1)]))]);
    assert!(check(&f, &unsat).is_unsat());
    let s = f.stats();
    assert_eq!((s.queries, s.decided_by_procedure, s.solver_calls), (2, 2, 0), "{s:?}");
    assert_eq!(f.inner().transport().starts(), 0, "z3 was never started");
    // Beyond the procedure's branch budget: Z3 answers.
    assert!(check(&f, &pigeonhole()).is_unsat());
    assert_eq!((f.stats().outside_fragment, f.stats().solver_calls), (1, 1));
}

#[test]
fn without_z3_outside_queries_are_unknown_never_guessed() {
    let f = SolverFrontend::new(NoZ3);
    let x = Var::int("x");
    let inside = Query::new([Term::gt(Term::mul(3, &x), 7), Term::lt(&x, 4)]).want([x.clone()]);
    match block_on(f.check(&inside)).unwrap() {
        Answer::Sat(m) => assert_eq!(m.int(&x), Some(3)),
        other => panic!("{other:?}"),
    }
    match block_on(f.check(&pigeonhole())).unwrap() {
        Answer::Unknown(why) => assert!(why.starts_with(OUTSIDE_FRAGMENT), "{why}"),
        other => panic!("{other:?}"),
    }
    let s = f.stats();
    assert_eq!((s.queries, s.decided_by_procedure, s.unanswered, s.solver_calls), (2, 1, 1, 0));
}

#[test]
fn frontend_is_usable_as_dyn_solver() {
    let f = frontend();
    let solver: &dyn Solver = &f;
    let x = Var::int("x");
    let q = Query::new([Term::eq(Term::modulo(&x, 7), 3), Term::gt(&x, 10)]).want([x.clone()]);
    match block_on(solver.check(&q)).unwrap() {
        Answer::Sat(m) => assert_eq!(m.int(&x).unwrap().rem_euclid(7), 3),
        other => panic!("{other:?}"),
    }
}

/// A symheap-like slice of a path condition (ranks, their domains, named guards, a guarded
/// value) and questions about it: some read a guard's name whose definition nothing else reads
/// (set aside in a context, joined to the question), one the slice contradicts.
fn slice_and_questions() -> (Vec<Term>, Vec<Term>) {
    let r: Vec<Var> = (1..=6).map(|i| Var::int(format!("r{i}"))).collect();
    let g: Vec<Var> = (1..=6).map(|i| Var::bool(format!("g{i}"))).collect();
    let x = Var::int("x");
    let mut context = Vec::new();
    for (i, ri) in r.iter().enumerate() {
        // rank domain: 0 ≤ r_i ≤ i + 1, and r_i ≠ j ∨ r_j = j for each earlier j.
        context.push(Term::le(0, ri));
        context.push(Term::le(ri, i as i64 + 1));
        for j in 1..=i {
            context.push(Term::or([Term::ne(ri, j as i64), Term::eq(&r[j - 1], j as i64)]));
        }
        // a named guard nothing else reads, and a guarded value
        context.push(Term::eq(g[i].term(), Term::eq(ri, i as i64 + 1)));
        context.push(Term::implies(Term::eq(ri, 1), Term::eq(&x, 10 * i as i64)));
    }
    context.push(Term::ne(&r[0], 0));
    assert!(context.len() >= 16);
    let questions = vec![
        Term::eq(&r[0], 1),
        Term::eq(&r[0], 0),
        Term::eq(&r[3], 2),
        Term::and([Term::eq(&r[1], 1), Term::eq(&r[2], 1)]),
        Term::and([g[4].term(), Term::eq(&r[4], 2)]),
        g[5].term(),
        Term::not(g[0].term()),
        Term::lt(&x, 0),
        Term::eq(&x, 0),
    ];
    (context, questions)
}

fn agree(ours: &Answer, theirs: &Answer, assertions: &[Term], q: &Term) {
    match (ours, theirs) {
        (Answer::Sat(m), Answer::Sat(_)) => {
            assert_eq!(m.satisfies(assertions), Ok(true), "{q:?}: {m:?}")
        }
        (Answer::Unsat, Answer::Unsat) => {}
        _ => panic!("{q:?}: the frontend says {ours:?}, z3 {theirs:?}"),
    }
}

/// Questions of one large slice in a row (the frontend prepares the slice once,
/// `lia::Context`): each answer is Z3's.
#[test]
fn questions_of_one_large_slice_get_z3s_answers() {
    let z3 = SmtSolver::new(Z3Process::default());
    let f = SolverFrontend::new(NoZ3);
    let (context, questions) = slice_and_questions();
    for q in &questions {
        let mut assertions = context.clone();
        assertions.push(q.clone());
        let query = Query::new(assertions);
        let ours = block_on(f.check(&query)).unwrap();
        let theirs = block_on(z3.check(&query)).unwrap();
        agree(&ours, &theirs, &query.assertions, q);
    }
    let stats = f.stats();
    assert_eq!(stats.decided_by_procedure, questions.len() as u64, "{stats:?}");
}

/// The same questions through contexts known by id, three slices asked in turn: the first, and
/// two that extend it (`r1 = 1`; a guard whose definition the first set aside, and the
/// negation of another). Z3's answers; the first slice's terms asked for once, from its start,
/// and each extension's only from where the first ends; every question counted as a query
/// decided by the procedure.
#[test]
fn contexts_known_by_id_answer_as_z3_does() {
    let z3 = SmtSolver::new(Z3Process::default());
    let f = SolverFrontend::new(NoZ3);
    let (first, questions) = slice_and_questions();
    let extension = |more: Vec<Term>| first.iter().cloned().chain(more).collect::<Vec<_>>();
    let slices = [
        first.clone(),
        extension(vec![Term::eq(Var::int("r1"), 1)]),
        extension(vec![Var::bool("g2").term(), Term::not(Var::bool("g4").term())]),
    ];
    let ids = [f.context_id(), f.context_id(), f.context_id()];
    assert_ne!(ids[0], ids[1]);
    let parents = [None, Some((ids[0], first.len())), Some((ids[0], first.len()))];
    let mut translated: [Vec<usize>; 3] = Default::default();
    for q in &questions {
        for (k, slice) in slices.iter().enumerate() {
            let ours = f
                .check_in_context_id(
                    ids[k],
                    parents[k],
                    |from| {
                        translated[k].push(from);
                        Some(slice[from..].to_vec())
                    },
                    q,
                )
                .unwrap_or_else(|| panic!("{q:?}: no answer from the context"));
            let mut assertions = slice.clone();
            assertions.push(q.clone());
            let theirs = block_on(z3.check(&Query::new(assertions.clone()))).unwrap();
            agree(&ours, &theirs, &assertions, q);
        }
    }
    assert_eq!(translated, [vec![0], vec![first.len()], vec![first.len()]]);
    let stats = f.stats();
    assert_eq!(stats.queries, 3 * questions.len() as u64, "{stats:?}");
    assert_eq!(stats.decided_by_procedure, stats.queries, "{stats:?}");
}
