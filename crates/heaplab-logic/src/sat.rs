//! Satisfiability with models: bounded breadth-first unfolding ([`crate::search`]) until a
//! closed base heap has a satisfiable pure part.
//!
//! The answer is `Sat(model)` with the first (smallest) model found, `Unsat` only when every
//! branch was closed by a contradiction before any bound cut it or, when a bound cut the
//! search, the base-pair procedure ([`crate::basepair`]) proves it for every depth (its
//! witness may also give a model beyond the bounds), and `Unknown` otherwise, naming the bound
//! that stopped the search and why the procedure did not settle it.

use crate::arith::{decide, PureResult};
use crate::error::Result;
use crate::formula::{Defs, Formula};
use crate::model::Model;
use crate::oracle::PureOracle;
use crate::search::{build_model, facts, Cut, Cuts, Explorer, Order, SearchBounds};

/// The answer of [`sat`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatResult {
    Sat(Model),
    Unsat,
    /// The bounded search found no model but could not prove there is none; says why.
    Unknown(String),
}

/// Decides `formula` and finds a model: the smallest model first (breadth-first) within
/// `bounds`; when they cut the search, the base-pair procedure decides unsatisfiability at every
/// depth, or its witness gives a model.
pub fn sat(
    defs: &Defs,
    formula: &Formula,
    bounds: SearchBounds,
    oracle: &mut dyn PureOracle,
) -> Result<SatResult> {
    let out =
        sat_with(defs, formula, bounds, Order::BreadthFirst, oracle, &mut || false, None, true)?;
    Ok(out.result)
}

/// [`sat`] with the search order chosen. Depth-first answers the same (`Unsat` and `Unknown`
/// mean the same), but its model is the first in the definitions' disjunct order: the leftmost
/// instance takes its first disjunct that can hold, then the next instance, and so on. For a
/// formula with `n` instances whose base cases hold, that is `n` unfoldings, where breadth-first
/// search visits every combination of `n` disjunct choices (2^n heaps) before its first base
/// heap. The engine's `sl` strategy completes test inputs this way (as a run of the bodies
/// would, base case first). Also says which bounds cut the search, so that a caller can tell
/// "only deeper structures are left" (`Unknown` with only [`Cuts::depth`]) from giving up.
///
/// This is the bounded search alone, without the base-pair procedure: the engine's `sl`
/// strategy wants a model within its bounds (`k`, depth) or the cut that stopped the search,
/// and a model found beyond them would not be one its run could reach. [`sat`] and
/// [`sat_with`] with `prove` add the procedure.
pub fn sat_in_order(
    defs: &Defs,
    formula: &Formula,
    bounds: SearchBounds,
    order: Order,
    oracle: &mut dyn PureOracle,
) -> Result<(SatResult, Cuts)> {
    let out = sat_with(defs, formula, bounds, order, oracle, &mut || false, None, false)?;
    Ok((out.result, out.cuts))
}

/// What [`sat_with`] found, and how the search went.
#[derive(Clone, Debug)]
pub struct SatOutcome {
    pub result: SatResult,
    pub cuts: Cuts,
    /// The bounds that cut the search, in the order first met (empty: nothing was cut).
    pub cut_by: Vec<Cut>,
    /// Partial heaps examined.
    pub states: usize,
    /// Case splits of the pure checks.
    pub splits: usize,
}

/// [`sat_in_order`] that also stops when `stop` says so (asked now and then: a time limit) or
/// when the pure checks have made more than `split_cap` case splits, and reports the work done.
/// With `prove`, a search that was cut (not stopped) asks the base-pair procedure
/// ([`crate::basepair`]) whether the formula is unsatisfiable at every depth. An `Unknown` names the bounds that cut the search, only those.
#[allow(clippy::too_many_arguments)]
pub fn sat_with(
    defs: &Defs,
    formula: &Formula,
    bounds: SearchBounds,
    order: Order,
    oracle: &mut dyn PureOracle,
    stop: &mut dyn FnMut() -> bool,
    split_cap: Option<usize>,
    prove: bool,
) -> Result<SatOutcome> {
    // The search is faster on what it settles early; the procedure decides what a long search
    // cannot (a bound cut everywhere). So: a short search, then the procedure, then the rest.
    if prove && bounds.max_states > QUICK_STATES {
        let quick = SearchBounds { max_states: QUICK_STATES, ..bounds };
        let out = search(defs, formula, quick, order, oracle, stop, split_cap, true)?;
        if !matches!(out.result, SatResult::Unknown(_)) || out.cut_by.contains(&Cut::Stopped) {
            return Ok(out);
        }
    }
    search(defs, formula, bounds, order, oracle, stop, split_cap, prove)
}

/// Partial heaps of the short search that [`sat_with`] tries before the procedure.
const QUICK_STATES: usize = 2_000;

#[allow(clippy::too_many_arguments)]
fn search(
    defs: &Defs,
    formula: &Formula,
    bounds: SearchBounds,
    order: Order,
    oracle: &mut dyn PureOracle,
    stop: &mut dyn FnMut() -> bool,
    split_cap: Option<usize>,
    prove: bool,
) -> Result<SatOutcome> {
    let mut ex =
        Explorer::new(defs, formula, bounds, order).with_stop(stop).with_split_cap(split_cap);
    let mut undecided = false;
    while let Some(base) = ex.next_base() {
        let res = match decide(&base.facts, &base.sorts) {
            PureResult::Unknown => oracle.check(&facts(&base.heap, true), &base.sorts)?,
            r => r,
        };
        match res {
            PureResult::Sat(a) => {
                if let Some(m) = build_model(defs, &base, &formula.free, &a) {
                    return Ok(SatOutcome {
                        result: SatResult::Sat(m),
                        cuts: ex.cuts,
                        cut_by: ex.cut_by.clone(),
                        states: ex.states,
                        splits: ex.splits,
                    });
                }
                undecided = true;
            }
            PureResult::Unsat => {}
            PureResult::Unknown => {
                undecided = true;
                ex.skip_closures();
            }
        }
    }
    let result = if !ex.bound_hit && !undecided {
        SatResult::Unsat
    } else if !prove || ex.cut_by.contains(&Cut::Stopped) {
        SatResult::Unknown(format!(
            "no model found before the search was cut by {}",
            describe_cuts(&ex.cut_by, bounds)
        ))
    } else {
        // The search was cut or left arithmetic undecided: the base-pair procedure may still
        // prove that no model exists at any depth.
        use crate::basepair::Shape;
        let shape = crate::basepair::decide_with_witness(defs, formula, oracle)?;
        let (verdict, why) = match shape {
            Shape::Unsat => (SatResult::Unsat, String::new()),
            Shape::Open(why) => (SatResult::Unknown(String::new()), why),
            Shape::Witness(unfolded, why) => {
                // The pairs' derivations give an unfolding without instances: solve it (the
                // arithmetic the pairs ignore may still contradict it).
                let wide = SearchBounds { max_objects: usize::MAX, ..bounds };
                let out =
                    sat_with(defs, &unfolded, wide, order, oracle, &mut || false, None, false)?;
                match out.result {
                    SatResult::Sat(m) => (SatResult::Sat(m), String::new()),
                    _ => (
                        SatResult::Unknown(String::new()),
                        format!("{why}, but the unfolding that witnesses it has no model"),
                    ),
                }
            }
        };
        // The pairs ignore the integers: the base formulas over the integer parameters
        // ([`crate::baseformula`]) may still decide it, with a witness at any depth.
        let (verdict, why) = match verdict {
            SatResult::Unknown(_) => {
                use crate::baseformula::{decide_formula, Decision};
                let mut solve = |f: &Formula, o: &mut dyn PureOracle| {
                    let wide = SearchBounds { max_objects: usize::MAX, ..bounds };
                    let out = sat_with(defs, f, wide, order, o, &mut || false, None, false)?;
                    Ok(match out.result {
                        SatResult::Sat(m) => Some(m),
                        _ => None,
                    })
                };
                match decide_formula(defs, formula, oracle, &mut solve)? {
                    Decision::Unsat => (SatResult::Unsat, why),
                    Decision::Sat(m) => (SatResult::Sat(m), why),
                    Decision::Open(more) => {
                        (SatResult::Unknown(String::new()), format!("{why}; {more}"))
                    }
                }
            }
            v => (v, why),
        };
        match (verdict, why) {
            (SatResult::Unsat, _) => SatResult::Unsat,
            (SatResult::Sat(m), _) => SatResult::Sat(m),
            (_, why) if ex.bound_hit => SatResult::Unknown(format!(
                "no model found before the search was cut by {}; a larger bound may find one (not proved unsatisfiable: {why})",
                describe_cuts(&ex.cut_by, bounds)
            )),
            (_, why) => SatResult::Unknown(format!(
                "some arithmetic could not be decided (not proved unsatisfiable: {why})"
            )),
        }
    };
    Ok(SatOutcome {
        result,
        cuts: ex.cuts,
        cut_by: ex.cut_by.clone(),
        states: ex.states,
        splits: ex.splits,
    })
}

/// The bounds in `cuts`, in words, with their values.
pub fn describe_cuts(cuts: &[Cut], bounds: SearchBounds) -> String {
    let words: Vec<String> = cuts
        .iter()
        .map(|c| match c {
            Cut::Depth => format!("the unfolding depth ({})", bounds.max_depth),
            Cut::Objects => format!("the object limit ({})", bounds.max_objects),
            Cut::States => format!("the work limit ({} states)", bounds.max_states),
            Cut::Stopped => "the time limit".to_string(),
        })
        .collect();
    words.join(" and ")
}
