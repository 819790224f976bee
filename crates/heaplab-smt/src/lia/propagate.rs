//! Unit propagation between the conjunction's literals and its disjunctions, before each theory
//! check of the case split.
//!
//! Why: symheap's path conditions carry one implication per guarded value (`g → x = v`, an
//! `or` of the guard's negated literals and the equality), and the guards' literals are often
//! stated plainly in the same path condition. Splitting those disjunctions one theory point at a
//! time spent the split budget on queries a literal-level look settles at once (measured on the
//! example suite's symheap queries: see `examples/decide_share.rs`).
//!
//! What: a disjunct that *contradicts* a literal of the conjunction (its exact complement:
//! `l = 0` / `l ≠ 0`, `l ≤ 0` / `-l + 1 ≤ 0` over the integers, `b` / `¬b`) drops out; a
//! disjunction with a disjunct the conjunction already *states* is satisfied and drops out; a
//! disjunction left with one disjunct joins the conjunction, which may settle others, up to a
//! fixed point. Only syntactic facts are used (linear forms compared after sign
//! normalization), so the result is equivalent to the input whatever the theory would say.

use std::collections::HashSet;

use super::encode::{Formula, Lin, Lit};

/// A literal in a form where a literal and its sign-flipped twin (`x - y = 0`, `y - x = 0`)
/// are equal.
fn key(l: &Lit) -> Option<Lit> {
    Some(match l {
        Lit::Eq(lin) => Lit::Eq(oriented(lin)?),
        Lit::Ne(lin) => Lit::Ne(oriented(lin)?),
        Lit::Le(lin) => Lit::Le(lin.clone()),
        Lit::Bool(b, v) => Lit::Bool(*b, *v),
    })
}

/// `lin` or `-lin`, whichever has a positive first coefficient (`= 0` and `≠ 0` do not care).
fn oriented(lin: &Lin) -> Option<Lin> {
    match lin.coeffs.values().next() {
        Some(c) if *c < 0 => lin.scaled(-1).ok(),
        _ => Some(lin.clone()),
    }
}

/// The literal that holds exactly when `l` does not (over the integers).
fn complement(l: &Lit) -> Option<Lit> {
    match l {
        Lit::Eq(lin) => key(&Lit::Ne(lin.clone())),
        Lit::Ne(lin) => key(&Lit::Eq(lin.clone())),
        Lit::Le(lin) => {
            // ¬(lin ≤ 0) ⇔ lin ≥ 1 ⇔ -lin + 1 ≤ 0
            let mut neg = lin.scaled(-1).ok()?;
            neg.constant = neg.constant.checked_add(1)?;
            Some(Lit::Le(neg))
        }
        Lit::Bool(b, v) => Some(Lit::Bool(*b, !*v)),
    }
}

/// What the known literals say of a formula: `Some(true)` stated, `Some(false)` contradicted.
fn status(f: &Formula, known: &HashSet<Lit>) -> Option<bool> {
    match f {
        Formula::Lit(l) => {
            if key(l).is_some_and(|k| known.contains(&k)) {
                Some(true)
            } else if complement(l).is_some_and(|c| known.contains(&c)) {
                Some(false)
            } else {
                None
            }
        }
        Formula::And(fs) => {
            let mut all = true;
            for g in fs {
                match status(g, known) {
                    Some(false) => return Some(false),
                    Some(true) => {}
                    None => all = false,
                }
            }
            all.then_some(true)
        }
        Formula::Or(fs) => {
            let mut none = true;
            for g in fs {
                match status(g, known) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => none = false,
                }
            }
            none.then_some(false)
        }
    }
}

/// Propagates to a fixed point; `false` when a disjunction lost every disjunct (unsat).
/// `flatten` is the search's own (literals to `lits`, disjunctions to `ors`).
pub fn propagate(
    lits: &mut Vec<Lit>,
    ors: &mut Vec<Vec<Formula>>,
    flatten: fn(Formula, &mut Vec<Lit>, &mut Vec<Vec<Formula>>) -> bool,
) -> bool {
    let mut known: HashSet<Lit> = lits.iter().filter_map(key).collect();
    loop {
        let mut changed = false;
        let mut kept = Vec::with_capacity(ors.len());
        let mut units = Vec::new();
        for d in std::mem::take(ors) {
            let mut open = Vec::with_capacity(d.len());
            let mut satisfied = false;
            for f in d {
                match status(&f, &known) {
                    Some(true) => {
                        satisfied = true;
                        break;
                    }
                    Some(false) => changed = true,
                    None => open.push(f),
                }
            }
            if satisfied {
                changed = true;
                continue;
            }
            match open.len() {
                0 => return false,
                1 => {
                    changed = true;
                    units.extend(open);
                }
                _ => kept.push(open),
            }
        }
        *ors = kept;
        for f in units {
            let before = lits.len();
            if !flatten(f, lits, ors) {
                return false;
            }
            known.extend(lits[before..].iter().filter_map(key));
        }
        if !changed {
            return true;
        }
    }
}
