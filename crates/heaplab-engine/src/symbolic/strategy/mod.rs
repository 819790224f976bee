//! Heap strategies: the part of a run that says how an input heap the program has not seen yet
//! is discovered (STYLE.md item 8: one trait, one registry table read by the CLI, wasm and UI).
//!
//! A strategy plugs into the heap model ([`super::heap`]) and the executor ([`super::exec`])
//! through [`HeapStrategy`]: one required question — an unknown reference of class `C` with
//! chain budget `m` (an input root, or a reference field read for the first time): which values
//! may it have? — and hooks with do-nothing defaults for strategies that do more. Each option
//! becomes its own successor state. The later resolution of Kiasan's abstract values (a symbolic
//! reference δ̂ becomes null or a symbolic location δ; δ becomes an existing input object or a
//! fresh one) belongs to the lazy-family heap model, so `lazy`, `lazier` and `lazier#` are
//! option tables only (digest §3.4): [`lazy`], [`lazier`], [`lazier_sharp`]. `sl` ([`sl`])
//! answers like lazier# and uses the hooks: first access to a covered reference, a predicate
//! call in a formula, the end of an unfolding, the disjuncts a body may take, path end.
//!
//! This module owns the registry and the trait. It never executes an instruction and never
//! decides which state runs next; strategies never see the worklist.

pub mod lazier;
pub mod lazier_sharp;
pub mod lazy;
pub mod sl;
pub mod symheap;

use super::code::{Compiled, UnitId};
use super::config::StrategyKind;
use super::exec::{Cx, Succ, Then};
use super::explorer::PathOutcome;
use super::heap::lazy::LazyHeap;
use super::heap::HeapModel;
use super::state::{ObjIdx, SValue, State};
use std::any::Any;
use std::rc::Rc;

/// One row of the strategy registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrategyInfo {
    /// The name users type (`--strategy lazier#`).
    pub name: &'static str,
    pub kind: StrategyKind,
    /// Where it comes from.
    pub paper: &'static str,
    /// One line for menus and `--help`.
    pub description: &'static str,
}

/// Every strategy, in menu order.
pub const STRATEGIES: &[StrategyInfo] =
    &[lazy::INFO, lazier::INFO, lazier_sharp::INFO, sl::INFO, symheap::INFO];

/// Looks a strategy up by its registry name.
pub fn by_name(name: &str) -> Option<&'static StrategyInfo> {
    STRATEGIES.iter().find(|s| s.name == name)
}

/// The registry row of a strategy.
pub fn info(kind: StrategyKind) -> &'static StrategyInfo {
    match STRATEGIES.iter().find(|s| s.kind == kind) {
        Some(row) => row,
        None => &STRATEGIES[0],
    }
}

/// Builds the strategy of a registry row for a run over `code` (the program as compiled, before
/// the run adds its entry unit).
pub fn make(kind: StrategyKind, code: &Compiled) -> Box<dyn HeapStrategy> {
    match kind {
        StrategyKind::Lazy => Box::new(lazy::Lazy),
        StrategyKind::Lazier => Box::new(lazier::Lazier),
        StrategyKind::LazierSharp => Box::new(lazier_sharp::LazierSharp),
        StrategyKind::Sl => Box::new(sl::Sl::new(code)),
        StrategyKind::Symheap => Box::new(symheap::Symheap),
    }
}

/// A value an unknown reference may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Null,
    /// An existing input object.
    Alias(ObjIdx),
    /// A fresh input object (allowed only when the budget is not negative).
    Fresh,
    /// A fresh symbolic location δ (non-null, identity open).
    SymLoc,
    /// A fresh symbolic reference δ̂ (null-ness and identity open).
    SymRef,
}

/// What a strategy answers for one unknown reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub choices: Vec<Choice>,
    /// The k bound removed the [`Choice::Fresh`] option.
    pub k_cut: bool,
}

/// Labels of a resolution child: (tree label, option text).
pub type Labels = (String, String);

/// What a strategy does with a path that ended (see [`HeapStrategy::path_end`]).
pub enum PathEnd {
    /// Record the path with this outcome.
    Record(State, PathOutcome),
    /// The solver has not answered yet; the step is undone and runs again.
    Pending,
    /// The path goes on before it ends (the states to run next).
    Continue(Succ),
}

/// A heap strategy (see the module docs). Hooks take `&self`: a strategy's per-run data, if any,
/// sits behind interior mutability and is saved and restored with [`save`](Self::save) /
/// [`restore`](Self::restore) when a step is undone.
pub trait HeapStrategy {
    fn info(&self) -> &'static StrategyInfo;

    /// The options for an unknown reference of `class` whose object would get chain budget
    /// `budget` (a fresh object needs `budget >= 0`). The lazy-family heap model asks this; a
    /// strategy over a heap model of its own may list no choices.
    fn options(&self, state: &State, class: &str, budget: i64) -> Options;

    /// The heap model the strategy runs over (the lazy family's, unless it says otherwise).
    fn heap_model(&self) -> Rc<dyn HeapModel> {
        Rc::new(LazyHeap)
    }

    /// The program accesses (dereferences, compares, null-tests) the reference `v`. `Done` when
    /// the strategy takes the step over (the access runs again later); `Go` gives the state
    /// back for the heap model.
    fn first_access(&self, _cx: &mut Cx, st: State, _v: &SValue) -> Then<State> {
        Then::Go(st)
    }

    /// Drops resolution children the instruction that asked for them would end at once.
    fn prune_resolutions(&self, _cx: &mut Cx, kids: Vec<(State, Labels)>) -> Vec<(State, Labels)> {
        kids
    }

    /// At a symbolic location the k bound denies a fresh object: may it instead denote a fresh
    /// object that `pending`, an input root of its class (the receiver or an argument) still
    /// unresolved (a symbolic reference or location whose budget allows one), is made to denote?
    /// Lazy initialization resolves the roots before the method runs, so such an alias is among
    /// its choices; a strategy that resolves them later (lazier#'s symbolic references) meets
    /// the cut location first and would miss it.
    fn k_cut_adopts(&self, _code: &Compiled, _st: &State, _pending: &SValue) -> bool {
        false
    }

    /// True when a field read of an input object must give the field's input value (the
    /// journal) rather than what the program wrote since.
    fn reads_input_heap(&self, _st: &State) -> bool {
        false
    }

    /// A call of `callee` with `nargs` arguments on the stack. `Done` when the strategy executes
    /// it; `Go` gives the state back.
    fn call(&self, _cx: &mut Cx, st: State, _callee: UnitId, _nargs: usize) -> Then<State> {
        Then::Go(st)
    }

    /// A `return` (its value already popped). `Done` when the returning frame was the strategy's.
    fn ret(&self, _cx: &mut Cx, st: State) -> Then<State> {
        Then::Go(st)
    }

    /// At a `Fork` over `n` disjuncts at `pc`: which may run (`None`: all).
    fn allowed_disjuncts(&self, _st: &mut State, _pc: usize, _n: usize) -> Option<Vec<bool>> {
        None
    }

    /// True when the objects claimed while the precondition ran stay claimed afterwards.
    fn keeps_footprint(&self) -> bool {
        false
    }

    /// A path ended with `outcome` (`stopped`: the run is being stopped by a bound).
    fn path_end(&self, _cx: &mut Cx, st: State, outcome: PathOutcome, _stopped: bool) -> PathEnd {
        PathEnd::Record(st, outcome)
    }

    /// True when a pending state has become pointless and is dropped unexplored.
    fn obsolete(&self, _st: &State) -> bool {
        false
    }

    /// The strategy's per-run data, for undoing a step.
    fn save(&self) -> Box<dyn Any> {
        Box::new(())
    }

    fn restore(&self, _saved: Box<dyn Any>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_round_trip() {
        let code = Compiled::default();
        for row in STRATEGIES {
            assert_eq!(by_name(row.name), Some(row));
            assert_eq!(info(row.kind), row);
            assert_eq!(make(row.kind, &code).info(), row);
        }
        assert_eq!(by_name("eager"), None);
    }
}
