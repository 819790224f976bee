//! Warnings about predicate definitions that need the logic to see: the type checker already
//! reports unbound names, wrong arity and unknown fields, so this module only adds what takes
//! unfolding to know.
//!
//! - *Never reaches a base case*: a predicate is productive when one of its disjuncts uses only
//!   productive predicates (least fixed point); a predicate that is not productive has no finite
//!   model at all, because every unfolding needs another instance.
//! - *Can never be satisfied*: productive, but the bounded search proves `p(params)` unsat, or
//!   the base-pair fixed point ([`crate::basepair`]) finds no consistent unfolding at any depth.
//! - *Unreachable disjunct*: one disjunct is proved unsat on its own (e.g. `x == null & x != null`,
//!   or contradicting arithmetic), so it never contributes.
//!
//! "Proved" means the search closed every branch before its bounds; a bound reached says
//! nothing, and nothing is reported then.
//!
//! The work is bounded for the whole program ([`PROGRAM_STATES`] partial heaps, at most
//! [`CALL_STATES`] per question), since this runs on every edit in the playground: the cost is
//! linear in the number of disjuncts, whatever their shape, and a question left over when the
//! budget is spent gets no warning (warnings are never wrong, only sometimes missing).

use crate::formula::{Defs, Formula, PredDef};
use crate::oracle::PureOracle;
use crate::sat::{sat_with, SatResult};
use crate::search::{Order, SearchBounds};
use heaplab_syntax::ast::{self, Item};
use heaplab_syntax::Diagnostic;
use std::collections::BTreeSet;

/// Bounds used when looking for contradictions in definitions: small, so checking is quick.
const BOUNDS: SearchBounds = SearchBounds { max_depth: 4, max_objects: 8, max_states: CALL_STATES };

/// Partial heaps examined per question (one predicate, or one disjunct), at most.
pub const CALL_STATES: usize = 300;

/// Case splits of the pure checks that cost as much as one partial heap: the budgets count
/// both, since one heap's arithmetic may split exponentially often.
const SPLITS_PER_STATE: usize = 8;

/// Consistency checks of the base-pair fixed point for the whole program, at most.
const PAIR_CHECKS: usize = 1_000;

/// Partial heaps examined for the whole program, at most.
pub const PROGRAM_STATES: usize = 3_000;

/// Is `f` proved unsatisfiable within what is left of the program's budget (`false` once spent)?
fn proved_unsat(defs: &Defs, f: &Formula, oracle: &mut dyn PureOracle, left: &mut usize) -> bool {
    if *left == 0 {
        return false;
    }
    let bounds = SearchBounds { max_states: BOUNDS.max_states.min(*left), ..BOUNDS };
    let splits = Some(CALL_STATES.min(*left) * SPLITS_PER_STATE);
    match sat_with(defs, f, bounds, Order::BreadthFirst, oracle, &mut || false, splits, false) {
        Ok(out) => {
            *left = left.saturating_sub(out.states + out.splits / SPLITS_PER_STATE);
            out.result == SatResult::Unsat
        }
        Err(_) => false,
    }
}

/// The warnings for every predicate of `program` (converted into `defs`).
pub fn check_predicates(
    program: &ast::Program,
    defs: &Defs,
    oracle: &mut dyn PureOracle,
) -> Vec<Diagnostic> {
    let productive = productive(defs);
    let mut left = PROGRAM_STATES;
    let decls: Vec<(&ast::PredicateDecl, &PredDef)> = program
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Predicate(decl) => defs.preds.get(&decl.name.name).map(|def| (decl, def)),
            _ => None,
        })
        .collect();
    // The cheap questions first, so a spent budget leaves out the costly ones: disjuncts
    // without instances, then the other disjuncts, then whole predicates.
    let mut contradictory: BTreeSet<(usize, usize)> = BTreeSet::new();
    for with_instances in [false, true] {
        for (p, (_, def)) in decls.iter().enumerate() {
            if !productive.contains(&def.name) {
                continue;
            }
            for (i, d) in def.body.iter().enumerate() {
                if d.preds.is_empty() == with_instances {
                    continue;
                }
                let one = Formula { free: def.params.clone(), disjuncts: vec![d.clone()] };
                if proved_unsat(defs, &one, oracle, &mut left) {
                    contradictory.insert((p, i));
                }
            }
        }
    }
    // The base pairs prove "no model at any depth" where the bounded search is cut; within a
    // budget of consistency checks, the rest of the program's.
    let without_models = if left > 0 {
        crate::basepair::predicates_without_models(defs, oracle, left.min(PAIR_CHECKS))
            .ok()
            .flatten()
    } else {
        None
    };
    let mut out = Vec::new();
    for (p, (decl, def)) in decls.iter().enumerate() {
        if !productive.contains(&def.name) {
            out.push(
                Diagnostic::warning(
                    decl.name.span,
                    format!("predicate `{}` never reaches a base case: it has no finite model", def.name),
                )
                .with_note("every disjunct needs another instance of a predicate without a base case; add a disjunct such as `x == null`"),
            );
            continue;
        }
        let all = (0..def.body.len()).all(|i| contradictory.contains(&(p, i)))
            || without_models.as_ref().is_some_and(|s| s.contains(&def.name));
        let whole = Formula { free: def.params.clone(), disjuncts: vec![instance(def)] };
        if all || proved_unsat(defs, &whole, oracle, &mut left) {
            out.push(Diagnostic::warning(
                decl.name.span,
                format!(
                    "predicate `{}` can never be satisfied: every disjunct is contradictory",
                    def.name
                ),
            ));
            continue;
        }
        for i in 0..def.body.len() {
            if contradictory.contains(&(p, i)) {
                let span = decl.body.disjuncts.get(i).map_or(decl.name.span, |d| d.span);
                out.push(Diagnostic::warning(
                    span,
                    format!(
                        "this disjunct of `{}` can never hold: its facts contradict each other",
                        def.name
                    ),
                ));
            }
        }
    }
    out
}

fn instance(def: &PredDef) -> crate::formula::SymHeap {
    crate::formula::SymHeap {
        preds: vec![crate::formula::PredApp {
            name: def.name.clone(),
            args: def.params.iter().map(|(v, _)| crate::formula::Term::Var(v.clone())).collect(),
            depth: 0,
        }],
        ..Default::default()
    }
}

/// Predicates with at least one finite unfolding (least fixed point).
pub fn productive(defs: &Defs) -> BTreeSet<String> {
    let mut done = BTreeSet::new();
    loop {
        let before = done.len();
        for def in defs.preds.values() {
            if def.body.iter().any(|d| d.preds.iter().all(|p| done.contains(&p.name))) {
                done.insert(def.name.clone());
            }
        }
        if done.len() == before {
            return done;
        }
    }
}
