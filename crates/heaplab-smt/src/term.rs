//! Quantifier-free terms over Bool, Int and references: the vocabulary of path conditions.
//!
//! Terms are plain values (no context, no interner) so that the engine can build, compare, hash
//! and print them in tests with no setup. [`Term::simplify`] folds constants; the
//! [`crate::SolverFrontend`] uses it to answer trivial queries without Z3.

use std::collections::{BTreeSet, HashMap};
use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

/// The sort of a variable. References are printed as `Int` (see the crate docs: `null = 0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Bool,
    Int,
    /// A heap reference, encoded as an `Int`; `null` is `0`.
    Ref,
}

impl Sort {
    /// The SMT-LIB2 sort this sort is declared as.
    pub fn smt_name(self) -> &'static str {
        match self {
            Sort::Bool => "Bool",
            Sort::Int | Sort::Ref => "Int",
        }
    }
}

/// A free variable: a name plus a sort. Names may be any string; printing quotes them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var {
    pub name: String,
    pub sort: Sort,
}

impl Var {
    pub fn new(name: impl Into<String>, sort: Sort) -> Var {
        Var { name: name.into(), sort }
    }
    pub fn int(name: impl Into<String>) -> Var {
        Var::new(name, Sort::Int)
    }
    pub fn bool(name: impl Into<String>) -> Var {
        Var::new(name, Sort::Bool)
    }
    pub fn reference(name: impl Into<String>) -> Var {
        Var::new(name, Sort::Ref)
    }
    /// This variable as a term.
    pub fn term(&self) -> Term {
        Term::Var(self.clone())
    }
}

/// Integer comparisons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn smt_name(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// A quantifier-free term. Arithmetic is linear except in [`Term::NonLinear`]: `Mul`, `Div` and
/// `Mod` take a constant, so a query without `NonLinear` stays in QF_LIA, which HeapLab's own
/// procedure decides; one with it goes to Z3 (QF_NIA). `div`/`mod` follow SMT-LIB (Euclidean:
/// the remainder is never negative).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    Bool(bool),
    Int(i64),
    /// The null reference, i.e. the integer `0`.
    Null,
    Var(Var),
    Add(Vec<Term>),
    Sub(Box<Term>, Box<Term>),
    Neg(Box<Term>),
    /// Constant times a term.
    Mul(i64, Box<Term>),
    /// Euclidean division by a constant.
    Div(Box<Term>, i64),
    /// Euclidean remainder by a constant.
    Mod(Box<Term>, i64),
    /// A product, Euclidean quotient or remainder of two terms that may both be symbolic
    /// (`x * y`, `x / y`). Outside the linear procedure's fragment: Z3 decides such queries. A
    /// zero divisor is left unspecified, as SMT-LIB leaves it; callers guard the divisor.
    NonLinear(NlOp, Box<Term>, Box<Term>),
    Cmp(CmpOp, Box<Term>, Box<Term>),
    Eq(Box<Term>, Box<Term>),
    Distinct(Vec<Term>),
    Not(Box<Term>),
    And(Vec<Term>),
    Or(Vec<Term>),
    Implies(Box<Term>, Box<Term>),
    Ite(Box<Term>, Box<Term>, Box<Term>),
}

/// The operation of a [`Term::NonLinear`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NlOp {
    Mul,
    Div,
    Mod,
}

impl NlOp {
    /// The SMT-LIB function symbol.
    pub fn smt_name(self) -> &'static str {
        match self {
            NlOp::Mul => "*",
            NlOp::Div => "div",
            NlOp::Mod => "mod",
        }
    }

    /// The operation on two integers (`None` on overflow or a zero divisor).
    pub fn apply(self, a: i128, b: i128) -> Option<i128> {
        match self {
            NlOp::Mul => a.checked_mul(b),
            NlOp::Div => a.checked_div_euclid(b),
            NlOp::Mod => a.checked_rem_euclid(b),
        }
    }
}

impl From<Var> for Term {
    fn from(v: Var) -> Term {
        Term::Var(v)
    }
}

impl From<&Var> for Term {
    fn from(v: &Var) -> Term {
        Term::Var(v.clone())
    }
}

impl From<i64> for Term {
    fn from(v: i64) -> Term {
        Term::Int(v)
    }
}

impl From<bool> for Term {
    fn from(v: bool) -> Term {
        Term::Bool(v)
    }
}

impl Term {
    pub fn add(terms: impl IntoIterator<Item = Term>) -> Term {
        Term::Add(terms.into_iter().collect())
    }
    pub fn sub(a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::Sub(Box::new(a.into()), Box::new(b.into()))
    }
    pub fn neg(a: impl Into<Term>) -> Term {
        Term::Neg(Box::new(a.into()))
    }
    pub fn mul(c: i64, a: impl Into<Term>) -> Term {
        Term::Mul(c, Box::new(a.into()))
    }
    pub fn div(a: impl Into<Term>, c: i64) -> Term {
        Term::Div(Box::new(a.into()), c)
    }
    pub fn modulo(a: impl Into<Term>, c: i64) -> Term {
        Term::Mod(Box::new(a.into()), c)
    }
    /// `a op b` for two terms that may both be symbolic (see [`Term::NonLinear`]).
    pub fn nonlinear(op: NlOp, a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::NonLinear(op, Box::new(a.into()), Box::new(b.into()))
    }
    pub fn cmp(op: CmpOp, a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::Cmp(op, Box::new(a.into()), Box::new(b.into()))
    }
    pub fn lt(a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::cmp(CmpOp::Lt, a, b)
    }
    pub fn le(a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::cmp(CmpOp::Le, a, b)
    }
    pub fn gt(a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::cmp(CmpOp::Gt, a, b)
    }
    pub fn ge(a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::cmp(CmpOp::Ge, a, b)
    }
    pub fn eq(a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::Eq(Box::new(a.into()), Box::new(b.into()))
    }
    /// `a != b`, i.e. `(not (= a b))`.
    pub fn ne(a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::not(Term::eq(a, b))
    }
    pub fn distinct(terms: impl IntoIterator<Item = Term>) -> Term {
        Term::Distinct(terms.into_iter().collect())
    }
    #[allow(clippy::should_implement_trait)]
    pub fn not(a: impl Into<Term>) -> Term {
        Term::Not(Box::new(a.into()))
    }
    pub fn and(terms: impl IntoIterator<Item = Term>) -> Term {
        Term::And(terms.into_iter().collect())
    }
    pub fn or(terms: impl IntoIterator<Item = Term>) -> Term {
        Term::Or(terms.into_iter().collect())
    }
    pub fn implies(a: impl Into<Term>, b: impl Into<Term>) -> Term {
        Term::Implies(Box::new(a.into()), Box::new(b.into()))
    }
    pub fn ite(c: impl Into<Term>, t: impl Into<Term>, e: impl Into<Term>) -> Term {
        Term::Ite(Box::new(c.into()), Box::new(t.into()), Box::new(e.into()))
    }

    /// Calls `f` on every variable occurrence, left to right, without copying any.
    pub fn visit_vars<'a>(&'a self, f: &mut impl FnMut(&'a Var)) {
        match self {
            Term::Bool(_) | Term::Int(_) | Term::Null => {}
            Term::Var(v) => f(v),
            Term::Add(ts) | Term::Distinct(ts) | Term::And(ts) | Term::Or(ts) => {
                ts.iter().for_each(|x| x.visit_vars(f))
            }
            Term::Neg(a) | Term::Mul(_, a) | Term::Div(a, _) | Term::Mod(a, _) | Term::Not(a) => {
                a.visit_vars(f)
            }
            Term::Sub(a, b)
            | Term::NonLinear(_, a, b)
            | Term::Cmp(_, a, b)
            | Term::Eq(a, b)
            | Term::Implies(a, b) => {
                a.visit_vars(f);
                b.visit_vars(f);
            }
            Term::Ite(c, a, b) => {
                c.visit_vars(f);
                a.visit_vars(f);
                b.visit_vars(f);
            }
        }
    }

    /// Adds every free variable of this term to `acc`.
    pub fn collect_vars(&self, acc: &mut BTreeSet<Var>) {
        self.visit_vars(&mut |v| {
            acc.insert(v.clone());
        });
    }

    /// The integer value of a constant term (`null` is `0`).
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Term::Int(v) => Some(*v),
            Term::Null => Some(0),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Term::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// An equivalent term with constants folded, `and`/`or` flattened and trivial parts
    /// removed. Never changes the set of models; overflowing folds are left unfolded.
    pub fn simplify(&self) -> Term {
        match self {
            Term::Bool(_) | Term::Int(_) | Term::Var(_) => self.clone(),
            Term::Null => Term::Int(0),
            Term::Add(ts) => {
                let mut sum: i64 = 0;
                let mut rest = Vec::new();
                for t in ts.iter().map(Term::simplify) {
                    match t.as_int().and_then(|v| sum.checked_add(v)) {
                        Some(s) => sum = s,
                        None => rest.push(t),
                    }
                }
                if sum != 0 || rest.is_empty() {
                    rest.push(Term::Int(sum));
                }
                if rest.len() == 1 {
                    rest.pop().unwrap_or(Term::Int(0))
                } else {
                    Term::Add(rest)
                }
            }
            Term::Sub(a, b) => {
                let (a, b) = (a.simplify(), b.simplify());
                match (a.as_int(), b.as_int()) {
                    (Some(x), Some(y)) => x.checked_sub(y).map(Term::Int),
                    (_, Some(0)) => Some(a.clone()),
                    _ if a == b => Some(Term::Int(0)),
                    _ => None,
                }
                .unwrap_or_else(|| Term::sub(a, b))
            }
            Term::Neg(a) => {
                let a = a.simplify();
                match a.as_int().and_then(i64::checked_neg) {
                    Some(v) => Term::Int(v),
                    None => Term::neg(a),
                }
            }
            Term::Mul(c, a) => {
                let a = a.simplify();
                match (*c, a.as_int()) {
                    (0, _) => Term::Int(0),
                    (1, _) => a,
                    (c, Some(v)) => c.checked_mul(v).map_or(Term::mul(c, a), Term::Int),
                    (c, None) => Term::mul(c, a),
                }
            }
            Term::Div(a, c) => {
                let a = a.simplify();
                match (a.as_int(), *c) {
                    (_, 1) => a,
                    (Some(v), c) => v.checked_div_euclid(c).map_or(Term::div(a, c), Term::Int),
                    (None, c) => Term::div(a, c),
                }
            }
            Term::Mod(a, c) => {
                let a = a.simplify();
                match (a.as_int(), *c) {
                    (_, 1) | (_, -1) => Term::Int(0),
                    (Some(v), c) => v.checked_rem_euclid(c).map_or(Term::modulo(a, c), Term::Int),
                    (None, c) => Term::modulo(a, c),
                }
            }
            Term::NonLinear(op, a, b) => {
                let (a, b) = (a.simplify(), b.simplify());
                match (a.as_int(), b.as_int()) {
                    (Some(x), Some(y)) => op
                        .apply(i128::from(x), i128::from(y))
                        .and_then(|v| i64::try_from(v).ok())
                        .map_or_else(|| Term::nonlinear(*op, a.clone(), b.clone()), Term::Int),
                    (_, Some(c)) if *op == NlOp::Mul => Term::mul(c, a).simplify(),
                    (Some(c), _) if *op == NlOp::Mul => Term::mul(c, b).simplify(),
                    (_, Some(c)) if c != 0 && *op == NlOp::Div => Term::div(a, c).simplify(),
                    (_, Some(c)) if c != 0 => Term::modulo(a, c).simplify(),
                    _ => Term::nonlinear(*op, a, b),
                }
            }
            Term::Cmp(op, a, b) => {
                let (a, b) = (a.simplify(), b.simplify());
                match (a.as_int(), b.as_int()) {
                    (Some(x), Some(y)) => Term::Bool(op.holds(x, y)),
                    _ if a == b => Term::Bool(matches!(op, CmpOp::Le | CmpOp::Ge)),
                    _ => Term::cmp(*op, a, b),
                }
            }
            Term::Eq(a, b) => {
                let (a, b) = (a.simplify(), b.simplify());
                if a == b {
                    return Term::Bool(true);
                }
                match (&a, &b) {
                    (Term::Int(x), Term::Int(y)) => Term::Bool(x == y),
                    (Term::Bool(x), Term::Bool(y)) => Term::Bool(x == y),
                    (Term::Bool(true), t) | (t, Term::Bool(true)) => t.clone(),
                    (Term::Bool(false), t) | (t, Term::Bool(false)) => {
                        Term::not(t.clone()).simplify()
                    }
                    _ => Term::eq(a, b),
                }
            }
            Term::Distinct(ts) => {
                let ts: Vec<Term> = ts.iter().map(Term::simplify).collect();
                let unique: BTreeSet<&Term> = ts.iter().collect();
                if unique.len() < ts.len() {
                    return Term::Bool(false);
                }
                let all_const = ts.iter().all(|t| matches!(t, Term::Int(_) | Term::Bool(_)));
                if all_const || ts.len() < 2 {
                    // Syntactically different constants are different values.
                    Term::Bool(true)
                } else if ts.len() == 2 {
                    let mut it = ts.into_iter();
                    match (it.next(), it.next()) {
                        (Some(a), Some(b)) => Term::ne(a, b),
                        _ => Term::Bool(true),
                    }
                } else {
                    Term::Distinct(ts)
                }
            }
            Term::Not(a) => match a.simplify() {
                Term::Bool(b) => Term::Bool(!b),
                Term::Not(inner) => *inner,
                a => Term::not(a),
            },
            Term::And(ts) => simplify_junction(ts.iter(), true),
            Term::Or(ts) => simplify_junction(ts.iter(), false),
            Term::Implies(a, b) => Term::or([Term::not((**a).clone()), (**b).clone()]).simplify(),
            Term::Ite(c, t, e) => {
                let (c, t, e) = (c.simplify(), t.simplify(), e.simplify());
                match c {
                    Term::Bool(true) => t,
                    Term::Bool(false) => e,
                    _ if t == e => t,
                    c => Term::ite(c, t, e),
                }
            }
        }
    }
}

/// The simplified conjunction of `ts` (as `Term::And(ts).simplify()`, without copying `ts`).
pub fn simplify_conjunction(ts: &[&Term]) -> Term {
    simplify_junction(ts.iter().copied(), true)
}

/// [`simplify_conjunction`] of terms given already simplified (`simplified[i]` is
/// `ts[i].simplify()`, e.g. from a memo): the same result without simplifying them again.
pub fn conjunction_of_simplified(simplified: Vec<Term>) -> Term {
    junction(simplified, true)
}

/// Simplifies `and` (`is_and`) or `or`: flattens nested ones, drops neutral elements and
/// recognizes `p` next to `(not p)`.
fn simplify_junction<'a>(ts: impl Iterator<Item = &'a Term>, is_and: bool) -> Term {
    junction(ts.map(Term::simplify).collect(), is_and)
}

/// [`simplify_junction`] of simplified terms.
fn junction(mut stack: Vec<Term>, is_and: bool) -> Term {
    // `out`'s entries by hash, and its negations `¬a` by the hash of `a`: duplicates and
    // complementary pairs are found without copying a term (junctions of named guards are
    // large, and this runs on every query).
    let mut out: Vec<Term> = Vec::new();
    let mut by_hash: HashMap<u64, Vec<usize>, FxBuildHasher> = HashMap::default();
    let mut negations: HashMap<u64, Vec<usize>, FxBuildHasher> = HashMap::default();
    let hash = |t: &Term| FxBuildHasher.hash_one(t);
    stack.reverse();
    while let Some(t) = stack.pop() {
        match t {
            Term::Bool(b) if b == is_and => {}
            Term::Bool(_) => return Term::Bool(!is_and),
            Term::And(inner) if is_and => stack.extend(inner.into_iter().rev()),
            Term::Or(inner) if !is_and => stack.extend(inner.into_iter().rev()),
            t => {
                let h = hash(&t);
                let complement = match &t {
                    Term::Not(inner) => by_hash
                        .get(&hash(inner))
                        .is_some_and(|is| is.iter().any(|&i| out[i] == **inner)),
                    _ => negations.get(&h).is_some_and(|is| {
                        is.iter().any(|&i| matches!(&out[i], Term::Not(a) if **a == t))
                    }),
                };
                if complement {
                    return Term::Bool(!is_and);
                }
                if by_hash.get(&h).is_some_and(|is| is.iter().any(|&i| out[i] == t)) {
                    continue;
                }
                if let Term::Not(inner) = &t {
                    negations.entry(hash(inner)).or_default().push(out.len());
                }
                by_hash.entry(h).or_default().push(out.len());
                out.push(t);
            }
        }
    }
    match out.len() {
        0 => Term::Bool(is_and),
        1 => out.pop().unwrap_or(Term::Bool(is_and)),
        _ if is_and => Term::And(out),
        _ => Term::Or(out),
    }
}
