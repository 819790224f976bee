//! Proving unsatisfiability without a depth bound, and models at any depth: the base-pair fixed
//! point of Brotherston, Fuhs, Gorogiannis and Navarro Pérez (CSL-LICS 2014) for the shape
//! part, with the integer part over-approximated by the predicates' invariants
//! ([`crate::invariant`]).
//!
//! A *base pair* of `P(x̄)` abstracts one model of `P(x̄)` by what a context can observe of it:
//! which reference parameters are allocated (non-null, distinct cells), and which
//! (dis)equalities hold among the reference parameters and `null`. Equality logic over an
//! infinite domain has no other consequences, so the abstraction is exact for the shape part,
//! and there are finitely many pairs: the least fixed point of "a disjunct with a pair chosen
//! for each of its instances, consistent, projected on the parameters" is reached in finitely
//! many rounds, however many unfoldings its models need (the "succ" counters need
//! exponentially many).
//!
//! How it is computed:
//! - one predicate cluster at a time ([`crate::cluster`]), callees first, so predicates the
//!   query does not reach cost nothing and a capped cluster leaves the others exact;
//! - semi-naively: a round only makes the choices that use a pair found in the round before;
//! - each choice incrementally (`combine`): the instances take their pairs one at a
//!   time (the one with fewest candidates first), and a union-find with undo drops a choice as
//!   soon as it merges two classes said to differ or two cells, with every choice below it.
//!   Facts beyond reference (dis)equalities (integers, disjunctions) are decided by
//!   [`crate::arith::decide`] (and the solver) with the instances' invariants once a choice is
//!   complete; an undecided check counts as consistent.
//!
//! A formula is unsatisfiable when no disjunct has a consistent choice of pairs and every
//! cluster it reaches was computed to its fixed point (a cap or the caller's bound leaves the
//! pairs found so far, enough for a witness but no proof: the answer then names it).
//!
//! A consistent choice comes with a witness: each pair remembers the disjunct and the child
//! pairs it was first derived from, in an earlier round. Where no integer facts are involved,
//! the model is built directly along those derivations ([`Shape::Model`]): each step re-makes
//! the derivation's choice with the arguments' locations, gives every class a location (a
//! parameter's, `null`, or a new one) and allocates the cells, so a witness of a million
//! unfoldings costs a million small steps. Otherwise the derivations are unfolded into a
//! symbolic heap without instances ([`Shape::Witness`]) whose integers `sat` solves; the
//! integer parameters themselves are [`crate::baseformula`]'s.

use crate::arith::{decide, PureResult};
use crate::build::{Builder, Loc};
use crate::caps::{Cap, ProofCaps};
use crate::combine::{search_from, Budget, Choice, Prepared, PreparedBodies, SigIndex, Stop};
use crate::error::Result;
use crate::formula::{Defs, Formula, PredApp, Pure, Sort, SymHeap, Term, Var};
use crate::halt::{Halt, Interrupt};
use crate::model::{Model, Value};
use crate::oracle::PureOracle;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The pairs themselves are `combine`'s (it makes the choices over them).
pub(crate) use crate::combine::{Pair, Rep};

/// The answer of [`decide_shape`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Proved: no model at any unfolding depth.
    Unsat,
    /// Not proved unsatisfiable; the reason (a consistent choice exists, or a cap was hit).
    Open(String),
}

/// What the procedure found.
pub enum Shape {
    Unsat,
    Open(String),
    /// A model built along the pairs' derivations (no integer facts involved); the model
    /// checker re-checks it like any other.
    Model(Model),
    /// A symbolic heap without instances, unfolded along the pairs' derivations: a candidate
    /// model whose arithmetic the pairs did not check, for the caller to solve.
    Witness(Formula, String),
    /// The caller's bound stopped the procedure.
    Halted(Halt),
}

const WITNESSED: &str =
    "the base pairs of the predicates admit a model of the shape (and the invariants do not refute its arithmetic)";

/// Instances a symbolic witness unfolds, at most: solving it costs far more per instance than
/// building a model directly does.
pub(crate) const MAX_WITNESS_UNFOLDINGS: usize = 20_000;

/// Decides whether `formula` is unsatisfiable by the base-pair fixed point, with the default
/// caps and no bound of the caller's.
pub fn decide_shape(
    defs: &Defs,
    formula: &Formula,
    oracle: &mut dyn PureOracle,
) -> Result<Verdict> {
    let shape =
        decide_with_witness(defs, formula, oracle, &ProofCaps::default(), &mut crate::halt::never)?;
    Ok(match shape {
        Shape::Unsat => Verdict::Unsat,
        Shape::Open(why) => Verdict::Open(why),
        Shape::Model(_) | Shape::Witness(..) => Verdict::Open(WITNESSED.into()),
        Shape::Halted(h) => Verdict::Open(format!("stopped by {h}")),
    })
}

/// [`decide_shape`] within `caps` and the caller's bounds, with a model (or a symbolic witness)
/// on a consistent choice.
pub fn decide_with_witness(
    defs: &Defs,
    formula: &Formula,
    oracle: &mut dyn PureOracle,
    caps: &ProofCaps,
    interrupt: &mut Interrupt<'_>,
) -> Result<Shape> {
    let clusters = crate::cluster::of_formula(defs, formula);
    let mut fp = Fixpoint::new(defs, caps);
    for c in &clusters {
        if let Err(h) = fp.cluster(c, oracle, interrupt)? {
            return Ok(Shape::Halted(h));
        }
    }
    let mut sorts: BTreeMap<Var, Sort> = formula.free.iter().cloned().collect();
    for d in &formula.disjuncts {
        let mut s = sorts.clone();
        s.extend(d.exists.iter().cloned());
        let refs = fp.param_refs(d);
        let prepared = Prepared::new(d, &s, &[], &refs);
        let all: Vec<(usize, usize)> = d
            .preds
            .iter()
            .map(|app| (0, fp.preds.get(&app.name).map_or(0, |p| p.pairs.len())))
            .collect();
        let mut found: Option<(Vec<u32>, Choice)> = None;
        let mut checks = 0;
        let res = fp.choose(
            d,
            &prepared,
            &s,
            &all,
            oracle,
            interrupt,
            &mut checks,
            true,
            &mut |ids, c| {
                found = Some((ids.to_vec(), c.clone()));
                false
            },
        )?;
        if let Err(stop) = res {
            return Ok(match stop {
                Stop::Halt(h) => Shape::Halted(h),
                Stop::Cap(cap) => Shape::Open(format!("stopped by {cap}")),
            });
        }
        if let Some((ids, choice)) = found {
            if fp.shape_only(d, &prepared) {
                match fp.build_model(d, &prepared, &s, &formula.free, &ids, choice, interrupt) {
                    Ok(Some(m)) => return Ok(Shape::Model(m)),
                    Ok(None) => {}
                    Err(stop) => {
                        return Ok(match stop {
                            Stop::Halt(h) => Shape::Halted(h),
                            Stop::Cap(cap) => {
                                Shape::Open(format!("{WITNESSED}; its model is cut by {cap}"))
                            }
                        })
                    }
                }
            }
            return Ok(match fp.unfold_symbolic(d, &ids) {
                Some(heap) => Shape::Witness(
                    Formula { free: formula.free.clone(), disjuncts: vec![heap] },
                    WITNESSED.into(),
                ),
                None => Shape::Open(format!(
                    "{WITNESSED}; its witness needs more than {MAX_WITNESS_UNFOLDINGS} unfoldings"
                )),
            });
        }
        sorts = formula.free.iter().cloned().collect();
    }
    match fp.incomplete(&clusters) {
        Some(why) => Ok(Shape::Open(format!(
            "no choice of the base pairs found so far admits the query, but {why}"
        ))),
        None => Ok(Shape::Unsat),
    }
}

/// The predicates without any base pair: no unfolding of them is consistent, at any depth, so
/// they have no model. `None` when the fixed point needs more than `max_checks` consistency
/// checks (or hits another cap): then nothing is known.
pub fn predicates_without_models(
    defs: &Defs,
    oracle: &mut dyn PureOracle,
    max_checks: usize,
) -> Result<Option<std::collections::BTreeSet<String>>> {
    let caps = ProofCaps { max_checks, ..ProofCaps::default() };
    let mut fp = Fixpoint::new(defs, &caps);
    let clusters = crate::cluster::all_clusters(defs);
    for c in &clusters {
        if fp.cluster(c, oracle, &mut crate::halt::never)?.is_err() {
            return Ok(None);
        }
    }
    if fp.incomplete(&clusters).is_some() {
        return Ok(None);
    }
    Ok(Some(fp.preds.iter().filter(|(_, p)| p.pairs.is_empty()).map(|(n, _)| n.clone()).collect()))
}

/// The facts a pair of `app`'s predicate says of `app`'s arguments: (dis)equalities, and the
/// allocated arguments.
pub(crate) fn instantiate(app: &PredApp, pair: &Pair) -> (Vec<Pure>, Vec<Term>) {
    let term = |r: Rep| match r {
        Rep::Null => Term::Null,
        Rep::Param(i) => app.args.get(i as usize).cloned().unwrap_or(Term::Null),
    };
    let mut facts = Vec::new();
    for (i, r) in pair.rep.iter().enumerate() {
        if let (Some(r), Some(a)) = (r, app.args.get(i)) {
            if *r != Rep::Param(i as u16) {
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

/// One predicate's pairs.
/// The pairs one round of the fixed point finds, in the order found, each once and none known
/// before the round. Most choices of a round project to a pair already known or already found
/// (a counter's circuit finds each pair thousands of times): keeping only the first, as `add`
/// would, makes a round hold its new pairs rather than every choice (a gigabyte on SL-COMP's
/// succ-circuit15), and adding them at the round's end cost seconds the interrupt did not see.
#[derive(Default)]
struct Found<'c> {
    pairs: Vec<(String, Pair, usize, Vec<u32>)>,
    seen: HashSet<(&'c str, Pair)>,
}

impl<'c> Found<'c> {
    /// `pair` of predicate `name` (whose pairs so far are `known`), derived by disjunct `j`
    /// from the child pairs `ids`.
    fn offer(
        &mut self,
        known: Option<&PredPairs>,
        name: &'c str,
        pair: Pair,
        j: usize,
        ids: &[u32],
    ) {
        if known.is_some_and(|p| p.index.contains_key(&pair)) {
            return;
        }
        if self.seen.insert((name, pair.clone())) {
            self.pairs.push((name.to_string(), pair, j, ids.to_vec()));
        }
    }
}

#[derive(Default)]
pub(crate) struct PredPairs {
    pub pairs: Vec<Pair>,
    index: HashMap<Pair, u32>,
    /// For each pair: the disjunct and the child pairs of its first derivation.
    pub derived: Vec<(usize, Vec<u32>)>,
    /// Set when a cap stopped the cluster: the pairs are only some of them.
    pub capped: Option<Cap>,
    /// The pairs by their parameters' nullness, for the choices of the instances.
    by_nullness: std::cell::RefCell<SigIndex>,
}

/// The fixed point in progress: every cluster computed so far.
pub(crate) struct Fixpoint<'d> {
    defs: &'d Defs,
    caps: ProofCaps,
    pub preds: BTreeMap<String, PredPairs>,
    /// Each predicate's disjuncts, prepared, with their sorts.
    prepared: PreparedBodies,
}

impl<'d> Fixpoint<'d> {
    pub fn new(defs: &'d Defs, caps: &ProofCaps) -> Fixpoint<'d> {
        Fixpoint { defs, caps: *caps, preds: BTreeMap::new(), prepared: BTreeMap::new() }
    }

    /// Which parameters of each instance's predicate are references.
    fn param_refs(&self, d: &SymHeap) -> Vec<Vec<bool>> {
        d.preds
            .iter()
            .map(|app| {
                self.defs.preds.get(&app.name).map_or_else(
                    || vec![false; app.args.len()],
                    |def| def.params.iter().map(|(_, s)| matches!(s, Sort::Ref(_))).collect(),
                )
            })
            .collect()
    }

    /// The first cap that left a cluster of `clusters` incomplete, in words.
    fn incomplete(&self, clusters: &[Vec<String>]) -> Option<String> {
        clusters.iter().flatten().find_map(|n| {
            self.preds
                .get(n)
                .and_then(|p| p.capped)
                .map(|cap| format!("the base pairs of `{n}` are incomplete: stopped by {cap}"))
        })
    }

    /// Computes the pairs of `cluster` (its callees are done). `Ok(Err(halt))` when the
    /// caller's bound stopped it; a cap marks the cluster incomplete and returns normally.
    pub fn cluster(
        &mut self,
        cluster: &[String],
        oracle: &mut dyn PureOracle,
        interrupt: &mut Interrupt<'_>,
    ) -> Result<std::result::Result<(), Halt>> {
        for name in cluster {
            let Some(def) = self.defs.preds.get(name) else { continue };
            let mut prep = Vec::new();
            for d in &def.body {
                let mut sorts: BTreeMap<Var, Sort> = def.params.iter().cloned().collect();
                sorts.extend(d.exists.iter().cloned());
                let refs = self.param_refs(d);
                prep.push((Prepared::new(d, &sorts, &def.params, &refs), sorts));
            }
            self.prepared.insert(name.clone(), prep);
            self.preds.insert(name.clone(), PredPairs::default());
        }
        let mut checks = 0usize;
        // The delta of each member: the pairs found in the round before, `lo..hi`.
        let mut lo: BTreeMap<String, usize> = cluster.iter().map(|n| (n.clone(), 0)).collect();
        let mut hi = lo.clone();
        let mut round = 0;
        loop {
            let mut found = Found::default();
            for name in cluster {
                let Some(def) = self.defs.preds.get(name) else { continue };
                for (j, d) in def.body.iter().enumerate() {
                    let recursive: Vec<usize> = (0..d.preds.len())
                        .filter(|k| cluster.contains(&d.preds[*k].name))
                        .collect();
                    // Round 0 takes the disjuncts without recursive instances; later rounds,
                    // the choices with a new pair at recursive position `t`, older pairs
                    // before it and any after it.
                    let splits: Vec<Option<usize>> = if round == 0 {
                        if recursive.is_empty() {
                            vec![None]
                        } else {
                            Vec::new()
                        }
                    } else {
                        (0..recursive.len()).map(Some).collect()
                    };
                    for split in splits {
                        let ranges: Vec<(usize, usize)> = d
                            .preds
                            .iter()
                            .enumerate()
                            .map(|(k, app)| {
                                let len = self.preds.get(&app.name).map_or(0, |p| p.pairs.len());
                                let (Some(t), Some(pos)) =
                                    (split, recursive.iter().position(|r| *r == k))
                                else {
                                    return (0, len);
                                };
                                let (l, h) = (lo[&app.name], hi[&app.name]);
                                match pos.cmp(&t) {
                                    std::cmp::Ordering::Less => (0, l),
                                    std::cmp::Ordering::Equal => (l, h),
                                    std::cmp::Ordering::Greater => (0, h),
                                }
                            })
                            .collect();
                        let Some((prepared, sorts)) =
                            self.prepared.get(name).and_then(|p| p.get(j)).cloned()
                        else {
                            continue;
                        };
                        let known = self.preds.get(name);
                        let res = self.choose(
                            d,
                            &prepared,
                            &sorts,
                            &ranges,
                            oracle,
                            interrupt,
                            &mut checks,
                            false,
                            &mut |ids, c| {
                                found.offer(known, name, c.project(&prepared), j, ids);
                                true
                            },
                        )?;
                        match res {
                            Ok(()) => {}
                            Err(Stop::Halt(h)) => return Ok(Err(h)),
                            Err(Stop::Cap(cap)) => {
                                self.add(found.pairs);
                                self.cap(cluster, cap);
                                return Ok(Ok(()));
                            }
                        }
                    }
                }
            }
            let new = self.add(found.pairs);
            if let Some(cap) = cluster.iter().find_map(|n| {
                self.preds
                    .get(n)
                    .filter(|p| p.pairs.len() > self.caps.max_pairs)
                    .map(|_| Cap::Pairs(self.caps.max_pairs))
            }) {
                self.cap(cluster, cap);
                return Ok(Ok(()));
            }
            if !new && round > 0 {
                return Ok(Ok(()));
            }
            for name in cluster {
                let len = self.preds.get(name).map_or(0, |p| p.pairs.len());
                lo.insert(name.clone(), hi[name]);
                hi.insert(name.clone(), len);
            }
            round += 1;
        }
    }

    fn cap(&mut self, cluster: &[String], cap: Cap) {
        for n in cluster {
            if let Some(p) = self.preds.get_mut(n) {
                p.capped = Some(cap);
            }
        }
    }

    /// Adds the pairs found; returns whether any was new.
    fn add(&mut self, found: Vec<(String, Pair, usize, Vec<u32>)>) -> bool {
        let mut new = false;
        for (name, pair, j, ids) in found {
            let Some(p) = self.preds.get_mut(&name) else { continue };
            if p.index.contains_key(&pair) {
                continue;
            }
            let id = p.pairs.len() as u32;
            p.index.insert(pair.clone(), id);
            p.pairs.push(pair);
            p.derived.push((j, ids));
            new = true;
        }
        new
    }

    /// Calls `f` with the pair ids and the state of each consistent choice of pairs for the
    /// instances of `d` (instance `k` takes a pair of its predicate in `ranges[k]`); `f` says
    /// whether to go on. `query`: an undecided check of the facts beyond references asks the
    /// oracle (the query's checks), instead of counting as consistent (the bodies').
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &self,
        d: &SymHeap,
        prepared: &Prepared,
        sorts: &BTreeMap<Var, Sort>,
        ranges: &[(usize, usize)],
        oracle: &mut dyn PureOracle,
        interrupt: &mut Interrupt<'_>,
        checks: &mut usize,
        query: bool,
        f: &mut dyn FnMut(&[u32], &Choice) -> bool,
    ) -> Result<std::result::Result<(), Stop>> {
        let lists: Vec<&[Pair]> = d
            .preds
            .iter()
            .map(|app| self.preds.get(&app.name).map_or(&[][..], |p| &p.pairs[..]))
            .collect();
        let arith = !prepared.other.is_empty()
            || d.preds
                .iter()
                .any(|app| self.defs.invariants.get(&app.name).is_some_and(|i| !i.is_empty()));
        let defs = self.defs;
        let indexes: Vec<Option<&std::cell::RefCell<SigIndex>>> =
            d.preds.iter().map(|app| self.preds.get(&app.name).map(|p| &p.by_nullness)).collect();
        let mut budget = Budget { checks, max: self.caps.max_checks, cap: Cap::Checks, interrupt };
        let Some(start) = Choice::start(prepared) else { return Ok(Ok(())) };
        search_from(prepared, start, &lists, ranges, &indexes, &mut budget, &mut |choice, ids| {
            if arith && !arith_holds(defs, d, sorts, &lists, ids, oracle, query)? {
                return Ok(true);
            }
            Ok(f(ids, choice))
        })
    }

    /// Whether `d`'s witness involves no facts beyond references: no integer parameters in the
    /// clusters it reaches, and no other facts in their disjuncts or in `d`.
    fn shape_only(&self, d: &SymHeap, prepared: &Prepared) -> bool {
        if !prepared.other.is_empty() {
            return false;
        }
        let clusters = crate::cluster::clusters(self.defs, std::iter::once(d));
        clusters.iter().flatten().all(|n| {
            let ints = self
                .defs
                .preds
                .get(n)
                .is_some_and(|def| def.params.iter().any(|(_, s)| !matches!(s, Sort::Ref(_))));
            !ints
                && self.prepared.get(n).is_some_and(|ps| ps.iter().all(|(p, _)| p.other.is_empty()))
        })
    }

    /// Unfolds every instance of `d` along the derivation of its chosen pair, recursively; `None`
    /// past [`MAX_WITNESS_UNFOLDINGS`].
    fn unfold_symbolic(&self, d: &SymHeap, chosen: &[u32]) -> Option<SymHeap> {
        let mut fresh = crate::formula::Fresh::new();
        fresh.avoid(d.all_vars().iter());
        fresh.avoid(d.exists.iter().map(|(v, _)| v));
        let mut out = SymHeap { preds: Vec::new(), ..d.clone() };
        let mut work: Vec<(PredApp, u32)> =
            d.preds.iter().cloned().zip(chosen.iter().copied()).collect();
        let mut unfoldings = 0;
        while let Some((app, id)) = work.pop() {
            unfoldings += 1;
            if unfoldings > MAX_WITNESS_UNFOLDINGS {
                return None;
            }
            let def = self.defs.preds.get(&app.name)?;
            let (j, children) = self.preds.get(&app.name)?.derived.get(id as usize)?;
            let part =
                crate::unfold::instantiate(def, &app.args, 0, &mut fresh).into_iter().nth(*j)?;
            out.exists.extend(part.exists);
            out.points_to.extend(part.points_to);
            out.pure.extend(part.pure);
            work.extend(part.preds.into_iter().zip(children.iter().copied()));
        }
        Some(out)
    }

    /// The model of a shape-only witness, built along the derivations: `choice` is the query's
    /// consistent choice of the pairs `ids`. `Ok(None)` when a step's choice does not hold with
    /// the arguments' locations (it always should: the pairs are exact for the shape).
    #[allow(clippy::too_many_arguments)]
    fn build_model(
        &self,
        d: &SymHeap,
        prepared: &Prepared,
        sorts: &BTreeMap<Var, Sort>,
        free: &[(Var, Sort)],
        ids: &[u32],
        choice: Choice,
        interrupt: &mut Interrupt<'_>,
    ) -> std::result::Result<Option<Model>, Stop> {
        let mut b = Builder::default();
        let values = b.locate(prepared, sorts, &choice, &[]);
        let Some(values) = values else { return Ok(None) };
        if !b.allocate(self.defs, d, prepared, &choice, &values, &|_| 0) {
            return Ok(None);
        }
        let mut work: Vec<(String, u32, Vec<Option<Loc>>)> = Vec::new();
        for (k, app) in d.preds.iter().enumerate() {
            let args = prepared.args[k].iter().map(|n| n.map(|n| values[choice.find(n)])).collect();
            work.push((app.name.clone(), ids[k], args));
        }
        let mut steps = 0usize;
        while let Some((name, id, args)) = work.pop() {
            steps += 1;
            if steps > self.caps.max_unfoldings {
                return Err(Stop::Cap(Cap::Unfoldings(self.caps.max_unfoldings)));
            }
            if let Some(h) = interrupt() {
                return Err(Stop::Halt(h));
            }
            let Some(def) = self.defs.preds.get(&name) else { return Ok(None) };
            let Some((j, children)) =
                self.preds.get(&name).and_then(|p| p.derived.get(id as usize))
            else {
                return Ok(None);
            };
            let Some((prep, psorts)) = self.prepared.get(&name).and_then(|p| p.get(*j)) else {
                return Ok(None);
            };
            let body = &def.body[*j];
            // The derivation's choice, with the parameters' locations made equal where they are.
            let Some(mut c) = Choice::start(prep) else { return Ok(None) };
            let params: Vec<(usize, Loc)> =
                prep.proj.iter().zip(&args).filter_map(|(n, a)| Some(((*n)?, (*a)?))).collect();
            for (i, (n, l)) in params.iter().enumerate() {
                if *l == Loc::Null {
                    c.union(*n, 0);
                }
                for (m, l2) in &params[i + 1..] {
                    if l == l2 {
                        c.union(*n, *m);
                    }
                }
            }
            let lists: Vec<&[Pair]> = body
                .preds
                .iter()
                .map(|app| self.preds.get(&app.name).map_or(&[][..], |p| &p.pairs[..]))
                .collect();
            for (k, cid) in children.iter().enumerate() {
                let Some(pair) = lists.get(k).and_then(|l| l.get(*cid as usize)) else {
                    return Ok(None);
                };
                if !c.apply(pair, &prep.args[k]) {
                    return Ok(None);
                }
            }
            if !c.consistent() {
                return Ok(None);
            }
            let Some(values) = b.locate(prep, psorts, &c, &params) else { return Ok(None) };
            if !b.allocate(self.defs, body, prep, &c, &values, &|_| 0) {
                return Ok(None);
            }
            for (k, app) in body.preds.iter().enumerate() {
                let args = prep.args[k].iter().map(|n| n.map(|n| values[c.find(n)])).collect();
                work.push((app.name.clone(), children[k], args));
            }
        }
        let mut store = BTreeMap::new();
        for (v, s) in free {
            let value = match s {
                Sort::Ref(_) => match prepared.names.iter().position(|n| n.as_ref() == Some(v)) {
                    Some(n) => b.value(values[choice.find(n)]),
                    None => Value::Null,
                },
                Sort::Int => Value::Int(0),
                Sort::Bool => Value::Bool(false),
            };
            store.insert(v.clone(), value);
        }
        Ok(Some(b.finish(self.defs, store)))
    }
}

/// The facts beyond references of `d`, with the chosen pairs' facts and the instances'
/// invariants: may they hold? An undecided check asks the oracle for a query, and counts as
/// consistent for a predicate's body (those checks are many; either way the result
/// over-approximates).
fn arith_holds(
    defs: &Defs,
    d: &SymHeap,
    sorts: &BTreeMap<Var, Sort>,
    lists: &[&[Pair]],
    ids: &[u32],
    oracle: &mut dyn PureOracle,
    query: bool,
) -> Result<bool> {
    let mut facts = d.pure.clone();
    let mut cells: Vec<Term> = d.points_to.iter().map(|p| p.ptr.clone()).collect();
    for (k, app) in d.preds.iter().enumerate() {
        let (fs, alloc) = instantiate(app, &lists[k][ids[k] as usize]);
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
    Ok(match decide(&facts, sorts) {
        PureResult::Unknown if query => oracle.check(&facts, sorts)? != PureResult::Unsat,
        PureResult::Unknown => true,
        r => r != PureResult::Unsat,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(alloc: bool) -> Pair {
        Pair {
            rep: vec![None],
            ne: Vec::new(),
            alloc: if alloc { vec![Rep::Param(0)] } else { Vec::new() },
        }
    }

    /// A round keeps each new pair once, with its first derivation, and none already known
    /// (issue 31: succ-circuit15 kept every choice, 900 MB, and added them past the deadline).
    #[test]
    fn a_round_keeps_each_new_pair_once() {
        let mut known = PredPairs::default();
        known.index.insert(pair(false), 0);
        known.pairs.push(pair(false));
        let mut found = Found::default();
        for round in 0..1000 {
            found.offer(Some(&known), "p", pair(false), 0, &[round]);
            found.offer(Some(&known), "p", pair(true), 1, &[round]);
            found.offer(None, "q", pair(true), 2, &[round]);
        }
        let kept: Vec<_> = found
            .pairs
            .iter()
            .map(|(n, p, j, ids)| (n.as_str(), p.alloc.len(), *j, ids.clone()))
            .collect();
        assert_eq!(kept, vec![("p", 1, 1, vec![0]), ("q", 1, 2, vec![0])]);
    }
}
