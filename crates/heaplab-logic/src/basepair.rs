//! Proving unsatisfiability without a depth bound: the base-pair fixed point of Brotherston,
//! Fuhs, Gorogiannis and Navarro Pérez (CSL-LICS 2014) for the shape part, with the integer
//! part over-approximated by the predicates' invariants ([`crate::invariant`]), in the manner of
//! S2S's base formulas (Le, Tatsuta, Sun, Chin).
//!
//! A *base pair* of `P(x̄)` abstracts one model of `P(x̄)` by what a context can observe of it:
//! which reference parameters are allocated (non-null, distinct cells), and which (dis)equalities
//! hold among the reference parameters and `null`. Equality logic over an infinite domain has no
//! other consequences, so the abstraction is exact for the shape part, and there are finitely
//! many pairs: the least fixed point of "a disjunct with a pair chosen for each of its instances,
//! consistent, projected on the parameters" is reached in finitely many rounds, however many
//! unfoldings its models need (the "succ" families need exponentially many).
//!
//! A formula is unsatisfiable when no disjunct has a consistent choice of pairs for its
//! instances. Consistency asks [`crate::arith::decide`] about the chosen pairs, the points-to
//! facts (cells non-null and distinct, also from the instances' allocated parameters), the
//! pure part and the instances' invariants. An undecided check counts as consistent, and the
//! integer facts of the parameters are not kept in the pairs, so every step over-approximates:
//! `Unsat` is a proof; anything else is no answer ([`Verdict::Open`] says why).
//!
//! A consistent choice comes with a witness: each pair remembers the disjunct and the child
//! pairs it was first derived from, so unfolding the formula along those derivations gives a
//! symbolic heap without instances ([`Shape::Witness`]), whose closures `sat` solves into a
//! model (re-checked by the model checker). Its integers may still contradict (the pairs ignore
//! them): then the answer stays unknown and says so.
//!
//! The integer parameters are handled by [`crate::baseformula`]: S2S-style base formulas (the
//! same pairs, each with difference bounds over the integer parameters), which `sat` asks
//! when these pairs leave a query open.

use crate::arith::{decide, PureResult};
use crate::error::Result;
use crate::formula::{CmpOp, Defs, Formula, PredApp, Pure, Sort, SymHeap, Term, Var};
use crate::normalize::TermUf;
use crate::oracle::PureOracle;
use std::collections::{BTreeMap, BTreeSet};

/// One side of a (dis)equality in a pair: `null` or a reference parameter (by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Rep {
    Null,
    Param(usize),
}

/// A base pair over a predicate's parameters.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Pair {
    /// For each parameter (reference ones; `None` for the others): its class, named by `null`
    /// or by the first parameter in it.
    rep: Vec<Option<Rep>>,
    /// Disequalities between classes (ordered pairs of representatives).
    ne: BTreeSet<(Rep, Rep)>,
    /// Classes that are allocated cells.
    alloc: BTreeSet<Rep>,
}

/// The answer of [`decide_shape`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Proved: no model at any unfolding depth.
    Unsat,
    /// Not proved unsatisfiable; the reason (a consistent choice exists, or a cap was hit).
    Open(String),
}

/// Pairs per predicate, at most: past it the procedure gives up (it stays sound).
const MAX_PAIRS: usize = 512;
/// Combinations per disjunct, and consistency checks in all, at most.
const MAX_COMBINATIONS: usize = 2_000;
const MAX_CHECKS: usize = 20_000;

/// Decides whether `formula` is unsatisfiable by the base-pair fixed point.
pub fn decide_shape(
    defs: &Defs,
    formula: &Formula,
    oracle: &mut dyn PureOracle,
) -> Result<Verdict> {
    Ok(match decide_with_witness(defs, formula, oracle)? {
        Shape::Unsat => Verdict::Unsat,
        Shape::Open(why) => Verdict::Open(why),
        Shape::Witness(..) => Verdict::Open(WITNESSED.into()),
    })
}

const WITNESSED: &str =
    "the base pairs of the predicates admit a model of the shape (and the invariants do not refute its arithmetic)";

/// What the procedure found, with the unfolding that witnesses a consistent choice.
pub enum Shape {
    Unsat,
    Open(String),
    /// A symbolic heap without instances, unfolded along the pairs' derivations: a candidate
    /// model (its arithmetic is not checked by the pairs), for the caller to solve.
    Witness(Formula, String),
}

/// Instances a witness unfolds, at most.
pub(crate) const MAX_WITNESS_UNFOLDINGS: usize = 20_000;

/// [`decide_shape`], and on a consistent choice the unfolding along the pairs' derivations.
pub fn decide_with_witness(
    defs: &Defs,
    formula: &Formula,
    oracle: &mut dyn PureOracle,
) -> Result<Shape> {
    let mut checks = Checks { done: 0, max: MAX_CHECKS };
    let mut witnesses = Witnesses::new();
    let pairs = match fixpoint(defs, oracle, &mut checks, &mut witnesses)? {
        Ok(p) => p,
        Err(why) => return Ok(Shape::Open(why)),
    };
    for d in &formula.disjuncts {
        let mut s: BTreeMap<Var, Sort> = formula.free.iter().cloned().collect();
        s.extend(d.exists.iter().cloned());
        let mut found = None;
        let res = combinations(defs, &pairs, d, &s, oracle, &mut checks, &mut |_, _, chosen| {
            found = Some(chosen);
            false
        })?;
        if let Err(why) = res {
            return Ok(Shape::Open(why));
        }
        if let Some(chosen) = found {
            return Ok(match unfold_witness(defs, &witnesses, d, chosen) {
                Some(heap) => Shape::Witness(
                    Formula { free: formula.free.clone(), disjuncts: vec![heap] },
                    WITNESSED.into(),
                ),
                None => Shape::Open(format!(
                    "{WITNESSED}; its witness needs more than {MAX_WITNESS_UNFOLDINGS} unfoldings"
                )),
            });
        }
    }
    Ok(Shape::Unsat)
}

/// Unfolds every instance of `d` along the derivation of its chosen element, recursively: the
/// witness of a base pair here, of a pair with integer bounds in [`crate::baseformula`].
/// `derivations` maps (predicate, element) to the disjunct that derives it and the elements of
/// that disjunct's instances. `None` past [`MAX_WITNESS_UNFOLDINGS`].
pub(crate) fn unfold_witness<E: Clone + Ord>(
    defs: &Defs,
    derivations: &BTreeMap<(String, E), (usize, Vec<E>)>,
    d: &SymHeap,
    chosen: Vec<E>,
) -> Option<SymHeap> {
    let mut fresh = crate::formula::Fresh::new();
    fresh.avoid(d.all_vars().iter());
    fresh.avoid(d.exists.iter().map(|(v, _)| v));
    let mut out = SymHeap { preds: Vec::new(), ..d.clone() };
    let mut work: Vec<(PredApp, E)> = d.preds.iter().cloned().zip(chosen).collect();
    let mut unfoldings = 0;
    while let Some((app, el)) = work.pop() {
        unfoldings += 1;
        if unfoldings > MAX_WITNESS_UNFOLDINGS {
            return None;
        }
        let def = defs.preds.get(&app.name)?;
        let (j, children) = derivations.get(&(app.name.clone(), el))?;
        let part = crate::unfold::instantiate(def, &app.args, 0, &mut fresh).into_iter().nth(*j)?;
        out.exists.extend(part.exists);
        out.points_to.extend(part.points_to);
        out.pure.extend(part.pure);
        work.extend(part.preds.into_iter().zip(children.iter().cloned()));
    }
    Some(out)
}

/// Consistency checks made, and the most allowed.
struct Checks {
    done: usize,
    max: usize,
}

type Pairs = BTreeMap<String, BTreeSet<Pair>>;

/// Called on each consistent choice: equality classes, atomic facts, the pairs chosen; returns
/// whether to go on.
type OnChoice<'a> = dyn FnMut(&mut TermUf, &[Pure], Vec<Pair>) -> bool + 'a;

/// How a pair was first derived: the disjunct, and the pairs chosen for its instances.
type Witnesses = BTreeMap<(String, Pair), (usize, Vec<Pair>)>;

/// `Ok(Err(why))` when a cap stopped the fixed point.
fn fixpoint(
    defs: &Defs,
    oracle: &mut dyn PureOracle,
    checks: &mut Checks,
    witnesses: &mut Witnesses,
) -> Result<std::result::Result<Pairs, String>> {
    let mut pairs: BTreeMap<String, BTreeSet<Pair>> =
        defs.preds.keys().map(|n| (n.clone(), BTreeSet::new())).collect();
    loop {
        let mut changed = false;
        for (name, def) in &defs.preds {
            let mut sorts: BTreeMap<Var, Sort> = def.params.iter().cloned().collect();
            let mut new = Vec::new();
            for (j, d) in def.body.iter().enumerate() {
                sorts.extend(d.exists.iter().cloned());
                let res = combinations(
                    defs,
                    &pairs,
                    d,
                    &sorts,
                    oracle,
                    checks,
                    &mut |uf, facts, chosen| {
                        new.push((project(&def.params, uf, facts), j, chosen));
                        true
                    },
                )?;
                if let Err(why) = res {
                    return Ok(Err(why));
                }
                for (v, _) in &d.exists {
                    if !def.params.iter().any(|(p, _)| p == v) {
                        sorts.remove(v);
                    }
                }
            }
            let Some(set) = pairs.get_mut(name) else { continue };
            for (p, j, chosen) in new {
                if set.insert(p.clone()) {
                    changed = true;
                    witnesses.insert((name.clone(), p), (j, chosen));
                }
            }
            if set.len() > MAX_PAIRS {
                return Ok(Err(format!("predicate `{name}` has more than {MAX_PAIRS} base pairs")));
            }
        }
        if !changed {
            return Ok(Ok(pairs));
        }
    }
}

/// The predicates without any base pair: no unfolding of them is consistent, at any depth, so
/// they have no model. `None` when the fixed point needs more than `max_checks` consistency
/// checks (or hits another cap): then nothing is known.
pub fn predicates_without_models(
    defs: &Defs,
    oracle: &mut dyn PureOracle,
    max_checks: usize,
) -> Result<Option<BTreeSet<String>>> {
    let mut checks = Checks { done: 0, max: max_checks };
    let mut witnesses = Witnesses::new();
    Ok(match fixpoint(defs, oracle, &mut checks, &mut witnesses)? {
        Ok(pairs) => {
            Some(pairs.into_iter().filter(|(_, s)| s.is_empty()).map(|(n, _)| n).collect())
        }
        Err(_) => None,
    })
}

/// The facts a pair of `app`'s predicate says of `app`'s arguments: (dis)equalities, and the
/// allocated arguments.
pub(crate) fn instantiate(app: &PredApp, pair: &Pair) -> (Vec<Pure>, Vec<Term>) {
    let term = |r: Rep| match r {
        Rep::Null => Term::Null,
        Rep::Param(i) => app.args.get(i).cloned().unwrap_or(Term::Null),
    };
    let mut facts = Vec::new();
    for (i, r) in pair.rep.iter().enumerate() {
        if let (Some(r), Some(a)) = (r, app.args.get(i)) {
            if *r != Rep::Param(i) {
                facts.push(Pure::eq(a.clone(), term(*r)));
            }
        }
    }
    for (a, b) in &pair.ne {
        facts.push(Pure::ne(term(*a), term(*b)));
    }
    let alloc = pair.alloc.iter().map(|r| term(*r)).collect();
    (facts, alloc)
}

/// Calls `f` with the equality classes and atomic facts of each consistent choice of pairs for
/// the instances of `d`; `f` returns whether to go on.
fn combinations(
    defs: &Defs,
    pairs: &BTreeMap<String, BTreeSet<Pair>>,
    d: &SymHeap,
    sorts: &BTreeMap<Var, Sort>,
    oracle: &mut dyn PureOracle,
    checks: &mut Checks,
    f: &mut OnChoice<'_>,
) -> Result<std::result::Result<(), String>> {
    let choices: Vec<Vec<&Pair>> = d
        .preds
        .iter()
        .map(|app| pairs.get(&app.name).map(|s| s.iter().collect()).unwrap_or_default())
        .collect();
    if choices.iter().any(Vec::is_empty) {
        return Ok(Ok(())); // Some instance has no model (yet).
    }
    let total: usize = choices
        .iter()
        .map(Vec::len)
        .try_fold(1usize, |a, n| a.checked_mul(n))
        .unwrap_or(usize::MAX);
    if total > MAX_COMBINATIONS {
        return Ok(Err(format!(
            "more than {MAX_COMBINATIONS} combinations of base pairs in one disjunct"
        )));
    }
    let mut index = vec![0usize; choices.len()];
    loop {
        let mut facts = d.pure.clone();
        let mut cells: Vec<Term> = d.points_to.iter().map(|p| p.ptr.clone()).collect();
        for (k, app) in d.preds.iter().enumerate() {
            let (fs, alloc) = instantiate(app, choices[k][index[k]]);
            facts.extend(fs);
            cells.extend(alloc);
            facts.extend(crate::invariant::instance(defs, &defs.invariants, app));
        }
        for (i, c) in cells.iter().enumerate() {
            facts.push(Pure::ne(c.clone(), Term::Null));
            for c2 in &cells[i + 1..] {
                facts.push(Pure::ne(c.clone(), c2.clone()));
            }
        }
        checks.done += 1;
        if checks.done > checks.max {
            return Ok(Err(format!("more than {} consistency checks", checks.max)));
        }
        let consistent = match decide(&facts, sorts) {
            PureResult::Unknown => oracle.check(&facts, sorts)? != PureResult::Unsat,
            r => r != PureResult::Unsat,
        };
        if consistent {
            let mut uf = TermUf::default();
            let mut ok = true;
            for p in &facts {
                if let Pure::Cmp(CmpOp::Eq, a, b) = p {
                    if is_ref(a, sorts) && is_ref(b, sorts) {
                        ok &= uf.union(a, b);
                    }
                }
            }
            // Cells are recorded as `c != null`, which `project` reads as allocation only for
            // the cells themselves.
            let mut all = facts.clone();
            all.extend(cells.iter().map(|c| Pure::Cmp(CmpOp::Lt, Term::Null, c.clone())));
            let chosen = (0..choices.len()).map(|k| choices[k][index[k]].clone()).collect();
            if ok && !f(&mut uf, &all, chosen) {
                return Ok(Ok(()));
            }
        }
        // Next combination (odometer).
        let mut k = 0;
        loop {
            if k == index.len() {
                return Ok(Ok(()));
            }
            index[k] += 1;
            if index[k] < choices[k].len() {
                break;
            }
            index[k] = 0;
            k += 1;
        }
    }
}

pub(crate) fn is_ref(t: &Term, sorts: &BTreeMap<Var, Sort>) -> bool {
    match t {
        Term::Null => true,
        Term::Var(v) => matches!(sorts.get(v), Some(Sort::Ref(_))),
        _ => false,
    }
}

/// The pair a consistent body choice gives its predicate: classes, disequalities and allocated
/// cells, restricted to the parameters and `null`. Allocated cells are marked in `facts` as
/// `null < c` (see [`combinations`]).
pub(crate) fn project(params: &[(Var, Sort)], uf: &mut TermUf, facts: &[Pure]) -> Pair {
    let mut rep_of_class: BTreeMap<Term, Rep> = BTreeMap::new();
    rep_of_class.insert(uf.find(&Term::Null), Rep::Null);
    let mut rep = Vec::new();
    for (i, (v, s)) in params.iter().enumerate() {
        if !matches!(s, Sort::Ref(_)) {
            rep.push(None);
            continue;
        }
        let class = uf.find(&Term::Var(v.clone()));
        let r = *rep_of_class.entry(class).or_insert(Rep::Param(i));
        rep.push(Some(r));
    }
    let mut ne = BTreeSet::new();
    let mut alloc = BTreeSet::new();
    for p in facts {
        match p {
            Pure::Cmp(CmpOp::Ne, a, b) => {
                let (ca, cb) = (uf.find(a), uf.find(b));
                if let (Some(x), Some(y)) = (rep_of_class.get(&ca), rep_of_class.get(&cb)) {
                    if x != y {
                        ne.insert((*x.min(y), *x.max(y)));
                    }
                }
            }
            Pure::Cmp(CmpOp::Lt, Term::Null, c) => {
                if let Some(r) = rep_of_class.get(&uf.find(c)) {
                    alloc.insert(*r);
                }
            }
            _ => {}
        }
    }
    Pair { rep, ne, alloc }
}
