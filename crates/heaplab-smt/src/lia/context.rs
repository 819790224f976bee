//! A conjunction prepared once and asked many questions: `context ∧ question` decided without
//! encoding and propagating the context again for every question.
//!
//! Why: the engine asks several questions of one path condition in a row (symheap: one per
//! guarded value and direction, about four per distinct path-condition slice on BST `insert`
//! at k = 3, each slice over a hundred conjuncts), and [`super::decide_with`] encoded,
//! numbered and propagated the whole slice for each of them: most of a query's time.
//!
//! How: [`Context::new`] does what `decide_with` does before its search (definitions set aside,
//! encoding, flattening, implied bounds, numbering, propagation to a fixed point) and keeps the
//! result; [`Context::decide`] copies the propagated clauses, adds the question's (and the
//! bounds the question's literals imply together with the context's) and runs the same search.
//! The clauses are the same conjunction `decide_with` would build, so the answers are the
//! same; only the order of the disjunctions, hence which model a satisfiable query gets, may
//! differ. The definitions the context set aside that a question reads join the question.
//!
//! A path condition grows by a conjunct or two from one state to the next, and the engine's
//! next slice is most often the last one and a few more conjuncts: [`Context::extend`] makes
//! that slice's context from the last one's, preparing only the new conjuncts.

use std::rc::Rc;

use super::bounds;
use super::encode::{Encoder, Lit, Lits};
use super::known::Numbering;
use super::propagate::Clauses;
use super::search::{encode_flat, model_of, Decision, Found, Limits, Search, SUBSTITUTIONS};
use super::theory::{self, Prefix};
use crate::definitions;
use crate::term::Term;

/// A prepared conjunction (see the module documentation).
pub struct Context {
    /// The terms it was prepared with (shared with the contexts extended from it): where its
    /// set-aside definitions are.
    first: Rc<[Term]>,
    /// `first[i]` for each set-aside definition, in the order to evaluate them.
    set_aside: Vec<usize>,
    enc: Encoder,
    /// The flattened literals before the implied bounds, to imply bounds with a question's:
    /// in chunks, oldest first, shared with the contexts this one extends (an extension adds
    /// a chunk where it copied every literal, and a question reads them in place).
    lits: Lits,
    implied: Vec<Lit>,
    /// Propagated to a fixed point.
    clauses: Clauses,
    /// Grows with the questions' literals; numbers stay valid for the kept clauses.
    numbers: Numbering,
    /// The theory's steps 1 and 2 over `clauses`' literals, where every question's checks
    /// start (and an extension's preparation).
    prefix: Prefix,
}

impl Context {
    /// Prepares `conjuncts`; `Err` with the answer for every question when the conjunction
    /// alone is unsat, or `Outside` when it cannot be encoded.
    pub fn new(conjuncts: Vec<Term>) -> Result<Context, Decision> {
        let (needed, set_aside) = definitions::split(&conjuncts, &[]);
        let set_aside = definitions::positions(&conjuncts, &set_aside);
        let mut enc = Encoder::new();
        let (lits, ors) =
            encode_flat(&mut enc, needed).map_err(Decision::Outside)?.ok_or(Decision::Unsat)?;
        let implied = bounds::implied(&lits, &enc.fresh, enc.vars.ints.len());
        let mut numbers = Numbering::default();
        let all: Vec<Lit> = lits.iter().chain(&implied).cloned().collect();
        let mut clauses = Clauses::new(all, ors, &mut numbers);
        if !clauses.propagate(&mut numbers) {
            return Err(Decision::Unsat);
        }
        // Every question copies the clauses: they share the literals.
        clauses.lits.seal();
        let prefix = prepare(&enc, &clauses, &Prefix::default())?;
        let first = Rc::from(conjuncts);
        let mut lits = Lits::from(lits);
        lits.seal();
        Ok(Context { first, set_aside, enc, lits, implied, clauses, numbers, prefix })
    }

    /// The context of this one's conjunction and `more`, prepared from this one's: only `more`
    /// (and the set-aside definitions it reads, which stop being set aside) is encoded and
    /// propagated. `Err` as [`Context::new`]'s.
    pub fn extend(&self, more: &[Term]) -> Result<Context, Decision> {
        let (_, pulled, asked) = definitions::asking(&self.first, &self.set_aside, more);
        let mut enc = self.enc.clone();
        let (new_lits, ors) =
            encode_flat(&mut enc, asked).map_err(Decision::Outside)?.ok_or(Decision::Unsat)?;
        let mut lits = self.lits.clone();
        lits.extend(new_lits.iter().cloned());
        lits.seal();
        let implied = bounds::implied(lits.iter(), &enc.fresh, enc.vars.ints.len());
        let added: Vec<Lit> = new_lits
            .into_iter()
            .chain(implied.iter().filter(|l| !self.implied.contains(l)).cloned())
            .collect();
        let (mut clauses, mut numbers) = (self.clauses.clone(), self.numbers.clone());
        clauses.extend(added, ors, &mut numbers);
        if !clauses.propagate(&mut numbers) {
            return Err(Decision::Unsat);
        }
        clauses.lits.seal();
        let set_aside = (0..self.set_aside.len())
            .filter(|i| !pulled.contains(i))
            .map(|i| self.set_aside[i])
            .collect();
        let prefix = prepare(&enc, &clauses, &self.prefix)?;
        let first = Rc::clone(&self.first);
        Ok(Context { first, set_aside, enc, lits, implied, clauses, numbers, prefix })
    }

    /// Decides `context ∧ question` (a plain satisfiability check: the model holds the
    /// variables of both). The model is not re-checked here: the caller checks it against its
    /// own terms (the frontend against the terms before their simplification, which covers the
    /// simplification too); checking it twice was a twentieth of a `symheap` run.
    pub fn decide(&mut self, question: &[Term], limits: Limits) -> Decision {
        // The set-aside definitions the question reads join it; the others are evaluated
        // under the model.
        let (defs, pulled, asked) = definitions::asking(&self.first, &self.set_aside, question);
        let mut enc = self.enc.clone();
        let fresh_before = enc.fresh.len();
        let (mut lits, ors) = match encode_flat(&mut enc, asked) {
            Ok(Some(flat)) => flat,
            Ok(None) => return Decision::Unsat,
            Err(why) => return Decision::Outside(why),
        };
        // The bounds the question's integer literals imply with the context's: those
        // `decide_with` would add over the whole conjunction.
        let arithmetic = lits.iter().any(|l| !matches!(l, Lit::Bool(..)));
        if arithmetic || enc.fresh.len() > fresh_before {
            let all = self.lits.iter().chain(&lits);
            let more = bounds::implied(all, &enc.fresh, enc.vars.ints.len());
            lits.extend(more.into_iter().filter(|l| !self.implied.contains(l)));
        }
        let mut clauses = self.clauses.clone();
        clauses.extend(lits, ors, &mut self.numbers);
        let numbers = std::mem::take(&mut self.numbers);
        let mut search = Search::new(enc.vars.ints.len(), enc.vars.bools.len(), limits, numbers);
        let found = search.run(clauses, &self.prefix);
        self.numbers = search.numbers;
        let (ints, bools) = match found {
            Found::Sat(ints, bools) => (ints, bools),
            Found::Unsat => return Decision::Unsat,
            Found::Outside(why) => return Decision::Outside(why.to_string()),
        };
        let mut model = match model_of(&enc, &ints, &bools, &[]) {
            Ok(m) => m,
            Err(d) => return d,
        };
        let rest: Vec<definitions::Definition<'_>> =
            (0..defs.len()).filter(|i| !pulled.contains(i)).map(|i| defs[i]).collect();
        if definitions::complete(&mut model, &rest).is_none() {
            return Decision::Outside("a set-aside definition does not evaluate".into());
        }
        Decision::Sat(model)
    }
}

/// The theory's steps 1 and 2 over `clauses`' literals from `from`; `Err(Unsat)` when they
/// decide the conjunction is unsat.
fn prepare(enc: &Encoder, clauses: &Clauses, from: &Prefix) -> Result<Prefix, Decision> {
    let prefix = theory::prepare(enc.vars.bools.len(), &clauses.lits, from, SUBSTITUTIONS);
    match prefix.is_unsat() {
        true => Err(Decision::Unsat),
        false => Ok(prefix),
    }
}
