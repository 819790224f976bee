//! Warnings about predicate definitions that need the logic to see: the type checker already
//! reports unbound names, wrong arity and unknown fields, so this module only adds what takes
//! unfolding to know.
//!
//! - *Never reaches a base case*: a predicate is productive when one of its disjuncts uses only
//!   productive predicates (least fixed point); a predicate that is not productive has no finite
//!   model at all, because every unfolding needs another instance.
//! - *Can never be satisfied*: productive, but the bounded search proves `p(params)` unsat.
//! - *Unreachable disjunct*: one disjunct is proved unsat on its own (e.g. `x == null & x != null`,
//!   or contradicting arithmetic), so it never contributes.
//!
//! "Proved" means the search closed every branch before its bounds; a bound reached says
//! nothing, and nothing is reported then.

use crate::formula::{Defs, Formula, PredDef};
use crate::sat::{sat, PureOracle, SatResult};
use crate::search::SearchBounds;
use heaplab_syntax::ast::{self, Item};
use heaplab_syntax::Diagnostic;
use std::collections::BTreeSet;

/// Bounds used when looking for contradictions in definitions: small, so checking is quick.
const BOUNDS: SearchBounds = SearchBounds { max_depth: 4, max_objects: 8, max_states: 20_000 };

/// The warnings for every predicate of `program` (converted into `defs`).
pub fn check_predicates(
    program: &ast::Program,
    defs: &Defs,
    oracle: &mut dyn PureOracle,
) -> Vec<Diagnostic> {
    let productive = productive(defs);
    let mut out = Vec::new();
    for item in &program.items {
        let Item::Predicate(decl) = item else { continue };
        let Some(def) = defs.preds.get(&decl.name.name) else { continue };
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
        let whole = Formula { free: def.params.clone(), disjuncts: vec![instance(def)] };
        if matches!(sat(defs, &whole, BOUNDS, oracle), Ok(SatResult::Unsat)) {
            out.push(Diagnostic::warning(
                decl.name.span,
                format!(
                    "predicate `{}` can never be satisfied: every disjunct is contradictory",
                    def.name
                ),
            ));
            continue;
        }
        for (i, d) in def.body.iter().enumerate() {
            let one = Formula { free: def.params.clone(), disjuncts: vec![d.clone()] };
            if matches!(sat(defs, &one, BOUNDS, oracle), Ok(SatResult::Unsat)) {
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
