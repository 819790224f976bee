//! Base formulas over the integer parameters of the predicates, computed by fixed point, in the
//! manner of S2S (Le, Tatsuta, Sun, Chin; CAV 2016/2017): the arithmetic half of the decision
//! procedure whose shape half is [`crate::basepair`].
//!
//! A *base element* of `P(x̄)` is a base pair (which reference parameters are allocated, and
//! their (dis)equalities) together with difference bounds over the integer parameters
//! (`n - m <= c`, `n <= c`, `-n <= c`: a difference-bound matrix). Each element over-approximates
//! the models of a set of unfoldings of `P`: those derived from one disjunct with an element
//! chosen for each of its instances, the disjunct's pure part, the cells' facts and the
//! elements' bounds, projected on the parameters (all-pairs shortest paths over the difference
//! constraints; other integer facts such as `s == v + s1` are kept in the consistency check and
//! dropped from the projection, which only loses precision).
//!
//! Two fixed points:
//! - **Exact rounds** (Kleene iteration, semi-naive): round `r` derives every element whose
//!   derivation has depth `r`. For `lsn(x, y, n)` round `r` gives `n == r`, so a query
//!   `lsn(x, null, n) & n == 40` finds a consistent choice at round 41, and unfolding along the
//!   derivations gives a heap without instances ([`Decision::Witness`]) that `sat` solves into
//!   a model (re-checked by the model checker). When a round adds nothing, the elements cover
//!   every unfolding: no consistent choice for the query is then a proof of unsatisfiability.
//! - **Widening**, when the exact rounds do not converge within [`MAX_ROUNDS`] (lengths, sums
//!   and heights grow without bound): the elements of each pair are joined (the loosest of each
//!   bound), and a bound that still moves after another round is dropped (standard widening on
//!   difference bounds, so it terminates). The result is inductive, so it over-approximates
//!   every unfolding: no consistent choice for the query is again a proof.
//!
//!   The widening keeps only difference bounds, so periodic facts are added back as
//!   congruences (`n ≡ 0 (mod 2)` for `even`'s non-empty lists), found from the exact elements
//!   and kept when inductive ([`congruences`]): `even(x, n) & n == 7` is proved unsat.
//!
//! Incomplete, and then the answer is [`Decision::Open`] saying why: facts that are neither
//! difference bounds nor congruences (`s == n * (n + 1) / 2` for the sum `1 + … + n`) are lost
//! by the widening; caps on rounds, elements, combinations and checks; a witness whose
//! non-difference arithmetic has no model. Congruence checks need the oracle (an undecided
//! one drops the congruence). Unsatisfiability is only claimed from an over-approximation, so
//! it is sound.

use crate::arith::{decide, difference, PureResult};
use crate::basepair::{instantiate, is_ref, project, unfold_witness, Pair, MAX_WITNESS_UNFOLDINGS};
use crate::error::Result;
use crate::formula::{CmpOp, Defs, Formula, PredApp, Pure, Sort, SymHeap, Term, Var};
use crate::normalize::TermUf;
use crate::oracle::PureOracle;
use std::collections::{BTreeMap, BTreeSet};

/// Exact rounds before widening.
pub const MAX_ROUNDS: usize = 64;
/// Elements per predicate, at most.
const MAX_ELEMENTS: usize = 400;
/// Combinations of elements per disjunct and round, and consistency checks in all, at most.
const MAX_COMBINATIONS: usize = 20_000;
const MAX_CHECKS: usize = 40_000;
/// Widening iterations, at most (each drops a bound or adds a pair, so few are needed).
const MAX_WIDENINGS: usize = 40;

/// Difference bounds over `k` integer parameters: `b[i * (k + 1) + j] = Some(c)` says
/// `x_i - x_j <= c`, where index 0 is the constant zero and index `i > 0` the `i`-th integer
/// parameter. Kept closed (every bound tight), so equal sets of integer points compare equal.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Dbm {
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
    fn facts(&self, terms: &[Term]) -> Vec<Pure> {
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

/// A base element: a pair with bounds on the integer parameters.
type Element = (Pair, Dbm);

/// How an element was first derived: the disjunct and the elements chosen for its instances.
type Derivations = BTreeMap<(String, Element), (usize, Vec<Element>)>;

/// The answer of [`decide_formula`].
pub enum Decision {
    /// Proved: no model at any unfolding depth.
    Unsat,
    /// A model, found by solving a witness ([`decide_formula`]'s `solve`).
    Sat(crate::model::Model),
    /// Not decided; says why.
    Open(String),
}

/// Solves a witness (a heap without instances) into a model, or `None` when it has none.
pub type Solve<'a> =
    dyn FnMut(&Formula, &mut dyn PureOracle) -> Result<Option<crate::model::Model>> + 'a;

/// The integer parameters of a predicate (their indices in the parameter list).
fn int_params(params: &[(Var, Sort)]) -> Vec<usize> {
    params.iter().enumerate().filter(|(_, (_, s))| *s == Sort::Int).map(|(i, _)| i).collect()
}

/// Decides `formula` with the base formulas: each consistent choice of elements for the
/// formula's instances gives a heap without instances that `solve` is asked to solve (a model,
/// or `None` when its arithmetic contradicts); the first model is the answer.
pub fn decide_formula(
    defs: &Defs,
    formula: &Formula,
    oracle: &mut dyn PureOracle,
    solve: &mut Solve<'_>,
) -> Result<Decision> {
    let mut st = State {
        defs,
        oracle,
        checks: 0,
        derivations: BTreeMap::new(),
        ask_oracle: false,
        cong: BTreeMap::new(),
    };
    let mut elements: BTreeMap<String, BTreeMap<Element, usize>> =
        defs.preds.keys().map(|n| (n.clone(), BTreeMap::new())).collect();
    let mut rejected_witness = false;
    let mut converged = false;
    for round in 0..MAX_ROUNDS {
        // Semi-naive: a combination is new when it uses an element of the last round.
        let fresh_from = round.saturating_sub(1);
        let mut added = Vec::new();
        for (name, def) in &defs.preds {
            for (j, d) in def.body.iter().enumerate() {
                let mut sorts: BTreeMap<Var, Sort> = def.params.iter().cloned().collect();
                sorts.extend(d.exists.iter().cloned());
                let res = st.combinations(
                    d,
                    &sorts,
                    &elements,
                    fresh_from,
                    round,
                    &mut |uf, facts, _, chosen| {
                        if let Some(dbm) = project_ints(&def.params, facts, &sorts) {
                            let pair = project(&def.params, uf, facts);
                            added.push((name.clone(), (pair, dbm), j, chosen));
                        }
                        Ok(true)
                    },
                )?;
                if let Err(why) = res {
                    return Ok(Decision::Open(why));
                }
            }
        }
        let mut changed = false;
        for (name, el, j, chosen) in added {
            let set = elements.entry(name.clone()).or_default();
            if !set.contains_key(&el) {
                set.insert(el.clone(), round);
                st.derivations.insert((name.clone(), el), (j, chosen));
                changed = true;
                if set.len() > MAX_ELEMENTS {
                    return Ok(Decision::Open(format!(
                        "predicate `{name}` has more than {MAX_ELEMENTS} base elements"
                    )));
                }
            }
        }
        // Ask the query with the new elements: a consistent choice is a witness to solve.
        let sorts: BTreeMap<Var, Sort> = formula.free.iter().cloned().collect();
        for d in &formula.disjuncts {
            let mut s = sorts.clone();
            s.extend(d.exists.iter().cloned());
            let mut witnesses = Vec::new();
            st.ask_oracle = true;
            let res =
                st.combinations(d, &s, &elements, round, round + 1, &mut |_, _, _, chosen| {
                    witnesses.push(chosen);
                    Ok(witnesses.len() < 8)
                })?;
            st.ask_oracle = false;
            if let Err(why) = res {
                return Ok(Decision::Open(why));
            }
            for chosen in witnesses {
                let Some(heap) = unfold_witness(defs, &st.derivations, d, chosen) else {
                    return Ok(Decision::Open(format!(
                        "a witness needs more than {MAX_WITNESS_UNFOLDINGS} unfoldings"
                    )));
                };
                let f = Formula { free: formula.free.clone(), disjuncts: vec![heap] };
                match solve(&f, &mut *st.oracle)? {
                    Some(m) => return Ok(Decision::Sat(m)),
                    None => rejected_witness = true,
                }
            }
        }
        if !changed {
            converged = true;
            break;
        }
    }
    if converged {
        return Ok(if rejected_witness {
            Decision::Open(
                "the base formulas admit the query, but the arithmetic of every witness unfolding contradicts (facts beyond difference bounds)"
                    .into(),
            )
        } else {
            Decision::Unsat
        });
    }
    // Widening: one element per pair, joined and widened until inductive.
    let mut abs: BTreeMap<String, BTreeMap<Pair, Dbm>> = BTreeMap::new();
    for (name, set) in &elements {
        let m = abs.entry(name.clone()).or_default();
        for (pair, dbm) in set.keys() {
            let e = m.entry(pair.clone()).or_insert_with(|| dbm.clone());
            *e = e.join(dbm);
        }
    }
    let mut stable = false;
    for _ in 0..MAX_WIDENINGS {
        let current: BTreeMap<String, BTreeMap<Element, usize>> = abs
            .iter()
            .map(|(n, m)| (n.clone(), m.iter().map(|(p, d)| ((p.clone(), d.clone()), 0)).collect()))
            .collect();
        let mut post = Vec::new();
        for (name, def) in &defs.preds {
            for d in &def.body {
                let mut sorts: BTreeMap<Var, Sort> = def.params.iter().cloned().collect();
                sorts.extend(d.exists.iter().cloned());
                let res = st.combinations(d, &sorts, &current, 0, 1, &mut |uf, facts, _, _| {
                    if let Some(dbm) = project_ints(&def.params, facts, &sorts) {
                        post.push((name.clone(), project(&def.params, uf, facts), dbm));
                    }
                    Ok(true)
                })?;
                if let Err(why) = res {
                    return Ok(Decision::Open(why));
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
        return Ok(Decision::Open(format!(
            "the base formulas did not converge in {MAX_ROUNDS} rounds, nor their widening in {MAX_WIDENINGS}"
        )));
    }
    let current: BTreeMap<String, BTreeMap<Element, usize>> = abs
        .iter()
        .map(|(n, m)| (n.clone(), m.iter().map(|(p, d)| ((p.clone(), d.clone()), 0)).collect()))
        .collect();
    if let Err(why) = congruences(&mut st, &elements, &current)? {
        return Ok(Decision::Open(why));
    }
    st.ask_oracle = true;
    for d in &formula.disjuncts {
        let mut s: BTreeMap<Var, Sort> = formula.free.iter().cloned().collect();
        s.extend(d.exists.iter().cloned());
        let mut any = false;
        let res = st.combinations(d, &s, &current, 0, 1, &mut |_, _, _, _| {
            any = true;
            Ok(false)
        })?;
        if let Err(why) = res {
            return Ok(Decision::Open(why));
        }
        if any {
            return Ok(Decision::Open(format!(
                "the base formulas did not converge in {MAX_ROUNDS} rounds (a parameter grows without bound), no witness within them has a model, and their widening (difference bounds and congruences modulo at most {MAX_MODULUS}) admits the query"
            )));
        }
    }
    Ok(Decision::Unsat)
}

/// Congruences of the widened elements (the widening keeps only difference bounds): a
/// candidate `x_i ≡ r (mod g)` per pair where the exact elements' values of `x_i` agree modulo
/// `g` (the gcd of their differences, up to [`MAX_MODULUS`]), kept when inductive (Houdini:
/// every consistent choice of widened elements with the surviving congruences, projected on
/// that pair, implies it; asked of the oracle, an undecided check drops it). What survives
/// holds of every unfolding, so adding it keeps the over-approximation sound.
fn congruences(
    st: &mut State<'_>,
    elements: &BTreeMap<String, BTreeMap<Element, usize>>,
    current: &BTreeMap<String, BTreeMap<Element, usize>>,
) -> Result<std::result::Result<(), String>> {
    // Candidates from the exact elements' constant values.
    let mut values: BTreeMap<(String, Pair, usize), Option<Vec<i128>>> = BTreeMap::new();
    for (name, set) in elements {
        for (pair, dbm) in set.keys() {
            for i in 1..=dbm.k {
                let v = match (dbm.get(i, 0), dbm.get(0, i)) {
                    (Some(hi), Some(lo)) if hi == -lo => Some(hi),
                    _ => None,
                };
                let e = values.entry((name.clone(), pair.clone(), i)).or_insert(Some(Vec::new()));
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
    for ((name, pair, i), vs) in values {
        let Some(vs) = vs.filter(|v| v.len() >= 2) else { continue };
        let g = vs.iter().fold(0, |acc, v| gcd(acc, v - vs[0]));
        if !(2..=i128::from(MAX_MODULUS)).contains(&g) {
            continue;
        }
        let (Ok(r), Ok(g)) = (i64::try_from(vs[0].rem_euclid(g)), i64::try_from(g)) else {
            continue;
        };
        st.cong.entry((name, pair)).or_default().push(Cong { i, r, g });
    }
    // Houdini: drop what is not inductive until nothing is dropped.
    let defs = st.defs;
    loop {
        let mut refuted: BTreeSet<(String, Pair, usize)> = BTreeSet::new();
        for (name, def) in &defs.preds {
            let ints: Vec<Term> = int_params(&def.params)
                .into_iter()
                .map(|i| Term::Var(def.params[i].0.clone()))
                .collect();
            for d in &def.body {
                let mut sorts: BTreeMap<Var, Sort> = def.params.iter().cloned().collect();
                sorts.extend(d.exists.iter().cloned());
                let mut results = Vec::new();
                let res =
                    st.combinations(d, &sorts, current, 0, 1, &mut |uf, facts, local, _| {
                        results.push((
                            project(&def.params, uf, facts),
                            facts.to_vec(),
                            local.clone(),
                        ));
                        Ok(true)
                    })?;
                if let Err(why) = res {
                    return Ok(Err(why));
                }
                for (pair, facts, local) in results {
                    let cands =
                        st.cong.get(&(name.clone(), pair.clone())).cloned().unwrap_or_default();
                    for c in cands {
                        let mut s = local.clone();
                        let t = &ints[c.i - 1];
                        let others =
                            (0..c.g).filter(|r| *r != c.r).map(|r| congruent(t, r, c.g, &mut s));
                        let mut q = facts.clone();
                        q.push(Pure::Or(others.collect()));
                        st.checks += 1;
                        let holds = match decide(&q, &s) {
                            PureResult::Unknown => st.oracle.check(&q, &s)? == PureResult::Unsat,
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
            return Ok(Ok(()));
        }
        for (name, pair, i) in refuted {
            if let Some(cs) = st.cong.get_mut(&(name, pair)) {
                cs.retain(|c| c.i != i);
            }
        }
        if st.checks > MAX_CHECKS {
            return Ok(Err(format!("more than {MAX_CHECKS} consistency checks of base elements")));
        }
    }
}

/// A consistent choice: reference classes, facts, and the sorts with the fresh variables.
type Consistent = (TermUf, Vec<Pure>, BTreeMap<Var, Sort>);

struct State<'a> {
    defs: &'a Defs,
    oracle: &'a mut dyn PureOracle,
    checks: usize,
    derivations: Derivations,
    /// Whether an undecided check goes to the oracle (the query's checks), or counts as
    /// consistent (the predicates' bodies: their checks are many, and the solver is slow).
    ask_oracle: bool,
    /// Congruences of the widened elements, per predicate and pair (after the widening).
    cong: BTreeMap<(String, Pair), Vec<Cong>>,
}

/// `x_i ≡ r (mod g)` for the `i`-th integer parameter (1-based, as in [`Dbm`]), `0 <= r < g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cong {
    i: usize,
    r: i64,
    g: i64,
}

/// Moduli tried, at most: periods of the usual patterns (even/odd, every third).
const MAX_MODULUS: i64 = 8;

/// `t - r == g * k` for a fresh `k`, added to `sorts`.
fn congruent(t: &Term, r: i64, g: i64, sorts: &mut BTreeMap<Var, Sort>) -> Pure {
    let k = format!("__cong{}", sorts.len());
    sorts.insert(k.clone(), Sort::Int);
    let lhs = Term::Sub(Box::new(t.clone()), Box::new(Term::Int(r)));
    Pure::eq(lhs, Term::Mul(Box::new(Term::Int(g)), Box::new(Term::Var(k))))
}

/// Called on each consistent choice with the reference classes, the facts and the chosen
/// elements; returns whether to go on.
type OnChoice<'a> =
    dyn FnMut(&mut TermUf, &[Pure], &BTreeMap<Var, Sort>, Vec<Element>) -> Result<bool> + 'a;

impl State<'_> {
    /// Calls `f` on each consistent choice of elements for the instances of `d` that uses at
    /// least one element introduced in a round in `from..to` (all of them when `from == 0`).
    fn combinations(
        &mut self,
        d: &SymHeap,
        sorts: &BTreeMap<Var, Sort>,
        elements: &BTreeMap<String, BTreeMap<Element, usize>>,
        from: usize,
        to: usize,
        f: &mut OnChoice<'_>,
    ) -> Result<std::result::Result<(), String>> {
        let choices: Vec<Vec<(&Element, usize)>> = d
            .preds
            .iter()
            .map(|app| {
                elements
                    .get(&app.name)
                    .map(|s| s.iter().filter(|(_, r)| **r < to).map(|(e, r)| (e, *r)).collect())
                    .unwrap_or_default()
            })
            .collect();
        if choices.iter().any(Vec::is_empty) {
            return Ok(Ok(()));
        }
        if d.preds.is_empty() && from > 0 {
            return Ok(Ok(())); // Derived in round 0 already.
        }
        let total: usize = choices
            .iter()
            .map(Vec::len)
            .try_fold(1usize, |a, n| a.checked_mul(n))
            .unwrap_or(usize::MAX);
        if total > MAX_COMBINATIONS {
            return Ok(Err(format!(
                "more than {MAX_COMBINATIONS} combinations of base elements in one disjunct"
            )));
        }
        let mut index = vec![0usize; choices.len()];
        loop {
            let chosen: Vec<(&Element, usize)> =
                (0..choices.len()).map(|k| choices[k][index[k]]).collect();
            if from == 0 || chosen.iter().any(|(_, r)| *r >= from) {
                if let Some((mut uf, all, local)) = self.consistent(d, sorts, &chosen)? {
                    let els = chosen.iter().map(|(e, _)| (*e).clone()).collect();
                    if !f(&mut uf, &all, &local, els)? {
                        return Ok(Ok(()));
                    }
                }
                if self.checks > MAX_CHECKS {
                    return Ok(Err(format!(
                        "more than {MAX_CHECKS} consistency checks of base elements"
                    )));
                }
            }
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

    /// The reference classes and facts of `d` with `chosen` for its instances, when they may
    /// hold (an undecided check counts as consistent: everything over-approximates).
    fn consistent(
        &mut self,
        d: &SymHeap,
        sorts: &BTreeMap<Var, Sort>,
        chosen: &[(&Element, usize)],
    ) -> Result<Option<Consistent>> {
        let mut local = sorts.clone();
        let sorts = &mut local;
        let mut facts = d.pure.clone();
        let mut cells: Vec<Term> = d.points_to.iter().map(|p| p.ptr.clone()).collect();
        for (app, ((pair, dbm), _)) in d.preds.iter().zip(chosen) {
            let (fs, alloc) = instantiate(app, pair);
            facts.extend(fs);
            cells.extend(alloc);
            let args = int_args(self.defs, app);
            facts.extend(dbm.facts(&args));
            for c in self.cong.get(&(app.name.clone(), pair.clone())).into_iter().flatten() {
                facts.push(congruent(&args[c.i], c.r, c.g, sorts));
            }
            facts.extend(crate::invariant::instance(self.defs, &self.defs.invariants, app));
        }
        for (i, c) in cells.iter().enumerate() {
            facts.push(Pure::ne(c.clone(), Term::Null));
            for c2 in &cells[i + 1..] {
                facts.push(Pure::ne(c.clone(), c2.clone()));
            }
        }
        self.checks += 1;
        let ok = match decide(&facts, sorts) {
            PureResult::Unknown if self.ask_oracle => {
                self.oracle.check(&facts, sorts)? != PureResult::Unsat
            }
            PureResult::Unknown => true,
            r => r != PureResult::Unsat,
        };
        if !ok {
            return Ok(None);
        }
        let mut uf = TermUf::default();
        for p in &facts {
            if let Pure::Cmp(CmpOp::Eq, a, b) = p {
                if is_ref(a, sorts) && is_ref(b, sorts) && !uf.union(a, b) {
                    return Ok(None);
                }
            }
        }
        facts.extend(cells.iter().map(|c| Pure::Cmp(CmpOp::Lt, Term::Null, c.clone())));
        Ok(Some((uf, facts, local)))
    }
}

/// Zero, then the arguments of `app` for its predicate's integer parameters.
fn int_args(defs: &Defs, app: &PredApp) -> Vec<Term> {
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
