//! Deciding the pure part of a symbolic heap in Rust, before (and often instead of) the solver.
//!
//! DESIGN.md asks to decide trivial queries in Rust. Predicates of the papers' subjects use
//! *difference constraints* only (`lo < k`, `h == hl + 1`, `hl - hr <= 1`, `bh == bhl + 1`), and
//! a conjunction of those is decided exactly, with an integer model, by Bellman-Ford on the
//! constraint graph. References are decided by union-find (each class is `null` or one
//! location), booleans by assignment. Disjunctions (`||`, `!=` on integers) are split, up to a
//! budget. A fact outside this fragment (`x + y <= z`, `2 # x`) is left out of its branch: a
//! contradiction among the others still proves the branch unsatisfiable, while a model of them
//! proves nothing, so the answer is then `Unknown` (as when the budget runs out), and the
//! caller asks the SMT solver.

use crate::formula::{CmpOp, Pure, Sort, Term, Var};
use crate::normalize::simplify_pure;
use std::collections::BTreeMap;

/// A value in a pure model. References are abstract locations: `Null` or a class id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PureValue {
    Int(i64),
    Bool(bool),
    Null,
    Loc(usize),
}

/// The answer of the pure decision procedure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PureResult {
    Sat(BTreeMap<Var, PureValue>),
    Unsat,
    /// Outside the fragment or over budget: ask the solver.
    Unknown,
}

/// Decides the conjunction `facts`; `sorts` gives the sort of every variable.
pub fn decide(facts: &[Pure], sorts: &BTreeMap<Var, Sort>) -> PureResult {
    decide_counted(facts, sorts).0
}

/// Case splits a [`decide`] may make.
pub const SPLITS: usize = 4096;

/// [`decide`], also saying how many case splits it made (at most [`SPLITS`]): the work, for
/// callers that bound theirs.
pub fn decide_counted(facts: &[Pure], sorts: &BTreeMap<Var, Sort>) -> (PureResult, usize) {
    let mut work = Vec::new();
    for f in facts {
        push_nnf(&simplify_pure(f), false, &mut work);
    }
    let mut budget = SPLITS;
    let mut unknown = false;
    let res = search(work, Leaf::default(), sorts, &mut budget, &mut unknown);
    (decide_answer(res, unknown), SPLITS - budget)
}

fn decide_answer(res: Option<BTreeMap<Var, PureValue>>, unknown: bool) -> PureResult {
    match res {
        Some(m) => PureResult::Sat(m),
        None if unknown => PureResult::Unknown,
        None => PureResult::Unsat,
    }
}

/// Pushes `p` (negated when `neg`) in negation normal form.
fn push_nnf(p: &Pure, neg: bool, out: &mut Vec<Pure>) {
    match (p, neg) {
        (Pure::Not(q), n) => push_nnf(q, !n, out),
        (Pure::And(ps), false) => ps.iter().for_each(|q| push_nnf(q, false, out)),
        (Pure::Or(ps), true) => ps.iter().for_each(|q| push_nnf(q, true, out)),
        (Pure::And(ps), true) | (Pure::Or(ps), false) => {
            let branches = ps
                .iter()
                .map(|q| {
                    let mut v = Vec::new();
                    push_nnf(q, neg, &mut v);
                    Pure::And(v)
                })
                .collect();
            out.push(Pure::Or(branches));
        }
        (Pure::Const(b), n) => out.push(Pure::Const(*b != n)),
        (Pure::Cmp(op, a, b), false) => out.push(Pure::Cmp(*op, a.clone(), b.clone())),
        (Pure::Cmp(op, a, b), true) => out.push(match op {
            CmpOp::Eq => Pure::Cmp(CmpOp::Ne, a.clone(), b.clone()),
            CmpOp::Ne => Pure::Cmp(CmpOp::Eq, a.clone(), b.clone()),
            CmpOp::Lt => Pure::Cmp(CmpOp::Le, b.clone(), a.clone()),
            CmpOp::Le => Pure::Cmp(CmpOp::Lt, b.clone(), a.clone()),
        }),
    }
}

/// Atomic facts collected along one branch.
#[derive(Clone, Default)]
struct Leaf {
    /// `x - y <= c` over integer variables ("" is the constant zero).
    /// `(x, y, c)`: `x - y <= c`. In `i128`: the constants are `i64`s and negating or
    /// adding them must not wrap (`x - y + i64::MIN <= 0`).
    edges: Vec<(Var, Var, i128)>,
    ref_eq: Vec<(Term, Term)>,
    ref_ne: Vec<(Term, Term)>,
    bools: Vec<(Var, bool)>,
    /// A fact outside the fragment was left out: the leaf's facts are then a relaxation, whose
    /// contradiction is a proof and whose model is not.
    relaxed: bool,
}

fn search(
    mut work: Vec<Pure>,
    mut leaf: Leaf,
    sorts: &BTreeMap<Var, Sort>,
    budget: &mut usize,
    unknown: &mut bool,
) -> Option<BTreeMap<Var, PureValue>> {
    if *budget == 0 {
        *unknown = true;
        return None;
    }
    *budget -= 1;
    while let Some(p) = work.pop() {
        match p {
            Pure::Const(true) => {}
            Pure::Const(false) => return None,
            Pure::And(ps) => work.extend(ps),
            Pure::Not(q) => push_nnf(&q, true, &mut work),
            Pure::Or(ps) => {
                for q in ps {
                    let mut w = work.clone();
                    w.push(q);
                    if let Some(m) = search(w, leaf.clone(), sorts, budget, unknown) {
                        return Some(m);
                    }
                }
                return None;
            }
            Pure::Cmp(op, a, b) => {
                let kind = kind_of(&a, sorts).or_else(|| kind_of(&b, sorts));
                match kind {
                    Some(Kind::Ref) => match op {
                        CmpOp::Eq => leaf.ref_eq.push((a, b)),
                        CmpOp::Ne => leaf.ref_ne.push((a, b)),
                        _ => leaf.relaxed = true,
                    },
                    Some(Kind::Bool) => {
                        let (v, c) = match (&a, &b) {
                            (Term::Var(v), Term::Bool(c)) | (Term::Bool(c), Term::Var(v)) => {
                                (v.clone(), *c)
                            }
                            _ => {
                                leaf.relaxed = true;
                                continue;
                            }
                        };
                        match op {
                            CmpOp::Eq => leaf.bools.push((v, c)),
                            CmpOp::Ne => leaf.bools.push((v, !c)),
                            _ => leaf.relaxed = true,
                        }
                    }
                    _ => {
                        // Integers: a - b = Σ c·v + k must be a difference.
                        let Some(d) = difference(&a, &b) else {
                            leaf.relaxed = true;
                            continue;
                        };
                        let (x, y, k) = d; // x - y + k  op  0
                        match op {
                            CmpOp::Le => leaf.edges.push((x, y, -k)),
                            CmpOp::Lt => leaf.edges.push((x, y, -k - 1)),
                            CmpOp::Eq => {
                                leaf.edges.push((x.clone(), y.clone(), -k));
                                leaf.edges.push((y, x, k));
                            }
                            CmpOp::Ne => {
                                let lt = Pure::Cmp(CmpOp::Lt, a.clone(), b.clone());
                                let gt = Pure::Cmp(CmpOp::Lt, b, a);
                                work.push(Pure::Or(vec![lt, gt]));
                            }
                        }
                    }
                }
            }
        }
    }
    // A fact outside the fragment (`2 # q + r`, a wrapped int) is left out rather than ending
    // the branch as unknown: the rest often contradicts by itself (a height below zero under
    // an AVL invariant), and that proves the whole branch unsatisfiable.
    let model = solve_leaf(&leaf, sorts, unknown)?;
    if leaf.relaxed {
        *unknown = true;
        return None;
    }
    Some(model)
}

enum Kind {
    Ref,
    Bool,
    Int,
}

fn kind_of(t: &Term, sorts: &BTreeMap<Var, Sort>) -> Option<Kind> {
    match t {
        Term::Null => Some(Kind::Ref),
        Term::Bool(_) => Some(Kind::Bool),
        Term::Var(v) => match sorts.get(v)? {
            Sort::Ref(_) => Some(Kind::Ref),
            Sort::Bool => Some(Kind::Bool),
            Sort::Int => Some(Kind::Int),
        },
        _ => Some(Kind::Int),
    }
}

/// `a - b` as `x - y + k` (either variable may be "" for zero); `None` if not a difference.
/// The constant is an `i128`: `i64::MIN <= x + 1` (an overflow check) moves `i64::MIN - 1`
/// across, which no `i64` holds.
pub(crate) fn difference(a: &Term, b: &Term) -> Option<(Var, Var, i128)> {
    let mut coeffs = BTreeMap::new();
    let mut k = 0i128;
    linear_into(a, 1, &mut coeffs, &mut k)?;
    linear_into(b, -1, &mut coeffs, &mut k)?;
    coeffs.retain(|_, c| *c != 0);
    let mut x = String::new();
    let mut y = String::new();
    for (v, c) in coeffs {
        match c {
            1 if x.is_empty() => x = v,
            -1 if y.is_empty() => y = v,
            _ => return None,
        }
    }
    Some((x, y, k))
}

fn linear_into(t: &Term, sign: i64, coeffs: &mut BTreeMap<Var, i64>, k: &mut i128) -> Option<()> {
    match t {
        Term::Var(v) => *coeffs.entry(v.clone()).or_insert(0) += sign,
        Term::Int(i) => *k = k.checked_add(i128::from(sign).checked_mul(i128::from(*i))?)?,
        Term::Add(a, b) => {
            linear_into(a, sign, coeffs, k)?;
            linear_into(b, sign, coeffs, k)?;
        }
        Term::Sub(a, b) => {
            linear_into(a, sign, coeffs, k)?;
            linear_into(b, -sign, coeffs, k)?;
        }
        Term::Neg(a) => linear_into(a, -sign, coeffs, k)?,
        Term::Mul(a, b) => match (a.simplify(), b.simplify()) {
            (Term::Int(c), t) | (t, Term::Int(c)) => {
                linear_into(&t, sign.checked_mul(c)?, coeffs, k)?
            }
            _ => return None,
        },
        Term::Null | Term::Bool(_) => return None,
    }
    Some(())
}

/// A model of the leaf's facts; `None` when they contradict, or (with `unknown` set) when every
/// model needs an integer outside the `i64` range.
fn solve_leaf(
    leaf: &Leaf,
    sorts: &BTreeMap<Var, Sort>,
    unknown: &mut bool,
) -> Option<BTreeMap<Var, PureValue>> {
    let mut model = BTreeMap::new();
    // Booleans.
    for (v, c) in &leaf.bools {
        match model.insert(v.clone(), PureValue::Bool(*c)) {
            Some(PureValue::Bool(d)) if d != *c => return None,
            _ => {}
        }
    }
    // References: union-find, then null or a location per class.
    let mut uf = crate::normalize::TermUf::default();
    for (a, b) in &leaf.ref_eq {
        if !uf.union(a, b) {
            return None;
        }
    }
    for (a, b) in &leaf.ref_ne {
        if uf.find(a) == uf.find(b) {
            return None;
        }
    }
    let mut locs: BTreeMap<Term, usize> = BTreeMap::new();
    for (v, s) in sorts {
        if matches!(s, Sort::Ref(_)) {
            let r = uf.find(&Term::Var(v.clone()));
            let val = if r == Term::Null {
                PureValue::Null
            } else {
                let n = locs.len();
                PureValue::Loc(*locs.entry(r).or_insert(n))
            };
            model.insert(v.clone(), val);
        }
    }
    // Integers: Bellman-Ford from a virtual source; "" is zero.
    let mut nodes: Vec<Var> = vec![String::new()];
    for (x, y, _) in &leaf.edges {
        for v in [x, y] {
            if !nodes.contains(v) {
                nodes.push(v.clone());
            }
        }
    }
    let index: BTreeMap<&Var, usize> = nodes.iter().enumerate().map(|(i, v)| (v, i)).collect();
    let mut dist = vec![0i128; nodes.len()];
    let edges: Vec<(usize, usize, i128)> = leaf
        .edges
        .iter()
        .filter_map(|(x, y, c)| Some((*index.get(y)?, *index.get(x)?, *c)))
        .collect();
    for round in 0..=nodes.len() {
        let mut changed = false;
        for &(from, to, w) in &edges {
            let cand = dist[from] + w;
            if cand < dist[to] {
                dist[to] = cand;
                changed = true;
            }
        }
        if !changed {
            break;
        }
        if round == nodes.len() {
            return None; // Negative cycle: the difference constraints are contradictory.
        }
    }
    let zero = dist[0];
    for (i, v) in nodes.iter().enumerate().skip(1) {
        // The shortest-path solution is one model; another may fit where it does not, so a
        // value out of range is "unknown", not "unsatisfiable".
        let Ok(value) = i64::try_from(dist[i] - zero) else {
            *unknown = true;
            return None;
        };
        model.insert(v.clone(), PureValue::Int(value));
    }
    for (v, s) in sorts {
        match s {
            Sort::Int => {
                model.entry(v.clone()).or_insert(PureValue::Int(0));
            }
            Sort::Bool => {
                model.entry(v.clone()).or_insert(PureValue::Bool(false));
            }
            Sort::Ref(_) => {}
        }
    }
    Some(model)
}

/// [`decide`] after the integer variables that the facts pin to one value are substituted:
/// `v == c`, `c <= v` with `v <= c`, and a linear equality left with one unknown of
/// coefficient ±1 once the pinned ones are in (`320001 == n1 + n2 + 1` with `n1 == 0`). The
/// substitution keeps the conjunction equivalent, and what is left is often a difference
/// problem that [`decide`] settles in-process, where the sum alone would go to the solver:
/// one instance of a model grown 320 000 instances deep (`crate::grow`) is such a step.
pub fn decide_pinned(facts: &[Pure], sorts: &BTreeMap<Var, Sort>) -> PureResult {
    let mut facts: Vec<Pure> = facts.to_vec();
    let mut pinned: BTreeMap<Var, i64> = BTreeMap::new();
    loop {
        let mut found: BTreeMap<Var, i64> = BTreeMap::new();
        let mut lo: BTreeMap<Var, i128> = BTreeMap::new();
        let mut hi: BTreeMap<Var, i128> = BTreeMap::new();
        for f in &facts {
            let Pure::Cmp(op, a, b) = f else { continue };
            let mut coeffs = BTreeMap::new();
            let mut k = 0i128;
            if linear_into(a, 1, &mut coeffs, &mut k).is_none()
                || linear_into(b, -1, &mut coeffs, &mut k).is_none()
            {
                continue;
            }
            coeffs.retain(|_, c| *c != 0);
            // `c·v + k (op) 0` with one integer unknown of coefficient ±1.
            let mut it = coeffs.into_iter();
            let (Some((v, c)), None) = (it.next(), it.next()) else { continue };
            if !matches!(sorts.get(&v), Some(Sort::Int)) || !(c == 1 || c == -1) {
                continue;
            }
            let c = i128::from(c);
            match op {
                CmpOp::Eq => {
                    if let Ok(x) = i64::try_from(-k * c) {
                        found.entry(v).or_insert(x);
                    }
                }
                CmpOp::Le | CmpOp::Lt => {
                    // c·v <= -k (or < -k, i.e. <= -k - 1).
                    let bound = -k - i128::from(*op == CmpOp::Lt);
                    if c == 1 {
                        let h = hi.entry(v).or_insert(bound);
                        *h = (*h).min(bound);
                    } else {
                        let l = lo.entry(v).or_insert(-bound);
                        *l = (*l).max(-bound);
                    }
                }
                CmpOp::Ne => {}
            }
        }
        for (v, l) in &lo {
            if hi.get(v) == Some(l) {
                if let Ok(x) = i64::try_from(*l) {
                    found.entry(v.clone()).or_insert(x);
                }
            }
        }
        if found.is_empty() {
            break;
        }
        let subst: BTreeMap<Var, Term> =
            found.iter().map(|(v, x)| (v.clone(), Term::Int(*x))).collect();
        facts = facts.iter().map(|f| simplify_pure(&f.subst(&subst))).collect();
        pinned.extend(found);
    }
    match decide(&facts, sorts) {
        PureResult::Sat(mut m) => {
            for (v, x) in pinned {
                m.insert(v, PureValue::Int(x));
            }
            PureResult::Sat(m)
        }
        r => r,
    }
}
