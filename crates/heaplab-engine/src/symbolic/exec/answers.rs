//! Answers the executor already has: feasibility questions asked before, decided again without
//! the solver. None of this changes an answer; it only avoids asking.
//!
//! Why: `symheap` asks one question per guarded entry, each "is `pc && g` satisfiable" over
//! the same growing path condition, and asks many of them again (a receiver dereferenced by
//! consecutive instructions, an entry re-checked at every read). Measured before this module
//! (`examples/symprof.rs`, k = 2): TreeMap.put 4,820 queries of which 2,982 repeated one
//! exactly, BST.insert (bstcmp.hl) 568 of 1,571.
//!
//! What a question is: the slice of the path condition that shares variables with `c`
//! (transitively, KLEE's constraint independence, as [`crate::symbolic::dbm::slice`]) and `c`.
//! Four ways to answer it here, each exact:
//! - **the same question** (the same conjunct objects, `c` equal as a term): its answer;
//! - **unsat on fewer conjuncts**: `S && c` unsat implies `S' && c` unsat for every `S' ⊇ S`,
//!   and the path condition only grows, so an entry found infeasible stays infeasible on the
//!   path and every path forked from it; so is `S' && (c && d)` (a read's guard is the
//!   receiver's guard and the value's, each asked about before);
//! - **a known model**: a model of an earlier satisfiable question that satisfies every conjunct
//!   of this one (evaluated exactly, [`Sym::eval`]) proves it satisfiable (KLEE's
//!   counterexample cache). Guards of one reference are exclusive, so a few recent models of
//!   different worlds are kept;
//! - **a repaired model**: the latest model with the condition's equalities made true and the
//!   definitions that read them evaluated again ([`repaired`]), when that satisfies every
//!   conjunct (evaluated exactly, as above).
//!
//! Conjunct objects are compared by address; the tables hold each conjunct (`Sym`, an `Rc`)
//! for as long as they hold its address, so an address is never reused under them. Only
//! definite answers are kept (never `unknown` or a pending asynchronous one).

pub use super::slicing::Question;
use super::slicing::{definition_var, LastPath, Var};
use crate::symbolic::solve::Model;
use crate::symbolic::term::{Node, Sort, Sym};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::rc::Rc;

/// How many recent models are tried.
const MODELS: usize = 12;
/// How many of them are tried with variables changed ([`repaired`]).
const REPAIRED: usize = 1;
/// Passes over the slice when repairing a model.
const PASSES: usize = 4;
/// More conjuncts false than this on the first pass: the model is too far from the slice.
const GIVE_UP: usize = 12;
/// Unsat slices kept per condition (most recent first).
const UNSAT_PER_CONDITION: usize = 24;
/// The tables are dropped wholesale beyond this many entries (a bound on memory: an entry
/// holds a slice's addresses, a few hundred bytes).
const LIMIT: usize = 50_000;

/// A conjunct's variables, sorted.
type Vars = Rc<[Var]>;

/// Counts of the questions answered here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnswerCounts {
    /// The same question asked before.
    pub repeated: u64,
    /// Unsat because a subset of its conjuncts was unsat with the same condition.
    pub unsat_subset: u64,
    /// Sat because a known model satisfies it.
    pub model: u64,
    /// Sat because a known model, with a few variables changed, satisfies it.
    pub repaired: u64,
}

/// The executor's table of answers (one per run, see the module docs).
#[derive(Default)]
pub struct Answers {
    on: bool,
    /// Each conjunct's variables and the variable it defines, by address (the `Sym` keeps the
    /// address alive).
    vars: FxHashMap<usize, (Sym, Vars, Option<Var>)>,
    /// (condition, slice addresses) → satisfiable?
    exact: FxHashMap<(Sym, Vec<usize>), bool>,
    /// condition → slices (sorted addresses) with which it was unsat.
    unsat: FxHashMap<Sym, VecDeque<Vec<usize>>>,
    /// Models of recent satisfiable questions, most recently useful first.
    models: VecDeque<Model>,
    /// The path condition of the last question, with each conjunct's variables.
    last: LastPath,
    entries: usize,
    pub counts: AnswerCounts,
}

impl Answers {
    /// A table that answers (`on`) or one that only slices (the concolic driver keeps its query
    /// counts as CSF's algorithm defines them).
    pub fn new(on: bool) -> Answers {
        Answers { on, ..Answers::default() }
    }

    /// A conjunct's variables and the variable it defines ([`definition_var`]), remembered.
    fn vars_of(&mut self, s: &Sym) -> (Vars, Option<Var>) {
        if let Some((_, v, d)) = self.vars.get(&s.addr()) {
            return (Rc::clone(v), *d);
        }
        let (v, d): (Vars, _) = (s.vars().into(), definition_var(s));
        self.vars.insert(s.addr(), (s.clone(), Rc::clone(&v), d));
        self.entries += 1;
        (v, d)
    }

    /// The conjuncts of `pc` that share variables with `c`, transitively, in `pc` order: the
    /// same slice as [`crate::symbolic::dbm::slice`], by union-find over the variables with
    /// each conjunct's variables remembered.
    pub fn question(&mut self, pc: &[Sym], c: &Sym) -> Question {
        if self.entries > LIMIT {
            self.clear();
        }
        let wanted = c.vars();
        if wanted.is_empty() {
            return Question { slice: Vec::new(), addrs: Vec::new() };
        }
        self.prepare(pc);
        self.last.question(pc, wanted)
    }

    /// Makes [`Answers::last`] `pc`'s, keeping what it has of `pc`'s prefix.
    fn prepare(&mut self, pc: &[Sym]) {
        let shared = self.last.keep_prefix(pc);
        for p in &pc[shared..] {
            let (vars, defined) = self.vars_of(p);
            self.last.push(p, &vars, defined);
        }
    }

    /// Which conjuncts of `pc` a question about a condition with variables `wanted` leaves
    /// out ([`LastPath::unread`]).
    #[cfg(test)]
    fn unread(&mut self, pc: &[Sym], wanted: &[Var]) -> Vec<bool> {
        self.prepare(pc);
        self.last.unread(wanted).0
    }

    pub fn is_on(&self) -> bool {
        self.on
    }

    /// The answer to `q && c` if the same question was answered before (by the solver, or
    /// noted with [`Answers::note`]).
    pub fn repeated(&mut self, q: &Question, c: &Sym) -> Option<bool> {
        if !self.on {
            return None;
        }
        let a = self.exact.get(&(c.clone(), q.addrs.clone())).copied();
        if a.is_some() {
            self.counts.repeated += 1;
        }
        a
    }

    /// The answer to `q && c` if it is known here: the same question, an unsat one on fewer
    /// conjuncts, a recent model, or one repaired.
    pub fn known(&mut self, q: &Question, c: &Sym) -> Option<bool> {
        if !self.on {
            return None;
        }
        if let Some(a) = self.repeated(q, c) {
            return Some(a);
        }
        // `c` or one of its conjuncts (which `c` implies) was unsat with fewer conjuncts.
        let mut mine: Option<Vec<usize>> = None;
        for part in conjuncts(c) {
            let Some(cores) = self.unsat.get(part) else { continue };
            let mine = mine.get_or_insert_with(|| {
                let mut m = q.addrs.clone();
                m.sort_unstable();
                m
            });
            if cores.iter().any(|core| subset(core, mine)) {
                self.counts.unsat_subset += 1;
                self.remember(q, c, false);
                return Some(false);
            }
        }
        let hit = self.models.iter().position(|m| {
            let env = |id: u32, sort: Sort| m.get(id, sort);
            c.eval(&env) == Some(1) && q.slice.iter().all(|s| s.eval(&env) == Some(1))
        });
        if let Some(i) = hit {
            if let Some(m) = self.models.remove(i) {
                self.models.push_front(m);
            }
            self.counts.model += 1;
            self.remember(q, c, true);
            return Some(true);
        }
        for i in 0..self.models.len().min(REPAIRED) {
            if let Some(m) = repaired(&self.models[i], q, c) {
                self.models.push_front(m);
                self.models.truncate(MODELS);
                self.counts.repaired += 1;
                self.remember(q, c, true);
                return Some(true);
            }
        }
        None
    }

    /// Records the solver's definite answer to `q && c` (with its model when satisfiable).
    pub fn learn(&mut self, q: &Question, c: &Sym, sat: bool, model: Option<Model>) {
        if !self.on {
            return;
        }
        self.remember(q, c, sat);
        if sat {
            if let Some(m) = model {
                self.models.push_front(m);
                self.models.truncate(MODELS);
            }
        } else {
            let mut core = q.addrs.clone();
            core.sort_unstable();
            let cores = self.unsat.entry(c.clone()).or_default();
            cores.push_front(core);
            cores.truncate(UNSAT_PER_CONDITION);
            self.entries += 1;
        }
    }

    /// Records an answer found without the solver, for the same question only: its unsat
    /// answers are not kept as cores, where they would crowd out the solver's.
    pub fn note(&mut self, q: &Question, c: &Sym, sat: bool) {
        if self.on {
            self.remember(q, c, sat);
        }
    }

    fn remember(&mut self, q: &Question, c: &Sym, sat: bool) {
        // The slice's conjuncts are in `vars` (kept alive there) since `question` made it.
        self.exact.insert((c.clone(), q.addrs.clone()), sat);
        self.entries += 1;
    }

    fn clear(&mut self) {
        self.vars.clear();
        self.exact.clear();
        self.unsat.clear();
        self.entries = 0;
    }
}

/// A model of `q && c` made from `m` by changing a few variables, when that is easy: the
/// equalities of `c` (`x == k`, a Boolean `b`, `!b`) are made true and stay so; then each
/// conjunct the changes falsify is made true again where one variable decides it
/// ([`assignment`]), pass after pass, until every conjunct holds. The result is evaluated in
/// full, so an answer from it is exact; `None` only means this easy way found nothing.
///
/// Why: most of `symheap`'s satisfiable questions are one more location of a reference
/// (`r == 9` where the recent models have `r == 3`), and the rest of the slice follows `r`
/// through definitions (`b == (r == 9 && ...)`) and reads (`!g || x == v`). Measured at k = 3
/// (BST `insert`, AVL `insert`): two in three of the satisfiable questions that reached the
/// solver are answered here, and the runs take a quarter less time.
fn repaired(m: &Model, q: &Question, c: &Sym) -> Option<Model> {
    let mut env: FxHashMap<Var, i64> = m.values.iter().map(|(k, v)| (*k, *v)).collect();
    let mut fixed: Vec<Var> = Vec::new();
    for part in conjuncts(c) {
        if let Some((v, k)) = forced(part) {
            if fixed.contains(&v) && env.get(&v) != Some(&k) {
                return None;
            }
            env.insert(v, k);
            fixed.push(v);
        }
    }
    let all = || q.slice.iter().chain(std::iter::once(c));
    for pass in 0..PASSES {
        let mut changed = false;
        let mut false_ones = 0;
        for s in all() {
            if holds(s, &env) {
                continue;
            }
            false_ones += 1;
            if pass == 0 && false_ones > GIVE_UP {
                return None;
            }
            match assignment(s, &env, &fixed) {
                Some((v, k)) if env.get(&v) != Some(&k) => {
                    env.insert(v, k);
                    changed = true;
                }
                _ => {}
            }
        }
        if false_ones == 0 {
            // Nothing changed in this pass, so every conjunct holds under `env` as it is.
            return Some(Model { values: env.into_iter().collect() });
        }
        if !changed {
            return None;
        }
    }
    all().all(|s| holds(s, &env)).then(|| Model { values: env.into_iter().collect() })
}

fn holds(s: &Sym, env: &FxHashMap<Var, i64>) -> bool {
    s.eval(&|id, sort| env.get(&(id, sort)).copied()) == Some(1)
}

/// The variable and value that `s` forces when it is `x == k`, `b` or `!b`.
fn forced(s: &Sym) -> Option<(Var, i64)> {
    s.fixed_value().map(|(id, sort, k)| ((id, sort), k))
}

/// One variable's value that makes the false conjunct `s` true, where `s` is a definition
/// `v == e`, an implication `!g || v == e` whose `g` holds, or forces a value ([`forced`]);
/// never a variable in `fixed`.
fn assignment(s: &Sym, env: &FxHashMap<Var, i64>, fixed: &[Var]) -> Option<(Var, i64)> {
    let look = |id: u32, sort: Sort| env.get(&(id, sort)).copied();
    let define = |s: &Sym| -> Option<(Var, i64)> {
        let Node::Eq(a, b) = s.node() else { return forced(s) };
        for (side, other) in [(a, b), (b, a)] {
            if let Node::Var(id, sort) = side.node() {
                let v = (*id, *sort);
                if !fixed.contains(&v) {
                    if let Some(k) = other.eval(&look) {
                        return Some((v, k));
                    }
                }
            }
        }
        None
    };
    let pick = |v: Option<(Var, i64)>| v.filter(|(v, _)| !fixed.contains(v));
    match s.node() {
        Node::Or(a, b) => {
            if let Node::Not(g) = a.node() {
                if g.eval(&look) == Some(1) {
                    return pick(define(b));
                }
            }
            pick(define(b)).or_else(|| pick(define(a)))
        }
        _ => pick(define(s)),
    }
}

/// `c` and its conjuncts, as `Sym::and` nests them (`a && b && d`: the whole, `a && b`, `a`,
/// `b`, `d`).
fn conjuncts(c: &Sym) -> Vec<&Sym> {
    let mut out = Vec::new();
    let mut stack = vec![c];
    while let Some(s) = stack.pop() {
        out.push(s);
        if let Node::And(a, b) = s.node() {
            stack.push(b);
            stack.push(a);
        }
    }
    out
}

/// Whether sorted `a` is a subset of sorted `b`.
fn subset(a: &[usize], b: &[usize]) -> bool {
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolic::dbm;

    fn x(i: u32) -> Sym {
        Sym::var(i, Sort::Int)
    }

    /// The union-find slice is `dbm::slice`'s, conjunct for conjunct, on chains and islands of
    /// shared variables (a small generator, fixed seeds).
    #[test]
    fn slices_like_dbm() {
        let mut next = crate::symbolic::xorshift(0x2545_f491_4f6c_dd1d);
        let mut answers = Answers::new(true);
        for _ in 0..300 {
            let pc: Vec<Sym> = (0..next(12))
                .map(|_| match next(4) {
                    0 => Sym::lt(&x(next(9) as u32), &x(next(9) as u32)),
                    1 => Sym::eq(&x(next(9) as u32), &Sym::int(0)),
                    2 => Sym::bool(true),
                    _ => Sym::or(
                        &Sym::var(next(3) as u32 + 20, Sort::Bool),
                        &Sym::eq(&x(next(9) as u32), &x(next(9) as u32)),
                    ),
                })
                .collect();
            let c = match next(3) {
                0 => Sym::eq(&x(next(9) as u32), &Sym::int(3)),
                1 => Sym::var(next(3) as u32 + 20, Sort::Bool),
                _ => Sym::bool(false),
            };
            let q = answers.question(&pc, &c);
            // Definitions nothing reads are left out first (see `unread_definitions`), here
            // by a table that has seen no other path condition.
            let unread = Answers::new(true).unread(&pc, &c.vars());
            let read: Vec<Sym> =
                pc.iter().zip(&unread).filter(|(_, u)| !**u).map(|(p, _)| p.clone()).collect();
            let want = dbm::slice(&read, &c);
            assert_eq!(q.slice.len(), want.len(), "{pc:?} {c:?}");
            assert!(q.slice.iter().zip(&want).all(|(a, b)| a.addr() == b.addr()));
        }
    }

    /// A definition is left out only when nothing else reads its variable: not the condition,
    /// not another conjunct, not a definition that is kept; chains of them go together.
    #[test]
    fn unread_definitions_are_those_nothing_reads() {
        let b = |i: u32| Sym::var(i, Sort::Bool);
        let d1 = Sym::eq(&b(10), &Sym::lt(&x(0), &x(1)));
        let d2 = Sym::eq(&b(11), &Sym::or(&b(10), &Sym::eq(&x(1), &Sym::int(0))));
        let fact = Sym::lt(&x(1), &x(2));
        let mut answers = Answers::new(true);
        let mut unread = |pc: &[Sym], c: &Sym| answers.unread(pc, &c.vars());
        let c = Sym::lt(&x(2), &x(3));
        let pc = vec![d1.clone(), d2.clone(), fact.clone()];
        assert_eq!(unread(&pc, &c), [true, true, false], "a chain nothing reads");
        assert_eq!(unread(&pc, &b(11)), [false, false, false], "the condition reads the chain");
        assert_eq!(unread(&pc, &b(10)), [false, true, false], "the condition reads the first");
        let with_fact = vec![d1.clone(), d2.clone(), fact, b(11)];
        assert_eq!(unread(&with_fact, &c), [false, false, false, false], "a fact reads it");
        // A second definition of the same variable reads it.
        let twice = vec![d1.clone(), Sym::eq(&b(10), &Sym::lt(&x(1), &x(0)))];
        assert_eq!(unread(&twice, &c), [false, false]);
        // The question leaves them out: `x0 < x1` no longer ties x0 and x1 to the slice.
        let mut answers = Answers::new(true);
        let pc = vec![d1, d2, Sym::lt(&x(3), &x(4))];
        let q = answers.question(&pc, &c);
        assert_eq!(q.slice.len(), 1);
        assert_eq!(q.slice[0].addr(), pc[2].addr());
    }

    /// Each way of answering: the same question, unsat on a subset (only with the same
    /// condition), a known model (only when it satisfies every conjunct); nothing when off.
    #[test]
    fn answers_only_what_it_knows() {
        let mut a = Answers::new(true);
        let p1 = Sym::lt(&x(0), &x(1));
        let p2 = Sym::lt(&x(1), &x(2));
        let c = Sym::lt(&x(2), &x(0));
        let small = vec![p1.clone(), p2.clone()];
        let q = a.question(&small, &c);
        assert_eq!(a.known(&q, &c), None);
        a.learn(&q, &c, false, None);
        assert_eq!(a.known(&q, &c), Some(false));
        // A longer path condition with the same conjuncts: still unsat.
        let p3 = Sym::le(&x(0), &x(3));
        let more = vec![p1.clone(), p3.clone(), p2.clone()];
        let q2 = a.question(&more, &c);
        assert_eq!(a.known(&q2, &c), Some(false));
        assert_eq!(a.counts.unsat_subset, 1);
        // Another condition: not known.
        let c2 = Sym::lt(&x(0), &x(2));
        let q3 = a.question(&more, &c2);
        assert_eq!(a.known(&q3, &c2), None);
        // A model of an earlier question answers one it satisfies, not one it does not.
        let mut m = Model::default();
        for (i, v) in [(0, 1), (1, 2), (2, 3), (3, 5)] {
            m.values.insert((i, Sort::Int), v);
        }
        a.learn(&q3, &c2, true, Some(m));
        let c3 = Sym::le(&x(2), &x(3));
        let q4 = a.question(&more, &c3);
        assert_eq!(a.known(&q4, &c3), Some(true));
        let c4 = Sym::lt(&x(3), &x(2));
        let q5 = a.question(&more, &c4);
        assert_eq!(a.known(&q5, &c4), None);
        assert_eq!(a.counts.model, 1);
        // An answer noted from elsewhere is repeated for the same question only, and an unsat
        // one is no core for longer slices.
        let c5 = Sym::lt(&x(2), &x(1));
        let q6 = a.question(&small, &c5);
        a.note(&q6, &c5, false);
        assert_eq!(a.repeated(&q6, &c5), Some(false));
        let q7 = a.question(&more, &c5);
        assert_eq!(a.repeated(&q7, &c5), None);
        assert_eq!(a.known(&q7, &c5), None);
        // Off: nothing is known, nothing learned.
        let mut off = Answers::new(false);
        let q = off.question(&small, &c);
        off.learn(&q, &c, false, None);
        assert_eq!(off.known(&q, &c), None);
    }

    /// A reference `x0` with three locations (1, 2, 3; 0 is null), a guard named by a Boolean
    /// and two reads through it, as symheap writes them.
    fn reference_slice() -> Vec<Sym> {
        let r = x(0);
        let at = |k: i64| Sym::eq(&r, &Sym::int(k));
        let b = Sym::var(20, Sort::Bool);
        vec![
            Sym::le(&Sym::int(0), &r),
            Sym::le(&r, &Sym::int(3)),
            Sym::eq(&b, &Sym::or(&at(2), &at(3))),
            Sym::or(&Sym::not(&at(2)), &Sym::eq(&x(1), &x(5))),
            Sym::or(&Sym::not(&at(3)), &Sym::eq(&x(1), &x(6))),
            Sym::or(&Sym::not(&b), &Sym::lt(&Sym::int(0), &x(7))),
            Sym::lt(&x(1), &Sym::int(10)),
        ]
    }

    /// A model of one location answers the question of another: the read follows the
    /// reference; where a fact that no variable decides fails (`0 < x7`, `x5 < 10`), or the
    /// condition contradicts the slice, there is no answer.
    #[test]
    fn a_model_is_repaired_along_definitions() {
        let pc = reference_slice();
        let mut at3 = Model::default();
        for (v, value) in [
            ((0, Sort::Int), 3),
            ((20, Sort::Bool), 1),
            ((1, Sort::Int), 4),
            ((5, Sort::Int), 7),
            ((6, Sort::Int), 4),
            ((7, Sort::Int), 1),
        ] {
            at3.values.insert(v, value);
        }
        let mut a = Answers::new(true);
        let c = Sym::eq(&x(0), &Sym::int(2));
        let q = a.question(&pc, &c);
        assert_eq!(pc.iter().filter(|s| s.eval(&|i, t| at3.get(i, t)) != Some(1)).count(), 0);
        a.learn(&q, &Sym::eq(&x(0), &Sym::int(3)), true, Some(at3.clone()));
        assert_eq!(a.known(&q, &c), Some(true));
        assert_eq!((a.counts.model, a.counts.repaired), (0, 1));
        let m = a.models.front().expect("the repaired model is kept");
        assert_eq!((m.get(0, Sort::Int), m.get(1, Sort::Int)), (Some(2), Some(7)));
        assert!(pc.iter().chain([&c]).all(|s| s.eval(&|i, t| m.get(i, t)) == Some(1)));

        // `x5 = 12` breaks `x1 < 10` once `x1` follows `x5`: nothing decides it.
        let mut far = at3.clone();
        far.values.insert((5, Sort::Int), 12);
        let q = Question { slice: pc.clone(), addrs: pc.iter().map(Sym::addr).collect() };
        assert!(repaired(&far, &q, &c).is_none());
        // Null: `b` becomes false, and `0 < x7` no longer matters.
        let null = Sym::eq(&x(0), &Sym::int(0));
        let m = repaired(&far, &q, &null).expect("null needs no read");
        assert_eq!(m.get(20, Sort::Bool), Some(0));
        // A slice that excludes the location: the condition's value is never given up.
        let mut not2 = pc.clone();
        not2.push(Sym::not(&c));
        let q = Question { slice: not2.clone(), addrs: not2.iter().map(Sym::addr).collect() };
        assert!(repaired(&at3, &q, &c).is_none());
    }

    /// Against enumeration: on random slices of symheap's shapes over three references with
    /// small domains, a repaired model exists only for satisfiable questions and satisfies them;
    /// and repair answers a good share of the satisfiable ones (so this test can fail both ways).
    #[test]
    fn repaired_models_satisfy_what_enumeration_does() {
        let mut next = crate::symbolic::xorshift(0x9e37_79b9_7f4a_7c15);
        let b = |i: u32| Sym::var(20 + i, Sort::Bool);
        let (mut sat, mut repaired_sat) = (0, 0);
        for _ in 0..200 {
            // References x0..x2 in [0, 3], values x3..x4 in [0, 3], reads x5..x6, names b20..b21.
            let at = |r: u32, k: u64| Sym::eq(&x(r), &Sym::int(k as i64));
            let mut pc: Vec<Sym> = (0..5)
                .flat_map(|i| [Sym::le(&Sym::int(0), &x(i)), Sym::le(&x(i), &Sym::int(3))])
                .collect();
            for _ in 0..next(6) + 2 {
                let (r, k) = (next(3) as u32, next(4));
                pc.push(match next(5) {
                    0 => Sym::eq(
                        &b(next(2) as u32),
                        &Sym::or(&at(r, k), &at(next(3) as u32, next(4))),
                    ),
                    1 => Sym::or(
                        &Sym::not(&at(r, k)),
                        &Sym::eq(&x(5 + next(2) as u32), &x(3 + next(2) as u32)),
                    ),
                    2 => Sym::not(&at(r, k)),
                    3 => Sym::or(&Sym::not(&b(next(2) as u32)), &Sym::lt(&x(5), &x(6))),
                    _ => Sym::or(&Sym::not(&at(r, k)), &at(next(3) as u32, next(4))),
                });
            }
            let c = at(next(3) as u32, next(4));
            // Every assignment of x0..x6 in [0, 3] and b20, b21, as the bits of `n`.
            let value = |n: u64, i: u32, sort: Sort| {
                Some(match sort {
                    Sort::Bool => (n >> (14 + i - 20)) & 1,
                    _ => (n >> (2 * i)) & 3,
                } as i64)
            };
            let holds_n = |n: u64, s: &Sym| s.eval(&|i, t| value(n, i, t)) == Some(1);
            let holds = |m: &Model, s: &Sym| s.eval(&|i, t| m.get(i, t)) == Some(1);
            let worlds: Vec<u64> =
                (0..1u64 << 16).filter(|&n| pc.iter().all(|s| holds_n(n, s))).collect();
            let Some(&world) = worlds.get(next(worlds.len().max(1) as u64) as usize) else {
                continue;
            };
            let mut start = Model::default();
            for i in 0..7 {
                start.values.insert((i, Sort::Int), value(world, i, Sort::Int).unwrap_or(0));
            }
            for i in 20..22 {
                start.values.insert((i, Sort::Bool), value(world, i, Sort::Bool).unwrap_or(0));
            }
            let truth = worlds.iter().any(|&n| holds_n(n, &c));
            let q = Question { slice: pc.clone(), addrs: pc.iter().map(Sym::addr).collect() };
            let got = repaired(&start, &q, &c);
            if let Some(m) = &got {
                assert!(truth, "repaired an unsat question: {pc:?} {c:?}");
                assert!(pc.iter().chain([&c]).all(|s| holds(m, s)), "{pc:?} {c:?} {m:?}");
            }
            sat += usize::from(truth);
            repaired_sat += usize::from(got.is_some());
        }
        assert!(sat > 60, "{sat}");
        assert!(repaired_sat * 2 > sat, "repaired {repaired_sat} of {sat}");
    }
}
