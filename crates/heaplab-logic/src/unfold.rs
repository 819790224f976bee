//! Unfolding predicate instances, and JSF's least-fixed-point precomputation of base unfoldings
//! (Algorithm 1 of the JSF paper; see `papers/digests/seed-000-jsf.md` §4.4).
//!
//! `unfold_at` replaces one instance by each disjunct of its definition, α-renamed so the new
//! existentials are fresh. `lfp` unfolds *all* instances at once, round after round, and stops
//! when the abstraction of the contexts (which parameters are allocated, their reference fields,
//! (dis)equalities among reference parameters and null; arithmetic ignored, as in the paper) no
//! longer grows. It returns the contexts of the previous round, as the paper does. Because the
//! cost of unfolding everything grows like 1, 2, 5, 26, 677 for trees, the rounds and the number
//! of contexts are capped; a capped result says so (`converged: false`).

use crate::formula::{CmpOp, Defs, Fresh, PredApp, PredDef, Pure, Sort, SymHeap, Term};
use crate::normalize::{equality_classes, normalize, TermUf};
use std::collections::{BTreeMap, BTreeSet};

/// The disjuncts of `def` instantiated with `args`: existentials renamed fresh, parameters
/// replaced by the arguments, nested instances one level deeper than `depth`.
pub fn instantiate(def: &PredDef, args: &[Term], depth: u32, fresh: &mut Fresh) -> Vec<SymHeap> {
    let subst: BTreeMap<_, _> =
        def.params.iter().map(|(v, _)| v.clone()).zip(args.iter().cloned()).collect();
    def.body
        .iter()
        .map(|d| {
            let mut d = d.freshen(fresh);
            d.exists.retain(|(v, _)| !subst.contains_key(v));
            let mut out = SymHeap {
                exists: d.exists.clone(),
                points_to: d.points_to.iter().map(|p| p.subst(&subst)).collect(),
                preds: d.preds.iter().map(|p| p.subst(&subst)).collect(),
                pure: d.pure.iter().map(|p| p.subst(&subst)).collect(),
            };
            for p in &mut out.preds {
                p.depth = depth + 1;
            }
            out
        })
        .collect()
}

/// `sh` with its `idx`-th predicate instance replaced by `part`.
pub fn splice(sh: &SymHeap, idx: usize, part: SymHeap) -> SymHeap {
    let mut out = sh.clone();
    out.preds.remove(idx);
    out.exists.extend(part.exists);
    out.points_to.extend(part.points_to);
    out.preds.extend(part.preds);
    out.pure.extend(part.pure);
    out
}

/// Unfolds the `idx`-th predicate instance of `sh` into one heap per disjunct of its definition
/// (not normalised; contradictory results are kept so callers can count them). Unknown
/// predicates unfold to nothing (false).
pub fn unfold_at(defs: &Defs, sh: &SymHeap, idx: usize, fresh: &mut Fresh) -> Vec<SymHeap> {
    let Some(app) = sh.preds.get(idx) else { return vec![sh.clone()] };
    let Some(def) = defs.preds.get(&app.name) else { return Vec::new() };
    instantiate(def, &app.args, app.depth, fresh)
        .into_iter()
        .map(|part| splice(sh, idx, part))
        .collect()
}

/// One predicate's result of the least-fixed-point analysis.
#[derive(Clone, Debug)]
pub struct LfpEntry {
    /// `SV_i`: the contexts of `P_i(params)`, each a symbolic heap over the parameters.
    pub contexts: Vec<SymHeap>,
    /// For each context, the disjunct of the predicate's body it unfolds (its first step), or
    /// `None` for the instance itself (when not even one round was kept). The contexts of
    /// disjunct `j` together are equivalent to disjunct `j`, so a caller can rule a disjunct out
    /// by ruling out each of its contexts (the engine's `enum` rule does).
    pub origins: Vec<Option<usize>>,
    /// The abstraction `A_i` of the returned contexts, one line per disjunct (for display).
    pub abstraction: Vec<String>,
}

/// The result of [`lfp`].
#[derive(Clone, Debug)]
pub struct Lfp {
    pub preds: BTreeMap<String, LfpEntry>,
    /// Rounds run (the paper's Example 1 stops after 2 and returns round 1).
    pub rounds: usize,
    /// False when a cap (rounds or contexts) stopped the iteration before the fixed point.
    pub converged: bool,
}

/// Caps for [`lfp`].
#[derive(Clone, Copy, Debug)]
pub struct LfpLimits {
    pub max_rounds: usize,
    pub max_contexts: usize,
}

impl Default for LfpLimits {
    fn default() -> Self {
        LfpLimits { max_rounds: 8, max_contexts: 4000 }
    }
}

/// Algorithm 1: least fixed point of base unfoldings for every predicate of `defs`.
pub fn lfp(defs: &Defs, limits: LfpLimits) -> Lfp {
    let mut fresh = Fresh::new();
    let names: Vec<&String> = defs.preds.keys().collect();
    let mut sv: BTreeMap<String, Vec<(SymHeap, Option<usize>)>> = BTreeMap::new();
    let mut abs: BTreeMap<String, Vec<AbsDisjunct>> = BTreeMap::new();
    for name in &names {
        let Some(def) = defs.preds.get(*name) else { continue };
        let args = def.params.iter().map(|(v, _)| Term::Var(v.clone())).collect();
        let start = SymHeap {
            preds: vec![PredApp { name: (*name).clone(), args, depth: 0 }],
            ..SymHeap::default()
        };
        sv.insert((*name).clone(), vec![(start, None)]);
        abs.insert((*name).clone(), Vec::new());
    }
    // Unfolding replaces instances by their *definitions*, so each SV_i evolves on its own and
    // only the joint stopping test couples the predicates. We stop each predicate at its own
    // fixed point, which is what running Algorithm 1 on that predicate alone would return.
    let mut rounds = 0;
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut capped: BTreeSet<String> = BTreeSet::new();
    while rounds < limits.max_rounds && done.len() + capped.len() < names.len() {
        rounds += 1;
        for name in &names {
            if done.contains(*name) || capped.contains(*name) {
                continue;
            }
            let Some(def) = defs.preds.get(*name) else { continue };
            let mut out = Vec::new();
            for (d, origin) in sv.get(*name).map(Vec::as_slice).unwrap_or(&[]) {
                let mark = out.len();
                unfold_all(defs, d, &mut fresh, &mut out, limits.max_contexts);
                // A context keeps its disjunct; the start heap is the instance alone, so the
                // choice for its one atom is the disjunct.
                for (_, o) in &mut out[mark..] {
                    *o = origin.or(*o);
                }
            }
            let too_big = out.len() >= limits.max_contexts;
            let mut a: Vec<AbsDisjunct> =
                out.iter().filter_map(|(d, _)| abstract_heap(def, d)).collect();
            a.sort();
            a.dedup();
            let old = abs.get(*name).map(Vec::as_slice).unwrap_or(&[]);
            if a.iter().all(|d| old.iter().any(|o| d.implies(o))) {
                done.insert((*name).clone());
                continue;
            }
            if too_big {
                // Keep the previous round: it is still an exact unfolding, just not the fixed point.
                capped.insert((*name).clone());
                continue;
            }
            sv.insert((*name).clone(), out);
            abs.insert((*name).clone(), a);
        }
    }
    let converged = names.iter().all(|n| done.contains(*n));
    let preds = sv
        .into_iter()
        .map(|(name, contexts)| {
            let abstraction = abs
                .get(&name)
                .map(|a| a.iter().map(|d| d.to_string()).collect())
                .unwrap_or_default();
            let (contexts, origins) = contexts.into_iter().unzip();
            (name, LfpEntry { contexts, origins, abstraction })
        })
        .collect();
    Lfp { preds, rounds, converged }
}

/// Replaces every predicate instance of `d` at once (the cartesian product of their disjuncts),
/// dropping contradictory results. Predicate-free heaps carry forward unchanged. Each result
/// comes with the disjunct chosen for `d`'s first instance (`None` when `d` has none).
fn unfold_all(
    defs: &Defs,
    d: &SymHeap,
    fresh: &mut Fresh,
    out: &mut Vec<(SymHeap, Option<usize>)>,
    cap: usize,
) {
    if d.preds.is_empty() {
        out.push((d.clone(), None));
        return;
    }
    let mut partial = vec![(SymHeap { preds: Vec::new(), ..d.clone() }, None)];
    for app in &d.preds {
        let Some(def) = defs.preds.get(&app.name) else { return };
        let mut next = Vec::new();
        for (p, first) in &partial {
            for (j, part) in instantiate(def, &app.args, app.depth, fresh).into_iter().enumerate() {
                let mut q = p.clone();
                q.exists.extend(part.exists);
                q.points_to.extend(part.points_to);
                q.preds.extend(part.preds);
                q.pure.extend(part.pure);
                if let Some(q) = normalize(q) {
                    next.push((q, first.or(Some(j))));
                }
                if out.len() + next.len() >= cap {
                    break;
                }
            }
        }
        partial = next;
    }
    for p in partial {
        if out.len() >= cap {
            return;
        }
        out.push(p);
    }
}

/// A field argument in the abstraction: another reference parameter (by index), null, or `*`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum AbsArg {
    Param(usize),
    Null,
    Star,
}

/// One disjunct of `A_i`: allocated reference parameters with their reference fields, the
/// partition of reference parameters (representative per parameter, or null), disequalities.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct AbsDisjunct {
    params: Vec<String>,
    alloc: BTreeMap<usize, (String, Vec<AbsArg>)>,
    /// For each reference parameter (by parameter index): its class representative.
    rep: Vec<(usize, AbsArg)>,
    diseq: BTreeSet<(AbsArg, AbsArg)>,
}

/// `abs(Π(κ ∧ α, t̄), t̄)`; `None` for `false` (a remaining instance mentions a parameter).
fn abstract_heap(def: &PredDef, d: &SymHeap) -> Option<AbsDisjunct> {
    let ref_params: Vec<(usize, &String)> = def
        .params
        .iter()
        .enumerate()
        .filter(|(_, (_, s))| matches!(s, Sort::Ref(_)))
        .map(|(i, (v, _))| (i, v))
        .collect();
    let mut uf: TermUf = equality_classes(d)?;
    let rep_of = |t: &Term, uf: &mut TermUf| -> AbsArg {
        let r = uf.find(t);
        if r == Term::Null {
            return AbsArg::Null;
        }
        for (i, v) in &ref_params {
            if uf.find(&Term::Var((*v).clone())) == r {
                return AbsArg::Param(*i);
            }
        }
        AbsArg::Star
    };
    for app in &d.preds {
        for a in &app.args {
            if matches!(rep_of(a, &mut uf), AbsArg::Param(_)) {
                return None;
            }
        }
    }
    let mut alloc = BTreeMap::new();
    for pt in &d.points_to {
        if let AbsArg::Param(i) = rep_of(&pt.ptr, &mut uf) {
            let fields = pt
                .fields
                .iter()
                .map(|(_, t)| match t {
                    Term::Var(_) | Term::Null => rep_of(t, &mut uf),
                    _ => AbsArg::Star,
                })
                .collect();
            alloc.insert(i, (pt.class.clone(), fields));
        }
    }
    let rep =
        ref_params.iter().map(|(i, v)| (*i, rep_of(&Term::Var((*v).clone()), &mut uf))).collect();
    let mut diseq = BTreeSet::new();
    for p in &d.pure {
        if let Pure::Cmp(CmpOp::Ne, a, b) = p {
            let (x, y) = (rep_of(a, &mut uf), rep_of(b, &mut uf));
            if x != AbsArg::Star && y != AbsArg::Star {
                diseq.insert(if x <= y { (x, y) } else { (y, x) });
            }
        }
    }
    let keys: Vec<usize> = alloc.keys().copied().collect();
    for (n, &i) in keys.iter().enumerate() {
        diseq.insert((AbsArg::Param(i), AbsArg::Null));
        for &j in &keys[n + 1..] {
            diseq.insert((AbsArg::Param(i.min(j)), AbsArg::Param(i.max(j))));
        }
    }
    let params = def.params.iter().map(|(v, _)| v.clone()).collect();
    Some(AbsDisjunct { params, alloc, rep, diseq })
}

impl AbsDisjunct {
    /// A sufficient test for `self ⇒ other` (see the digest: same allocated set, `other`'s field
    /// arguments are `*` or equal, `other`'s (dis)equalities hold in `self`).
    fn implies(&self, other: &AbsDisjunct) -> bool {
        if self.alloc.keys().ne(other.alloc.keys()) {
            return false;
        }
        for (k, (class, fields)) in &other.alloc {
            let Some((c2, f2)) = self.alloc.get(k) else { return false };
            if c2 != class || f2.len() != fields.len() {
                return false;
            }
            if fields.iter().zip(f2).any(|(a, b)| *a != AbsArg::Star && a != b) {
                return false;
            }
        }
        for i in 0..other.rep.len() {
            for j in 0..other.rep.len() {
                if other.rep[i].1 == other.rep[j].1
                    && other.rep[i].1 != AbsArg::Star
                    && self.rep.get(i).map(|r| &r.1) != self.rep.get(j).map(|r| &r.1)
                {
                    return false;
                }
            }
            if other.rep[i].1 == AbsArg::Null
                && self.rep.get(i).map(|r| &r.1) != Some(&AbsArg::Null)
            {
                return false;
            }
        }
        other.diseq.is_subset(&self.diseq)
    }
}

impl std::fmt::Display for AbsDisjunct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = |a: &AbsArg| match a {
            AbsArg::Param(i) => self.params.get(*i).cloned().unwrap_or_default(),
            AbsArg::Null => "null".to_string(),
            AbsArg::Star => "_".to_string(),
        };
        let mut parts = Vec::new();
        for (i, (class, fields)) in &self.alloc {
            let fs: Vec<String> = fields.iter().map(name).collect();
            parts.push(format!("{} -> {}({})", name(&AbsArg::Param(*i)), class, fs.join(", ")));
        }
        if parts.is_empty() {
            parts.push("emp".to_string());
        }
        let mut s = parts.join(" * ");
        for (i, r) in &self.rep {
            let me = AbsArg::Param(*i);
            if *r != me && *r != AbsArg::Star {
                s.push_str(&format!(" & {} == {}", name(&me), name(r)));
            }
        }
        for (a, b) in &self.diseq {
            s.push_str(&format!(" & {} != {}", name(a), name(b)));
        }
        write!(f, "{s}")
    }
}
