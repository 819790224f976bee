//! The explorer's view of the solver: satisfiability and models of a conjunction of [`Sym`]s.
//!
//! The explorer is synchronous and small-step; the actual solver (`heaplab_smt`, a z3 process
//! natively or z3 in wasm) sits behind this trait, adapted in [`super::smt`]. A solver failure
//! is not a failure of the user's program and must not crash the run: it is answered
//! [`SatAnswer::Unknown`] (the explorer keeps the branch, which is the safe choice) and counted.

use super::term::{Sort, Sym};
use std::collections::BTreeMap;

/// The answer to "is this conjunction satisfiable?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SatAnswer {
    Sat,
    Unsat,
    /// The solver gave up or failed; treated as satisfiable.
    Unknown,
    /// An asynchronous backend (z3 in wasm) has not answered yet. The explorer undoes the step
    /// and returns [`Event::SolverPending`](super::Event::SolverPending); the front end awaits
    /// the answer, makes it available to the solver (e.g. in a cache) and steps again, which
    /// re-executes the same instruction.
    Pending,
}

impl SatAnswer {
    pub fn as_str(self) -> &'static str {
        match self {
            SatAnswer::Sat => "sat",
            SatAnswer::Unsat => "unsat",
            SatAnswer::Unknown => "unknown",
            SatAnswer::Pending => "pending",
        }
    }
}

/// Values of symbolic variables (booleans as 0/1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    pub values: BTreeMap<(u32, Sort), i64>,
}

impl Model {
    pub fn get(&self, id: u32, sort: Sort) -> Option<i64> {
        self.values.get(&(id, sort)).copied()
    }
}

/// Counts of path-condition queries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverCounts {
    /// Queries sent to the solver.
    pub sent: u64,
    /// Queries answered without the solver (constants, facts already in the path condition).
    pub decided_locally: u64,
    /// Queries answered from the cache.
    pub cached: u64,
    /// Queries the solver could not answer (errors or `unknown`).
    pub failed: u64,
}

/// A satisfiability oracle for conjunctions of symbolic boolean expressions.
pub trait PathSolver {
    /// Satisfiability and, when satisfiable, a model giving a value to every variable in
    /// `vars`, as one query (with `vars` empty, a plain satisfiability check). One query for both
    /// lets an asynchronous backend say `Pending` for a model too. The model is `None` when the
    /// answer is not `Sat` or the solver failed.
    fn check_with_model(
        &mut self,
        conjuncts: &[Sym],
        vars: &[(u32, Sort)],
    ) -> (SatAnswer, Option<Model>);

    /// Is the conjunction satisfiable?
    fn check(&mut self, conjuncts: &[Sym]) -> SatAnswer {
        self.check_with_model(conjuncts, &[]).0
    }

    /// Satisfiability, with the model the solver found anyway when it has one (no variable is
    /// asked for, so this costs what [`check`](Self::check) costs; the model may leave
    /// variables out). The executor keeps such models to answer later questions
    /// (`exec/answers.rs`). Default: no model.
    fn check_keeping_model(&mut self, conjuncts: &[Sym]) -> (SatAnswer, Option<Model>) {
        (self.check(conjuncts), None)
    }

    /// A model of the conjunction over `vars`; `None` when unsatisfiable, not answered yet or
    /// the solver failed. A conjunction that its constraint graph solves (orders, ranges,
    /// flags, sizes: `dbm::model`) gets its model without a query (counted as decided locally).
    fn model(&mut self, conjuncts: &[Sym], vars: &[(u32, Sort)]) -> Option<Model> {
        if let Some(values) = super::dbm::model(conjuncts, vars) {
            self.note_local();
            return Some(Model { values });
        }
        self.check_with_model(conjuncts, vars).1
    }

    /// Counts so far.
    fn counts(&self) -> SolverCounts;

    /// Why the last query without a definite answer had none (the solver's `unknown` reason,
    /// a transport failure), for the messages that name paths left without a test. Default:
    /// none known.
    fn last_unknown(&self) -> Option<String> {
        None
    }

    /// The solver's own failure, if it had one (it crashed, could not be started, replied with
    /// something that is not an answer): front ends report it as an error naming the solver
    /// rather than as paths without a model. Default: none.
    fn broken(&self) -> Option<String> {
        None
    }

    /// Records a query the explorer decided without calling [`check`](Self::check).
    fn note_local(&mut self);

    /// True for backends that may answer [`SatAnswer::Pending`]; the explorer then keeps a copy
    /// of the state before each step so the step can be undone. Default: false.
    fn is_async(&self) -> bool {
        false
    }

    /// The time the run has left, in milliseconds (`None`: no limit): a backend that can bound
    /// one query caps its queries by it, so that one slow query cannot carry the run past its
    /// time bound. The driver sets it before each step. Default: ignored.
    fn set_time_left(&mut self, _ms: Option<u64>) {}
}
