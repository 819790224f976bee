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
//! succ-rec14.

use crate::formula::{Defs, Fresh, PointsTo, PredApp, Pure, Sort, SymHeap, Term, Var};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// One predicate, compiled.
pub(super) struct CompiledPred {
    pub params: Vec<(Var, Sort)>,
    /// Its disjuncts with the instances of fact-only predicates expanded.
    pub disjuncts: Vec<SymHeap>,
    /// Whether an unfolding of an instance can reach an instance of this predicate again
    /// (it lies on a cycle of the call graph). Only such an instance can recur along a chain
    /// of unfoldings, so only theirs are recorded for the loop cut.
    pub recursive: bool,
}

/// Every predicate of the definitions, compiled.
pub(super) struct Compiled {
    preds: HashMap<String, CompiledPred>,
}

impl Compiled {
    pub fn new(defs: &Defs) -> Compiled {
        let mut fresh = Fresh::new();
        fresh.avoid(defs.preds.values().flat_map(|d| d.params.iter().map(|(v, _)| v)));
        for def in defs.preds.values() {
            for d in &def.body {
                fresh.avoid(d.exists.iter().map(|(v, _)| v));
            }
        }
        let preds = defs
            .preds
            .iter()
            .map(|(name, def)| {
                let own: Vec<Term> = def.params.iter().map(|(v, _)| Term::Var(v.clone())).collect();
                let params: Vec<(Var, Sort)> =
                    def.params.iter().enumerate().map(|(i, (_, s))| (slot(i), s.clone())).collect();
                let disjuncts = def
                    .body
                    .iter()
                    .map(|d| {
                        let part = expand(defs, &def.params, d, &own, &mut fresh);
                        numbered(&def.params, part)
                    })
                    .collect();
                let pred = CompiledPred { params, disjuncts, recursive: false };
                (name.clone(), pred)
            })
            .collect();
        let mut compiled = Compiled { preds };
        let cyclic: Vec<String> =
            compiled.preds.keys().filter(|p| compiled.reaches_itself(p)).cloned().collect();
        for p in cyclic {
            if let Some(cp) = compiled.preds.get_mut(&p) {
                cp.recursive = true;
            }
        }
        compiled
    }

    /// Whether `start` is reachable from its own bodies' instances (the facts-only
    /// predicates expanded away cannot recur: they have no instance).
    fn reaches_itself(&self, start: &str) -> bool {
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut todo: Vec<&str> = vec![start];
        while let Some(p) = todo.pop() {
            let Some(cp) = self.preds.get(p) else { continue };
            for app in cp.disjuncts.iter().flat_map(|d| &d.preds) {
                if app.name == start {
                    return true;
                }
                if seen.insert(app.name.as_str()) {
                    todo.push(app.name.as_str());
                }
            }
        }
        false
    }

    pub fn get(&self, name: &str) -> Option<&CompiledPred> {
        self.preds.get(name)
    }
}

impl CompiledPred {
    /// Disjunct `i` for an instance with arguments `args`, its existentials given fresh names.
    /// Its variables are numbered slots, so this is one pass over its atoms that puts each
    /// slot's term in place (no map from names to terms is built, no name compared).
    pub fn instantiate(&self, i: usize, args: &[Term], fresh: &mut Fresh) -> SymHeap {
        let d = &self.disjuncts[i];
        let exists: Vec<(Var, Sort)> =
            d.exists.iter().map(|(_, sort)| (fresh.var("v"), sort.clone())).collect();
        let fill = Fill { args, exists: &exists, params: self.params.len() };
        SymHeap {
            points_to: d
                .points_to
                .iter()
                .map(|pt| PointsTo {
                    ptr: fill.term(&pt.ptr),
                    class: pt.class.clone(),
                    fields: pt.fields.iter().map(|(f, t)| (f.clone(), fill.term(t))).collect(),
                })
                .collect(),
            preds: d
                .preds
                .iter()
                .map(|app| PredApp {
                    name: app.name.clone(),
                    args: app.args.iter().map(|t| fill.term(t)).collect(),
                    depth: app.depth,
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
    args: &'a [Term],
    exists: &'a [(Var, Sort)],
    params: usize,
}

impl Fill<'_> {
    fn term(&self, t: &Term) -> Term {
        match t {
            Term::Var(v) => match slot_of(v) {
                Some(i) if i < self.params => self.args.get(i).cloned().unwrap_or(Term::Null),
                Some(i) => match self.exists.get(i - self.params) {
                    Some((w, _)) => Term::Var(w.clone()),
                    None => t.clone(),
                },
                None => t.clone(),
            },
            Term::Null | Term::Int(_) | Term::Bool(_) => t.clone(),
            Term::Add(a, b) => Term::Add(Box::new(self.term(a)), Box::new(self.term(b))),
            Term::Sub(a, b) => Term::Sub(Box::new(self.term(a)), Box::new(self.term(b))),
            Term::Mul(a, b) => Term::Mul(Box::new(self.term(a)), Box::new(self.term(b))),
            Term::Neg(a) => Term::Neg(Box::new(self.term(a))),
        }
    }

    fn pure(&self, p: &Pure) -> Pure {
        match p {
            Pure::Const(b) => Pure::Const(*b),
            Pure::Cmp(op, a, b) => Pure::Cmp(*op, self.term(a), self.term(b)),
            Pure::Not(q) => Pure::Not(Box::new(self.pure(q))),
            Pure::And(ps) => Pure::And(ps.iter().map(|q| self.pure(q)).collect()),
            Pure::Or(ps) => Pure::Or(ps.iter().map(|q| self.pure(q)).collect()),
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
    pub params: &'f [(Var, Sort)],
    pub args: &'f [Option<&'t Term>],
}

impl<'f, 't> Frame<'f, 't> {
    /// `t` in the state's terms; `None` when it mentions an unknown.
    pub fn read<'x>(&self, t: &'x Term) -> Option<Cow<'x, Term>>
    where
        't: 'x,
    {
        match t {
            Term::Var(v) => {
                let i = slot_of(v).filter(|i| *i < self.params.len())?;
                self.args.get(i).copied().flatten().map(Cow::Borrowed)
            }
            Term::Null | Term::Int(_) | Term::Bool(_) => Some(Cow::Borrowed(t)),
            Term::Add(a, b) => two(self.read(a)?, self.read(b)?, Term::Add),
            Term::Sub(a, b) => two(self.read(a)?, self.read(b)?, Term::Sub),
            Term::Mul(a, b) => two(self.read(a)?, self.read(b)?, Term::Mul),
            Term::Neg(a) => Some(Cow::Owned(Term::Neg(Box::new(self.read(a)?.into_owned())))),
        }
    }

    /// The arguments of an instance of the disjunct, in the state's terms.
    pub fn read_args<'x>(&self, app: &'x PredApp) -> Vec<Option<Cow<'x, Term>>>
    where
        't: 'x,
    {
        app.args.iter().map(|a| self.read(a)).collect()
    }
}

fn two(
    a: Cow<'_, Term>,
    b: Cow<'_, Term>,
    f: fn(Box<Term>, Box<Term>) -> Term,
) -> Option<Cow<'static, Term>> {
    Some(Cow::Owned(f(Box::new(a.into_owned()), Box::new(b.into_owned()))))
}
