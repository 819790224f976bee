//! Normalisation of symbolic heaps: cheap, syntactic, and sound.
//!
//! It folds constants, flattens conjunctions, eliminates existentials that are equal to some
//! other term (substituting them away), and detects contradictions a solver would also find but
//! that we can see for free: `x -> _ * x -> _` (the same cell twice), `null -> _`, `x != x`, two
//! different constants in one equality class, and ground comparisons that are false. `None`
//! means "this heap is unsatisfiable". Reference (dis)equalities are decided here by union-find,
//! so the arithmetic layer only ever sees integers.

use crate::formula::{CmpOp, PointsTo, Pure, SymHeap, Term, Var};
use std::collections::BTreeMap;

/// Normalises `sh`; `None` when a contradiction was found.
pub fn normalize(sh: SymHeap) -> Option<SymHeap> {
    let mut sh = sh;
    let mut pure = Vec::new();
    for p in std::mem::take(&mut sh.pure) {
        simplify_pure(&p).conjuncts_into(&mut pure);
    }
    sh.pure = pure;
    if sh.pure.iter().any(|p| matches!(p, Pure::Const(false))) {
        return None;
    }
    eliminate_existentials(&mut sh);
    // Substitution may have made more facts ground.
    let mut pure = Vec::new();
    for p in std::mem::take(&mut sh.pure) {
        simplify_pure(&p).conjuncts_into(&mut pure);
    }
    if pure.iter().any(|p| matches!(p, Pure::Const(false))) {
        return None;
    }
    pure.sort();
    pure.dedup();
    sh.pure = pure;
    for pt in &mut sh.points_to {
        pt.ptr = pt.ptr.simplify();
        for (_, t) in &mut pt.fields {
            *t = t.simplify();
        }
    }
    for p in &mut sh.preds {
        for t in &mut p.args {
            *t = t.simplify();
        }
    }
    // Drop existentials that no longer occur.
    let used = sh.all_vars();
    sh.exists.retain(|(v, _)| used.contains(v));
    if spatial_contradiction(&sh) {
        return None;
    }
    Some(sh)
}

/// Folds constants inside a pure fact and decides ground comparisons.
pub fn simplify_pure(p: &Pure) -> Pure {
    match p {
        Pure::Const(b) => Pure::Const(*b),
        Pure::Cmp(op, a, b) => {
            let (a, b) = (a.simplify(), b.simplify());
            if a == b {
                return Pure::Const(matches!(op, CmpOp::Eq | CmpOp::Le));
            }
            if a.is_ground() && b.is_ground() {
                if let Some(v) = eval_ground(*op, &a, &b) {
                    return Pure::Const(v);
                }
            }
            Pure::Cmp(*op, a, b)
        }
        Pure::Not(q) => match simplify_pure(q) {
            Pure::Const(b) => Pure::Const(!b),
            Pure::Cmp(CmpOp::Eq, a, b) => Pure::Cmp(CmpOp::Ne, a, b),
            Pure::Cmp(CmpOp::Ne, a, b) => Pure::Cmp(CmpOp::Eq, a, b),
            Pure::Cmp(CmpOp::Lt, a, b) => Pure::Cmp(CmpOp::Le, b, a),
            Pure::Cmp(CmpOp::Le, a, b) => Pure::Cmp(CmpOp::Lt, b, a),
            q => Pure::Not(Box::new(q)),
        },
        Pure::And(ps) => {
            let mut out = Vec::new();
            for q in ps {
                match simplify_pure(q) {
                    Pure::Const(true) => {}
                    Pure::Const(false) => return Pure::Const(false),
                    q => q.conjuncts_into(&mut out),
                }
            }
            match out.len() {
                0 => Pure::Const(true),
                1 => out.pop().unwrap_or(Pure::Const(true)),
                _ => Pure::And(out),
            }
        }
        Pure::Or(ps) => {
            let mut out = Vec::new();
            for q in ps {
                match simplify_pure(q) {
                    Pure::Const(false) => {}
                    Pure::Const(true) => return Pure::Const(true),
                    q => out.push(q),
                }
            }
            match out.len() {
                0 => Pure::Const(false),
                1 => out.pop().unwrap_or(Pure::Const(false)),
                _ => Pure::Or(out),
            }
        }
    }
}

fn eval_ground(op: CmpOp, a: &Term, b: &Term) -> Option<bool> {
    match (a, b) {
        (Term::Int(x), Term::Int(y)) => Some(match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
        }),
        (Term::Bool(_) | Term::Null, Term::Bool(_) | Term::Null) => match op {
            CmpOp::Eq => Some(a == b),
            CmpOp::Ne => Some(a != b),
            _ => None,
        },
        _ => None,
    }
}

/// Substitutes away every existential `v` with a top-level fact `v == t` (`t` not mentioning
/// `v`). Free variables are never substituted: they are the store's domain and must keep a value.
fn eliminate_existentials(sh: &mut SymHeap) {
    loop {
        let mut found = None;
        for (i, p) in sh.pure.iter().enumerate() {
            if let Pure::Cmp(CmpOp::Eq, a, b) = p {
                for (x, t) in [(a, b), (b, a)] {
                    if let Term::Var(v) = x {
                        if sh.sort_of(v).is_some() && !t.mentions(v) {
                            found = Some((i, v.clone(), t.clone()));
                            break;
                        }
                    }
                }
                if found.is_some() {
                    break;
                }
            }
        }
        let Some((i, v, t)) = found else { return };
        sh.pure.remove(i);
        sh.exists.retain(|(w, _)| w != &v);
        let s = BTreeMap::from([(v, t)]);
        sh.points_to = sh.points_to.iter().map(|p| p.subst(&s)).collect();
        sh.preds = sh.preds.iter().map(|p| p.subst(&s)).collect();
        sh.pure = sh.pure.iter().map(|p| p.subst(&s)).collect();
    }
}

/// Union-find over atomic terms (variables and constants).
#[derive(Default)]
pub struct TermUf {
    parent: BTreeMap<Term, Term>,
}

impl TermUf {
    pub fn find(&mut self, t: &Term) -> Term {
        let mut cur = t.clone();
        let mut guard = 0;
        while let Some(p) = self.parent.get(&cur) {
            if *p == cur || guard > 10_000 {
                break;
            }
            cur = p.clone();
            guard += 1;
        }
        cur
    }

    /// Merges the classes; returns false when that puts two different constants together.
    pub fn union(&mut self, a: &Term, b: &Term) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return true;
        }
        let (ca, cb) = (ra.is_ground(), rb.is_ground());
        if ca && cb {
            return false;
        }
        // Constants stay representatives.
        if ca {
            self.parent.insert(rb, ra);
        } else {
            self.parent.insert(ra, rb);
        }
        true
    }
}

fn atomic(t: &Term) -> bool {
    matches!(t, Term::Var(_) | Term::Null | Term::Int(_) | Term::Bool(_))
}

/// Builds the equality classes of the heap's top-level atomic equalities; `None` on conflict.
pub fn equality_classes(sh: &SymHeap) -> Option<TermUf> {
    let mut uf = TermUf::default();
    for p in &sh.pure {
        if let Pure::Cmp(CmpOp::Eq, a, b) = p {
            if atomic(a) && atomic(b) && !uf.union(a, b) {
                return None;
            }
        }
    }
    Some(uf)
}

/// `x -> _ * x -> _`, `null -> _`, `x != x` modulo the heap's equalities.
fn spatial_contradiction(sh: &SymHeap) -> bool {
    let Some(mut uf) = equality_classes(sh) else { return true };
    for p in &sh.pure {
        if let Pure::Cmp(CmpOp::Ne, a, b) = p {
            if atomic(a) && atomic(b) && uf.find(a) == uf.find(b) {
                return true;
            }
        }
    }
    let mut roots: std::collections::BTreeSet<Term> = std::collections::BTreeSet::new();
    for PointsTo { ptr, .. } in &sh.points_to {
        let r = uf.find(ptr);
        if r.is_ground() || !roots.insert(r) {
            return true;
        }
    }
    // A root known to differ from nothing else is fine; a root equal to `null` was caught above.
    false
}

/// The representative variable names of the allocated cells, in points-to order.
pub fn roots(sh: &SymHeap) -> Vec<Var> {
    sh.points_to.iter().filter_map(|p| p.ptr.as_var().map(str::to_string)).collect()
}
