//! Shared helpers of the symbolic-execution tests: load an example, run the explorer with a real
//! z3 (no fake solver: an engine test must mean what it says).

#![allow(dead_code)]

use heaplab_engine::symbolic::{
    Config, Explorer, Model, NoClock, PathSolver, SatAnswer, SmtPathSolver, SolverCounts, Sort, Sym,
};
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::{analyze, Analysis, SourceFile};
use std::cell::RefCell;
use std::rc::Rc;

/// The real solver: z3 through `heaplab_smt` (frontend with local decisions and cache).
pub fn solver() -> Box<dyn PathSolver> {
    Box::new(SmtPathSolver::new(SmtSolver::new(Z3Process::new(ProcessConfig::default()))))
}

pub fn load(example: &str) -> Analysis {
    let path = format!("{}/../../examples/{example}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("example exists");
    let a = analyze(&SourceFile::new(example.to_string(), text));
    assert!(!a.has_errors(), "{example}: {:?}", a.diagnostics);
    a
}

pub fn explore(a: &Analysis, target: &str, config: Config) -> Explorer {
    let mut ex = Explorer::new(&a.program, &a.info, target, config, solver(), Box::new(NoClock))
        .expect("method exists");
    ex.run_to_end();
    ex
}

/// An asynchronous backend: every query is first answered `Pending` (as z3 in wasm would, with
/// its answer arriving later); the front end, which shares the adapter's state, resolves it
/// with the real solver and steps again.
pub struct Shared {
    pub inner: Box<dyn PathSolver>,
    pub answers: std::collections::HashMap<String, SatAnswer>,
    pub outstanding: Option<Vec<Sym>>,
}

impl Shared {
    fn key(q: &[Sym]) -> String {
        q.iter().map(|s| s.to_smtlib()).collect::<Vec<_>>().join(" ")
    }

    /// What the front end does when `step` returns `SolverPending`.
    pub fn resolve(&mut self) {
        if let Some(q) = self.outstanding.take() {
            let a = self.inner.check(&q);
            self.answers.insert(Shared::key(&q), a);
        }
    }
}

pub struct Deferred(pub Rc<RefCell<Shared>>);

impl PathSolver for Deferred {
    /// Satisfiability waits for `resolve`; a model (test generation, after the run) is asked of
    /// the inner solver at once.
    fn check_with_model(&mut self, q: &[Sym], vars: &[(u32, Sort)]) -> (SatAnswer, Option<Model>) {
        match self.check(q) {
            SatAnswer::Sat if !vars.is_empty() => (SatAnswer::Sat, self.model(q, vars)),
            a => (a, None),
        }
    }
    fn check(&mut self, q: &[Sym]) -> SatAnswer {
        let mut s = self.0.borrow_mut();
        match s.answers.get(&Shared::key(q)) {
            Some(a) => *a,
            None => {
                s.outstanding = Some(q.to_vec());
                SatAnswer::Pending
            }
        }
    }
    fn model(&mut self, q: &[Sym], vars: &[(u32, Sort)]) -> Option<Model> {
        self.0.borrow_mut().inner.model(q, vars)
    }
    fn counts(&self) -> SolverCounts {
        self.0.borrow().inner.counts()
    }
    fn note_local(&mut self) {
        self.0.borrow_mut().inner.note_local();
    }
    fn is_async(&self) -> bool {
        true
    }
}

/// `./build.sh test --quick` (`HEAPLAB_QUICK` set): the long tests run a fixed fraction of their
/// cases, chosen by count (CI runs them all).
pub fn quick() -> bool {
    std::env::var_os("HEAPLAB_QUICK").is_some()
}
