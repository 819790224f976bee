//! The case-split search over a query's clauses, its answer and its budgets: propagate, check
//! the conjunction of literals in the theory, split the first disjunction the theory's point
//! violates into disjoint branches, and read the model off the point.

use super::encode::{Encoder, Formula, Lit};
use super::known::{Numbering, Shape};
use super::propagate::Clauses;
use super::rational::checked_mul;
use super::theory::{self, Budget, Prefix, TheoryResult};
use crate::model::{Model, Value};
use crate::term::{Term, Var};

/// [`Limits::substitutions`]' default: no query of the corpus comes near it (none changes at
/// 20 000); a concolic run of shellsort with `>>= 1` spent seconds per query before it.
pub const SUBSTITUTIONS: u64 = 200_000;

/// The procedure's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// A model of the conjuncts (every `want` variable has a value), re-checked.
    Sat(Model),
    Unsat,
    /// Not decided here; the reason says why (for statistics and messages).
    Outside(String),
}

/// Budgets of one query, so a hard query costs bounded time before going to Z3.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Theory checks over all disjunction splits.
    pub splits: u32,
    /// Branch-and-bound nodes per theory check.
    pub nodes: u32,
    /// Simplex pivots for the whole query.
    pub pivots: u32,
    /// The largest simplex tableau (rows × columns) built.
    pub cells: usize,
    /// Coefficients rewritten by the substitution of unit equalities, over the whole query.
    pub substitutions: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        // A corpus query takes at most a few dozen pivots; these bounds keep a hard one to a
        // few milliseconds before Z3 gets it. symheap's named guards make queries of a hundred
        // and more disjunctions, some of which need a few hundred splits (bstcmp.hl): each
        // split is a theory check of a fraction of a millisecond, cheaper than Z3 (a process
        // call natively, 10 to 30 ms in the page).
        Limits {
            splits: 256,
            nodes: 256,
            pivots: 5_000,
            cells: 40_000,
            substitutions: SUBSTITUTIONS,
        }
    }
}

impl Limits {
    /// The budgets for a query that wants values for `want`: a plain satisfiability check
    /// (nothing wanted) gets twice the theory checks. symheap's feasibility checks need a few
    /// more than 64 where they split over several references' cases (bstcmp.hl's `BST.insert`
    /// at k = 2 sent Z3 12 queries at 64, none at 128), while the model queries of the all-heaps
    /// mode end each path with an unsat query over every blocking clause that the procedure
    /// rarely decides in either budget (generated programs 400-499 of `tests/symheap.rs`:
    /// 17.4 s in all-heaps mode at 64, 22.1 s at 128).
    pub fn for_want(want: &[Var]) -> Limits {
        let base = Limits::default();
        match want.is_empty() {
            true => Limits { splits: 2 * base.splits, ..base },
            false => base,
        }
    }
}

/// The model of the search's point: the query variables' values (fresh ones left out) and
/// every `want` variable (its sort's default where the query does not mention it).
pub(super) fn model_of(
    enc: &Encoder,
    ints: &[i128],
    bools: &[Option<bool>],
    want: &[Var],
) -> Result<Model, Decision> {
    let mut model = Model::new();
    for (var, value) in enc.vars.ints.iter().zip(ints) {
        if let Some(var) = var {
            match i64::try_from(*value) {
                Ok(v) => model.insert(var, Value::Int(v)),
                Err(_) => return Err(Decision::Outside("a value beyond 64 bits".into())),
            }
        }
    }
    for (var, value) in enc.vars.bools.iter().zip(bools) {
        model.insert(var, Value::Bool(value.unwrap_or(false)));
    }
    for v in want {
        if model.get(v).is_none() {
            model.insert(v, Value::default_for(v.sort));
        }
    }
    Ok(model)
}

/// A conjunction's literals and disjunctions, flattened.
pub(super) type Flat = (Vec<Lit>, Vec<Vec<Formula>>);

/// The flattened literals and disjunctions of `terms` and of the definitions of the fresh
/// variables their encoding makes (`enc` keeps the numbering); `Ok(None)` when they are plainly
/// false, `Err` when a term is outside the fragment.
pub(super) fn encode_flat<'a>(
    enc: &mut Encoder,
    terms: impl IntoIterator<Item = &'a Term>,
) -> Result<Option<Flat>, String> {
    let mut parts = Vec::new();
    for t in terms {
        parts.push(enc.formula(t, true)?);
    }
    parts.append(&mut enc.defs);
    let (mut lits, mut ors) = (Vec::new(), Vec::new());
    Ok(flatten(Formula::And(parts), &mut lits, &mut ors).then_some((lits, ors)))
}

/// Adds the conjuncts of `f` to `lits` and its disjunctions to `ors`; `false` when `f` is
/// plainly false (an empty disjunction).
pub(super) fn flatten(f: Formula, lits: &mut Vec<Lit>, ors: &mut Vec<Vec<Formula>>) -> bool {
    match f {
        Formula::Lit(l) => lits.push(l),
        Formula::And(fs) => {
            for g in fs {
                if !flatten(g, lits, ors) {
                    return false;
                }
            }
        }
        Formula::Or(fs) => {
            if fs.iter().any(|g| matches!(g, Formula::And(v) if v.is_empty())) {
                return true;
            }
            let mut fs: Vec<Formula> =
                fs.into_iter().filter(|g| !matches!(g, Formula::Or(v) if v.is_empty())).collect();
            match fs.len() {
                0 => return false,
                1 => return flatten(fs.remove(0), lits, ors),
                _ => ors.push(fs),
            }
        }
    }
    true
}

pub(super) enum Found {
    Sat(Vec<i128>, Vec<Option<bool>>),
    Unsat,
    Outside(&'static str),
}

pub(super) struct Search {
    ints: usize,
    bools: usize,
    limits: Limits,
    splits: u32,
    /// Pivots left for the query.
    pivots: u32,
    /// Substitution work left for the query.
    substitutions: u64,
    /// The literals of the query, numbered for [`super::propagate`].
    pub(super) numbers: Numbering,
}

impl Search {
    /// A search over `ints` integer and `bools` Boolean variables.
    pub(super) fn new(ints: usize, bools: usize, limits: Limits, numbers: Numbering) -> Search {
        Search {
            ints,
            bools,
            limits,
            splits: 0,
            pivots: limits.pivots,
            substitutions: limits.substitutions,
            numbers,
        }
    }

    /// Satisfies `lits` and every disjunction of `ors`, splitting a disjunction only when the
    /// theory's point violates it; `from` is a prefix of `c`'s literals already reduced.
    pub(super) fn run(&mut self, mut c: Clauses, from: &Prefix) -> Found {
        self.splits += 1;
        if self.splits > self.limits.splits {
            return Found::Outside("disjunction budget spent");
        }
        if !c.propagate(&mut self.numbers) {
            return Found::Unsat;
        }
        let budget = Budget {
            nodes: self.limits.nodes,
            pivots: &mut self.pivots,
            cells: self.limits.cells,
            substitutions: &mut self.substitutions,
        };
        let (ints, bools, prefix) =
            match theory::check(self.ints, self.bools, &c.lits, from, budget) {
                (TheoryResult::Sat(i, b), prefix) => (i, b, prefix.unwrap_or_else(|| from.clone())),
                (TheoryResult::Unsat, _) => return Found::Unsat,
                (TheoryResult::Outside(why), _) => return Found::Outside(why),
            };
        // The last disjunction the point violates: the latest to join (a prepared context's
        // question, the definitions it pulled, the units of the last propagation) are the
        // likeliest to contradict the rest, and splitting them first keeps the search shallow
        // (BST `insert` under symheap at k = 3: 10.8 s -> 7.5 s, and no query left for Z3
        // where the first violated one left 16 over the split budget).
        let Some(pos) = c.disjunctions().rposition(|d| !d.iter().any(|f| holds(f, &ints, &bools)))
        else {
            return Found::Sat(ints, bools);
        };
        let (disjuncts, shapes) = c.take_or(pos);
        let mut outside = None;
        // Each branch's literals are these and more: its checks resume from this one's.
        // The k-th branch also assumes that the disjuncts before it fail: `d₀ ∨ d₁ ∨ …` is
        // `d₀ ∨ (¬d₀ ∧ d₁) ∨ …`, so the branches are disjoint and a later branch does not
        // search again the worlds of an earlier one (propagation settles the disjunctions
        // those negations decide).
        let mut failed: Vec<(Formula, Shape)> = Vec::new();
        let n = disjuncts.len();
        // The branches share the literals so far.
        c.lits.seal();
        let mut rest = Some(c);
        for (i, (d, s)) in disjuncts.into_iter().zip(shapes).enumerate() {
            let Some(base) = rest.take() else { break };
            // The last branch takes the clauses themselves: one copy fewer per split.
            let mut branch = if i + 1 == n {
                base
            } else {
                let copy = base.clone();
                rest = Some(base);
                copy
            };
            let negated = negate(&d);
            let mut ok = branch.add_shaped(d, s, &mut self.numbers);
            for (f, s) in &failed {
                ok = ok && branch.add_shaped(f.clone(), s.clone(), &mut self.numbers);
            }
            if let Some(n) = negated {
                let s = self.numbers.shape(&n);
                failed.push((n, s));
            }
            if !ok {
                continue;
            }
            match self.run(branch, &prefix) {
                Found::Sat(i, b) => return Found::Sat(i, b),
                Found::Unsat => {}
                Found::Outside(why) => outside = Some(why),
            }
        }
        match outside {
            Some(why) => Found::Outside(why),
            None => Found::Unsat,
        }
    }
}

/// The negation of `f` in negation normal form (`None` where a complement overflows).
fn negate(f: &Formula) -> Option<Formula> {
    Some(match f {
        Formula::Lit(Lit::Eq(l)) => Formula::Lit(Lit::Ne(l.clone())),
        Formula::Lit(Lit::Ne(l)) => Formula::Lit(Lit::Eq(l.clone())),
        Formula::Lit(Lit::Le(l)) => {
            // ¬(l ≤ 0) ⇔ -l + 1 ≤ 0 over the integers
            let mut neg = l.scaled(-1).ok()?;
            neg.constant = neg.constant.checked_add(1)?;
            Formula::Lit(Lit::Le(neg))
        }
        Formula::Lit(Lit::Bool(b, v)) => Formula::Lit(Lit::Bool(*b, !*v)),
        Formula::And(fs) => Formula::Or(fs.iter().map(negate).collect::<Option<_>>()?),
        Formula::Or(fs) => Formula::And(fs.iter().map(negate).collect::<Option<_>>()?),
    })
}

/// Whether `f` holds at the point (an unfixed Boolean holds in neither polarity, so a
/// disjunction over it is split and the Boolean fixed).
fn holds(f: &Formula, ints: &[i128], bools: &[Option<bool>]) -> bool {
    let value = |l: &super::encode::Lin| -> Option<i128> {
        let mut v = l.constant;
        for (&x, &c) in &l.coeffs {
            v = v.checked_add(checked_mul(c, ints[x])?)?;
        }
        Some(v)
    };
    match f {
        Formula::Lit(Lit::Le(l)) => value(l).is_some_and(|v| v <= 0),
        Formula::Lit(Lit::Eq(l)) => value(l) == Some(0),
        Formula::Lit(Lit::Ne(l)) => value(l).is_some_and(|v| v != 0),
        Formula::Lit(Lit::Bool(b, v)) => bools[*b] == Some(*v),
        Formula::And(fs) => fs.iter().all(|g| holds(g, ints, bools)),
        Formula::Or(fs) => fs.iter().any(|g| holds(g, ints, bools)),
    }
}
