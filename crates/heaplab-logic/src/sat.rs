//! Satisfiability with models: bounded breadth-first unfolding ([`crate::search`]) until a
//! closed base heap has a satisfiable pure part, and, where the bounded search is cut, the
//! decision procedures that see every depth.
//!
//! The answer is `Sat(model)` with the first (smallest) model found, `Unsat` only when every
//! branch was closed by a contradiction before any bound cut it or, when a bound cut the
//! search, the base-pair procedure ([`crate::basepair`]) or the base formulas
//! ([`crate::baseformula`]) prove it for every depth (their witnesses may also give a model
//! beyond the bounds), and `Unknown` otherwise, naming the bound that stopped the search and
//! why the procedures did not settle it. The caller's own bounds (time, memory) reach every
//! long loop through an [`Interrupt`]; a run they stop says which one.

use crate::arith::{decide, PureResult};
use crate::caps::ProofCaps;
use crate::error::Result;
use crate::formula::{Defs, Formula};
use crate::halt::{Halt, Interrupt};
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

/// How [`solve`] works: the bounded search, and whether the decision procedures follow it.
#[derive(Clone, Copy, Debug)]
pub struct SatConfig {
    pub bounds: SearchBounds,
    pub order: Order,
    /// Case splits of the pure checks, at most (a cut by [`Cut::States`] past it).
    /// Default: none.
    pub split_cap: Option<usize>,
    /// Whether a search that was cut asks the decision procedures (base pairs, base
    /// formulas), which see every depth. Default: true.
    pub prove: bool,
    /// The procedures' caps. Default: [`ProofCaps::default`].
    pub caps: ProofCaps,
}

impl Default for SatConfig {
    fn default() -> Self {
        SatConfig {
            bounds: SearchBounds::default(),
            order: Order::BreadthFirst,
            split_cap: None,
            prove: true,
            caps: ProofCaps::default(),
        }
    }
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
    let cfg = SatConfig { bounds, ..SatConfig::default() };
    Ok(solve(defs, formula, &cfg, oracle, &mut crate::halt::never)?.result)
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
/// This is the bounded search alone, without the decision procedures: the engine's `sl`
/// strategy wants a model within its bounds (`k`, depth) or the cut that stopped the search,
/// and a model found beyond them would not be one its run could reach. [`sat`] and
/// [`solve`] add the procedures.
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

/// What [`solve`] found, and how the search went.
#[derive(Clone, Debug)]
pub struct SatOutcome {
    pub result: SatResult,
    pub cuts: Cuts,
    /// The bounds that cut the search, in the order first met (empty: nothing was cut).
    pub cut_by: Vec<Cut>,
    /// The caller's bound that stopped the run, if one did.
    pub halted: Option<Halt>,
    /// Partial heaps examined.
    pub states: usize,
    /// Case splits of the pure checks.
    pub splits: usize,
}

/// [`solve`] with a stop callback that is a deadline (asked now and then; `true` stops the run
/// as cut by [`Cut::Stopped`], "the time limit"), kept for the engine's callers.
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
    let cfg = SatConfig { bounds, order, split_cap, prove, caps: ProofCaps::default() };
    let mut fired = false;
    let mut interrupt = || {
        fired = fired || stop();
        fired.then_some(Halt::Deadline)
    };
    solve(defs, formula, &cfg, oracle, &mut interrupt)
}

/// Partial heaps of the short search that [`solve`] tries before the procedures.
const QUICK_STATES: usize = 2_000;

/// Decides `formula` as `cfg` says, within the caller's bounds (`interrupt`). The search is
/// faster on what it settles early and the procedures decide what a long search cannot (a
/// bound cut everywhere), so with `prove`: a short search, then the procedures, then the rest
/// of the search.
pub fn solve(
    defs: &Defs,
    formula: &Formula,
    cfg: &SatConfig,
    oracle: &mut dyn PureOracle,
    interrupt: &mut Interrupt<'_>,
) -> Result<SatOutcome> {
    let bounds = cfg.bounds;
    let quick = if cfg.prove && bounds.max_states > QUICK_STATES {
        SearchBounds { max_states: QUICK_STATES, ..bounds }
    } else {
        bounds
    };
    let first = bounded(defs, formula, quick, cfg, oracle, interrupt)?;
    let settled = |o: &SatOutcome| !matches!(o.result, SatResult::Unknown(_)) || o.halted.is_some();
    if settled(&first) {
        return Ok(first);
    }
    if !cfg.prove {
        return if quick == bounds {
            Ok(first)
        } else {
            bounded(defs, formula, bounds, cfg, oracle, interrupt)
        };
    }
    let (verdict, why) = prove(defs, formula, cfg, oracle, interrupt)?;
    let with = |out: SatOutcome, result: SatResult, halted: Option<Halt>| SatOutcome {
        result,
        halted: halted.or(out.halted),
        ..out
    };
    match verdict {
        Proved::Sat(m) => return Ok(with(first, SatResult::Sat(m), None)),
        Proved::Unsat => return Ok(with(first, SatResult::Unsat, None)),
        Proved::Halted(h) => {
            let mut cut_by = first.cut_by.clone();
            cut_by.push(Cut::Stopped);
            let text = format!("no model found before the run was stopped by {h}");
            return Ok(SatOutcome { cut_by, ..with(first, SatResult::Unknown(text), Some(h)) });
        }
        Proved::Open => {}
    }
    let out = if quick == bounds {
        first
    } else {
        bounded(defs, formula, bounds, cfg, oracle, interrupt)?
    };
    if settled(&out) {
        return Ok(out);
    }
    let text = if out.cut_by.iter().any(|c| *c != Cut::Stopped) {
        format!(
            "no model found before the search was cut by {}; a larger bound may find one (not proved unsatisfiable: {why})",
            describe_cuts(&out.cut_by, bounds, out.halted)
        )
    } else {
        format!("some arithmetic could not be decided (not proved unsatisfiable: {why})")
    };
    Ok(with(out, SatResult::Unknown(text), None))
}

/// What the decision procedures found.
enum Proved {
    Sat(Model),
    Unsat,
    Open,
    Halted(Halt),
}

/// The base pairs, then the base formulas over the integer parameters; with why they left
/// the query open.
fn prove(
    defs: &Defs,
    formula: &Formula,
    cfg: &SatConfig,
    oracle: &mut dyn PureOracle,
    interrupt: &mut Interrupt<'_>,
) -> Result<(Proved, String)> {
    use crate::basepair::Shape;
    // A witness heap has no instances: a search without an object limit closes it.
    let wide = SatConfig {
        bounds: SearchBounds { max_objects: usize::MAX, ..cfg.bounds },
        prove: false,
        ..*cfg
    };
    let why =
        match crate::basepair::decide_with_witness(defs, formula, oracle, &cfg.caps, interrupt)? {
            Shape::Unsat => return Ok((Proved::Unsat, String::new())),
            Shape::Model(m) => return Ok((Proved::Sat(m), String::new())),
            Shape::Halted(h) => return Ok((Proved::Halted(h), String::new())),
            Shape::Open(why) => why,
            Shape::Witness(unfolded, why) => {
                // The pairs' derivations give an unfolding without instances: solve it (the
                // arithmetic the pairs ignore may still contradict it).
                let out = solve(defs, &unfolded, &wide, oracle, interrupt)?;
                if let Some(h) = out.halted {
                    return Ok((Proved::Halted(h), String::new()));
                }
                match out.result {
                    SatResult::Sat(m) => return Ok((Proved::Sat(m), String::new())),
                    _ => format!("{why}, but the unfolding that witnesses it has no model"),
                }
            }
        };
    // The pairs ignore the integers: the base formulas over the integer parameters may still
    // decide it, with a witness at any depth.
    use crate::baseformula::{decide_formula, Decision};
    let mut halted = None;
    let mut witness = |f: &Formula, o: &mut dyn PureOracle, i: &mut Interrupt<'_>| {
        let out = solve(defs, f, &wide, o, i)?;
        halted = halted.or(out.halted);
        Ok(match out.result {
            SatResult::Sat(m) => Some(m),
            _ => None,
        })
    };
    let decision = decide_formula(defs, formula, oracle, &mut witness, &cfg.caps, interrupt)?;
    if let Some(h) = halted {
        return Ok((Proved::Halted(h), String::new()));
    }
    Ok(match decision {
        Decision::Unsat => (Proved::Unsat, why),
        Decision::Sat(m) => (Proved::Sat(m), why),
        Decision::Halted(h) => (Proved::Halted(h), why),
        Decision::Open(more) => (Proved::Open, format!("{why}; {more}")),
    })
}

/// The bounded search alone.
fn bounded(
    defs: &Defs,
    formula: &Formula,
    bounds: SearchBounds,
    cfg: &SatConfig,
    oracle: &mut dyn PureOracle,
    interrupt: &mut Interrupt<'_>,
) -> Result<SatOutcome> {
    let mut ex = Explorer::new(defs, formula, bounds, cfg.order)
        .with_interrupt(interrupt)
        .with_split_cap(cfg.split_cap);
    let mut undecided = false;
    let outcome = |ex: &Explorer<'_>, result| SatOutcome {
        result,
        cuts: ex.cuts,
        cut_by: ex.cut_by.clone(),
        halted: ex.halted,
        states: ex.states,
        splits: ex.splits,
    };
    while let Some(base) = ex.next_base() {
        let res = match decide(&base.facts, &base.sorts) {
            PureResult::Unknown => oracle.check(&facts(&base.heap, true), &base.sorts)?,
            r => r,
        };
        match res {
            PureResult::Sat(a) => {
                if let Some(m) = build_model(defs, &base, &formula.free, &a) {
                    return Ok(outcome(&ex, SatResult::Sat(m)));
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
    } else if ex.cut_by.is_empty() {
        SatResult::Unknown("some arithmetic could not be decided".into())
    } else {
        SatResult::Unknown(format!(
            "no model found before the search was cut by {}",
            describe_cuts(&ex.cut_by, bounds, ex.halted)
        ))
    };
    Ok(outcome(&ex, result))
}

/// The bounds in `cuts`, in words, with their values (`halted`: the caller's bound behind
/// [`Cut::Stopped`]).
pub fn describe_cuts(cuts: &[Cut], bounds: SearchBounds, halted: Option<Halt>) -> String {
    let words: Vec<String> = cuts
        .iter()
        .map(|c| match c {
            Cut::Depth => format!("the unfolding depth ({})", bounds.max_depth),
            Cut::Objects => format!("the object limit ({})", bounds.max_objects),
            Cut::States => format!("the work limit ({} states)", bounds.max_states),
            Cut::Stopped => halted.unwrap_or(Halt::Deadline).to_string(),
        })
        .collect();
    words.join(" and ")
}
