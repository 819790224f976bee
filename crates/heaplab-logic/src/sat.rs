//! Satisfiability with models: bounded breadth-first unfolding ([`crate::search`]) until a
//! closed base heap has a satisfiable pure part.
//!
//! The answer is `Sat(model)` with the first (smallest) model found, `Unsat` only when every
//! branch was closed by a contradiction before any bound cut it, and `Unknown` otherwise — a
//! bound reached is never reported as unsatisfiable.

use crate::arith::{decide, PureResult};
use crate::error::Result;
use crate::formula::{Defs, Formula, Pure, Sort, Var};
use crate::model::Model;
use crate::search::{build_model, facts, Cuts, Explorer, Order, SearchBounds};
use std::collections::BTreeMap;

/// Decides pure facts the Rust procedure could not ([`PureResult::Unknown`]): the SMT solver.
pub trait PureOracle {
    fn check(&mut self, facts: &[Pure], sorts: &BTreeMap<Var, Sort>) -> Result<PureResult>;
}

/// An oracle that knows no more than the Rust procedure (everything outside difference logic
/// stays unknown). Useful where no solver is available.
pub struct NoSolver;

impl PureOracle for NoSolver {
    fn check(&mut self, _facts: &[Pure], _sorts: &BTreeMap<Var, Sort>) -> Result<PureResult> {
        Ok(PureResult::Unknown)
    }
}

/// The answer of [`sat`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    Sat(Model),
    Unsat,
    /// The bounded search found no model but could not prove there is none; says why.
    Unknown(String),
}

/// Decides `formula` and finds a model, within `bounds`: the smallest model first (breadth-first).
pub fn sat(
    defs: &Defs,
    formula: &Formula,
    bounds: SearchBounds,
    oracle: &mut dyn PureOracle,
) -> Result<SatResult> {
    sat_in_order(defs, formula, bounds, Order::BreadthFirst, oracle).map(|(r, _)| r)
}

/// [`sat`] with the search order chosen. Depth-first answers the same (`Unsat` and `Unknown`
/// mean the same), but its model is the first in the definitions' disjunct order: the leftmost
/// instance takes its first disjunct that can hold, then the next instance, and so on. For a
/// formula with `n` instances whose base cases hold, that is `n` unfoldings, where breadth-first
/// search visits every combination of `n` disjunct choices (2^n heaps) before its first base
/// heap. The engine's `sl` strategy completes test inputs this way (as a run of the bodies
/// would, base case first). Also says which bounds cut the search, so that a caller can tell
/// "only deeper structures are left" (`Unknown` with only [`Cuts::depth`]) from giving up.
pub fn sat_in_order(
    defs: &Defs,
    formula: &Formula,
    bounds: SearchBounds,
    order: Order,
    oracle: &mut dyn PureOracle,
) -> Result<(SatResult, Cuts)> {
    let mut ex = Explorer::new(defs, formula, bounds, order);
    let mut undecided = false;
    while let Some(base) = ex.next_base() {
        let res = match decide(&base.facts, &base.sorts) {
            PureResult::Unknown => oracle.check(&facts(&base.heap, true), &base.sorts)?,
            r => r,
        };
        match res {
            PureResult::Sat(a) => {
                if let Some(m) = build_model(defs, &base, &formula.free, &a) {
                    return Ok((SatResult::Sat(m), ex.cuts));
                }
                undecided = true;
            }
            PureResult::Unsat => {}
            PureResult::Unknown => undecided = true,
        }
    }
    let cuts = ex.cuts;
    if ex.bound_hit {
        return Ok((
            SatResult::Unknown(format!(
            "no model within the bounds (unfolding depth {}, {} objects, {} states); a larger bound may find one",
                bounds.max_depth, bounds.max_objects, bounds.max_states
            )),
            cuts,
        ));
    }
    if undecided {
        return Ok((SatResult::Unknown("some arithmetic could not be decided".into()), cuts));
    }
    Ok((SatResult::Unsat, cuts))
}
