//! The checker's own terms, over names interned as numbers.
//!
//! The search compares, copies and keys variables, predicates and classes at every step (its
//! environment, its reference classes, the keys of its instance cache and loop cut). With
//! the formula's `String` names, comparing them in ordered maps was a quarter of the time of
//! a counter's check and copying them most of its allocation. Here every name is a `u32`
//! given once, when the formula and the predicates' bodies are taken in, so a step compares
//! and copies integers. These types are private to the checker: it stays independent of the
//! satisfiability search's representation.

use crate::formula::{CmpOp, PointsTo, PredApp, Pure, Sort, SymHeap, Term, Var};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::Hasher;

/// A variable: a name of the formula or of a predicate's body ([`Names::var`]), or a fresh
/// existential of an unfolding ([`Names::fresh`]). In a compiled body, a slot number.
pub(super) type Id = u32;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum T {
    Var(Id),
    Null,
    Int(i64),
    Bool(bool),
    Add(Box<T>, Box<T>),
    Sub(Box<T>, Box<T>),
    Mul(Box<T>, Box<T>),
    Neg(Box<T>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum P {
    Const(bool),
    Cmp(CmpOp, T, T),
    Not(Box<P>),
    And(Vec<P>),
    Or(Vec<P>),
}

/// A points-to: its class and field names interned ([`Names::class`], [`Names::field`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Pt {
    pub ptr: T,
    pub class: u32,
    pub fields: Vec<(u32, T)>,
}

/// A predicate instance: the predicate by number, and the chain of unfoldings it belongs to
/// (for the loop cut).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct App {
    pub pred: u32,
    pub args: Vec<T>,
    pub chain: u32,
}

/// What the checker needs of a variable's sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Int,
    Bool,
    Ref,
}

/// The sorts of the variables in one search: a fresh one's is in its number, a given one's
/// (the formula's free variables and existentials) in a table shared by all the states.
#[derive(Clone, Debug, Default)]
pub(super) struct Kinds(std::rc::Rc<Vec<Option<Kind>>>);

impl Kinds {
    pub fn new(given: Vec<Option<Kind>>) -> Kinds {
        Kinds(std::rc::Rc::new(given))
    }

    /// `None`: a variable without a declared sort.
    pub fn of(&self, v: Id) -> Option<Kind> {
        if v & FRESH != 0 {
            return Some(match (v >> KIND_SHIFT) & 3 {
                0 => Kind::Int,
                1 => Kind::Bool,
                _ => Kind::Ref,
            });
        }
        self.0.get(v as usize).copied().flatten()
    }
}

impl Kind {
    pub fn of(s: &Sort) -> Kind {
        match s {
            Sort::Int => Kind::Int,
            Sort::Bool => Kind::Bool,
            Sort::Ref(_) => Kind::Ref,
        }
    }
}

/// A symbolic heap in the checker's terms.
#[derive(Clone, Debug, Default)]
pub(super) struct Part {
    pub exists: Vec<(Id, Kind)>,
    pub pts: Vec<Pt>,
    pub apps: Vec<App>,
    pub pure: Vec<P>,
}

/// Fresh variables carry this bit, their sort in the two below it ([`KIND_SHIFT`]: a fresh
/// variable's sort is known wherever it appears, without a map per state), and in the rest
/// the `N` of the name `v'N` the formula's [`crate::formula::Fresh`] would have given (names
/// order the choices of the pure facts' solver, which must not change with the
/// representation).
const FRESH: u32 = 1 << 31;
const KIND_SHIFT: u32 = 29;
const NUMBER: u32 = (1 << KIND_SHIFT) - 1;

/// Fresh numbers past this stop the search (far beyond any step bound's needs).
pub(super) const MAX_FRESH: u32 = 1 << 28;

/// The interned names of one check.
#[derive(Default)]
pub(super) struct Names {
    vars: Interner,
    preds: Interner,
    classes: Interner,
    fields: Interner,
    /// The number of the last fresh name given.
    fresh: u32,
}

#[derive(Default)]
struct Interner {
    names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Interner {
    fn id(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.ids.get(s) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(s.to_string());
        self.ids.insert(s.to_string(), i);
        i
    }
}

impl Names {
    /// A variable of the formula or of a body.
    pub fn var(&mut self, v: &str) -> Id {
        self.vars.id(v)
    }

    pub fn pred(&mut self, p: &str) -> u32 {
        self.preds.id(p)
    }

    pub fn class(&mut self, c: &str) -> u32 {
        self.classes.id(c)
    }

    pub fn field(&mut self, f: &str) -> u32 {
        self.fields.id(f)
    }

    pub fn field_name(&self, f: u32) -> &str {
        self.fields.names.get(f as usize).map_or("", String::as_str)
    }

    /// A variable of sort `kind` never given before (as [`crate::formula::Fresh::var`]
    /// would name it).
    pub fn fresh(&mut self, kind: Kind) -> Id {
        self.fresh += 1;
        let k = match kind {
            Kind::Int => 0,
            Kind::Bool => 1,
            Kind::Ref => 2,
        };
        FRESH | k << KIND_SHIFT | (self.fresh & NUMBER)
    }

    /// How many fresh names were given.
    pub fn fresh_given(&self) -> u32 {
        self.fresh
    }

    /// Later fresh names do not collide with `v` (as [`crate::formula::Fresh::avoid`]).
    pub fn avoid(&mut self, v: &str) {
        if let Some((_, num)) = v.rsplit_once('\'') {
            if let Ok(k) = num.parse::<u32>() {
                self.fresh = self.fresh.max(k);
            }
        }
    }

    /// The name of variable `id`.
    pub fn name(&self, id: Id) -> Cow<'_, str> {
        if id & FRESH != 0 {
            Cow::Owned(format!("v'{}", id & NUMBER))
        } else {
            Cow::Borrowed(self.vars.names.get(id as usize).map_or("", String::as_str))
        }
    }

    /// Variables in the order of their names.
    pub fn order(&self, a: Id, b: Id) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        self.name(a).cmp(&self.name(b))
    }

    pub fn part(&mut self, d: &SymHeap, var: &mut impl FnMut(&mut Names, &Var) -> Id) -> Part {
        Part {
            exists: d.exists.iter().map(|(v, s)| (var(self, v), Kind::of(s))).collect(),
            pts: d.points_to.iter().map(|pt| self.pt(pt, var)).collect(),
            apps: d.preds.iter().map(|app| self.app(app, var)).collect(),
            pure: d.pure.iter().map(|p| self.pure(p, var)).collect(),
        }
    }

    fn pt(&mut self, pt: &PointsTo, var: &mut impl FnMut(&mut Names, &Var) -> Id) -> Pt {
        Pt {
            ptr: self.term(&pt.ptr, var),
            class: self.class(&pt.class),
            fields: pt.fields.iter().map(|(f, t)| (self.field(f), self.term(t, var))).collect(),
        }
    }

    fn app(&mut self, app: &PredApp, var: &mut impl FnMut(&mut Names, &Var) -> Id) -> App {
        App {
            pred: self.pred(&app.name),
            args: app.args.iter().map(|t| self.term(t, var)).collect(),
            chain: 0,
        }
    }

    pub fn pure(&mut self, p: &Pure, var: &mut impl FnMut(&mut Names, &Var) -> Id) -> P {
        match p {
            Pure::Const(b) => P::Const(*b),
            Pure::Cmp(op, a, b) => P::Cmp(*op, self.term(a, var), self.term(b, var)),
            Pure::Not(q) => P::Not(Box::new(self.pure(q, var))),
            Pure::And(ps) => P::And(ps.iter().map(|q| self.pure(q, var)).collect()),
            Pure::Or(ps) => P::Or(ps.iter().map(|q| self.pure(q, var)).collect()),
        }
    }

    pub fn term(&mut self, t: &Term, var: &mut impl FnMut(&mut Names, &Var) -> Id) -> T {
        let two = |n: &mut Names, a: &Term, b: &Term, var: &mut _| {
            (Box::new(n.term(a, var)), Box::new(n.term(b, var)))
        };
        match t {
            Term::Var(v) => T::Var(var(self, v)),
            Term::Null => T::Null,
            Term::Int(i) => T::Int(*i),
            Term::Bool(b) => T::Bool(*b),
            Term::Add(a, b) => {
                let (a, b) = two(self, a, b, var);
                T::Add(a, b)
            }
            Term::Sub(a, b) => {
                let (a, b) = two(self, a, b, var);
                T::Sub(a, b)
            }
            Term::Mul(a, b) => {
                let (a, b) = two(self, a, b, var);
                T::Mul(a, b)
            }
            Term::Neg(a) => T::Neg(Box::new(self.term(a, var))),
        }
    }
}

impl T {
    pub fn free_vars(&self, acc: &mut Vec<Id>) {
        match self {
            T::Var(v) => acc.push(*v),
            T::Null | T::Int(_) | T::Bool(_) => {}
            T::Add(a, b) | T::Sub(a, b) | T::Mul(a, b) => {
                a.free_vars(acc);
                b.free_vars(acc);
            }
            T::Neg(a) => a.free_vars(acc),
        }
    }
}

impl P {
    pub fn free_vars(&self, acc: &mut Vec<Id>) {
        match self {
            P::Const(_) => {}
            P::Cmp(_, a, b) => {
                a.free_vars(acc);
                b.free_vars(acc);
            }
            P::Not(q) => q.free_vars(acc),
            P::And(ps) | P::Or(ps) => ps.iter().for_each(|q| q.free_vars(acc)),
        }
    }
}

/// A multiply-rotate hash of words (the instance cache's keys are hashed per waiting
/// instance per step, where the standard hasher's strength is not needed).
#[derive(Default)]
pub(super) struct Fx(u64);

/// A hash map keyed by the checker's numbers, hashed by [`Fx`]: the search state's values and
/// its classes' parents are looked up several times per fact per step, where the ordered maps'
/// searches were two fifths of a counter's check. Nothing iterates them in an order that
/// matters.
pub(super) type FastMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<Fx>>;

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        self.add(bytes.len() as u64);
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
}

impl Fx {
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}
