//! The executor: the semantics of one instruction over one state.
//!
//! [`Cx::exec`] takes a state, executes the instruction at its pc and reports what became of it
//! as a [`Succ`]: the same path continues, it forks into successor states, or it ends with a
//! [`PathOutcome`]. Everything about the heap goes through the [`HeapModel`] (field reads and
//! writes, allocation, reference comparison, null tests, points-to claims, unknown references);
//! everything a strategy adds goes through the [`HeapStrategy`] hooks. Tree nodes, events, views,
//! counters and finished paths go to the [`Sink`] the search driver lends for the step.
//!
//! Owns: instruction semantics (`instr`), feasibility and the forks on conditions
//! (`decide`), the entry of a run ([`entry`]), and what happens when a path ends (the
//! strategy's path-end hook, then the sink). Never touches: the worklist or the order in which
//! states run (the driver's), how references and objects are represented (the heap model's),
//! which strategy is running (it only calls hooks).

pub mod answers;
mod decide;
pub mod entry;
mod instr;
#[cfg(test)]
pub(crate) use instr::wrap;
pub mod stack;

use super::code::{Compiled, UnitId};
use super::config::{Config, Deadline};
use super::explorer::{Event, ForkKind, PathOutcome, RunStats};
use super::heap::HeapModel;
use super::solve::PathSolver;
use super::state::{State, StateId};
use super::strategy::{HeapStrategy, PathEnd};
use super::view::ViewAt;
use answers::Answers;
use heaplab_syntax::ast::{ErrorKind, NodeId};
use heaplab_syntax::Span;
use std::rc::Rc;

/// What became of a state after one instruction.
pub enum Succ {
    /// The same path goes on.
    Continue(State),
    /// Successor states, in the order a depth-first search explores them.
    Fork(Vec<State>),
    /// The path ended.
    End(State, PathOutcome),
}

/// What a strategy hook or a heap operation did with the state it was handed.
// `T` is a state (or a state with an answer), as large as `Succ`: the lint sees a generic `T`.
#[allow(clippy::large_enum_variant)]
pub enum Then<T> {
    /// Go on with this: the state handed back (with the answer, for a heap question).
    Go(T),
    /// The step is over: these are its successors (the instruction runs again in them).
    Done(Succ),
}

/// Where the executor reports what a step did; the search driver implements it (a second
/// driver, such as a concolic loop, implements it its own way).
pub trait Sink {
    /// A new node of the exploration tree.
    fn node(&mut self, parent: Option<StateId>, label: String) -> StateId;
    fn event(&mut self, event: Event);
    /// Keeps a view of `st` if views are being recorded and the limit allows.
    fn snapshot(&mut self, st: &State, at: ViewAt);
    /// Keeps a view of `st` whatever the limit (the forks at entry, before anyone can ask).
    fn keep_view(&mut self, st: &State, at: ViewAt);
    fn stats(&mut self) -> &mut RunStats;
    /// A path ended for good: count it, name it, keep it.
    fn record(&mut self, st: State, outcome: PathOutcome);
    /// A state to run later (created while a path was ending).
    fn push(&mut self, st: State);
    /// True once the run is being stopped by a bound.
    fn stopped(&self) -> bool;
}

/// The parts of a run the executor works with, owned by the driver between steps.
pub struct Executor {
    /// The program plus the run's entry unit ([`entry::add_entry_unit`]).
    pub code: Rc<Compiled>,
    pub config: Config,
    /// The unit of the method under test.
    pub method: UnitId,
    pub solver: Box<dyn PathSolver>,
    pub strategy: Box<dyn HeapStrategy>,
    pub heap: Rc<dyn HeapModel>,
    /// When the run's time bound passes (long work inside one step asks it).
    pub deadline: Deadline,
    /// Feasibility answers known without the solver ([`answers`]).
    pub answers: Answers,
}

impl Executor {
    /// The context of one step, reporting to `sink`.
    pub fn cx<'a>(&'a mut self, sink: &'a mut dyn Sink) -> Cx<'a> {
        Cx {
            code: &self.code,
            config: &self.config,
            method: self.method,
            solver: &mut *self.solver,
            strategy: &*self.strategy,
            heap: &*self.heap,
            sink,
            deadline: &self.deadline,
            answers: &mut self.answers,
            pending: false,
        }
    }
}

/// One step's view of the run: what the executor, the heap model and the strategy hooks may use.
pub struct Cx<'a> {
    pub code: &'a Compiled,
    pub config: &'a Config,
    pub method: UnitId,
    pub solver: &'a mut dyn PathSolver,
    pub strategy: &'a dyn HeapStrategy,
    pub heap: &'a dyn HeapModel,
    pub sink: &'a mut dyn Sink,
    /// When the run's time bound passes.
    pub deadline: &'a Deadline,
    /// Feasibility answers known without the solver.
    pub answers: &'a mut Answers,
    /// Set when an asynchronous solver has not answered: the driver undoes the step.
    pub pending: bool,
}

impl Cx<'_> {
    /// Gives each child state a new tree node under `parent` (whose view is kept first).
    pub fn children(&mut self, parent: &State, kids: Vec<(State, String)>) -> Vec<State> {
        self.sink.snapshot(parent, ViewAt::Fork);
        self.adopt(parent.id, kids)
    }

    /// [`children`](Self::children) of a lazy-initialization or resolution choice, announced by
    /// one `LazyInit` event naming the `target` and one option per child.
    pub fn choice(
        &mut self,
        parent: &State,
        target: String,
        kids: Vec<(State, String)>,
        options: Vec<String>,
        kind: ForkKind,
        k_cut: bool,
    ) -> Vec<State> {
        let kids = self.children(parent, kids);
        self.sink.event(Event::LazyInit {
            state: parent.id,
            target,
            options,
            children: kids.iter().map(|k| k.id).collect(),
            kind,
            k_cut,
        });
        kids
    }

    /// [`children`](Self::children) without the parent's view (taken already).
    pub fn adopt(&mut self, parent: StateId, kids: Vec<(State, String)>) -> Vec<State> {
        let mut out = Vec::new();
        for (mut k, label) in kids {
            k.parent = Some(parent);
            k.id = self.sink.node(Some(parent), label);
            self.sink.snapshot(&k, ViewAt::Created);
            out.push(k);
        }
        out
    }

    /// Ends a path: the strategy may complete it first (or continue it); then the sink
    /// records it.
    pub fn end_path(&mut self, st: State, outcome: PathOutcome) {
        let stopped = self.sink.stopped();
        let strategy = self.strategy;
        match strategy.path_end(self, st, outcome, stopped) {
            PathEnd::Record(s, o) => self.sink.record(s, o),
            PathEnd::Pending => self.pending = true,
            PathEnd::Continue(Succ::Continue(s)) => self.sink.push(s),
            PathEnd::Continue(Succ::Fork(kids)) => {
                kids.into_iter().rev().for_each(|k| self.sink.push(k))
            }
            PathEnd::Continue(Succ::End(s, o)) => self.end_path(s, o),
        }
    }

    /// A dereference of `null`: a runtime error of the program, or, in a formula, the formula
    /// does not hold (`e.f` implies that `e` is allocated).
    pub fn null_deref(&mut self, st: State, node: NodeId, span: Span, what: &str) -> Succ {
        if st.in_pre {
            return Succ::End(st, PathOutcome::Discarded { span, precondition: true });
        }
        Succ::End(
            st,
            PathOutcome::Error {
                kind: ErrorKind::NullDereference,
                node,
                span,
                message: what.to_string(),
            },
        )
    }
}
