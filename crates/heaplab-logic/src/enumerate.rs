//! Enumeration of all models of a formula up to a bound, each reported once.
//!
//! Shapes come from the depth-first [`Explorer`]; models are identified modulo object renaming
//! ([`Model::canonical`]). Integers are treated up to order-isomorphism (Kiasan's relation R):
//! for the integer terms of a shape (int fields of its objects and int free variables) every
//! total preorder (ordered partition) consistent with the pure part gives one model. Preorders
//! are built one term at a time — insert the next term into an existing block (equal) or as a
//! new block between blocks — and a prefix inconsistent with the pure part is cut at once, so a
//! BST shape with n keys costs about n² checks rather than the Fubini number of preorders.
//! Representative values are the ranks 0, 1, 2, … when the pure part allows (it does for
//! orderings alone); otherwise the values the decision procedure found.

use crate::arith::{decide, PureResult};
use crate::error::Result;
use crate::formula::{CmpOp, Defs, Formula, Pure, Sort, Term};
use crate::model::{IntEquivalence, Model};
use crate::sat::PureOracle;
use crate::search::{build_model, Base, Explorer, Order, SearchBounds};
use std::collections::BTreeSet;

/// What to enumerate.
#[derive(Clone, Copy, Debug)]
pub struct EnumConfig {
    pub bounds: SearchBounds,
    /// `UpToOrder` enumerates the orderings of the integers; `Ignore` gives one model per
    /// shape; `Exact` is treated like `UpToOrder` (integers are infinite).
    pub ints: IntEquivalence,
    /// Stop after this many models. Default: 100 000.
    pub max_models: usize,
}

impl Default for EnumConfig {
    fn default() -> Self {
        EnumConfig {
            bounds: SearchBounds::default(),
            ints: IntEquivalence::UpToOrder,
            max_models: 100_000,
        }
    }
}

/// The result of [`enumerate`].
#[derive(Clone, Debug, Default)]
pub struct Enumeration {
    pub models: Vec<Model>,
    /// A bound cut some branch (expected: it is what makes the enumeration finite).
    pub bound_hit: bool,
    /// `max_models` or `max_states` stopped the enumeration, or some arithmetic was undecided:
    /// there may be models within the bound that are missing.
    pub incomplete: bool,
}

/// All models of `formula` within `cfg.bounds`, each once.
pub fn enumerate(
    defs: &Defs,
    formula: &Formula,
    cfg: EnumConfig,
    oracle: &mut dyn PureOracle,
) -> Result<Enumeration> {
    let mut ex = Explorer::new(defs, formula, cfg.bounds, Order::DepthFirst);
    let mut seen = BTreeSet::new();
    let mut out = Enumeration::default();
    let key_mode = if cfg.ints == IntEquivalence::Ignore {
        IntEquivalence::Ignore
    } else {
        IntEquivalence::UpToOrder
    };
    while let Some(base) = ex.next_base() {
        let mut found = Vec::new();
        if key_mode == IntEquivalence::Ignore {
            match check(&base, &base.facts, oracle)? {
                PureResult::Sat(a) => found.extend(build_model(defs, &base, &formula.free, &a)),
                PureResult::Unsat => {}
                PureResult::Unknown => out.incomplete = true,
            }
        } else {
            let terms = int_terms(defs, &base, formula);
            let mut blocks = Vec::new();
            orderings(
                defs,
                &base,
                formula,
                &terms,
                0,
                &mut blocks,
                oracle,
                &mut found,
                &mut out.incomplete,
            )?;
        }
        for m in found {
            if seen.insert(m.canonical(key_mode)) {
                out.models.push(m);
                if out.models.len() >= cfg.max_models {
                    out.incomplete = true;
                    return Ok(out);
                }
            }
        }
    }
    out.bound_hit = ex.bound_hit;
    out.incomplete |= ex.states > cfg.bounds.max_states;
    Ok(out)
}

/// Decides in Rust, else asks the oracle (with the spatial facts made explicit).
fn check(base: &Base, facts: &[Pure], oracle: &mut dyn PureOracle) -> Result<PureResult> {
    match decide(facts, &base.sorts) {
        PureResult::Unknown => {
            let mut all = facts.to_vec();
            all.extend(
                crate::search::facts(&base.heap, true).into_iter().skip(base.heap.pure.len()),
            );
            oracle.check(&all, &base.sorts)
        }
        r => Ok(r),
    }
}

/// The distinct integer terms of a shape: int fields of its objects, then int free variables.
fn int_terms(defs: &Defs, base: &Base, formula: &Formula) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    for pt in &base.heap.points_to {
        for (f, t) in &pt.fields {
            if defs.field_sort(&pt.class, f) == Some(&Sort::Int) && !out.contains(t) {
                out.push(t.clone());
            }
        }
    }
    for (v, s) in &formula.free {
        let t = Term::Var(v.clone());
        if *s == Sort::Int && !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

fn ordering_facts(terms: &[Term], blocks: &[Vec<usize>]) -> Vec<Pure> {
    let mut facts = Vec::new();
    for (bi, b) in blocks.iter().enumerate() {
        for w in b.windows(2) {
            facts.push(Pure::eq(terms[w[0]].clone(), terms[w[1]].clone()));
        }
        if let Some(next) = blocks.get(bi + 1) {
            facts.push(Pure::cmp(CmpOp::Lt, terms[b[0]].clone(), terms[next[0]].clone()));
        }
    }
    facts
}

#[allow(clippy::too_many_arguments)]
fn orderings(
    defs: &Defs,
    base: &Base,
    formula: &Formula,
    terms: &[Term],
    i: usize,
    blocks: &mut Vec<Vec<usize>>,
    oracle: &mut dyn PureOracle,
    found: &mut Vec<Model>,
    incomplete: &mut bool,
) -> Result<()> {
    let mut facts = base.facts.clone();
    facts.extend(ordering_facts(terms, blocks));
    let res = check(base, &facts, oracle)?;
    let assignment = match res {
        PureResult::Unsat => return Ok(()),
        PureResult::Unknown => {
            *incomplete = true;
            return Ok(());
        }
        PureResult::Sat(a) => a,
    };
    if i == terms.len() {
        // Prefer the ranks 0, 1, 2, … as representative values.
        let mut ranked = facts.clone();
        for (r, b) in blocks.iter().enumerate() {
            ranked.push(Pure::eq(terms[b[0]].clone(), Term::Int(r as i64)));
        }
        let a = match check(base, &ranked, oracle)? {
            PureResult::Sat(a) => a,
            _ => assignment,
        };
        found.extend(build_model(defs, base, &formula.free, &a));
        return Ok(());
    }
    for pos in 0..blocks.len() {
        blocks[pos].push(i);
        orderings(defs, base, formula, terms, i + 1, blocks, oracle, found, incomplete)?;
        blocks[pos].pop();
    }
    for pos in 0..=blocks.len() {
        blocks.insert(pos, vec![i]);
        orderings(defs, base, formula, terms, i + 1, blocks, oracle, found, incomplete)?;
        blocks.remove(pos);
    }
    Ok(())
}
