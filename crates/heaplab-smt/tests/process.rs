//! Supervision of the native `z3` process: crash, hang, restart, missing executable.
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use heaplab_smt::{
    block_on, Answer, ProcessConfig, Query, SmtSolver, Solver, SolverError, Term, Var, Z3Process,
};

fn easy_query() -> Query {
    let x = Var::int("x");
    Query::new([Term::gt(&x, 41), Term::lt(&x, 43)]).want([x])
}

fn assert_answers_42(solver: &SmtSolver<Z3Process>) {
    match block_on(solver.check(&easy_query())) {
        Ok(Answer::Sat(m)) => assert_eq!(m.int(&Var::int("x")), Some(42)),
        other => panic!("expected sat with x = 42, got {other:?}"),
    }
}

/// Z3 4.8 does not honour its own timeout on this query; only the wall-clock guard stops it.
const HARD: &str = "(set-option :timeout 60000)
(declare-fun x () Int)
(declare-fun y () Int)
(declare-fun z () Int)
(assert (= (+ (* x x x) (* y y y) (* z z z)) 42))
(assert (> x 1000))
(check-sat)
";

#[test]
fn killed_mid_query_errors_and_next_query_restarts() {
    let solver = SmtSolver::new(Z3Process::default());
    assert_answers_42(&solver);
    let first_pid = solver.transport().pid().unwrap();
    std::thread::scope(|s| {
        let hard = s.spawn(|| block_on(solver.check_script(HARD, &[])));
        std::thread::sleep(Duration::from_millis(300));
        let status =
            std::process::Command::new("kill").args(["-9", &first_pid.to_string()]).status();
        assert!(status.unwrap().success());
        let res = hard.join().unwrap();
        assert!(matches!(res, Err(SolverError::Crashed(_))), "{res:?}");
    });
    assert_answers_42(&solver);
    assert_ne!(solver.transport().pid(), Some(first_pid));
    assert_eq!(solver.transport().starts(), 2);
}

#[test]
fn killed_between_queries_is_replaced_silently() {
    let solver = SmtSolver::new(Z3Process::default());
    assert_answers_42(&solver);
    let pid = solver.transport().pid().unwrap();
    std::process::Command::new("kill").args(["-9", &pid.to_string()]).status().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    assert_answers_42(&solver);
}

#[test]
fn wall_clock_guard_kills_a_hung_solver() {
    let mut config = ProcessConfig::default();
    config.grace_ms = 300;
    let solver = SmtSolver::new(Z3Process::new(config));
    let script = HARD.replace(":timeout 60000", ":timeout 200");
    let res = block_on(solver.check_script(&script, &[]));
    // Either Z3 gives up by itself or the guard fires at 200 + 300 ms.
    match res {
        Ok(Answer::Unknown(_)) => {}
        Err(SolverError::Timeout { ms }) => assert_eq!(ms, 500),
        other => panic!("expected unknown or timeout, got {other:?}"),
    }
    // The answer itself says which stopped it; the process is usable afterwards.
    assert_answers_42(&solver);
}

#[test]
fn missing_z3_is_a_clear_error() {
    let mut config = ProcessConfig::default();
    config.program = "/nonexistent/heaplab/z3".into();
    let solver = SmtSolver::new(Z3Process::new(config));
    let err = block_on(solver.check(&easy_query())).unwrap_err();
    assert_eq!(err, SolverError::NotInstalled);
    assert!(err.to_string().contains("apt-get install z3"), "{err}");
}

#[test]
fn queries_do_not_leak_declarations() {
    let solver = SmtSolver::new(Z3Process::default());
    let declare = "(declare-fun leak () Int)\n(assert (= leak 1))\n(check-sat)\n";
    for _ in 0..3 {
        assert_eq!(
            block_on(solver.check_script(declare, &[])),
            Ok(Answer::Sat(Default::default()))
        );
    }
    let uses = "(assert (= leak 1))\n(check-sat)\n";
    let res = block_on(solver.check_script(uses, &[]));
    assert!(matches!(res, Err(SolverError::SolverReported(_))), "{res:?}");
}

#[test]
fn many_queries_on_one_process() {
    let solver = SmtSolver::new(Z3Process::default());
    for i in 0..50 {
        let x = Var::int("x");
        let q = Query::new([Term::eq(Term::mul(3, &x), i * 3)]).want([x.clone()]);
        match block_on(solver.check(&q)) {
            Ok(Answer::Sat(m)) => assert_eq!(m.int(&x), Some(i)),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(solver.transport().starts(), 1);
}

#[test]
fn a_batch_is_one_call_with_one_isolated_reply_per_script() {
    use heaplab_smt::{batch_script, build_script, parse_check_response, split_batch_reply};
    let (x, y) = (Var::int("x"), Var::int("y"));
    let queries = [
        Query::new([Term::gt(&x, 41), Term::lt(&x, 43)]).want([x.clone()]),
        Query::new([Term::lt(&x, &y), Term::lt(&y, &x)]),
        // Declares x again, as Bool: each script has its own scope.
        Query::new([Var::bool("x").term()]).want([Var::bool("x")]),
    ];
    let scripts: Vec<String> = queries.iter().map(|q| q.script()).collect();
    assert_eq!(scripts[0], build_script(&queries[0].assertions, &queries[0].want, 10_000));
    let z3 = Z3Process::default();
    let reply = z3.run_blocking(&batch_script(&scripts)).unwrap();
    let parts = split_batch_reply(&reply, scripts.len()).unwrap();
    let answers: Vec<Answer> = parts
        .iter()
        .zip(&queries)
        .map(|(r, q)| parse_check_response(r, &q.want).unwrap())
        .collect();
    let model = |a: &Answer| match a {
        Answer::Sat(m) => Some(m.clone()),
        _ => None,
    };
    assert_eq!(model(&answers[0]).and_then(|m| m.int(&x)), Some(42));
    assert!(answers[1].is_unsat());
    assert_eq!(model(&answers[2]).and_then(|m| m.bool(&Var::bool("x"))), Some(true));
    assert_eq!(z3.starts(), 1);
    assert!(split_batch_reply(&reply, 4).is_none());
}
