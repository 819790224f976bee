//! The Rust decision procedure: linear integer arithmetic with equalities and disequalities
//! over integers and references (`null = 0`), Booleans, and the few disjunctions path
//! conditions carry, answered with a model, as unsat, or as outside the fragment.
//!
//! Why: Z3 wasm costs about 12 ms per query in the browser and needs SharedArrayBuffer; almost
//! every path condition is a small conjunction this procedure decides in microseconds. Only
//! [`Decision::Outside`] goes on to Z3 (see [`crate::SolverFrontend`]).
//!
//! How: [`encode`] turns the terms into a formula in negation normal form over linear literals;
//! the conjunction of its literals goes to the integer [`theory`] (gcd normalization,
//! elimination of unit equalities, the [`simplex`] with branch and bound, lazily split
//! disequalities). A disjunction is split only when the theory's point violates it, so
//! a path condition whose disjunctions the point already satisfies costs one theory check;
//! before each check, [`propagate`] settles the disjunctions the literals decide on their own.
//!
//! Soundness: `unsat` is claimed only when every branch of both splits (disjunctions, and the
//! integer branches inside the theory) is infeasible over the rationals, which implies
//! infeasible over the integers; arithmetic is exact (`i128` rationals, overflow makes the
//! query outside). `sat` comes with a model that is re-checked by [`crate::eval`] before it is
//! returned (in `i128`, so an overflow guard such as `x + 1 > 9223372036854775807` re-checks);
//! a prepared [`Context`]'s models are re-checked by its caller, the frontend, against the
//! terms before simplification.
//! Every budget that runs out says outside, never a guess.

mod bounds;
mod coeffs;
mod context;
mod encode;
mod known;
mod propagate;
mod rational;
mod search;
mod simplex;
mod theory;

pub use context::Context;
pub use search::{Decision, Limits, SUBSTITUTIONS};

use encode::Encoder;
use known::Numbering;
use propagate::Clauses;
use search::{encode_flat, model_of, Found, Search};

use crate::definitions;
use crate::term::{Term, Var};

/// The start of the `unknown` reason when a query is outside the procedure and no Z3 is there to
/// answer it (see [`crate::NoSolver`]).
pub const OUTSIDE_FRAGMENT: &str = "outside the Rust procedure's fragment";

/// Decides the conjunction of `conjuncts`, with a model over their variables and `want`.
pub fn decide(conjuncts: &[Term], want: &[Var]) -> Decision {
    decide_with(conjuncts, want, Limits::default())
}

/// [`decide`] with explicit budgets.
pub fn decide_with(conjuncts: &[Term], want: &[Var], limits: Limits) -> Decision {
    let (needed, set_aside) = definitions::split(conjuncts, want);
    let mut enc = Encoder::new();
    let (mut lits, ors) = match encode_flat(&mut enc, needed) {
        Ok(Some(flat)) => flat,
        Ok(None) => return Decision::Unsat,
        Err(why) => return Decision::Outside(why),
    };
    let implied = bounds::implied(&lits, &enc.fresh, enc.vars.ints.len());
    lits.extend(implied);
    let mut numbers = Numbering::default();
    let clauses = Clauses::new(lits, ors, &mut numbers);
    let mut search = Search::new(enc.vars.ints.len(), enc.vars.bools.len(), limits, numbers);
    let (ints, bools) = match search.run(clauses, &theory::Prefix::default()) {
        Found::Sat(ints, bools) => (ints, bools),
        Found::Unsat => return Decision::Unsat,
        Found::Outside(why) => return Decision::Outside(why.to_string()),
    };
    let mut model = match model_of(&enc, &ints, &bools, want) {
        Ok(m) => m,
        Err(d) => return d,
    };
    if definitions::complete(&mut model, &set_aside).is_none() {
        return Decision::Outside("a set-aside definition does not evaluate".into());
    }
    match model.satisfies_exact(conjuncts) {
        Ok(true) => Decision::Sat(model),
        _ => Decision::Outside("the model does not re-check".into()),
    }
}

#[cfg(test)]
mod tests;
