//! The logic's own formula representation: symbolic heaps `∃v. κ ∧ π` and their disjunctions.
//!
//! Why not reuse the AST: the AST keeps what the user wrote (spans, `e.f` reads, `_`, `&&` chains,
//! unlisted fields), while every algorithm here wants a flat, explicit form: every points-to lists
//! every field of its class, every existential is named and sorted, pure facts are a conjunction of
//! small constraints. Conversion (`convert.rs`) does that work once. Formulas are plain values; the
//! only shared state is a [`Fresh`] counter that callers thread through explicitly.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A variable name. Fresh variables carry a `'N` suffix that the surface syntax cannot spell, so
/// they never clash with user names.
pub type Var = String;

/// The sort of a variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Int,
    Bool,
    /// A reference to an object of this class (or null).
    Ref(String),
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Int => write!(f, "int"),
            Sort::Bool => write!(f, "bool"),
            Sort::Ref(c) => write!(f, "{c}"),
        }
    }
}

/// A term: references (variables, `null`) and linear integer arithmetic.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    Var(Var),
    Null,
    Int(i64),
    Bool(bool),
    Add(Box<Term>, Box<Term>),
    Sub(Box<Term>, Box<Term>),
    /// Multiplication; linear only when one side is a constant (checked where it matters).
    Mul(Box<Term>, Box<Term>),
    Neg(Box<Term>),
}

/// Comparison operators of pure atoms (`>` and `>=` are stored flipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
}

/// A pure (heap-independent) fact.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pure {
    Const(bool),
    Cmp(CmpOp, Term, Term),
    Not(Box<Pure>),
    And(Vec<Pure>),
    Or(Vec<Pure>),
}

/// `ptr -> Class { field: term, ... }` with every field of the class, in declaration order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PointsTo {
    pub ptr: Term,
    pub class: String,
    pub fields: Vec<(String, Term)>,
}

impl PointsTo {
    pub fn field(&self, name: &str) -> Option<&Term> {
        self.fields.iter().find(|(f, _)| f == name).map(|(_, t)| t)
    }
}

/// `p(args)`. `depth` is bookkeeping for bounded unfolding: how many recursive unfoldings led to
/// this instance (0 for instances written by the user). It is ignored by equality of meaning
/// but kept in `==` for simplicity; printing omits it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PredApp {
    pub name: String,
    pub args: Vec<Term>,
    pub depth: u32,
}

/// `∃ exists. points_to * preds ∧ pure`. An empty spatial part is `emp`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymHeap {
    pub exists: Vec<(Var, Sort)>,
    pub points_to: Vec<PointsTo>,
    pub preds: Vec<PredApp>,
    pub pure: Vec<Pure>,
}

/// A top-level formula: free variables (the store's domain, with sorts) and a disjunction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Formula {
    pub free: Vec<(Var, Sort)>,
    pub disjuncts: Vec<SymHeap>,
}

/// `pred name(params) := body` in internal form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredDef {
    pub name: String,
    pub params: Vec<(Var, Sort)>,
    pub body: Vec<SymHeap>,
}

/// Everything the logic needs from a program: class layouts and predicate definitions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Defs {
    /// Class name → fields in declaration order with their sorts.
    pub classes: BTreeMap<String, Vec<(String, Sort)>>,
    pub preds: BTreeMap<String, PredDef>,
    /// Integer facts every instance of a predicate implies, over its parameters
    /// ([`crate::invariant`]); filled by [`Defs::from_program`], empty means "nothing known".
    pub invariants: BTreeMap<String, Vec<Pure>>,
}

impl Defs {
    pub fn field_sort(&self, class: &str, field: &str) -> Option<&Sort> {
        self.classes.get(class)?.iter().find(|(f, _)| f == field).map(|(_, s)| s)
    }
}

/// A source of fresh variable names. Threaded explicitly so formulas stay plain values.
#[derive(Clone, Debug, Default)]
pub struct Fresh {
    next: u32,
}

impl Fresh {
    pub fn new() -> Fresh {
        Fresh { next: 0 }
    }

    /// A name never returned before, derived from `base` (any previous `'N` suffix dropped).
    pub fn var(&mut self, base: &str) -> Var {
        self.next += 1;
        let stem = base.split('\'').next().unwrap_or(base);
        let stem = if stem.is_empty() { "v" } else { stem };
        format!("{stem}'{}", self.next)
    }

    /// Makes sure later names do not collide with fresh names already present in `names`.
    pub fn avoid<'a>(&mut self, names: impl IntoIterator<Item = &'a Var>) {
        for n in names {
            if let Some((_, num)) = n.rsplit_once('\'') {
                if let Ok(k) = num.parse::<u32>() {
                    self.next = self.next.max(k);
                }
            }
        }
    }
}

/// A substitution from variables to terms.
pub type Subst = BTreeMap<Var, Term>;

impl Term {
    pub fn var(name: impl Into<String>) -> Term {
        Term::Var(name.into())
    }

    pub fn as_var(&self) -> Option<&str> {
        match self {
            Term::Var(v) => Some(v),
            _ => None,
        }
    }

    pub fn free_vars(&self, acc: &mut BTreeSet<Var>) {
        match self {
            Term::Var(v) => {
                acc.insert(v.clone());
            }
            Term::Null | Term::Int(_) | Term::Bool(_) => {}
            Term::Add(a, b) | Term::Sub(a, b) | Term::Mul(a, b) => {
                a.free_vars(acc);
                b.free_vars(acc);
            }
            Term::Neg(a) => a.free_vars(acc),
        }
    }

    pub fn mentions(&self, v: &str) -> bool {
        match self {
            Term::Var(w) => w == v,
            Term::Null | Term::Int(_) | Term::Bool(_) => false,
            Term::Add(a, b) | Term::Sub(a, b) | Term::Mul(a, b) => a.mentions(v) || b.mentions(v),
            Term::Neg(a) => a.mentions(v),
        }
    }

    pub fn subst(&self, s: &Subst) -> Term {
        match self {
            Term::Var(v) => s.get(v).cloned().unwrap_or_else(|| self.clone()),
            Term::Null | Term::Int(_) | Term::Bool(_) => self.clone(),
            Term::Add(a, b) => Term::Add(Box::new(a.subst(s)), Box::new(b.subst(s))),
            Term::Sub(a, b) => Term::Sub(Box::new(a.subst(s)), Box::new(b.subst(s))),
            Term::Mul(a, b) => Term::Mul(Box::new(a.subst(s)), Box::new(b.subst(s))),
            Term::Neg(a) => Term::Neg(Box::new(a.subst(s))),
        }
    }

    /// Folds constant arithmetic (`1 + 2` → `3`); leaves everything else in place.
    pub fn simplify(&self) -> Term {
        match self {
            Term::Add(a, b) | Term::Sub(a, b) | Term::Mul(a, b) => {
                let (a, b) = (a.simplify(), b.simplify());
                if let (Term::Int(x), Term::Int(y)) = (&a, &b) {
                    let r = match self {
                        Term::Add(..) => x.checked_add(*y),
                        Term::Sub(..) => x.checked_sub(*y),
                        _ => x.checked_mul(*y),
                    };
                    if let Some(r) = r {
                        return Term::Int(r);
                    }
                }
                match self {
                    Term::Add(..) => Term::Add(Box::new(a), Box::new(b)),
                    Term::Sub(..) => Term::Sub(Box::new(a), Box::new(b)),
                    _ => Term::Mul(Box::new(a), Box::new(b)),
                }
            }
            Term::Neg(a) => match a.simplify() {
                Term::Int(x) => x
                    .checked_neg()
                    .map(Term::Int)
                    .unwrap_or_else(|| Term::Neg(Box::new(Term::Int(x)))),
                a => Term::Neg(Box::new(a)),
            },
            _ => self.clone(),
        }
    }

    /// True for constants (`null`, literals): terms without variables.
    pub fn is_ground(&self) -> bool {
        let mut acc = BTreeSet::new();
        self.free_vars(&mut acc);
        acc.is_empty()
    }
}

impl Pure {
    pub fn cmp(op: CmpOp, a: Term, b: Term) -> Pure {
        Pure::Cmp(op, a, b)
    }

    pub fn eq(a: Term, b: Term) -> Pure {
        Pure::Cmp(CmpOp::Eq, a, b)
    }

    pub fn ne(a: Term, b: Term) -> Pure {
        Pure::Cmp(CmpOp::Ne, a, b)
    }

    pub fn free_vars(&self, acc: &mut BTreeSet<Var>) {
        match self {
            Pure::Const(_) => {}
            Pure::Cmp(_, a, b) => {
                a.free_vars(acc);
                b.free_vars(acc);
            }
            Pure::Not(p) => p.free_vars(acc),
            Pure::And(ps) | Pure::Or(ps) => ps.iter().for_each(|p| p.free_vars(acc)),
        }
    }

    pub fn subst(&self, s: &Subst) -> Pure {
        match self {
            Pure::Const(b) => Pure::Const(*b),
            Pure::Cmp(op, a, b) => Pure::Cmp(*op, a.subst(s), b.subst(s)),
            Pure::Not(p) => Pure::Not(Box::new(p.subst(s))),
            Pure::And(ps) => Pure::And(ps.iter().map(|p| p.subst(s)).collect()),
            Pure::Or(ps) => Pure::Or(ps.iter().map(|p| p.subst(s)).collect()),
        }
    }

    /// Flattens nested conjunctions into `acc`.
    pub fn conjuncts_into(self, acc: &mut Vec<Pure>) {
        match self {
            Pure::And(ps) => ps.into_iter().for_each(|p| p.conjuncts_into(acc)),
            Pure::Const(true) => {}
            p => acc.push(p),
        }
    }
}

impl PointsTo {
    pub fn subst(&self, s: &Subst) -> PointsTo {
        PointsTo {
            ptr: self.ptr.subst(s),
            class: self.class.clone(),
            fields: self.fields.iter().map(|(f, t)| (f.clone(), t.subst(s))).collect(),
        }
    }
}

impl PredApp {
    pub fn subst(&self, s: &Subst) -> PredApp {
        PredApp {
            name: self.name.clone(),
            args: self.args.iter().map(|t| t.subst(s)).collect(),
            depth: self.depth,
        }
    }
}

impl SymHeap {
    /// Variables occurring free (not bound by this heap's `exists`).
    pub fn free_vars(&self) -> BTreeSet<Var> {
        let mut acc = self.all_vars();
        for (v, _) in &self.exists {
            acc.remove(v);
        }
        acc
    }

    /// Every variable occurring in the body, bound or not.
    pub fn all_vars(&self) -> BTreeSet<Var> {
        let mut acc = BTreeSet::new();
        for pt in &self.points_to {
            pt.ptr.free_vars(&mut acc);
            pt.fields.iter().for_each(|(_, t)| t.free_vars(&mut acc));
        }
        for p in &self.preds {
            p.args.iter().for_each(|t| t.free_vars(&mut acc));
        }
        self.pure.iter().for_each(|p| p.free_vars(&mut acc));
        acc
    }

    /// Applies `s` to the body without touching binders (callers ensure no capture).
    fn subst_body(&self, s: &Subst) -> SymHeap {
        SymHeap {
            exists: self.exists.clone(),
            points_to: self.points_to.iter().map(|p| p.subst(s)).collect(),
            preds: self.preds.iter().map(|p| p.subst(s)).collect(),
            pure: self.pure.iter().map(|p| p.subst(s)).collect(),
        }
    }

    /// Capture-free substitution: existentials shadow the substitution, and existentials that
    /// would capture a variable of the substituted terms are renamed fresh first.
    pub fn subst(&self, s: &Subst, fresh: &mut Fresh) -> SymHeap {
        let mut s = s.clone();
        for (v, _) in &self.exists {
            s.remove(v);
        }
        let mut range = BTreeSet::new();
        s.values().for_each(|t| t.free_vars(&mut range));
        let mut rename = Subst::new();
        let mut exists = Vec::new();
        for (v, sort) in &self.exists {
            if range.contains(v) {
                let w = fresh.var(v);
                rename.insert(v.clone(), Term::Var(w.clone()));
                exists.push((w, sort.clone()));
            } else {
                exists.push((v.clone(), sort.clone()));
            }
        }
        let mut out = self.subst_body(&rename).subst_body(&s);
        out.exists = exists;
        out
    }

    /// Renames every existential to a fresh name (α-renaming), e.g. before unfolding a body.
    pub fn freshen(&self, fresh: &mut Fresh) -> SymHeap {
        let mut rename = Subst::new();
        let mut exists = Vec::new();
        for (v, sort) in &self.exists {
            let w = fresh.var(v);
            rename.insert(v.clone(), Term::Var(w.clone()));
            exists.push((w, sort.clone()));
        }
        let mut out = self.subst_body(&rename);
        out.exists = exists;
        out
    }

    pub fn is_base(&self) -> bool {
        self.preds.is_empty()
    }

    pub fn sort_of(&self, v: &str) -> Option<&Sort> {
        self.exists.iter().find(|(w, _)| w == v).map(|(_, s)| s)
    }
}

// ---------------------------------------------------------------------------------------------
// Pretty printing, in the surface syntax (fresh names keep their `'N`).

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Var(v) => write!(f, "{v}"),
            Term::Null => write!(f, "null"),
            Term::Int(i) => write!(f, "{i}"),
            Term::Bool(b) => write!(f, "{b}"),
            Term::Add(a, b) => write!(f, "({a} + {b})"),
            Term::Sub(a, b) => write!(f, "({a} - {b})"),
            Term::Mul(a, b) => write!(f, "({a} # {b})"),
            Term::Neg(a) => write!(f, "-{a}"),
        }
    }
}

impl fmt::Display for CmpOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
        })
    }
}

impl fmt::Display for Pure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pure::Const(b) => write!(f, "{b}"),
            Pure::Cmp(op, a, b) => write!(f, "{a} {op} {b}"),
            Pure::Not(p) => write!(f, "!({p})"),
            Pure::And(ps) | Pure::Or(ps) => {
                let sep = if matches!(self, Pure::And(_)) { " && " } else { " || " };
                write!(f, "(")?;
                for (i, p) in ps.iter().enumerate() {
                    if i > 0 {
                        f.write_str(sep)?;
                    }
                    write!(f, "{p}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl fmt::Display for PointsTo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} -> {} {{ ", self.ptr, self.class)?;
        for (i, (name, t)) in self.fields.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{name}: {t}")?;
        }
        write!(f, " }}")
    }
}

impl fmt::Display for PredApp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.name)?;
        for (i, t) in self.args.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{t}")?;
        }
        write!(f, ")")
    }
}

impl fmt::Display for SymHeap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.exists.is_empty() {
            write!(f, "exists ")?;
            for (i, (v, s)) in self.exists.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{s} {v}")?;
            }
            write!(f, ". ")?;
        }
        let mut first = true;
        for pt in &self.points_to {
            if !first {
                write!(f, " * ")?;
            }
            first = false;
            write!(f, "{pt}")?;
        }
        for p in &self.preds {
            if !first {
                write!(f, " * ")?;
            }
            first = false;
            write!(f, "{p}")?;
        }
        if first {
            write!(f, "emp")?;
        }
        for p in &self.pure {
            write!(f, " & {p}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.disjuncts.is_empty() {
            return write!(f, "false");
        }
        for (i, d) in self.disjuncts.iter().enumerate() {
            if i > 0 {
                write!(f, " | ")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl fmt::Display for PredDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pred {}(", self.name)?;
        for (i, (v, s)) in self.params.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{s} {v}")?;
        }
        write!(f, ") := ")?;
        let body = Formula { free: Vec::new(), disjuncts: self.body.clone() };
        write!(f, "{body};")
    }
}
