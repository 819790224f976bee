//! `sl`'s data: the per-path data kept in [`State::ext`] (the input formula's folded instances
//! and the unfoldings in progress, [`SlState`]), the strategy value with its per-run data
//! ([`Sl`]), and how instances print. The hooks (`mod.rs`), the access rule (`unfold`) and the
//! path-end model (`model`) all read it; the heap views read the folded instances.

use super::enum_rule::EnumTable;
use crate::symbolic::code::{Compiled, SlotType, UnitId, UnitKind};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::state::{SValue, State};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// A predicate instance of the input formula, not yet unfolded.
#[derive(Clone, Debug, PartialEq)]
pub struct Deferred {
    pub unit: UnitId,
    pub name: String,
    pub args: Vec<SValue>,
    /// 1 for instances of `requires`, one more per unfolding below.
    pub depth: u32,
}

/// An unfolding in progress: the predicate frame sits at `frames.len() == frame_len`.
#[derive(Clone, Debug, PartialEq)]
pub struct Unfolding {
    pub frame_len: usize,
    pub was_in_pre: bool,
    pub depth: u32,
    /// Which disjuncts of the body may run (the `enum` rule, `enum_rule`); taken by the
    /// body's `Fork`. `None`: all of them.
    pub allowed: Option<Vec<bool>>,
}

/// The `sl` part of a state (kept in [`State::ext`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SlState {
    pub deferred: Vec<Deferred>,
    pub unfolding: Vec<Unfolding>,
    /// Set when the path has ended and its remaining instances are being completed.
    pub finish: Option<Box<PathOutcome>>,
    /// Completions of one ended path share a group; the first one that succeeds wins.
    pub group: Option<u64>,
}

impl SlState {
    /// The depth of the instance being unfolded (0 in `requires`).
    pub fn current_depth(&self) -> u32 {
        self.unfolding.last().map(|u| u.depth).unwrap_or(0)
    }
}

/// The `sl` data of a state, if any.
pub fn data(st: &State) -> Option<&SlState> {
    st.ext.get::<SlState>()
}

/// The `sl` data of a state, created empty on first use.
pub fn data_mut(st: &mut State) -> &mut SlState {
    st.ext.get_mut::<SlState>()
}

/// The input formula's remaining (folded) instances of a state.
pub fn deferred(st: &State) -> &[Deferred] {
    data(st).map(|d| d.deferred.as_slice()).unwrap_or_default()
}

/// Per-run data: completion groups.
#[derive(Clone, Debug, Default)]
pub(super) struct Run {
    pub(super) next_group: u64,
    /// Groups whose path has been completed. Shared with the copy an asynchronous solver's
    /// step saves to undo it (`HeapStrategy::save`): the set grows with the run's paths, and
    /// most steps add nothing to it.
    pub(super) done: Rc<BTreeSet<u64>>,
}

/// The `sl` strategy of one run.
pub struct Sl {
    /// The predicates' base unfoldings by disjunct, for the `enum` rule (JSF computes the least
    /// fixed point once, before execution).
    pub(super) table: EnumTable,
    pub(super) run: RefCell<Run>,
}

/// Is `unit` a predicate? Then a call to it in a formula is deferred (returns its name).
pub fn predicate_name(code: &Compiled, unit: UnitId) -> Option<&str> {
    match code.units.get(unit).map(|u| &u.kind) {
        Some(UnitKind::Predicate { name }) => Some(name),
        _ => None,
    }
}

/// The deferred instance covering the reference `v` (already normalized): its first
/// reference-typed argument is `v`. `null` is never covered.
pub fn covering(code: &Compiled, st: &State, v: &SValue) -> Option<usize> {
    if !matches!(v, SValue::Obj(_) | SValue::SymLoc(_) | SValue::SymRef(_)) {
        return None;
    }
    deferred(st).iter().position(|d| {
        let Some(unit) = code.units.get(d.unit) else { return false };
        let root = unit
            .params
            .iter()
            .zip(&d.args)
            .find(|((_, ty), _)| matches!(ty, SlotType::Class(_)))
            .map(|(_, a)| st.normalize(a));
        root.as_ref() == Some(v)
    })
}

/// `bst(ref1, lo, o2.key)`, for events and tree labels (inputs by their source names).
pub fn show_instance(st: &State, d: &Deferred) -> String {
    let args: Vec<String> =
        d.args.iter().map(|a| crate::symbolic::show::show_value(st, a)).collect();
    format!("{}({})", d.name, args.join(", "))
}

/// The input formula's remaining instances: `bst(ref1) * bst(ref2)` or `emp`.
pub fn show_formula(st: &State) -> String {
    let deferred = deferred(st);
    if deferred.is_empty() {
        return "emp".into();
    }
    deferred.iter().map(|d| show_instance(st, d)).collect::<Vec<_>>().join(" * ")
}
