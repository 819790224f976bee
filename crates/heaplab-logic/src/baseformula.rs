//! Base formulas over the integer parameters of the predicates, computed by fixed point, in the
//! manner of S2S (Le, Tatsuta, Sun, Chin; CAV 2016/2017): the arithmetic half of the decision
//! procedure whose shape half is [`crate::basepair`].
//!
//! A *base element* of `P(x̄)` is a base pair (which reference parameters are allocated, and
//! their (dis)equalities) together with difference bounds over the integer parameters
//! (`n - m <= c`, `n <= c`, `-n <= c`: a difference-bound matrix). Each element over-approximates
//! the models of a set of unfoldings of `P`: those derived from one disjunct with an element
//! chosen for each of its instances, the disjunct's pure part, the cells' facts and the
//! elements' bounds, projected on the parameters (all-pairs shortest paths over the difference
//! constraints; other integer facts such as `s == v + s1` are kept in the consistency check and
//! dropped from the projection, which only loses precision).
//!
//! One predicate cluster at a time ([`crate::cluster`]), callees first, two fixed points:
//! - **Exact rounds** (Kleene iteration, semi-naive): round `r` derives every element whose
//!   derivation has depth `r`. For `lsn(x, y, n)` round `r` gives `n == r`, so a query
//!   `lsn(x, null, n) & n == 40` finds a consistent choice among the elements of round 40, and
//!   unfolding along the derivations gives a heap without instances that `sat` solves into a
//!   model (re-checked by the model checker). When a round adds nothing, the elements cover
//!   every unfolding: no consistent choice for the query is then a proof of unsatisfiability.
//! - **Widening**, when the exact rounds do not converge within [`ProofCaps::max_rounds`]
//!   (lengths, sums and heights grow without bound): the elements of each pair are joined (the
//!   loosest of each bound), and a bound that still moves after another round is dropped
//!   (standard widening on difference bounds, so it terminates). The result is inductive, so
//!   it over-approximates every unfolding: no consistent choice for the query is again a proof.
//!
//!   The widening keeps only difference bounds, so periodic facts are added back as
//!   congruences (`n ≡ 0 (mod 2)` for `even`'s non-empty lists), found from the exact elements
//!   and kept when inductive (`Summaries::congruences`): `even(x, n) & n == 7` is proved unsat.
//!
//! A cluster's callers use its exact elements when they converged, its widened ones otherwise
//! (they cover every unfolding either way). Choices are made with `combine`'s
//! incremental reference check first; the integers are decided once a choice is complete.
//!
//! Incomplete, and then the answer is [`Decision::Open`] saying why: facts that are neither
//! difference bounds nor congruences (`s == n * (n + 1) / 2` for the sum `1 + … + n`) are lost
//! by the widening; caps ([`ProofCaps`]); a witness whose non-difference arithmetic has no
//! model. Congruence checks need the oracle (an undecided one drops the congruence).
//! Unsatisfiability is only claimed from an over-approximation, so it is sound. The widened
//! elements also guide models too large for exact rounds (`grow`).

use crate::caps::ProofCaps;
use crate::combine::{Prepared, Stop};
pub use crate::elements::Decision;
use crate::elements::{param_refs, summarize, Pick, MAX_MODULUS};
use crate::error::Result;
use crate::formula::{Defs, Formula, Sort, SymHeap, Var};
use crate::halt::Interrupt;
use crate::oracle::PureOracle;
use std::collections::BTreeMap;

/// Witnesses of the exact elements tried for a query, at most.
const MAX_WITNESSES: usize = 8;

/// Solves a witness (a heap without instances) into a model, or `None` when it has none.
pub type Solve<'a> = dyn FnMut(&Formula, &mut dyn PureOracle, &mut Interrupt<'_>) -> Result<Option<crate::model::Model>>
    + 'a;

/// Decides `formula` with the base formulas: each consistent choice of exact elements for the
/// formula's instances gives a heap without instances that `solve` is asked to solve (a model,
/// or `None` when its arithmetic contradicts); the first model is the answer. No consistent
/// choice among the elements of complete clusters is a proof of unsatisfiability.
pub fn decide_formula(
    defs: &Defs,
    formula: &Formula,
    oracle: &mut dyn PureOracle,
    solve: &mut Solve<'_>,
    caps: &ProofCaps,
    interrupt: &mut Interrupt<'_>,
) -> Result<Decision> {
    let mut s = match summarize(defs, formula, oracle, caps, interrupt)? {
        Ok(s) => s,
        Err(d) => return Ok(d),
    };
    // Witnesses from the exact elements, earliest rounds first. Each pass over the query has
    // its own budget of checks; a pass that spends it leaves the next one to answer.
    let mut rejected = false;
    let mut spent = None;
    for d in &formula.disjuncts {
        let sorts = query_sorts(formula, d);
        let prepared = Prepared::new(d, &sorts, &[], &param_refs(defs, d));
        let mut witnesses = Vec::new();
        s.checks = 0;
        let res = s.choose(
            d,
            &prepared,
            &sorts,
            None,
            Pick::Exact,
            oracle,
            interrupt,
            true,
            &mut |_, _, _, ids| {
                witnesses.push(ids.to_vec());
                witnesses.len() < MAX_WITNESSES
            },
        )?;
        match res {
            Err(Stop::Halt(h)) => return Ok(Decision::Halted(h)),
            Err(Stop::Cap(cap)) => spent = Some(cap),
            Ok(()) => {}
        }
        for ids in witnesses {
            let Some(heap) = s.unfold(d, &ids) else {
                // A child widened: no derivation to unfold.
                rejected = true;
                continue;
            };
            let f = Formula { free: formula.free.clone(), disjuncts: vec![heap] };
            match solve(&f, oracle, interrupt)? {
                Some(m) => return Ok(Decision::Sat(m)),
                None => rejected = true,
            }
        }
    }
    // Over all elements (widened where the exact rounds did not converge).
    let widened = s.preds.values().any(|p| p.widened.is_some());
    for d in &formula.disjuncts {
        let sorts = query_sorts(formula, d);
        let prepared = Prepared::new(d, &sorts, &[], &param_refs(defs, d));
        let mut any = false;
        s.checks = 0;
        let res = s.choose(
            d,
            &prepared,
            &sorts,
            None,
            Pick::Final,
            oracle,
            interrupt,
            true,
            &mut |_, _, _, _| {
                any = true;
                false
            },
        )?;
        if let Err(stop) = res {
            return Ok(stopped(stop));
        }
        if any {
            // Beyond the exact rounds' witnesses (too deep, or their arithmetic was dropped by
            // the projection): grow a model from the summaries, step by step.
            match crate::grow::grow(&s, formula, oracle, caps.max_unfoldings, interrupt)? {
                Ok(Some(m)) => return Ok(Decision::Sat(m)),
                Ok(None) => {}
                Err(Stop::Halt(h)) => return Ok(Decision::Halted(h)),
                Err(Stop::Cap(cap)) => {
                    return Ok(Decision::Open(format!(
                        "the base formulas admit the query, and growing a model from them was stopped by {cap}"
                    )))
                }
            }
        }
        if any {
            let witnesses = match spent {
                Some(cap) => format!(
                    "; the search for a witness among the exact elements was stopped by {cap}"
                ),
                None => String::new(),
            };
            return Ok(Decision::Open(
                if widened {
                    format!(
                    "the base formulas did not converge in {} rounds (a parameter grows without bound), no witness within them has a model, and their widening (difference bounds and congruences modulo at most {MAX_MODULUS}) admits the query",
                    caps.max_rounds
                )
                } else if rejected {
                    "the base formulas admit the query, but the arithmetic of every witness unfolding contradicts (facts beyond difference bounds)".to_string()
                } else {
                    "the base formulas admit the query".to_string()
                } + &witnesses,
            ));
        }
    }
    let clusters = crate::cluster::of_formula(defs, formula);
    if let Some(why) =
        clusters.iter().flatten().find_map(|n| s.preds.get(n).and_then(|p| p.incomplete.clone()))
    {
        return Ok(Decision::Open(format!(
            "no choice of the base elements admits the query, but {why}"
        )));
    }
    Ok(Decision::Unsat)
}

fn stopped(stop: Stop) -> Decision {
    match stop {
        Stop::Halt(h) => Decision::Halted(h),
        Stop::Cap(cap) => Decision::Open(format!("stopped by {cap}")),
    }
}

fn query_sorts(formula: &Formula, d: &SymHeap) -> BTreeMap<Var, Sort> {
    let mut s: BTreeMap<Var, Sort> = formula.free.iter().cloned().collect();
    s.extend(d.exists.iter().cloned());
    s
}
