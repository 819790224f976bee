//! Issue 21: one solver query cannot carry a run past its time bound. The driver hands the
//! solver what is left of the run's time before every step, and each query z3 receives is
//! limited to that (checked on the queries themselves, on their way to the real z3).

mod common;

use heaplab_engine::symbolic::{Clock, Config, Explorer, SmtPathSolver, StrategyKind};
use heaplab_smt::{
    Answer, BoxFuture, ProcessConfig, Query, Result, SmtSolver, Solver, SolverFrontend, Z3Process,
};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Z3, with the time limit of every query it is sent written down.
struct Recording {
    z3: SmtSolver<Z3Process>,
    limits: Rc<RefCell<Vec<u32>>>,
}

impl Solver for Recording {
    fn check<'a>(&'a self, query: &'a Query) -> BoxFuture<'a, Result<Answer>> {
        self.limits.borrow_mut().push(query.timeout_ms);
        self.z3.check(query)
    }
}

/// A clock that advances 1 ms each time it is read, so the run's time runs out as it steps.
struct Ticking(Rc<Cell<u64>>);

impl Clock for Ticking {
    fn now_ms(&self) -> u64 {
        self.0.set(self.0.get() + 1);
        self.0.get()
    }
}

fn run(timeout_ms: Option<u64>) -> (Vec<u32>, usize) {
    let a = common::load("avl.hl");
    let limits = Rc::new(RefCell::new(Vec::new()));
    let z3 = SmtSolver::new(Z3Process::new(ProcessConfig::default()));
    // Without the frontend's decision procedure, so that queries reach z3.
    let frontend = SolverFrontend::new(Recording { z3, limits: Rc::clone(&limits) });
    let solver = SmtPathSolver::with_frontend(frontend.with_procedure(false));
    let mut config = Config::default();
    config.strategy = StrategyKind::Lazy;
    config.bounds.timeout_ms = timeout_ms;
    let now = Rc::new(Cell::new(0));
    let clock = Box::new(Ticking(Rc::clone(&now)));
    let mut ex =
        Explorer::new(&a.program, &a.info, "AvlTree.insert", config, Box::new(solver), clock)
            .expect("method exists");
    ex.run_to_end();
    let seen = limits.borrow().clone();
    (seen, ex.paths().len())
}

#[test]
fn queries_are_limited_by_the_time_the_run_has_left() {
    let (unbounded, _) = run(None);
    assert!(!unbounded.is_empty());
    assert!(unbounded.iter().all(|&t| t == Query::DEFAULT_TIMEOUT_MS), "{unbounded:?}");
    // 5 000 ticks (under the 10 s a query gets by default): every query is limited to what is
    // left, less and less as the run goes on.
    let (bounded, _) = run(Some(5_000));
    assert!(bounded.len() > 2, "{bounded:?}");
    assert!(bounded.iter().all(|&t| (1..=5_000).contains(&t)), "{bounded:?}");
    assert!(bounded.windows(2).all(|w| w[1] <= w[0]), "limits only shrink: {bounded:?}");
    assert!(bounded.first() > bounded.last(), "{bounded:?}");
}
