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
use crate::halt::{Halt, Interrupt};
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
    /// The caller's bound that stopped it, if one did.
    pub halted: Option<Halt>,
}

/// All models of `formula` within `cfg.bounds`, each once.
pub fn enumerate(
    defs: &Defs,
    formula: &Formula,
    cfg: EnumConfig,
    oracle: &mut dyn PureOracle,
) -> Result<Enumeration> {
    enumerate_with(defs, formula, cfg, oracle, &mut crate::halt::never)
}

/// [`enumerate`] within the caller's bounds (`interrupt`, asked at every partial heap and
/// every ordering of a shape's integers): a bound that fires ends the enumeration, incomplete,
/// naming it.
pub fn enumerate_with(
    defs: &Defs,
    formula: &Formula,
    cfg: EnumConfig,
    oracle: &mut dyn PureOracle,
    interrupt: &mut Interrupt<'_>,
) -> Result<Enumeration> {
    let mut bounds = cfg.bounds;
    if let Some(n) = cfg.exactly {
        bounds.max_objects = bounds.max_objects.min(n);
    }
    // The search and the orderings below both ask the caller's bound.
    let shared = std::cell::RefCell::new(interrupt);
    let mut for_search = || (shared.borrow_mut())();
    let mut for_orderings = || (shared.borrow_mut())();
    let mut ex =
        Explorer::new(defs, formula, bounds, Order::DepthFirst).with_interrupt(&mut for_search);
    let mut halted: Option<Halt> = None;
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
        if halted.is_some() {
            break;
        }
        let mut found = Vec::new();
        if let Some((lo, hi)) = cfg.int_range {
            let terms = int_terms(defs, &base, formula);
            let mut facts = base.facts.clone();
            let mut ctx = Ctx {
                defs,
                base: &base,
                formula,
                terms: &terms,
                oracle: &mut *oracle,
                found: &mut found,
                undecided: &mut undecided,
                interrupt: &mut for_orderings,
                halted: &mut halted,
            };
            ctx.values((lo, hi), 0, &mut facts)?;
        } else if key_mode == IntEquivalence::Ignore {
            match check(&base, &base.facts, oracle)? {
                PureResult::Sat(a) => found.extend(build_model(defs, &base, &formula.free, &a)),
                PureResult::Unsat => {}
                PureResult::Unknown => undecided = true,
            }
        } else {
            let terms = int_terms(defs, &base, formula);
            let mut blocks = Vec::new();
            let mut ctx = Ctx {
                defs,
                base: &base,
                formula,
                terms: &terms,
                oracle: &mut *oracle,
                found: &mut found,
                undecided: &mut undecided,
                interrupt: &mut for_orderings,
                halted: &mut halted,
            };
            ctx.orderings(0, &mut blocks)?;
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
    let halted = halted.or(ex.halted);
    out.halted = halted;
    let mut caps: Vec<Cut> =
        ex.cut_by.iter().copied().filter(|c| *c != Cut::Depth && *c != Cut::Objects).collect();
    if halted.is_some() && !caps.contains(&Cut::Stopped) {
        caps.push(Cut::Stopped);
    }
    if !caps.is_empty() {
        out.incomplete = true;
        out.stopped_by = Some(describe_cuts(&caps, bounds, halted));
    } else if undecided {
        out.incomplete = true;
        out.stopped_by = Some("some arithmetic could not be decided".into());
    }
    Ok(out)
}

/// One shape's enumeration of integer values: what the recursions share.
struct Ctx<'a, 'b> {
    defs: &'a Defs,
    base: &'a Base,
    formula: &'a Formula,
    terms: &'a [Term],
    oracle: &'a mut dyn PureOracle,
    found: &'a mut Vec<Model>,
    undecided: &'a mut bool,
    interrupt: &'a mut (dyn FnMut() -> Option<Halt> + 'b),
    halted: &'a mut Option<Halt>,
}

impl Ctx<'_, '_> {
    /// The caller's bound, asked at every step of the recursions.
    fn stopped(&mut self) -> bool {
        if self.halted.is_none() {
            *self.halted = (self.interrupt)();
        }
        self.halted.is_some()
    }

    /// Korat's finitization: each integer term in turn takes every value of `range` that keeps
    /// the facts satisfiable (a prefix that contradicts them is cut at once).
    fn values(&mut self, range: (i64, i64), i: usize, facts: &mut Vec<Pure>) -> Result<()> {
        if self.stopped() {
            return Ok(());
        }
        let assignment = match check(self.base, facts, self.oracle)? {
            PureResult::Unsat => return Ok(()),
            PureResult::Unknown => {
                *self.undecided = true;
                return Ok(());
            }
            PureResult::Sat(a) => a,
        };
        let Some(first) = self.terms.get(i) else {
            self.found.extend(build_model(self.defs, self.base, &self.formula.free, &assignment));
            return Ok(());
        };
        for v in range.0..=range.1 {
            facts.push(Pure::eq(first.clone(), Term::Int(v)));
            self.values(range, i + 1, facts)?;
            facts.pop();
        }
        Ok(())
    }

    fn orderings(&mut self, i: usize, blocks: &mut Vec<Vec<usize>>) -> Result<()> {
        if self.stopped() {
            return Ok(());
        }
        let terms = self.terms;
        let mut facts = self.base.facts.clone();
        facts.extend(ordering_facts(terms, blocks));
        let res = check(self.base, &facts, self.oracle)?;
        let assignment = match res {
            PureResult::Unsat => return Ok(()),
            PureResult::Unknown => {
                *self.undecided = true;
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
            let a = match check(self.base, &ranked, self.oracle)? {
                PureResult::Sat(a) => a,
                _ => assignment,
            };
            self.found.extend(build_model(self.defs, self.base, &self.formula.free, &a));
            return Ok(());
        }
        for pos in 0..blocks.len() {
            blocks[pos].push(i);
            self.orderings(i + 1, blocks)?;
            blocks[pos].pop();
        }
        for pos in 0..=blocks.len() {
            blocks.insert(pos, vec![i]);
            self.orderings(i + 1, blocks)?;
            blocks.remove(pos);
        }
        Ok(())
    }
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
