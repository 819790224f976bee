//! The `sl` strategy (JSF, digest seed-000: context-sensitive lazy initialization with
//! separation logic), implemented over the explorer's precondition machinery.
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
//!   input journal ([`Object::input`](super::state::Object::input)), never a value the program
//!   wrote since. Objects claimed by points-to atoms stay claimed for the whole path, so a later
//!   unfolding cannot reuse them (separation).
//! - A failing operation in a body (overflow, division by zero) means the instance does not hold:
//!   the path is discarded, never an error of the method (the body may run long after entry,
//!   in the middle of the method or at path end).
//! - **Path end.** A returned or failed path with instances left gets its input from a model of
//!   the remaining formula, found by the logic's satisfiability procedure (JSF's S2SAT_SL step;
//!   [`super::sl_model`]): the test input is a fully initialized heap satisfying `requires`. A
//!   path the logic cannot take (rare: an argument that is an object no points-to claimed, or
//!   arithmetic the solver budget did not settle) is completed by running instead: the remaining
//!   instances are unfolded depth first and the *first* completion wins.
//! - **Bound.** An instance deeper than [`Bounds::depth`](super::config::Bounds::depth) (JSF's
//!   `max_depth`) ends the path as bounded by `depth`; `k` and the other bounds apply as usual.
//!
//! - **`enum`.** Before the body runs, each disjunct is checked against the path through the
//!   least fixed point of the predicate's base unfoldings ([`super::sl_enum`]); disjuncts that
//!   cannot hold are pruned there, the others run (and may still fail while running).
//!
//! Where it departs from JSF (docs/symbolic.md): the surviving disjuncts of an instance run as
//! code rather than being substituted as formulas; each one is the instance's one-step unfolding,
//! so the branches are the same.

use super::code::{Compiled, SlotType, UnitId, UnitKind};
use super::explorer::PathOutcome;
use super::state::{SValue, State};

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
    /// Which disjuncts of the body may run (the `enum` rule, [`super::sl_enum`]); taken by the
    /// body's `Fork`. `None`: all of them.
    pub allowed: Option<Vec<bool>>,
}

/// The `sl` part of a state.
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
    st.sl.deferred.iter().position(|d| {
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
    let args: Vec<String> = d.args.iter().map(|a| super::view::show_value(st, a)).collect();
    format!("{}({})", d.name, args.join(", "))
}

/// The input formula's remaining instances: `bst(ref1) * bst(ref2)` or `emp`.
pub fn show_formula(st: &State) -> String {
    if st.sl.deferred.is_empty() {
        return "emp".into();
    }
    st.sl.deferred.iter().map(|d| show_instance(st, d)).collect::<Vec<_>>().join(" * ")
}
