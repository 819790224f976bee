//! Predicate bodies compiled once per check, and read against the search's state without
//! being instantiated.
//!
//! Choosing which disjuncts of an instance still stand looks two levels into its instances;
//! instantiating every body met there (a map from names to terms, fresh names for the
//! existentials, a copy of every atom) was four fifths of the checker's time on a counter of
//! 17 bits. Here each disjunct is prepared once: the instances of predicates defined by facts
//! alone are expanded into their facts, over the predicate's own parameter names, with the
//! existentials named apart. A compiled disjunct is then read through its instance's
//! arguments (a parameter is its argument, an existential is unknown), and only the disjuncts
//! that stand are instantiated.
//!
//! A compiled disjunct's variables are numbered slots (parameters first, then existentials):
//! reading one through the arguments is an index, not a search among the parameters' names,
//! and instantiating is one pass putting each slot's term in place. Finding a parameter by
//! name and building a map of names per instantiation were a third of the checker's time on
//! succ-rec14. The expansion and numbering work on the formula's terms; the result is taken
//! into the checker's own terms ([`super::term`]), where a slot is its number.

use super::term::{App, Id, Kind, Names, Part, Pt, P, T};
use crate::formula::{Defs, Fresh, Sort, SymHeap, Term, Var};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};

/// One predicate, compiled.
pub(super) struct CompiledPred {
    /// How many parameters it has: its disjuncts' first slots.
    pub params: usize,
    /// Its disjuncts with the instances of fact-only predicates expanded, over slots.
    pub disjuncts: Vec<Part>,
    /// Whether an unfolding of an instance can reach an instance of this predicate again
    /// (it lies on a cycle of the call graph). Only such an instance can recur along a chain
    /// of unfoldings, so only theirs are recorded for the loop cut.
    pub recursive: bool,
}

/// Every predicate of the definitions, compiled, by the predicate's number ([`Names::pred`];
/// `None`: a predicate without a definition).
pub(super) struct Compiled {
    preds: Vec<Option<CompiledPred>>,
}

/// A compiled body's variable that is neither a parameter nor an existential (a name of the
/// formula the body mentions): its number with this bit, so it reads as unknown and is kept
/// as that variable when instantiated.
const OUTER: u32 = 1 << 30;

impl Compiled {
    pub fn new(defs: &Defs, names: &mut Names) -> Compiled {
        let mut fresh = Fresh::new();
        fresh.avoid(defs.preds.values().flat_map(|d| d.params.iter().map(|(v, _)| v)));
        for def in defs.preds.values() {
            for d in &def.body {
                fresh.avoid(d.exists.iter().map(|(v, _)| v));
            }
        }
        let mut preds: Vec<Option<CompiledPred>> = Vec::new();
        for (name, def) in &defs.preds {
            let own: Vec<Term> = def.params.iter().map(|(v, _)| Term::Var(v.clone())).collect();
            let disjuncts = def
                .body
                .iter()
                .map(|d| {
                    let part = expand(defs, &def.params, d, &own, &mut fresh);
                    let numbered = numbered(&def.params, part);
                    names.part(&numbered, &mut |n: &mut Names, v: &Var| match slot_of(v) {
                        Some(i) if (i as u64) < u64::from(OUTER) => i as Id,
                        _ => OUTER | n.var(v),
                    })
                })
                .collect();
            let id = names.pred(name) as usize;
            if preds.len() <= id {
                preds.resize_with(id + 1, || None);
            }
            preds[id] =
                Some(CompiledPred { params: def.params.len(), disjuncts, recursive: false });
        }
        let mut compiled = Compiled { preds };
        for p in 0..compiled.preds.len() {
            if compiled.reaches_itself(p as u32) {
                if let Some(Some(cp)) = compiled.preds.get_mut(p) {
                    cp.recursive = true;
                }
            }
        }
        compiled
    }

    /// Whether `start` is reachable from its own bodies' instances (the facts-only
    /// predicates expanded away cannot recur: they have no instance).
    fn reaches_itself(&self, start: u32) -> bool {
        let mut seen: HashSet<u32> = HashSet::new();
        let mut todo: Vec<u32> = vec![start];
        while let Some(p) = todo.pop() {
            let Some(cp) = self.get(p) else { continue };
            for app in cp.disjuncts.iter().flat_map(|d| &d.apps) {
                if app.pred == start {
                    return true;
                }
                if seen.insert(app.pred) {
                    todo.push(app.pred);
                }
            }
        }
        false
    }

    pub fn get(&self, pred: u32) -> Option<&CompiledPred> {
        self.preds.get(pred as usize).and_then(Option::as_ref)
    }
}

impl CompiledPred {
    /// Disjunct `i` for an instance with arguments `args`, its existentials given fresh names.
    /// Its variables are numbered slots, so this is one pass over its atoms that puts each
    /// slot's term in place (no map from names to terms is built, no name compared).
    pub fn instantiate(&self, i: usize, args: &[T], names: &mut Names) -> Part {
        let d = &self.disjuncts[i];
        let exists: Vec<(Id, Kind)> = d.exists.iter().map(|(_, k)| (names.fresh(*k), *k)).collect();
        let fill = Fill { args, exists: &exists, params: self.params };
        Part {
            pts: d
                .pts
                .iter()
                .map(|pt| Pt {
                    ptr: fill.term(&pt.ptr),
                    class: pt.class,
                    fields: pt.fields.iter().map(|(f, t)| (*f, fill.term(t))).collect(),
                })
                .collect(),
            apps: d
                .apps
                .iter()
                .map(|app| App {
                    pred: app.pred,
                    args: app.args.iter().map(|t| fill.term(t)).collect(),
                    chain: app.chain,
                })
                .collect(),
            pure: d.pure.iter().map(|p| fill.pure(p)).collect(),
            exists,
        }
    }
}

/// The name of slot `i` of a compiled disjunct: parameters first, then existentials. One
/// character of a private-use plane, which no source name contains, so that reading a slot
/// is a look at one character rather than a search among the parameters' names.
fn slot(i: usize) -> Var {
    char::from_u32(SLOT_BASE + i as u32).map(String::from).unwrap_or_else(|| format!("#{i}"))
}

const SLOT_BASE: u32 = 0xF0000;

/// The slot a variable names, if it names one.
fn slot_of(v: &str) -> Option<usize> {
    let mut cs = v.chars();
    let c = cs.next()? as u32;
    if cs.next().is_some() || !(SLOT_BASE..=0xFFFFD).contains(&c) {
        return v.strip_prefix('#').and_then(|n| n.parse().ok());
    }
    Some((c - SLOT_BASE) as usize)
}

/// A compiled disjunct with its parameters and existentials renamed to slots.
fn numbered(params: &[(Var, Sort)], part: SymHeap) -> SymHeap {
    let mut s: BTreeMap<Var, Term> = BTreeMap::new();
    for (i, (v, _)) in params.iter().enumerate() {
        s.insert(v.clone(), Term::Var(slot(i)));
    }
    for (j, (v, _)) in part.exists.iter().enumerate() {
        s.insert(v.clone(), Term::Var(slot(params.len() + j)));
    }
    SymHeap {
        exists: part
            .exists
            .iter()
            .enumerate()
            .map(|(j, (_, sort))| (slot(params.len() + j), sort.clone()))
            .collect(),
        points_to: part.points_to.iter().map(|p| p.subst(&s)).collect(),
        preds: part.preds.iter().map(|p| p.subst(&s)).collect(),
        pure: part.pure.iter().map(|p| p.subst(&s)).collect(),
    }
}

/// What each slot of a compiled disjunct becomes in an instantiation.
struct Fill<'a> {
    args: &'a [T],
    exists: &'a [(Id, Kind)],
    params: usize,
}

impl Fill<'_> {
    fn term(&self, t: &T) -> T {
        match t {
            T::Var(v) if v & OUTER != 0 => T::Var(v & !OUTER),
            T::Var(v) => {
                let i = *v as usize;
                if i < self.params {
                    self.args.get(i).cloned().unwrap_or(T::Null)
                } else {
                    match self.exists.get(i - self.params) {
                        Some((w, _)) => T::Var(*w),
                        None => t.clone(),
                    }
                }
            }
            T::Null | T::Int(_) | T::Bool(_) => t.clone(),
            T::Add(a, b) => T::Add(Box::new(self.term(a)), Box::new(self.term(b))),
            T::Sub(a, b) => T::Sub(Box::new(self.term(a)), Box::new(self.term(b))),
            T::Mul(a, b) => T::Mul(Box::new(self.term(a)), Box::new(self.term(b))),
            T::Neg(a) => T::Neg(Box::new(self.term(a))),
        }
    }

    fn pure(&self, p: &P) -> P {
        match p {
            P::Const(b) => P::Const(*b),
            P::Cmp(op, a, b) => P::Cmp(*op, self.term(a), self.term(b)),
            P::Not(q) => P::Not(Box::new(self.pure(q))),
            P::And(ps) => P::And(ps.iter().map(|q| self.pure(q)).collect()),
            P::Or(ps) => P::Or(ps.iter().map(|q| self.pure(q)).collect()),
        }
    }
}

/// A body disjunct with fresh existentials and parameters replaced by `args`, its instances of
/// predicates defined by a single disjunct of facts alone (`zero(x) := x == null`, a
/// counter's bits) replaced by those facts: unfolding them one search step each was half the
/// steps of a counter's count, and the facts, in the disjunct itself, refute a wrong disjunct
/// one level of look-ahead sooner. (A private copy of the instantiation step, so the checker
/// stays independent of `unfold`.)
fn expand(
    defs: &Defs,
    params: &[(Var, Sort)],
    d: &SymHeap,
    args: &[Term],
    fresh: &mut Fresh,
) -> SymHeap {
    let mut part = substitute(params, d, args, fresh);
    let mut preds = Vec::with_capacity(part.preds.len());
    for app in std::mem::take(&mut part.preds) {
        let facts_only = defs.preds.get(&app.name).and_then(|def| match def.body.as_slice() {
            [b] if b.points_to.is_empty() && b.preds.is_empty() => Some(def),
            _ => None,
        });
        match facts_only {
            Some(def) => {
                let sub = substitute(def.params.as_slice(), &def.body[0], &app.args, fresh);
                part.exists.extend(sub.exists);
                for p in sub.pure {
                    if !part.pure.contains(&p) {
                        part.pure.push(p);
                    }
                }
            }
            None => preds.push(app),
        }
    }
    part.preds = preds;
    part
}

/// `d` with its parameters replaced by `args` and its existentials by fresh names.
fn substitute(params: &[(Var, Sort)], d: &SymHeap, args: &[Term], fresh: &mut Fresh) -> SymHeap {
    let mut s: BTreeMap<Var, Term> =
        params.iter().map(|(v, _)| v.clone()).zip(args.iter().cloned()).collect();
    let mut exists = Vec::new();
    for (v, sort) in &d.exists {
        let w = fresh.var(v);
        s.insert(v.clone(), Term::Var(w.clone()));
        exists.push((w, sort.clone()));
    }
    SymHeap {
        exists,
        points_to: d.points_to.iter().map(|p| p.subst(&s)).collect(),
        preds: d.preds.iter().map(|p| p.subst(&s)).collect(),
        pure: d.pure.iter().map(|p| p.subst(&s)).collect(),
    }
}

/// How a compiled disjunct's variables read in the state: parameter `i` as `args[i]` (`None`:
/// unknown, an existential of the level above), every other variable (an existential of the
/// disjunct) as unknown.
#[derive(Clone, Copy)]
pub(super) struct Frame<'f, 't> {
    pub params: usize,
    pub args: &'f [Option<&'t T>],
}

impl<'f, 't> Frame<'f, 't> {
    /// `t` in the state's terms; `None` when it mentions an unknown.
    pub fn read<'x>(&self, t: &'x T) -> Option<Cow<'x, T>>
    where
        't: 'x,
    {
        match t {
            T::Var(v) => {
                let i = *v as usize;
                if i >= self.params {
                    return None;
                }
                self.args.get(i).copied().flatten().map(Cow::Borrowed)
            }
            T::Null | T::Int(_) | T::Bool(_) => Some(Cow::Borrowed(t)),
            T::Add(a, b) => two(self.read(a)?, self.read(b)?, T::Add),
            T::Sub(a, b) => two(self.read(a)?, self.read(b)?, T::Sub),
            T::Mul(a, b) => two(self.read(a)?, self.read(b)?, T::Mul),
            T::Neg(a) => Some(Cow::Owned(T::Neg(Box::new(self.read(a)?.into_owned())))),
        }
    }

    /// The arguments of an instance of the disjunct, in the state's terms.
    pub fn read_args<'x>(&self, app: &'x App) -> Vec<Option<Cow<'x, T>>>
    where
        't: 'x,
    {
        app.args.iter().map(|a| self.read(a)).collect()
    }
}

fn two(a: Cow<'_, T>, b: Cow<'_, T>, f: fn(Box<T>, Box<T>) -> T) -> Option<Cow<'static, T>> {
    Some(Cow::Owned(f(Box::new(a.into_owned()), Box::new(b.into_owned()))))
}
