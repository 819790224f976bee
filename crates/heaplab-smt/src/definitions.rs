//! Boolean definitions nothing else reads: `b = φ` where `b` occurs in no other conjunct (nor
//! in `want`) are set aside before a query is solved, and given `b := φ(model)` after it.
//!
//! Why: symheap names each guard with a Boolean (`b = g`) and sends the definitions of every
//! guard its state holds; a quarter of them (measured on the example suite's symheap queries)
//! are read by no assertion of the query. Each still had to be simplified, encoded (as a
//! two-way disjunction) and split by the Rust procedure, or parsed by Z3. Setting one aside is
//! exact: whatever the rest's model is, choosing `b` as `φ`'s value satisfies the definition,
//! so the query is satisfiable exactly when the rest is.

use std::collections::{BTreeSet, HashMap};

use crate::model::{eval_bool_exact, Model, Value};
use crate::term::{Sort, Term, Var};
use rustc_hash::FxBuildHasher;

/// A set-aside definition `var = rhs`.
pub type Definition<'a> = (&'a Var, &'a Term);

/// `conjunct` as a definition `b = φ` of a Boolean variable.
pub fn definition(conjunct: &Term) -> Option<Definition<'_>> {
    match conjunct {
        Term::Eq(a, rhs) => match a.as_ref() {
            Term::Var(b) if b.sort == Sort::Bool => Some((b, rhs.as_ref())),
            _ => None,
        },
        _ => None,
    }
}

/// The conjuncts split into those the solver needs and the set-aside definitions, in the order
/// to evaluate them (a definition only reads variables of later ones or of the rest).
pub fn split<'a>(conjuncts: &'a [Term], want: &[Var]) -> (Vec<&'a Term>, Vec<Definition<'a>>) {
    if !conjuncts.iter().any(|c| definition(c).is_some()) {
        return (conjuncts.iter().collect(), Vec::new());
    }
    // How many conjuncts (and `want` entries) mention each variable.
    let mut uses: HashMap<&str, usize, FxBuildHasher> = HashMap::default();
    let vars_of: Vec<BTreeSet<&str>> = conjuncts
        .iter()
        .map(|c| {
            let mut acc = BTreeSet::new();
            c.visit_vars(&mut |v| {
                acc.insert(v.name.as_str());
            });
            acc
        })
        .collect();
    for vs in &vars_of {
        for v in vs {
            *uses.entry(v).or_default() += 1;
        }
    }
    for v in want {
        *uses.entry(v.name.as_str()).or_default() += 1;
    }
    // Peel definitions whose variable only its own definition mentions, until none is left;
    // peeling one can free the variables its right side read.
    let mut dropped = vec![false; conjuncts.len()];
    let mut order = Vec::new();
    loop {
        let mut changed = false;
        for (i, c) in conjuncts.iter().enumerate() {
            if dropped[i] {
                continue;
            }
            let Some((b, rhs)) = definition(c) else { continue };
            if uses.get(b.name.as_str()) != Some(&1) {
                continue;
            }
            // `b = φ(b)` constrains `b`: not a definition.
            let mut recursive = false;
            rhs.visit_vars(&mut |v| recursive |= v == b);
            if recursive {
                continue;
            }
            dropped[i] = true;
            changed = true;
            order.push((b, rhs));
            for v in &vars_of[i] {
                if let Some(n) = uses.get_mut(v) {
                    *n -= 1;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let kept = conjuncts.iter().zip(&dropped).filter(|(_, d)| !**d).map(|(c, _)| c).collect();
    // Peeled later means read by one peeled earlier: evaluate in reverse.
    order.reverse();
    (kept, order)
}

/// Gives each set-aside definition's variable its right side's value under `model` (variables
/// only the set-aside definitions read get their sort's default first). `None` when a right
/// side cannot be evaluated (overflow, division by zero).
pub fn complete(model: &mut Model, defs: &[Definition<'_>]) -> Option<()> {
    for (_, rhs) in defs {
        let mut free = Vec::new();
        rhs.visit_vars(&mut |v| {
            if model.get(v).is_none() && !defs.iter().any(|(b, _)| *b == v) {
                free.push(v);
            }
        });
        for v in free {
            model.insert(v, Value::default_for(v.sort));
        }
    }
    for (b, rhs) in defs {
        let value = eval_bool_exact(rhs, model).ok()?;
        model.insert(b, Value::Bool(value));
    }
    Some(())
}

/// The definitions of `defs` that `terms` read, directly or through the right sides of others
/// they read (indices into `defs`): a question asked of a conjunction whose definitions were
/// set aside needs these back.
pub fn read_by(terms: &[Term], defs: &[Definition<'_>]) -> Vec<usize> {
    let mut pulled = Vec::new();
    let mut frontier: Vec<&Var> = Vec::new();
    for t in terms {
        t.visit_vars(&mut |v| frontier.push(v));
    }
    while let Some(v) = frontier.pop() {
        let Some(i) = defs.iter().position(|(b, _)| *b == v) else { continue };
        if pulled.contains(&i) {
            continue;
        }
        pulled.push(i);
        defs[i].1.visit_vars(&mut |w| frontier.push(w));
    }
    pulled
}

/// What `terms` ask of a conjunction whose set-aside definitions stand at `set_aside` in
/// `first` (see [`positions`]): those definitions, in `set_aside`'s order; the ones `terms` read
/// ([`read_by`], indices into them); and `terms` followed by those, for the question.
pub type Asked<'a> = (Vec<Definition<'a>>, Vec<usize>, Vec<&'a Term>);

/// [`Asked`] of `terms` (a prepared context's question or extension).
pub fn asking<'a>(first: &'a [Term], set_aside: &[usize], terms: &'a [Term]) -> Asked<'a> {
    let defs: Vec<Definition<'a>> =
        set_aside.iter().filter_map(|&i| definition(&first[i])).collect();
    let pulled = read_by(terms, &defs);
    let asked = terms.iter().chain(pulled.iter().map(|&i| &first[set_aside[i]])).collect();
    (defs, pulled, asked)
}

/// Where each of `defs` (set aside from `conjuncts` by [`split`]) stands in `conjuncts`, in
/// `defs`' order: a caller that keeps the conjuncts keeps these instead of borrows.
pub fn positions(conjuncts: &[Term], defs: &[Definition<'_>]) -> Vec<usize> {
    defs.iter()
        .filter_map(|(_, rhs)| {
            conjuncts
                .iter()
                .position(|c| matches!(c, Term::Eq(_, r) if std::ptr::eq(r.as_ref(), *rhs)))
        })
        .collect()
}
