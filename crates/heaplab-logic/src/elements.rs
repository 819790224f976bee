//! The base elements of each predicate (S2S-style base formulas): the base pairs of
//! [`crate::basepair`], each with difference bounds over the integer parameters and, after
//! widening, the congruences kept for it; computed one cluster at a time, exact rounds first.
//! [`crate::baseformula`] decides queries with them and `grow` grows models from them.

use crate::arith::{decide, difference, PureResult};
use crate::basepair::{instantiate, Pair, MAX_WITNESS_UNFOLDINGS};
use crate::caps::{Cap, ProofCaps};
use crate::combine::{search, Budget, Choice, Prepared, PreparedBodies, Stop};
use crate::error::Result;
use crate::formula::{CmpOp, Defs, Formula, PredApp, Pure, Sort, SymHeap, Term, Var};
use crate::halt::{Halt, Interrupt};
use crate::oracle::PureOracle;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Widening iterations, at most (each drops a bound or adds a pair, so few are needed).
const MAX_WIDENINGS: usize = 40;

/// The answer of [`crate::baseformula::decide_formula`].
pub enum Decision {
    /// Proved: no model at any unfolding depth.
    Unsat,
    /// A model, found by solving a witness ([`crate::baseformula::decide_formula`]'s `solve`).
    Sat(crate::model::Model),
    /// Not decided; says why.
    Open(String),
    /// The caller's bound stopped it.
    Halted(Halt),
}

/// The integer parameters of a predicate (their indices in the parameter list).
pub(crate) fn int_params(params: &[(Var, Sort)]) -> Vec<usize> {
    params.iter().enumerate().filter(|(_, (_, s))| *s == Sort::Int).map(|(i, _)| i).collect()
}

/// A base element: a pair with bounds on the integer parameters, and (after widening) the
/// congruences kept for it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Element {
    pub pair: Pair,
    pub dbm: Dbm,
    pub cong: Vec<Cong>,
}

/// A predicate's elements: the exact ones with their round and derivation, and the widened
/// ones when the exact rounds did not converge.
#[derive(Default)]
pub(crate) struct Summary {
    pub exact: Vec<Element>,
    index: HashMap<Element, u32>,
    pub round: Vec<usize>,
    /// For each exact element: the disjunct and the (exact) elements chosen for its instances.
    pub derived: Vec<Option<(usize, Vec<u32>)>>,
    pub widened: Option<Vec<Element>>,
    /// Why the elements are not known to cover every unfolding (a cap, an unstable widening).
    pub incomplete: Option<String>,
}

impl Summary {
    /// The elements callers use: widened when there are, else exact.
    pub fn elements(&self) -> &[Element] {
        self.widened.as_deref().unwrap_or(&self.exact)
    }
}

/// Every cluster's summaries, and the work done.
pub(crate) struct Summaries<'d> {
    pub defs: &'d Defs,
    caps: ProofCaps,
    pub preds: BTreeMap<String, Summary>,
    pub prepared: PreparedBodies,
    pub(crate) checks: usize,
}

/// The summaries of every cluster `formula` reaches; `Err` when the caller's bound stopped
/// them (a cap leaves its cluster incomplete instead).
pub(crate) fn summarize<'d>(
    defs: &'d Defs,
    formula: &Formula,
    oracle: &mut dyn PureOracle,
    caps: &ProofCaps,
    interrupt: &mut Interrupt<'_>,
) -> Result<std::result::Result<Summaries<'d>, Decision>> {
    let mut s = Summaries {
        defs,
        caps: *caps,
        preds: BTreeMap::new(),
        prepared: BTreeMap::new(),
        checks: 0,
    };
    for cluster in crate::cluster::of_formula(defs, formula) {
        match s.cluster(&cluster, oracle, interrupt)? {
            Ok(()) => {}
            Err(Stop::Halt(h)) => return Ok(Err(Decision::Halted(h))),
            Err(Stop::Cap(cap)) => {
                let why = format!("the base elements are incomplete: stopped by {cap}");
                for n in &cluster {
                    if let Some(p) = s.preds.get_mut(n) {
                        p.incomplete.get_or_insert(why.clone());
                    }
                }
            }
        }
    }
    Ok(Ok(s))
}

/// Which elements a choice takes from each predicate.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pick {
    /// The exact elements (witnesses).
    Exact,
    /// Exact where converged, widened where not.
    Final,
}

impl crate::combine::Candidate for Element {
    fn pair(&self) -> &Pair {
        &self.pair
    }
}

/// Which parameters of each instance's predicate are references.
pub(crate) fn param_refs(defs: &Defs, d: &SymHeap) -> Vec<Vec<bool>> {
    d.preds
        .iter()
        .map(|app| {
            defs.preds.get(&app.name).map_or_else(
                || vec![false; app.args.len()],
                |def| def.params.iter().map(|(_, s)| matches!(s, Sort::Ref(_))).collect(),
            )
        })
        .collect()
}

/// Called on each consistent choice with the reference classes, the facts, the sorts (with
/// the congruences' fresh variables) and the element ids; returns whether to go on.
type OnChoice<'a> = dyn FnMut(&Choice, &[Pure], &BTreeMap<Var, Sort>, &[u32]) -> bool + 'a;

/// A choice found in a round: predicate, element, disjunct, derivation.
type Found = (String, Element, usize, Option<Vec<u32>>);

impl Summaries<'_> {
    /// The elements of `cluster`'s members (its callees are done): exact rounds, then
    /// widening and congruences if they do not converge.
    fn cluster(
        &mut self,
        cluster: &[String],
        oracle: &mut dyn PureOracle,
        interrupt: &mut Interrupt<'_>,
    ) -> Result<std::result::Result<(), Stop>> {
        let defs = self.defs;
        for name in cluster {
            let Some(def) = defs.preds.get(name) else { continue };
            let mut prep = Vec::new();
            for d in &def.body {
                let mut sorts: BTreeMap<Var, Sort> = def.params.iter().cloned().collect();
                sorts.extend(d.exists.iter().cloned());
                prep.push((Prepared::new(d, &sorts, &def.params, &param_refs(defs, d)), sorts));
            }
            self.prepared.insert(name.clone(), prep);
            self.preds.insert(name.clone(), Summary::default());
        }
        let mut lo: BTreeMap<String, usize> = cluster.iter().map(|n| (n.clone(), 0)).collect();
        let mut hi = lo.clone();
        for round in 0..self.caps.max_rounds {
            let mut found: Vec<Found> = Vec::new();
            for name in cluster {
                let Some(def) = defs.preds.get(name) else { continue };
                for (j, d) in def.body.iter().enumerate() {
                    let recursive: Vec<usize> = (0..d.preds.len())
                        .filter(|k| cluster.contains(&d.preds[*k].name))
                        .collect();
                    let splits: Vec<Option<usize>> = match (round, recursive.is_empty()) {
                        (0, true) => vec![None],
                        (0, false) | (_, true) => Vec::new(),
                        _ => (0..recursive.len()).map(Some).collect(),
                    };
                    for split in splits {
                        let ranges: Vec<(usize, usize)> = d
                            .preds
                            .iter()
                            .enumerate()
                            .map(|(k, app)| {
                                let len = self.preds.get(&app.name).map_or(0, |p| p.exact.len());
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
                        let params = &def.params;
                        let res = self.choose(
                            d,
                            &prepared,
                            &sorts,
                            Some(&ranges),
                            Pick::Exact,
                            oracle,
                            interrupt,
                            false,
                            &mut |c, facts, s, ids| {
                                if let Some(dbm) = project_ints(params, facts, s) {
                                    let el = Element {
                                        pair: c.project(&prepared),
                                        dbm,
                                        cong: Vec::new(),
                                    };
                                    found.push((name.clone(), el, j, Some(ids.to_vec())));
                                }
                                true
                            },
                        )?;
                        if let Err(stop) = res {
                            return Ok(Err(stop));
                        }
                    }
                }
            }
            let mut new = false;
            let mut full = false;
            for (name, el, j, ids) in found {
                let Some(p) = self.preds.get_mut(&name) else { continue };
                if p.index.contains_key(&el) || p.exact.len() >= self.caps.max_elements {
                    full |= p.exact.len() >= self.caps.max_elements;
                    continue;
                }
                p.index.insert(el.clone(), p.exact.len() as u32);
                p.exact.push(el);
                p.round.push(round);
                p.derived.push(ids.map(|ids| (j, ids)));
                new = true;
            }
            if full {
                // As many exact elements as allowed (trees' sizes multiply fast): the
                // widening covers the rest.
                break;
            }
            if !new {
                // A round that adds nothing: the exact fixed point over the callees' exact
                // elements, complete when theirs are.
                let callees_exact = cluster.iter().all(|n| {
                    defs.preds.get(n).is_some_and(|def| {
                        def.body.iter().flat_map(|d| &d.preds).all(|a| {
                            cluster.contains(&a.name)
                                || self.preds.get(&a.name).is_some_and(|p| p.widened.is_none())
                        })
                    })
                });
                if callees_exact {
                    return Ok(Ok(()));
                }
                break;
            }
            for name in cluster {
                let len = self.preds.get(name).map_or(0, |p| p.exact.len());
                lo.insert(name.clone(), hi[name]);
                hi.insert(name.clone(), len);
            }
        }
        self.widen(cluster, oracle, interrupt)
    }

    /// Joins each member's exact elements per pair and widens until inductive, then adds the
    /// inductive congruences.
    fn widen(
        &mut self,
        cluster: &[String],
        oracle: &mut dyn PureOracle,
        interrupt: &mut Interrupt<'_>,
    ) -> Result<std::result::Result<(), Stop>> {
        let defs = self.defs;
        let mut abs: BTreeMap<String, BTreeMap<Pair, Dbm>> = BTreeMap::new();
        for name in cluster {
            let m = abs.entry(name.clone()).or_default();
            for el in self.preds.get(name).map_or(&[][..], |p| &p.exact[..]) {
                let e = m.entry(el.pair.clone()).or_insert_with(|| el.dbm.clone());
                *e = e.join(&el.dbm);
            }
        }
        let mut stable = false;
        for _ in 0..MAX_WIDENINGS {
            self.set_widened(&abs, &BTreeMap::new());
            let mut post: Vec<(String, Pair, Dbm)> = Vec::new();
            for name in cluster {
                let Some(def) = defs.preds.get(name) else { continue };
                for j in 0..def.body.len() {
                    let Some((prepared, sorts)) =
                        self.prepared.get(name).and_then(|p| p.get(j)).cloned()
                    else {
                        continue;
                    };
                    let res = self.choose(
                        &def.body[j],
                        &prepared,
                        &sorts,
                        None,
                        Pick::Final,
                        oracle,
                        interrupt,
                        false,
                        &mut |c, facts, s, _| {
                            if let Some(dbm) = project_ints(&def.params, facts, s) {
                                post.push((name.clone(), c.project(&prepared), dbm));
                            }
                            true
                        },
                    )?;
                    if let Err(stop) = res {
                        return Ok(Err(stop));
                    }
                }
            }
            let mut changed = false;
            for (name, pair, dbm) in post {
                let m = abs.entry(name).or_default();
                match m.get(&pair) {
                    None => {
                        m.insert(pair, dbm);
                        changed = true;
                    }
                    Some(cur) if !cur.contains(&dbm) => {
                        let w = cur.widen(&cur.join(&dbm));
                        m.insert(pair, w);
                        changed = true;
                    }
                    Some(_) => {}
                }
            }
            if !changed {
                stable = true;
                break;
            }
        }
        if !stable {
            let why = format!(
                "the widening of the base formulas did not stabilize in {MAX_WIDENINGS} rounds"
            );
            for n in cluster {
                if let Some(p) = self.preds.get_mut(n) {
                    p.incomplete = Some(why.clone());
                }
            }
            return Ok(Ok(()));
        }
        let cong = match self.congruences(cluster, &abs, oracle, interrupt)? {
            Ok(c) => c,
            Err(stop) => return Ok(Err(stop)),
        };
        self.set_widened(&abs, &cong);
        Ok(Ok(()))
    }

    fn set_widened(&mut self, abs: &BTreeMap<String, BTreeMap<Pair, Dbm>>, cong: &Congruences) {
        for (name, m) in abs {
            if let Some(p) = self.preds.get_mut(name) {
                p.widened = Some(
                    m.iter()
                        .map(|(pair, dbm)| Element {
                            pair: pair.clone(),
                            dbm: dbm.clone(),
                            cong: cong
                                .get(&(name.clone(), pair.clone()))
                                .cloned()
                                .unwrap_or_default(),
                        })
                        .collect(),
                );
            }
        }
    }

    /// Congruences of the widened elements (the widening keeps only difference bounds): a
    /// candidate `x_i ≡ r (mod g)` per pair where the exact elements' values of `x_i` agree
    /// modulo `g` (the gcd of their differences, up to [`MAX_MODULUS`]), kept when inductive
    /// (Houdini: every consistent choice of widened elements with the surviving congruences,
    /// projected on that pair, implies it; asked of the oracle, an undecided check drops it).
    /// What survives holds of every unfolding, so adding it keeps the over-approximation sound.
    fn congruences(
        &mut self,
        cluster: &[String],
        abs: &BTreeMap<String, BTreeMap<Pair, Dbm>>,
        oracle: &mut dyn PureOracle,
        interrupt: &mut Interrupt<'_>,
    ) -> Result<std::result::Result<Congruences, Stop>> {
        let defs = self.defs;
        let mut values: BTreeMap<(String, Pair, usize), Option<Vec<i128>>> = BTreeMap::new();
        for name in cluster {
            for el in self.preds.get(name).map_or(&[][..], |p| &p.exact[..]) {
                for i in 1..=el.dbm.k {
                    let v = match (el.dbm.get(i, 0), el.dbm.get(0, i)) {
                        (Some(hi), Some(lo)) if hi == -lo => Some(hi),
                        _ => None,
                    };
                    let e = values
                        .entry((name.clone(), el.pair.clone(), i))
                        .or_insert(Some(Vec::new()));
                    match (e.as_mut(), v) {
                        (Some(vs), Some(v)) => vs.push(v),
                        _ => *e = None,
                    }
                }
            }
        }
        fn gcd(a: i128, b: i128) -> i128 {
            if b == 0 {
                a.abs()
            } else {
                gcd(b, a % b)
            }
        }
        let mut cong: Congruences = BTreeMap::new();
        for ((name, pair, i), vs) in values {
            let Some(vs) = vs.filter(|v| v.len() >= 2) else { continue };
            let g = vs.iter().fold(0, |acc, v| gcd(acc, v - vs[0]));
            if !(2..=i128::from(MAX_MODULUS)).contains(&g) {
                continue;
            }
            let (Ok(r), Ok(g)) = (i64::try_from(vs[0].rem_euclid(g)), i64::try_from(g)) else {
                continue;
            };
            cong.entry((name, pair)).or_default().push(Cong { i, r, g });
        }
        // Houdini: drop what is not inductive until nothing is dropped.
        loop {
            self.set_widened(abs, &cong);
            let mut refuted: BTreeSet<(String, Pair, usize)> = BTreeSet::new();
            for name in cluster {
                let Some(def) = defs.preds.get(name) else { continue };
                let ints: Vec<Term> = int_params(&def.params)
                    .into_iter()
                    .map(|i| Term::Var(def.params[i].0.clone()))
                    .collect();
                for j in 0..def.body.len() {
                    let Some((prepared, sorts)) =
                        self.prepared.get(name).and_then(|p| p.get(j)).cloned()
                    else {
                        continue;
                    };
                    let mut results = Vec::new();
                    let res = self.choose(
                        &def.body[j],
                        &prepared,
                        &sorts,
                        None,
                        Pick::Final,
                        oracle,
                        interrupt,
                        false,
                        &mut |c, facts, s, _| {
                            results.push((c.project(&prepared), facts.to_vec(), s.clone()));
                            true
                        },
                    )?;
                    if let Err(stop) = res {
                        return Ok(Err(stop));
                    }
                    for (pair, facts, local) in results {
                        let cands =
                            cong.get(&(name.clone(), pair.clone())).cloned().unwrap_or_default();
                        for c in cands {
                            let mut s = local.clone();
                            let t = &ints[c.i - 1];
                            let others = (0..c.g)
                                .filter(|r| *r != c.r)
                                .map(|r| congruent(t, r, c.g, &mut s));
                            let mut q = facts.clone();
                            q.push(Pure::Or(others.collect()));
                            self.checks += 1;
                            if self.checks > self.caps.max_element_checks {
                                return Ok(Err(Stop::Cap(Cap::ElementChecks(
                                    self.caps.max_element_checks,
                                ))));
                            }
                            let holds = match decide(&q, &s) {
                                PureResult::Unknown => oracle.check(&q, &s)? == PureResult::Unsat,
                                r => r == PureResult::Unsat,
                            };
                            if !holds {
                                refuted.insert((name.clone(), pair.clone(), c.i));
                            }
                        }
                    }
                }
            }
            if refuted.is_empty() {
                return Ok(Ok(cong));
            }
            for (name, pair, i) in refuted {
                if let Some(cs) = cong.get_mut(&(name, pair)) {
                    cs.retain(|c| c.i != i);
                }
            }
        }
    }

    /// Calls `on` with each consistent choice of elements for the instances of `d`: instance
    /// `k` takes an element of its predicate in `ranges[k]` (all of them when `None`), from
    /// the exact or the final elements (`pick`). `query`: an undecided arithmetic check asks
    /// the oracle, else it counts as consistent.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn choose(
        &mut self,
        d: &SymHeap,
        prepared: &Prepared,
        sorts: &BTreeMap<Var, Sort>,
        ranges: Option<&[(usize, usize)]>,
        pick: Pick,
        oracle: &mut dyn PureOracle,
        interrupt: &mut Interrupt<'_>,
        query: bool,
        on: &mut OnChoice<'_>,
    ) -> Result<std::result::Result<(), Stop>> {
        let defs = self.defs;
        let lists: Vec<&[Element]> = d
            .preds
            .iter()
            .map(|app| {
                self.preds.get(&app.name).map_or(&[][..], |p| match pick {
                    Pick::Exact => &p.exact[..],
                    Pick::Final => p.elements(),
                })
            })
            .collect();
        let all: Vec<(usize, usize)> = lists.iter().map(|l| (0, l.len())).collect();
        let ranges = ranges.unwrap_or(&all);
        let mut checks = self.checks;
        let mut budget = Budget {
            checks: &mut checks,
            max: self.caps.max_element_checks,
            cap: Cap::ElementChecks,
            interrupt,
        };
        let res = search(prepared, &lists, ranges, &mut budget, &mut |c, ids| {
            let mut local = sorts.clone();
            let mut facts = d.pure.clone();
            let mut cells: Vec<Term> = d.points_to.iter().map(|p| p.ptr.clone()).collect();
            for (k, app) in d.preds.iter().enumerate() {
                let el = &lists[k][ids[k] as usize];
                let (fs, alloc) = instantiate(app, &el.pair);
                facts.extend(fs);
                cells.extend(alloc);
                let args = int_args(defs, app);
                facts.extend(el.dbm.facts(&args));
                for cg in &el.cong {
                    facts.push(congruent(&args[cg.i], cg.r, cg.g, &mut local));
                }
                facts.extend(crate::invariant::instance(defs, &defs.invariants, app));
            }
            for (i, c) in cells.iter().enumerate() {
                facts.push(Pure::ne(c.clone(), Term::Null));
                for c2 in &cells[i + 1..] {
                    facts.push(Pure::ne(c.clone(), c2.clone()));
                }
            }
            let ok = match decide(&facts, &local) {
                PureResult::Unknown if query => oracle.check(&facts, &local)? != PureResult::Unsat,
                PureResult::Unknown => true,
                r => r != PureResult::Unsat,
            };
            Ok(!ok || on(c, &facts, &local, ids))
        });
        self.checks = checks;
        res
    }

    /// Unfolds every instance of `d` along the derivation of its chosen exact element,
    /// recursively; `None` past [`MAX_WITNESS_UNFOLDINGS`] or through a widened element.
    pub(crate) fn unfold(&self, d: &SymHeap, chosen: &[u32]) -> Option<SymHeap> {
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
            let (j, children) = self.preds.get(&app.name)?.derived.get(id as usize)?.as_ref()?;
            let part =
                crate::unfold::instantiate(def, &app.args, 0, &mut fresh).into_iter().nth(*j)?;
            out.exists.extend(part.exists);
            out.points_to.extend(part.points_to);
            out.pure.extend(part.pure);
            work.extend(part.preds.into_iter().zip(children.iter().copied()));
        }
        Some(out)
    }
}

/// The congruences kept per predicate and pair.
type Congruences = BTreeMap<(String, Pair), Vec<Cong>>;

/// `x_i ≡ r (mod g)` for the `i`-th integer parameter (1-based, as in [`Dbm`]), `0 <= r < g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Cong {
    pub i: usize,
    pub r: i64,
    pub g: i64,
}

/// Moduli tried, at most: periods of the usual patterns (even/odd, every third).
pub(crate) const MAX_MODULUS: i64 = 8;

/// `t - r == g * k` for a fresh `k`, added to `sorts`.
pub(crate) fn congruent(t: &Term, r: i64, g: i64, sorts: &mut BTreeMap<Var, Sort>) -> Pure {
    let k = format!("__cong{}", sorts.len());
    sorts.insert(k.clone(), Sort::Int);
    let lhs = Term::Sub(Box::new(t.clone()), Box::new(Term::Int(r)));
    Pure::eq(lhs, Term::Mul(Box::new(Term::Int(g)), Box::new(Term::Var(k))))
}

/// Difference bounds over `k` integer parameters: `b[i * (k + 1) + j] = Some(c)` says
/// `x_i - x_j <= c`, where index 0 is the constant zero and index `i > 0` the `i`-th integer
/// parameter. Kept closed (every bound tight), so equal sets of integer points compare equal.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Dbm {
    k: usize,
    b: Vec<Option<i128>>,
}

impl Dbm {
    fn get(&self, i: usize, j: usize) -> Option<i128> {
        self.b[i * (self.k + 1) + j]
    }

    /// `self` contains `other`: every bound of `self` is at least as loose.
    fn contains(&self, other: &Dbm) -> bool {
        self.b.iter().zip(&other.b).all(|(s, o)| match (s, o) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(s), Some(o)) => o <= s,
        })
    }

    /// The loosest of each bound (the join; still closed).
    fn join(&self, other: &Dbm) -> Dbm {
        let b = self
            .b
            .iter()
            .zip(&other.b)
            .map(|(s, o)| match (s, o) {
                (Some(s), Some(o)) => Some(*s.max(o)),
                _ => None,
            })
            .collect();
        Dbm { k: self.k, b }
    }

    /// Widening: a bound of `self` that `next` loosens is dropped.
    fn widen(&self, next: &Dbm) -> Dbm {
        let b = self
            .b
            .iter()
            .zip(&next.b)
            .map(|(s, n)| match (s, n) {
                (Some(s), Some(n)) if n <= s => Some(*s),
                _ => None,
            })
            .collect();
        Dbm { k: self.k, b }
    }

    /// The bounds said of the arguments `terms` (index 0 is zero).
    pub(crate) fn facts(&self, terms: &[Term]) -> Vec<Pure> {
        let mut out = Vec::new();
        for i in 0..=self.k {
            for j in 0..=self.k {
                let Some(c) = self.get(i, j).filter(|_| i != j) else { continue };
                let Ok(c) = i64::try_from(c) else { continue };
                let lhs = Term::Sub(Box::new(terms[i].clone()), Box::new(terms[j].clone()));
                out.push(Pure::cmp(CmpOp::Le, lhs, Term::Int(c)));
            }
        }
        out
    }
}

/// Zero, then the arguments of `app` for its predicate's integer parameters.
pub(crate) fn int_args(defs: &Defs, app: &PredApp) -> Vec<Term> {
    let mut out = vec![Term::Int(0)];
    if let Some(def) = defs.preds.get(&app.name) {
        for i in int_params(&def.params) {
            out.push(app.args.get(i).cloned().unwrap_or(Term::Int(0)));
        }
    }
    out
}

/// The difference bounds that `facts` imply on the integer parameters (shortest paths over
/// their top-level difference constraints); `None` when those contradict.
fn project_ints(
    params: &[(Var, Sort)],
    facts: &[Pure],
    sorts: &BTreeMap<Var, Sort>,
) -> Option<Dbm> {
    let is_int = |t: &Term| {
        let mut vs = BTreeSet::new();
        t.free_vars(&mut vs);
        vs.iter().all(|v| sorts.get(v) == Some(&Sort::Int))
            && !matches!(t, Term::Null | Term::Bool(_))
    };
    // (x, y, c): x - y <= c; "" is zero.
    let mut edges: Vec<(Var, Var, i128)> = Vec::new();
    let mut flat = Vec::new();
    for f in facts {
        f.clone().conjuncts_into(&mut flat);
    }
    for f in &flat {
        let Pure::Cmp(op, a, b) = f else { continue };
        if !is_int(a) || !is_int(b) {
            continue;
        }
        let Some((x, y, k)) = difference(a, b) else { continue };
        // a - b = x - y + k.
        match op {
            CmpOp::Le => edges.push((x, y, -k)),
            CmpOp::Lt => edges.push((x, y, -k - 1)),
            CmpOp::Eq => {
                edges.push((x.clone(), y.clone(), -k));
                edges.push((y, x, k));
            }
            CmpOp::Ne => {}
        }
    }
    let ints: Vec<&Var> = int_params(params).into_iter().map(|i| &params[i].0).collect();
    let mut nodes: Vec<Var> = vec![String::new()];
    nodes.extend(ints.iter().map(|v| (*v).clone()));
    for (x, y, _) in &edges {
        for v in [x, y] {
            if !nodes.contains(v) {
                nodes.push(v.clone());
            }
        }
    }
    let n = nodes.len();
    let index: BTreeMap<&Var, usize> = nodes.iter().enumerate().map(|(i, v)| (v, i)).collect();
    let mut dist: Vec<Option<i128>> = vec![None; n * n];
    for i in 0..n {
        dist[i * n + i] = Some(0);
    }
    for (x, y, c) in &edges {
        let (i, j) = (index[x], index[y]);
        let e = &mut dist[i * n + j];
        *e = Some(e.map_or(*c, |o| o.min(*c)));
    }
    for m in 0..n {
        for i in 0..n {
            let Some(a) = dist[i * n + m] else { continue };
            for j in 0..n {
                if let Some(b) = dist[m * n + j] {
                    let e = &mut dist[i * n + j];
                    if e.is_none_or(|o| a + b < o) {
                        *e = Some(a + b);
                    }
                }
            }
        }
    }
    if (0..n).any(|i| dist[i * n + i].is_some_and(|d| d < 0)) {
        return None;
    }
    let k = ints.len();
    let mut b = Vec::with_capacity((k + 1) * (k + 1));
    for i in 0..=k {
        for j in 0..=k {
            b.push(if i == j { Some(0) } else { dist[i * n + j] });
        }
    }
    Some(Dbm { k, b })
}
