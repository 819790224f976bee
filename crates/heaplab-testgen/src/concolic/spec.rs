//! Phase 1 of Concolic StarFinder: `genFromSpec` (CSF Algorithm 1, digest seed-001-002 §4.1).
//!
//! The method's `requires` is a set Γ of symbolic heaps (its disjuncts). Level 0 is Γ itself;
//! level j + 1 unfolds, one at a time, every predicate instance of every heap of level j into
//! each disjunct of its definition (a union over instances, not a product, as the paper's
//! `unfold`). Every formula of every level 0..=n is solved with the logic's `sat` — the
//! intermediate levels included, as CSF's artifact and Fig. 3/4 do — and each satisfiable one
//! gives one model, so one input (CSF's 22 phase-1 tests of BST.remove are the 2 + 4 + 16
//! formulas of levels 1..=3).
//!
//! Owns only the formula levels and the solving; turning a model into a runtime heap and running
//! it belongs to [`super`].

use heaplab_logic::unfold::unfold_at;
use heaplab_logic::{sat_with, Defs, Formula, Fresh, Model, Order, PureOracle, SatResult};

/// What phase 1 produced and what it cost.
#[derive(Clone, Debug, Default)]
pub struct SpecModels {
    /// One model per satisfiable formula, in level order; with the level
    /// (unfolding depth) the formula came from.
    pub models: Vec<(u32, Model)>,
    /// Solver calls (one per formula solved): CSF Table 1's phase-1 `#Calls`.
    pub calls: usize,
    pub unsat: usize,
    /// Formulas the bounded search could not decide (no test, counted).
    pub unknown: usize,
    /// Formulas left unsolved because `max_formulas` was reached.
    pub cut: usize,
}

/// The formulas of levels `0..=depth` (level 0 only where it has no predicate instance), level
/// by level, at most `max_formulas` in all (the rest
/// are counted in the second value).
pub fn levels(
    defs: &Defs,
    pre: &Formula,
    depth: u32,
    max_formulas: usize,
) -> (Vec<(u32, Formula)>, usize) {
    let mut fresh = Fresh::new();
    for (v, _) in &pre.free {
        fresh.avoid([v]);
    }
    for sh in &pre.disjuncts {
        fresh.avoid(sh.all_vars().iter());
    }
    let mut out = Vec::new();
    let mut cut = 0;
    let mut level = pre.disjuncts.clone();
    for d in 0..=depth {
        for sh in &level {
            // Level 0 is the precondition itself: when it still has predicate instances its
            // smallest model is level 1's base case again, and CSF does not solve it (Table 1's
            // phase-1 calls are #methods × #disjuncts of the root predicate at depth 1).
            if d == 0 && depth > 0 && !sh.preds.is_empty() {
                continue;
            }
            if out.len() < max_formulas {
                out.push((d, Formula { free: pre.free.clone(), disjuncts: vec![sh.clone()] }));
            } else {
                cut += 1;
            }
        }
        if d == depth || out.len() >= max_formulas {
            break;
        }
        let mut next = Vec::new();
        for sh in &level {
            for idx in 0..sh.preds.len() {
                next.extend(unfold_at(defs, sh, idx, &mut fresh));
            }
        }
        level = next;
    }
    (out, cut)
}

/// CSF's `genFromSpec(Γ, n)` with intermediate levels: one model per satisfiable formula of
/// [`levels`] (`config.depth`, `config.max_formulas`, `config.sat_bounds`), restricted to what the inputs (`roots`) reach. Once `expired` says so, the
/// formulas left are counted as cut.
pub fn gen_from_spec(
    defs: &Defs,
    pre: &Formula,
    config: &super::ConcolicConfig,
    roots: &[&str],
    oracle: &mut dyn PureOracle,
    expired: &dyn Fn() -> bool,
) -> SpecModels {
    let (formulas, cut) = levels(defs, pre, config.depth, config.max_formulas);
    let bounds = config.sat_bounds;
    let mut out = SpecModels { cut, ..SpecModels::default() };
    for (d, f) in formulas {
        if expired() {
            out.cut += 1;
            continue;
        }
        out.calls += 1;
        // Depth-first: the first model in the definitions' disjunct order (base cases first),
        // found after as many unfoldings as the formula has instances.
        // The search asks the time bound too (a balanced tree's deeper formulas are slow).
        let answer =
            sat_with(defs, &f, bounds, Order::DepthFirst, oracle, &mut || expired(), None, false);
        match answer.map(|o| o.result) {
            Ok(SatResult::Sat(m)) => {
                // One model per satisfiable formula, as CSF: two formulas whose smallest models
                // agree still give two inputs, which differ where unconstrained integers are
                // drawn at random (identical inputs are run once, see `super::generate`).
                out.models.push((d, m.restrict_to_reachable(roots)));
            }
            Ok(SatResult::Unsat) => out.unsat += 1,
            Ok(SatResult::Unknown(_)) | Err(_) => out.unknown += 1,
        }
    }
    out
}
