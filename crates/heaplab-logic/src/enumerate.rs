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
use crate::oracle::PureOracle;
use crate::sat::describe_cuts;
use crate::search::{build_model, Base, Cut, Explorer, Order, SearchBounds};
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
    /// Only models whose footprint has exactly this many objects (Korat's "exactly n").
    pub exactly: Option<usize>,
    /// Korat's integer finitization: every integer of a model (int fields and int free
    /// variables) ranges over `lo..=hi`, and models count with their exact values.
    pub int_range: Option<(i64, i64)>,
}

impl Default for EnumConfig {
    fn default() -> Self {
        EnumConfig {
            bounds: SearchBounds::default(),
            ints: IntEquivalence::UpToOrder,
            max_models: 100_000,
            exactly: None,
            int_range: None,
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
    /// Why the enumeration is incomplete, naming the limit (`None` when complete).
    pub stopped_by: Option<String>,
}

/// All models of `formula` within `cfg.bounds`, each once.
pub fn enumerate(
    defs: &Defs,
    formula: &Formula,
    cfg: EnumConfig,
    oracle: &mut dyn PureOracle,
) -> Result<Enumeration> {
    enumerate_with(defs, formula, cfg, oracle, &mut || false)
}

/// [`enumerate`] that also stops when `stop` says so (asked now and then: a time limit).
pub fn enumerate_with(
    defs: &Defs,
    formula: &Formula,
    cfg: EnumConfig,
    oracle: &mut dyn PureOracle,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Enumeration> {
    let mut bounds = cfg.bounds;
    if let Some(n) = cfg.exactly {
        bounds.max_objects = bounds.max_objects.min(n);
    }
    let mut ex = Explorer::new(defs, formula, bounds, Order::DepthFirst).with_stop(stop);
    let mut seen = BTreeSet::new();
    let mut out = Enumeration::default();
    let key_mode = if cfg.int_range.is_some() {
        IntEquivalence::Exact
    } else if cfg.ints == IntEquivalence::Ignore {
        IntEquivalence::Ignore
    } else {
        IntEquivalence::UpToOrder
    };
    let mut undecided = false;
    while let Some(base) = ex.next_base() {
        if cfg.exactly.is_some_and(|n| base.heap.points_to.len() != n) {
            continue;
        }
        let mut found = Vec::new();
        if let Some((lo, hi)) = cfg.int_range {
            let terms = int_terms(defs, &base, formula);
            let mut facts = base.facts.clone();
            values(
                defs,
                &base,
                formula,
                &terms,
                (lo, hi),
                &mut facts,
                oracle,
                &mut found,
                &mut undecided,
            )?;
        } else if key_mode == IntEquivalence::Ignore {
            match check(&base, &base.facts, oracle)? {
                PureResult::Sat(a) => found.extend(build_model(defs, &base, &formula.free, &a)),
                PureResult::Unsat => {}
                PureResult::Unknown => undecided = true,
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
                &mut undecided,
            )?;
        }
        for m in found {
            if seen.insert(m.canonical(key_mode)) {
                out.models.push(m);
                if out.models.len() >= cfg.max_models {
                    out.incomplete = true;
                    out.stopped_by = Some(format!("the model limit ({})", cfg.max_models));
                    return Ok(out);
                }
            }
        }
    }
    out.bound_hit = ex.bound_hit;
    let caps: Vec<Cut> =
        ex.cut_by.iter().copied().filter(|c| *c != Cut::Depth && *c != Cut::Objects).collect();
    if !caps.is_empty() {
        out.incomplete = true;
        out.stopped_by = Some(describe_cuts(&caps, bounds));
    } else if undecided {
        out.incomplete = true;
        out.stopped_by = Some("some arithmetic could not be decided".into());
    }
    Ok(out)
}

/// Korat's finitization: each integer term in turn takes every value of `range` that keeps the
/// facts satisfiable (a prefix that contradicts them is cut at once).
#[allow(clippy::too_many_arguments)]
fn values(
    defs: &Defs,
    base: &Base,
    formula: &Formula,
    terms: &[Term],
    range: (i64, i64),
    facts: &mut Vec<Pure>,
    oracle: &mut dyn PureOracle,
    found: &mut Vec<Model>,
    undecided: &mut bool,
) -> Result<()> {
    let assignment = match check(base, facts, oracle)? {
        PureResult::Unsat => return Ok(()),
        PureResult::Unknown => {
            *undecided = true;
            return Ok(());
        }
        PureResult::Sat(a) => a,
    };
    let Some((first, rest)) = terms.split_first() else {
        found.extend(build_model(defs, base, &formula.free, &assignment));
        return Ok(());
    };
    for v in range.0..=range.1 {
        facts.push(Pure::eq(first.clone(), Term::Int(v)));
        values(defs, base, formula, rest, range, facts, oracle, found, undecided)?;
        facts.pop();
    }
    Ok(())
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
