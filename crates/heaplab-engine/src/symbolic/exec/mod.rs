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
mod slicing;
#[cfg(test)]
pub(crate) use instr::wrap;
pub mod stack;

pub use super::step::{Cx, Sink, Succ, Then};

use super::code::{Compiled, Instr, OperandKind, UnitId};
use super::config::{Config, Deadline};
use super::events::{Event, ForkKind, Label, ViewAt};
use super::heap::HeapModel;
use super::outcome::PathOutcome;
use super::solve::PathSolver;
use super::state::{SValue, State, StateId};
use super::strategy::{HeapStrategy, PathEnd};
use answers::Answers;
use heaplab_syntax::ast::{BinOp, ErrorKind, NodeId};
use heaplab_syntax::Span;
use std::rc::Rc;

/// What the `LazyInit` event of a choice says besides its states: what is chosen (`target`),
/// one option per child, the kind of fork and whether the k bound cut an option.
pub struct ChoiceEvent {
    pub target: String,
    pub options: Vec<String>,
    pub kind: ForkKind,
    pub k_cut: bool,
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

/// What a step may ask of an asynchronous solver, and so what the driver keeps to undo it
/// when the answer is not there yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asks {
    /// Nothing: the driver keeps nothing.
    Nothing,
    /// Only before it changes the state: it hands the state back whole ([`Cx::retry`]), and the
    /// driver keeps only its own counters.
    First,
    /// Anywhere: the driver keeps a copy of the state before the step.
    Anywhere,
}

/// What the executor's own semantics of `instr` on `st` may ask
/// ([`Instr::executor_may_ask`]): nothing for a condition already decided, a constant (a
/// reference comparison's result under the lazy family's heap, which most branches test);
/// a branch on an open condition and an overflow guard ask before they change the state.
pub fn asks(instr: &Instr, st: &State) -> Asks {
    match instr {
        Instr::BranchFalse { .. } | Instr::Assume { .. } | Instr::Check { .. } => {
            let top = st.frames.last().and_then(|f| f.stack.last());
            match top {
                Some(SValue::Bool(c)) if c.as_bool().is_some() => Asks::Nothing,
                _ if matches!(instr, Instr::BranchFalse { .. }) => Asks::First,
                _ => Asks::Anywhere,
            }
        }
        // Overflow guards of `+`, `-`, `*`: one question before anything changes.
        Instr::Binary { op: BinOp::Add | BinOp::Sub | BinOp::Mul, kind, .. }
            if *kind != OperandKind::Ref =>
        {
            Asks::First
        }
        i if i.executor_may_ask() => Asks::Anywhere,
        _ => Asks::Nothing,
    }
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
            undoable: true,
            retry: None,
        }
    }
}

impl Cx<'_> {
    /// A label for the tree or a forking event, written only where someone reads them
    /// ([`Sink::labels`]); empty elsewhere.
    pub fn label(&self, text: impl FnOnce() -> String) -> String {
        match self.sink.labels() {
            true => text(),
            false => String::new(),
        }
    }

    /// Gives each child state a new tree node under `parent` (whose view is kept first).
    pub fn children<L: Into<Label>>(
        &mut self,
        parent: &State,
        kids: Vec<(State, L)>,
    ) -> Vec<State> {
        self.sink.snapshot(parent, ViewAt::Fork);
        self.adopt(parent.id, kids)
    }

    /// [`children`](Self::children) of a parent made from clones of it, which the caller is
    /// done with: its view takes the state itself. Where the page keeps views (its Run), each
    /// such fork otherwise copied the parent once more and dropped it, work the engine
    /// request (no views) never does; TreeMap `put` under `lazier#` at k = 3 has a thousand.
    pub fn children_owned<L: Into<Label>>(
        &mut self,
        parent: State,
        kids: Vec<(State, L)>,
    ) -> Vec<State> {
        let id = parent.id;
        self.sink.snapshot_owned(parent, ViewAt::Fork);
        self.adopt(id, kids)
    }

    /// [`children`](Self::children) of a lazy-initialization or resolution choice, announced by
    /// one `LazyInit` event naming the `target` and one option per child.
    pub fn choice<L: Into<Label>>(
        &mut self,
        parent: &State,
        kids: Vec<(State, L)>,
        event: ChoiceEvent,
    ) -> Vec<State> {
        self.sink.snapshot(parent, ViewAt::Fork);
        self.announce_choice(parent.id, kids, event)
    }

    /// [`choice`](Self::choice) of a parent the caller is done with (see
    /// [`children_owned`](Self::children_owned)).
    pub fn choice_owned<L: Into<Label>>(
        &mut self,
        parent: State,
        kids: Vec<(State, L)>,
        event: ChoiceEvent,
    ) -> Vec<State> {
        let id = parent.id;
        self.sink.snapshot_owned(parent, ViewAt::Fork);
        self.announce_choice(id, kids, event)
    }

    /// [`choice`](Self::choice) without the parent's view (taken already).
    pub fn announce_choice<L: Into<Label>>(
        &mut self,
        parent: StateId,
        kids: Vec<(State, L)>,
        event: ChoiceEvent,
    ) -> Vec<State> {
        let kids = self.adopt(parent, kids);
        let ChoiceEvent { target, options, kind, k_cut } = event;
        self.sink.event(Event::LazyInit {
            state: parent,
            target,
            options,
            children: kids.iter().map(|k| k.id).collect(),
            kind,
            k_cut,
        });
        kids
    }

    /// [`children`](Self::children) without the parent's view (taken already).
    ///
    /// A child's own view is taken when it forks or ends its path (until then the live state
    /// is its view), not here: a copy of every child's state, replaced by the next, was a
    /// tenth of the page's Run of TreeMap `put` under `lazier#` at k = 3. Only where the
    /// strategy drops states unexplored is the view at creation all a node may get.
    pub fn adopt<L: Into<Label>>(&mut self, parent: StateId, kids: Vec<(State, L)>) -> Vec<State> {
        let mut out = Vec::new();
        let at_creation = self.strategy.drops_states();
        for (mut k, label) in kids {
            k.parent = Some(parent);
            k.id = self.sink.node(Some(parent), label.into());
            if at_creation {
                self.sink.snapshot(&k, ViewAt::Created);
            }
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
