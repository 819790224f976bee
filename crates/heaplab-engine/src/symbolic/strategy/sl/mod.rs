//! The `sl` strategy (JSF, digest seed-000: context-sensitive lazy initialization with
//! separation logic), implemented over the executor's precondition machinery and the lazy-family
//! heap, through the strategy hooks.
//!
//! Files: this module (the per-path data [`SlState`], the hooks), `unfold` (the access rule:
//! unfolding an instance, completing a path by running), `enum_rule` (JSF's `enum`),
//! [`model`] (the path-end model; `oracle` lets the logic ask the run's solver, and
//! `logic_sym` turns the logic's facts into [`Sym`](crate::symbolic::term::Sym)s). Hooks used:
//! first access to a covered reference, resolution children a formula decides, a predicate call
//! in a formula (deferred), the return of an unfolding, the disjuncts `enum` allows, the kept
//! footprint, and path end. No other module reads an [`SlState`].
//!
//! What is implemented (a faithful but operational reading of JSF's rules):
//! - The `requires` formula runs at entry as in `--pre assume`, except that a **predicate
//!   instance is not unfolded**: it is recorded as a [`Deferred`] instance (predicate unit and
//!   argument values) of the state's input formula. Points-to atoms and pure facts are
//!   evaluated at once, as in `assume`.
//! - **Access rule.** When the program dereferences, compares, null-tests or calls a method on
//!   a reference, and a deferred instance *covers* it (its first reference argument is that
//!   reference), the instance is unfolded first: its body runs (the disjuncts fork, one child per
//!   disjunct; unsatisfiable ones end as `Discarded` with the atom that failed as the reason), the
//!   instances in the body are deferred again one level deeper, and the access is re-executed.
//!   An allocated object no instance covers, or `null`, needs no branch. A reference not covered
//!   by any instance falls back to lazy initialization (lazier#: a symbolic reference).
//! - The input formula stays about the *input*: an instance keeps the argument values of the
//!   input heap, and a field write changes only the store; a predicate body reads fields from the
//!   input journal ([`Object::input`](crate::symbolic::state::Object::input)), never a value the
//!   program wrote since. Objects claimed by points-to atoms stay claimed for the whole path, so a later
//!   unfolding cannot reuse them (separation).
//! - A failing operation in a body (overflow, division by zero) means the instance does not hold:
//!   the path is discarded, never an error of the method (the body may run long after entry,
//!   in the middle of the method or at path end).
//! - **Path end.** A returned or failed path with instances left gets its input from a model of
//!   the remaining formula, found by the logic's satisfiability procedure (JSF's S2SAT_SL step;
//!   [`model`]): the test input is a fully initialized heap satisfying `requires`. A
//!   path the logic cannot take (rare: an argument that is an object no points-to claimed, or
//!   arithmetic the solver budget did not settle) is completed by running instead: the remaining
//!   instances are unfolded depth first and the *first* completion wins.
//! - **Bound.** An instance deeper than
//!   [`Bounds::depth`](crate::symbolic::config::Bounds::depth) (JSF's `max_depth`) ends the path
//!   as bounded by `depth`; `k` and the other bounds apply as usual.
//!
//! - **`enum`.** Before the body runs, each disjunct is checked against the path through the
//!   least fixed point of the predicate's base unfoldings (`enum_rule`); disjuncts that
//!   cannot hold are pruned there, the others run (and may still fail while running).
//!
//! Where it departs from JSF (docs/symbolic.md): the surviving disjuncts of an instance run as
//! code rather than being substituted as formulas; each one is the instance's one-step unfolding,
//! so the branches are the same.

mod data;
mod enum_rule;
mod logic_sym;
pub mod model;
mod oracle;
mod unfold;

pub use data::{
    covering, data, data_mut, deferred, predicate_name, show_formula, show_instance, Deferred, Sl,
    SlState, Unfolding,
};

use super::Driver;
use super::{Choice, HeapStrategy, Labels, Options, PathEnd, StrategyInfo};
use crate::symbolic::code::{Compiled, Instr, UnitId};
use crate::symbolic::config::{Bound, SlCompletion, StrategyKind};
use crate::symbolic::events::Event;
use crate::symbolic::exec::stack::{internal, pop_n, push_next};
use crate::symbolic::exec::{Cx, Succ, Then};
use crate::symbolic::heap::{lazy::LazyHeap, HeapModel};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::state::{SValue, State};
use data::Run;
use enum_rule::EnumTable;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

pub const INFO: StrategyInfo = StrategyInfo {
    name: "sl",
    driver: Driver::Explorer(StrategyKind::Sl),
    paper: "Java StarFinder (JSF, arXiv 1712.06025): lazy initialization with separation logic",
    description: "predicates of `requires` unfold when the program first accesses a reference they cover; other references as lazier#",
    learn: "The precondition (requires) is a separation-logic formula; its predicates are unfolded when the program first touches a reference they describe, so every input satisfies requires. (Java StarFinder)",
    reads_requires: true,
    uses_depth: true,
    all_heaps: false,
};

impl Sl {
    pub fn new(code: &Compiled) -> Sl {
        Sl { table: EnumTable::build(code), run: RefCell::default() }
    }
}

impl HeapStrategy for Sl {
    fn info(&self) -> &'static StrategyInfo {
        &INFO
    }

    /// `sl` runs over the lazy family's heap: its hooks add the predicate instances.
    fn heap_model(&self) -> Rc<dyn HeapModel> {
        Rc::new(LazyHeap)
    }

    /// References no predicate instance covers are initialized as by lazier#.
    fn options(&self, _state: &State, _class: &str, _budget: i64) -> Options {
        Options { choices: vec![Choice::SymRef], k_cut: false }
    }

    /// JSF's access rule: a covered reference unfolds its instance first.
    fn first_access(&self, cx: &mut Cx, st: State, v: &SValue) -> Then<State> {
        match covering(cx.code, &st, &st.normalize(v)) {
            Some(i) => Then::Done(self.unfold(cx, st, i)),
            None => Then::Go(st),
        }
    }

    fn prune_resolutions(&self, cx: &mut Cx, kids: Vec<(State, Labels)>) -> Vec<(State, Labels)> {
        let before = kids.len();
        let kept: Vec<(State, Labels)> =
            kids.into_iter().filter(|(s, _)| !unfold::doomed(cx, s)).collect();
        cx.sink.stats().sl_decided += (before - kept.len()) as u64;
        kept
    }

    /// A predicate instance describes the input heap, so its body reads input values.
    fn reads_input_heap(&self, st: &State) -> bool {
        st.in_pre && data(st).is_some_and(|d| !d.unfolding.is_empty())
    }

    /// In a formula, a predicate instance joins the input formula, unfolded on first access.
    fn call(&self, cx: &mut Cx, mut st: State, callee: UnitId, nargs: usize) -> Then<State> {
        let Some(name) = predicate_name(cx.code, callee).filter(|_| st.in_pre) else {
            return Then::Go(st);
        };
        let name = name.to_string();
        let Some(args) = pop_n(&mut st, nargs) else {
            return Then::Done(internal(st, "empty stack", None));
        };
        let d = data_mut(&mut st);
        let depth = d.current_depth() + 1;
        d.deferred.push(Deferred { unit: callee, name, args, depth });
        Then::Done(push_next(st, SValue::Void))
    }

    /// An unfolding is done; the interrupted access runs again.
    fn ret(&self, cx: &mut Cx, mut st: State) -> Then<State> {
        let frames = st.frames.len();
        if data(&st).and_then(|d| d.unfolding.last()).is_none_or(|u| u.frame_len != frames) {
            return Then::Go(st);
        }
        st.frames.pop();
        let d = data_mut(&mut st);
        let was_in_pre = d.unfolding.pop().map(|u| u.was_in_pre);
        let finishing = d.finish.is_some() && d.unfolding.is_empty();
        if let Some(was) = was_in_pre {
            st.in_pre = was;
        }
        if finishing {
            return Then::Done(self.finish_next(cx, st));
        }
        Then::Done(Succ::Continue(st))
    }

    /// The disjuncts of a predicate being unfolded that `enum` left.
    fn allowed_disjuncts(&self, st: &mut State, pc: usize, n: usize) -> Option<Vec<bool>> {
        let frames = st.frames.len();
        let body = pc == 0
            && data(st).and_then(|d| d.unfolding.last()).is_some_and(|u| u.frame_len == frames);
        if !body {
            return None;
        }
        data_mut(st).unfolding.last_mut().and_then(|u| u.allowed.take()).filter(|a| a.len() == n)
    }

    /// A formula that claims an object (a points-to) where the k bound allows no fresh one may
    /// claim the object that an argument not resolved yet, which no instance covers, would
    /// denote: lazy initialization, which resolves the arguments first, has that alias (SIR
    /// MyLinkedList's `find(x)` with `x` the element of the last node within k). A covered
    /// reference is not taken: its own instance claims its object when it unfolds. In the
    /// method's own code `sl` stays lazier#.
    fn k_cut_adopts(&self, code: &Compiled, st: &State, pending: &SValue) -> bool {
        st.in_pre && covering(code, st, pending).is_none()
    }

    /// Later unfoldings must stay separate from the cells `requires` claimed.
    fn keeps_footprint(&self) -> bool {
        true
    }

    /// Completes the input formula before the path becomes a test: as JSF does, from a model of
    /// the remaining formula; where the logic cannot take the state, by running the instances'
    /// bodies (the first completion wins).
    fn path_end(&self, cx: &mut Cx, mut st: State, outcome: PathOutcome, stopped: bool) -> PathEnd {
        let open = data(&st).is_some_and(|d| d.finish.is_none() && !d.deferred.is_empty());
        if stopped || !outcome.is_feasible() || !open {
            if let (true, Some(g)) = (outcome.is_feasible(), data(&st).and_then(|d| d.group)) {
                Rc::make_mut(&mut self.run.borrow_mut().done).insert(g);
            }
            return PathEnd::Record(st, outcome);
        }
        let before = if cx.sink.detailed_at(st.id) { show_formula(&st) } else { String::new() };
        let depth = cx.config.bounds.depth;
        let completion = match cx.config.sl_completion {
            SlCompletion::Model => {
                model::complete(cx.code, &mut st, depth, &mut *cx.solver, cx.deadline)
            }
            SlCompletion::Run => model::Completion::Fallback("asked to run".into()),
        };
        let end = |st, outcome| PathEnd::Continue(Succ::End(st, outcome));
        match completion {
            // The step is undone and runs again once the solver answered.
            model::Completion::Pending => {
                // Where the driver cannot undo the step (it judged the step unable to end a
                // path: a defect), the bodies complete the path instead.
                debug_assert!(cx.undoable, "a step judged to end no path ended one");
                if cx.undoable {
                    return PathEnd::Pending;
                }
                cx.sink.stats().sl_run_completions += 1
            }
            model::Completion::Model(cells) => {
                cx.sink.stats().sl_models += 1;
                cx.sink.event(Event::SlModel { state: st.id, formula: before, model: cells });
                data_mut(&mut st).deferred.clear();
                return end(st, outcome);
            }
            model::Completion::Unsat => {
                cx.sink.stats().sl_no_model += 1;
                let span = (cx.code.requires.get(&cx.method))
                    .and_then(|r| cx.code.units.get(*r))
                    .map(|u| u.span)
                    .unwrap_or_default();
                return end(st, PathOutcome::Discarded { span, precondition: true });
            }
            model::Completion::Bounded(bound) => {
                if bound == Bound::K {
                    st.k_cut = true;
                }
                return end(st, PathOutcome::Bounded { bound, span: None });
            }
            model::Completion::Fallback(_) => cx.sink.stats().sl_run_completions += 1,
        }
        let group = {
            let mut run = self.run.borrow_mut();
            run.next_group += 1;
            run.next_group - 1
        };
        let d = data_mut(&mut st);
        d.finish = Some(Box::new(outcome));
        d.group = Some(group);
        PathEnd::Continue(self.finish_next(cx, st))
    }

    /// The completions of one path run until the first succeeds: they stay in one shard.
    fn splits(&self, st: &State) -> bool {
        data(st).and_then(|d| d.group).is_none()
    }

    /// Another completion of the same path already succeeded.
    fn obsolete(&self, st: &State) -> bool {
        data(st).and_then(|d| d.group).is_some_and(|g| self.run.borrow().done.contains(&g))
    }

    fn drops_states(&self) -> bool {
        true
    }

    /// The end of a path that returned or failed searches for a model of its formula with the
    /// solver (`model.rs`); nothing else asks.
    fn hooks_may_ask(&self, instr: &Instr) -> bool {
        instr.may_end_feasibly()
    }

    fn save(&self) -> Box<dyn Any> {
        Box::new(self.run.borrow().clone())
    }

    fn restore(&self, saved: Box<dyn Any>) {
        if let Ok(run) = saved.downcast::<Run>() {
            *self.run.borrow_mut() = *run;
        }
    }
}
