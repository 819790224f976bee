//! Models too deep for the exact rounds of the base formulas, grown from their summaries: a
//! list of 160 000 pairs of cells (`lss(x, y, n) & n == 320001`), a tree of 320 001 nodes.
//!
//! Where the exact rounds stop short of the query (a length beyond the rounds' reach) but the
//! widened summaries admit it, the model is built top-down with values, one instance at a
//! time. An instance `P(v̄)`, its arguments already locations and integers, takes a disjunct
//! and, for each instance of the disjunct, a summary element (pair, bounds, congruences) that
//! are consistent with `v̄`: the references by [`crate::combine`]'s choice with the
//! arguments' equalities added, the integers by linear arithmetic in-process, which also gives
//! values to the disjunct's integer existentials. The disjunct's cells are allocated
//! ([`crate::build`]) and its instances wait with their new arguments. Candidates are tried
//! with the fewest allocated parameters first, so a base case is taken as soon as the integers
//! allow it; the integers then shrink toward the base case step by step.
//!
//! The summaries over-approximate (widening keeps only bounds and congruences), so a step may
//! find no consistent choice: the growth fails and the answer stays open. It never guesses: the
//! model comes out of the model checker's re-check like any other. Each step counts against
//! [`ProofCaps::max_unfoldings`](crate::caps::ProofCaps) and asks the caller's interrupt.

use crate::arith::{decide_pinned, PureResult, PureValue};
use crate::basepair::instantiate;
use crate::build::{Builder, Loc};
use crate::caps::Cap;
use crate::combine::{search_from, Budget, Choice, Prepared, Stop};
use crate::elements::{congruent, int_args, param_refs, Element, Summaries};
use crate::error::Result;
use crate::formula::{Defs, Formula, Pure, Sort, SymHeap, Term, Var};
use crate::halt::Interrupt;
use crate::model::{Model, Value};
use crate::oracle::PureOracle;
use std::collections::BTreeMap;

/// Candidate checks per step, at most (a step normally needs a handful).
const STEP_CHECKS: usize = 10_000;

/// A model of `formula` grown from the summaries, `Ok(None)` when a step finds no consistent
/// choice.
pub(crate) fn grow(
    s: &Summaries<'_>,
    formula: &Formula,
    oracle: &mut dyn PureOracle,
    max_unfoldings: usize,
    interrupt: &mut Interrupt<'_>,
) -> Result<std::result::Result<Option<Model>, Stop>> {
    let defs = s.defs;
    // Per predicate: its widened elements where it has them (they cover the exact ones, and
    // there are few), else its exact ones; the fewest allocated parameters first.
    let mut lists: BTreeMap<String, Vec<Element>> = BTreeMap::new();
    for (name, p) in &s.preds {
        let mut l = p.elements().to_vec();
        l.sort_by_key(|e| e.pair.alloc.len());
        lists.insert(name.clone(), l);
    }
    for d in &formula.disjuncts {
        let mut sorts: BTreeMap<Var, Sort> = formula.free.iter().cloned().collect();
        sorts.extend(d.exists.iter().cloned());
        let prepared = Prepared::new(d, &sorts, &[], &param_refs(defs, d));
        let Some(start) = Choice::start(&prepared) else { continue };
        let step = match pick(defs, d, &prepared, start, &sorts, &[], &lists, oracle, interrupt)? {
            Ok(Some(step)) => step,
            Ok(None) => continue,
            Err(stop) => return Ok(Err(stop)),
        };
        let mut b = Builder::default();
        let Some(values) = b.locate(&prepared, &sorts, &step.choice, &[]) else { continue };
        let mut work = Vec::new();
        if !place(defs, &mut b, d, &prepared, &step, &values, &BTreeMap::new(), &mut work) {
            continue;
        }
        let mut unfoldings = 0usize;
        let mut ok = true;
        while let Some(task) = work.pop() {
            unfoldings += 1;
            if unfoldings > max_unfoldings {
                return Ok(Err(Stop::Cap(Cap::Unfoldings(max_unfoldings))));
            }
            if let Some(h) = interrupt() {
                return Ok(Err(Stop::Halt(h)));
            }
            match unfold(s, &lists, &mut b, task, &mut work, oracle, interrupt)? {
                Ok(true) => {}
                Ok(false) => {
                    ok = false;
                    break;
                }
                Err(stop) => return Ok(Err(stop)),
            }
        }
        if !ok {
            continue;
        }
        let mut store = BTreeMap::new();
        for (v, sort) in &formula.free {
            let value = match sort {
                Sort::Ref(_) => match prepared.names.iter().position(|n| n.as_ref() == Some(v)) {
                    Some(n) => b.value(values[step.choice.find(n)]),
                    None => Value::Null,
                },
                Sort::Int => Value::Int(int_value(&step.ints, &Term::Var(v.clone()))),
                Sort::Bool => Value::Bool(matches!(step.ints.get(v), Some(PureValue::Bool(true)))),
            };
            store.insert(v.clone(), value);
        }
        return Ok(Ok(Some(b.finish(defs, store))));
    }
    Ok(Ok(None))
}

/// An instance waiting to be unfolded: its predicate and its arguments' values (a location
/// for a reference parameter, an integer for an integer one).
struct Task {
    pred: String,
    locs: Vec<Option<Loc>>,
    ints: Vec<Option<i64>>,
}

/// The choice made for one disjunct: its classes, the elements of its instances, and the
/// values of its integer (and Boolean) variables.
struct Step {
    choice: Choice,
    ints: BTreeMap<Var, PureValue>,
}

/// Unfolds `task`: a disjunct and elements consistent with its arguments, its cells placed,
/// its instances pushed on `work`. `Ok(false)`: no disjunct fits.
fn unfold(
    s: &Summaries<'_>,
    lists: &BTreeMap<String, Vec<Element>>,
    b: &mut Builder,
    task: Task,
    work: &mut Vec<Task>,
    oracle: &mut dyn PureOracle,
    interrupt: &mut Interrupt<'_>,
) -> Result<std::result::Result<bool, Stop>> {
    let defs = s.defs;
    let Some(def) = defs.preds.get(&task.pred) else { return Ok(Ok(false)) };
    let Some(bodies) = s.prepared.get(&task.pred) else { return Ok(Ok(false)) };
    // The disjuncts with the fewest instances first: base cases end the growth.
    let mut order: Vec<usize> = (0..def.body.len()).collect();
    order.sort_by_key(|j| def.body[*j].preds.len());
    // The integer parameters' values, substituted into each disjunct's facts.
    let fixed: BTreeMap<Var, Term> = def
        .params
        .iter()
        .zip(&task.ints)
        .filter_map(|((v, _), i)| Some((v.clone(), Term::Int((*i)?))))
        .collect();
    for j in order {
        let d = &def.body[j];
        let (prep, sorts) = &bodies[j];
        let Some(mut start) = Choice::start(prep) else { continue };
        // The parameters' locations: equal ones in one class, `null` with null.
        let params: Vec<(usize, Loc)> =
            prep.proj.iter().zip(&task.locs).filter_map(|(n, l)| Some(((*n)?, (*l)?))).collect();
        for (i, (n, l)) in params.iter().enumerate() {
            if *l == Loc::Null {
                start.union(*n, 0);
            }
            for (m, l2) in &params[i + 1..] {
                if l == l2 {
                    start.union(*n, *m);
                }
            }
        }
        if !start.consistent() {
            continue;
        }
        let d = substitute(d, &fixed);
        let picked = pick(defs, &d, prep, start, sorts, &params, lists, oracle, interrupt)?;
        let step = match picked {
            Ok(Some(step)) => step,
            Ok(None) => continue,
            Err(stop) => return Ok(Err(stop)),
        };
        let Some(values) = b.locate(prep, sorts, &step.choice, &params) else { continue };
        if !place(defs, b, &d, prep, &step, &values, &fixed, work) {
            return Ok(Ok(false));
        }
        return Ok(Ok(true));
    }
    Ok(Ok(false))
}

/// The first choice of elements for `d`'s instances, from `start`, whose facts hold with
/// integer values: found by [`crate::combine::search_from`], the integers decided in-process
/// (the solver only where that procedure cannot). Parameters of different locations must not
/// share a class.
#[allow(clippy::too_many_arguments)]
fn pick(
    defs: &Defs,
    d: &SymHeap,
    prep: &Prepared,
    start: Choice,
    sorts: &BTreeMap<Var, Sort>,
    params: &[(usize, Loc)],
    lists: &BTreeMap<String, Vec<Element>>,
    oracle: &mut dyn PureOracle,
    interrupt: &mut Interrupt<'_>,
) -> Result<std::result::Result<Option<Step>, Stop>> {
    let cands: Vec<&[Element]> =
        d.preds.iter().map(|app| lists.get(&app.name).map_or(&[][..], |l| &l[..])).collect();
    let ranges: Vec<(usize, usize)> = cands.iter().map(|l| (0, l.len())).collect();
    let mut checks = 0;
    let mut budget =
        Budget { checks: &mut checks, max: STEP_CHECKS, cap: Cap::ElementChecks, interrupt };
    let mut found = None;
    let res = search_from(prep, start, &cands, &ranges, &[], &mut budget, &mut |c, ids| {
        // Parameters with different locations stay apart.
        for (i, (n, l)) in params.iter().enumerate() {
            for (m, l2) in &params[i + 1..] {
                if l != l2 && c.find(*n) == c.find(*m) {
                    return Ok(true);
                }
            }
            if *l != Loc::Null && c.find(*n) == 0 {
                return Ok(true);
            }
        }
        let mut local = sorts.clone();
        let mut facts = d.pure.clone();
        let mut cells: Vec<Term> = d.points_to.iter().map(|p| p.ptr.clone()).collect();
        for (k, app) in d.preds.iter().enumerate() {
            let el = &cands[k][ids[k] as usize];
            let (fs, alloc) = instantiate(app, &el.pair);
            facts.extend(fs);
            cells.extend(alloc);
            let args = int_args(defs, app);
            facts.extend(el.dbm.facts(&args));
            for cg in &el.cong {
                facts.push(congruent(&args[cg.i], cg.r, cg.g, &mut local));
            }
        }
        for (i, c) in cells.iter().enumerate() {
            facts.push(Pure::ne(c.clone(), Term::Null));
            for c2 in &cells[i + 1..] {
                facts.push(Pure::ne(c.clone(), c2.clone()));
            }
        }
        let res = match decide_pinned(&facts, &local) {
            PureResult::Unknown => match crate::smt::lia(&facts, &local) {
                PureResult::Unknown => oracle.check(&facts, &local)?,
                r => r,
            },
            r => r,
        };
        if let PureResult::Sat(ints) = res {
            found = Some(Step { choice: c.clone(), ints });
            return Ok(false);
        }
        Ok(true)
    })?;
    if let Err(stop) = res {
        // A step that needs more candidates than that has no choice worth growing.
        return Ok(match stop {
            Stop::Cap(_) => Ok(None),
            halt => Err(halt),
        });
    }
    Ok(Ok(found))
}

/// Allocates `d`'s cells at `values` and pushes its instances with their arguments' values.
#[allow(clippy::too_many_arguments)]
fn place(
    defs: &Defs,
    b: &mut Builder,
    d: &SymHeap,
    prep: &Prepared,
    step: &Step,
    values: &[Loc],
    fixed: &BTreeMap<Var, Term>,
    work: &mut Vec<Task>,
) -> bool {
    let ints = &step.ints;
    let int_of = |t: &Term| int_value(ints, &t.subst(fixed));
    if !b.allocate(defs, d, prep, &step.choice, values, &int_of) {
        return false;
    }
    for (k, app) in d.preds.iter().enumerate() {
        let Some(def) = defs.preds.get(&app.name) else { return false };
        let locs = prep.args[k].iter().map(|n| n.map(|n| values[step.choice.find(n)])).collect();
        let ints = def
            .params
            .iter()
            .zip(&app.args)
            .map(|((_, s), a)| (*s == Sort::Int).then(|| int_of(a)))
            .collect();
        work.push(Task { pred: app.name.clone(), locs, ints });
    }
    true
}

/// `d` with the integer parameters replaced by their values.
fn substitute(d: &SymHeap, fixed: &BTreeMap<Var, Term>) -> SymHeap {
    SymHeap {
        exists: d.exists.clone(),
        points_to: d.points_to.iter().map(|p| p.subst(fixed)).collect(),
        preds: d.preds.iter().map(|p| p.subst(fixed)).collect(),
        pure: d.pure.iter().map(|p| p.subst(fixed)).collect(),
    }
}

/// An integer term's value under the assignment (unassigned variables are 0, as a model's
/// unconstrained integers are).
fn int_value(a: &BTreeMap<Var, PureValue>, t: &Term) -> i64 {
    crate::search::eval_int(t, a).unwrap_or(0)
}
