//! Pure invariants of the predicates: integer facts every instance implies, such as
//! `-1 <= h` for an AVL tree's height or `lo <= hi` for a sorted segment.
//!
//! Why: the unfolding search ([`crate::search`]) prunes a partial heap when its pure part is
//! unsatisfiable, but the instances still folded in it say nothing about their arguments. A
//! height forced to `-2` by the path passes every check, and the search then unfolds that
//! instance to its depth bound in every combination (three recursive disjuncts with two
//! children each) before it gives up. With each folded instance replaced by its invariant, as
//! S2SAT_SL over-approximates predicates (digest seed-000 §4.6), the contradiction shows at once.
//!
//! How: Houdini-style. Candidates per predicate are comparisons of an integer parameter with a
//! constant of the definition (or 0), and between two integer parameters. A candidate survives
//! when every disjunct implies it, assuming the surviving candidates of the instances in the
//! disjunct — checked by [`crate::arith::decide`], and by the linear integer procedure of
//! `heaplab_smt` where facts are not difference constraints (a tree's size `n == l + r + 1`
//! gives `0 <= n`): a proof of unsatisfiability of the disjunct with the candidate negated;
//! `Unknown` drops the candidate. Rounds repeat until nothing is
//! dropped. What survives holds of every finite unfolding (induction on the unfolding), so
//! pruning with it is sound; it is not necessarily the strongest invariant.

use crate::arith::{decide, PureResult};
use crate::formula::{CmpOp, Defs, PredApp, Pure, Sort, Subst, SymHeap, Term, Var};
use std::collections::{BTreeMap, BTreeSet};

/// A predicate's invariant: conjuncts over its parameters.
pub type Invariant = Vec<Pure>;

/// Candidates per predicate, at most (the constant bounds first).
const MAX_CANDIDATES: usize = 96;

/// Implication checks for the whole program, at most: `Defs::from_program` computes the
/// invariants, and it runs on every edit in the playground, so a program with huge predicates
/// gets no invariants (sound: the search only prunes less) rather than a slow editor. The
/// examples need at most about 200 (the TreeMap); 60 predicates with 6 int parameters and 6
/// disjuncts each reach the cap in about 0.1 s of a debug build.
const MAX_CHECKS: usize = 4_000;

/// Computes the invariant of every predicate of `defs`.
pub fn invariants(defs: &Defs) -> BTreeMap<String, Invariant> {
    let mut inv: BTreeMap<String, Invariant> =
        defs.preds.iter().map(|(n, d)| (n.clone(), candidates(&d.params, &d.body))).collect();
    let nothing = || defs.preds.keys().map(|n| (n.clone(), Vec::new())).collect();
    let mut checks = 0usize;
    // Every round drops at least one candidate or stops, so this terminates; `MAX_CHECKS`
    // bounds the work.
    loop {
        let mut dropped = false;
        for (name, def) in &defs.preds {
            let current = inv.get(name).cloned().unwrap_or_default();
            let mut kept = Vec::new();
            for cand in current {
                checks += def.body.len();
                if checks > MAX_CHECKS {
                    return nothing();
                }
                let holds = def.body.iter().all(|d| implies(defs, &inv, &def.params, d, &cand));
                if holds {
                    kept.push(cand);
                } else {
                    dropped = true;
                }
            }
            inv.insert(name.clone(), kept);
        }
        if !dropped {
            return inv;
        }
    }
}

/// The invariant of the instance `app`, with its arguments for the parameters.
pub fn instance(defs: &Defs, inv: &BTreeMap<String, Invariant>, app: &PredApp) -> Vec<Pure> {
    let (Some(def), Some(facts)) = (defs.preds.get(&app.name), inv.get(&app.name)) else {
        return Vec::new();
    };
    let s: Subst =
        def.params.iter().map(|(v, _)| v.clone()).zip(app.args.iter().cloned()).collect();
    facts.iter().map(|f| f.subst(&s)).collect()
}

/// `c <= p`, `p <= c` for each integer parameter `p` and constant `c` of the body (and 0);
/// `p < q`, `p <= q` for each ordered pair of integer parameters.
fn candidates(params: &[(Var, Sort)], body: &[SymHeap]) -> Invariant {
    let ints: Vec<&Var> = params.iter().filter(|(_, s)| *s == Sort::Int).map(|(v, _)| v).collect();
    if ints.is_empty() {
        return Vec::new();
    }
    let mut consts = BTreeSet::from([0i64]);
    for d in body {
        for p in &d.pure {
            constants(p, &mut consts);
        }
    }
    let var = |v: &Var| Term::Var(v.clone());
    let mut out = Vec::new();
    for p in &ints {
        for c in &consts {
            out.push(Pure::cmp(CmpOp::Le, Term::Int(*c), var(p)));
            out.push(Pure::cmp(CmpOp::Le, var(p), Term::Int(*c)));
        }
    }
    for p in &ints {
        for q in &ints {
            if p != q {
                out.push(Pure::cmp(CmpOp::Lt, var(p), var(q)));
                out.push(Pure::cmp(CmpOp::Le, var(p), var(q)));
            }
        }
    }
    out.truncate(MAX_CANDIDATES);
    out
}

fn constants(p: &Pure, acc: &mut BTreeSet<i64>) {
    fn term(t: &Term, acc: &mut BTreeSet<i64>) {
        if let (true, Term::Int(n)) = (t.is_ground(), t.simplify()) {
            // `-1` is `Neg(1)` in the syntax tree.
            acc.insert(n);
            return;
        }
        match t {
            Term::Int(n) => {
                acc.insert(*n);
            }
            Term::Add(a, b) | Term::Sub(a, b) | Term::Mul(a, b) => {
                term(a, acc);
                term(b, acc);
            }
            Term::Neg(a) => term(a, acc),
            Term::Var(_) | Term::Null | Term::Bool(_) => {}
        }
    }
    match p {
        Pure::Cmp(_, a, b) => {
            term(a, acc);
            term(b, acc);
        }
        Pure::Not(q) => constants(q, acc),
        Pure::And(qs) | Pure::Or(qs) => qs.iter().for_each(|q| constants(q, acc)),
        Pure::Const(_) => {}
    }
}

/// Does disjunct `d` (over `params`) imply `cand`, given the invariants of its instances?
fn implies(
    defs: &Defs,
    inv: &BTreeMap<String, Invariant>,
    params: &[(Var, Sort)],
    d: &SymHeap,
    cand: &Pure,
) -> bool {
    let mut sorts: BTreeMap<Var, Sort> = params.iter().cloned().collect();
    sorts.extend(d.exists.iter().cloned());
    let mut facts = d.pure.clone();
    for app in &d.preds {
        facts.extend(instance(defs, inv, app));
    }
    facts.push(Pure::Not(Box::new(cand.clone())));
    match decide(&facts, &sorts) {
        // Beyond difference constraints (a tree's size `n == l + r + 1`), the linear
        // procedure in-process decides it.
        PureResult::Unknown => crate::smt::lia(&facts, &sorts) == PureResult::Unsat,
        r => r == PureResult::Unsat,
    }
}
