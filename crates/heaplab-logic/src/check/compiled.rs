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

use crate::formula::{Defs, Fresh, PredApp, Sort, SymHeap, Term, Var};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// One predicate, compiled.
pub(super) struct CompiledPred {
    pub params: Vec<(Var, Sort)>,
    /// Its disjuncts with the instances of fact-only predicates expanded.
    pub disjuncts: Vec<SymHeap>,
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
                let disjuncts = def
                    .body
                    .iter()
                    .map(|d| expand(defs, &def.params, d, &own, &mut fresh))
                    .collect();
                (name.clone(), CompiledPred { params: def.params.clone(), disjuncts })
            })
            .collect();
        Compiled { preds }
    }

    pub fn get(&self, name: &str) -> Option<&CompiledPred> {
        self.preds.get(name)
    }
}

impl CompiledPred {
    /// Disjunct `i` for an instance with arguments `args`, its existentials given fresh names.
    pub fn instantiate(&self, i: usize, args: &[Term], fresh: &mut Fresh) -> SymHeap {
        substitute(&self.params, &self.disjuncts[i], args, fresh)
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
                let i = self.params.iter().position(|(p, _)| p == v)?;
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
