//! From [`Term`]s to the procedure's input: a formula in negation normal form whose atoms are
//! linear integer constraints `Σ aᵢ·xᵢ + c ⋈ 0` (`⋈` one of `≤`, `=`, `≠`) and Boolean literals.
//!
//! `div` and `mod` by a constant become a fresh quotient and remainder with their defining
//! constraints (`a = c·q + r`, `0 ≤ r ≤ |c| - 1`); an integer `ite` becomes a fresh variable
//! with a disjunction. Fresh variables are existential, so the encoding has a model exactly when
//! the terms do. What cannot be encoded (a Boolean where an integer is expected, `distinct` over
//! more than two Booleans) is reported as outside the fragment.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::coeffs::Coeffs;
use super::rational::{add, mul, Overflow};
use crate::term::{CmpOp, Sort, Term, Var};

/// `Σ coeffs[i]·xᵢ + constant`, coefficients never zero.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Lin {
    pub coeffs: Coeffs,
    pub constant: i128,
}

impl Lin {
    /// `Σ c·x + constant` from `(x, c)` pairs, as the unit tests write them.
    #[cfg(test)]
    pub fn of(coeffs: &[(usize, i128)], constant: i128) -> Lin {
        Lin { coeffs: coeffs.iter().copied().collect(), constant }
    }

    pub fn constant(c: i128) -> Lin {
        Lin { coeffs: Coeffs::default(), constant: c }
    }

    pub fn var(i: usize) -> Lin {
        Lin { coeffs: [(i, 1)].into(), constant: 0 }
    }

    /// `self + k·other`.
    pub fn add_scaled(&mut self, other: &Lin, k: i128) -> Result<(), Overflow> {
        for (&v, &c) in &other.coeffs {
            self.coeffs.add(v, mul(c, k)?)?;
        }
        self.constant = add(self.constant, mul(other.constant, k)?)?;
        Ok(())
    }

    /// `-self`, in place.
    pub fn negate(&mut self) -> Result<(), Overflow> {
        for c in self.coeffs.values_mut() {
            *c = c.checked_neg().ok_or(Overflow)?;
        }
        self.constant = self.constant.checked_neg().ok_or(Overflow)?;
        Ok(())
    }

    pub fn scaled(&self, k: i128) -> Result<Lin, Overflow> {
        let mut out = Lin::default();
        out.add_scaled(self, k)?;
        Ok(out)
    }

    /// `a - b`.
    pub fn minus(a: &Lin, b: &Lin) -> Result<Lin, Overflow> {
        let mut out = a.clone();
        out.add_scaled(b, -1)?;
        Ok(out)
    }
}

/// A theory literal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Lit {
    /// `lin ≤ 0`
    Le(Lin),
    /// `lin = 0`
    Eq(Lin),
    /// `lin ≠ 0`
    Ne(Lin),
    /// Boolean variable `index` has this value.
    Bool(usize, bool),
}

/// The literals of a conjunction, in order: chunks shared between copies, then the literals
/// pushed since the last [`Lits::seal`].
///
/// Why: a split's branches each take a copy of the clauses, and a prepared context's every
/// question one of its clauses, a hundred literals and more under symheap, of which a branch
/// or a question adds a few; copying them literal by literal was a twentieth of a symheap run
/// in wasm. Sealed, a copy shares them.
#[derive(Debug, Clone, Default)]
pub struct Lits {
    chunks: Vec<Rc<[Lit]>>,
    /// How many literals `chunks` hold.
    sealed: usize,
    tail: Vec<Lit>,
}

impl Lits {
    pub fn len(&self) -> usize {
        self.sealed + self.tail.len()
    }

    pub fn push(&mut self, lit: Lit) {
        self.tail.push(lit);
    }

    pub fn extend(&mut self, lits: impl IntoIterator<Item = Lit>) {
        self.tail.extend(lits);
    }

    /// Shares the literals pushed so far with the copies made from here on.
    pub fn seal(&mut self) {
        if !self.tail.is_empty() {
            self.sealed += self.tail.len();
            self.chunks.push(Rc::from(std::mem::take(&mut self.tail)));
        }
    }

    #[cfg(test)]
    pub fn contains(&self, lit: &Lit) -> bool {
        self.iter().any(|l| l == lit)
    }

    /// The literals in order.
    pub fn iter(&self) -> impl Iterator<Item = &Lit> + Clone + '_ {
        self.after(0)
    }

    /// The literals from position `from` on (none when `from` is past the end).
    pub fn after(&self, from: usize) -> impl Iterator<Item = &Lit> + Clone + '_ {
        let parts = self.chunks.iter().map(|c| &c[..]).chain(std::iter::once(&self.tail[..]));
        parts
            .scan(0, move |start, part| {
                let skip = from.saturating_sub(*start);
                *start += part.len();
                Some(part.get(skip..).unwrap_or_default())
            })
            .flatten()
    }
}

impl From<Vec<Lit>> for Lits {
    fn from(tail: Vec<Lit>) -> Lits {
        Lits { chunks: Vec::new(), sealed: 0, tail }
    }
}

/// A formula in negation normal form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Formula {
    Lit(Lit),
    And(Vec<Formula>),
    Or(Vec<Formula>),
}

impl Formula {
    pub const TRUE: Formula = Formula::And(Vec::new());
    pub const FALSE: Formula = Formula::Or(Vec::new());
}

/// Why a query is outside the fragment.
pub type Outside = String;

/// The variables of one query: integer-valued ones (named or fresh) and Booleans.
#[derive(Debug, Default, Clone)]
pub struct Vars {
    /// Integer variables: `Some(var)` for a query variable, `None` for a fresh one.
    pub ints: Vec<Option<Var>>,
    int_index: FxHashMap<String, usize>,
    pub bools: Vec<Var>,
    bool_index: FxHashMap<String, usize>,
    /// Fresh quotient/remainder pairs by (dividend, divisor), so `div` and `mod` of one term share.
    divisions: FxHashMap<(Lin, i64), (usize, usize)>,
}

impl Vars {
    pub fn int(&mut self, v: &Var) -> usize {
        if let Some(&i) = self.int_index.get(&v.name) {
            return i;
        }
        self.ints.push(Some(v.clone()));
        self.int_index.insert(v.name.clone(), self.ints.len() - 1);
        self.ints.len() - 1
    }

    pub fn bool(&mut self, v: &Var) -> usize {
        if let Some(&i) = self.bool_index.get(&v.name) {
            return i;
        }
        self.bools.push(v.clone());
        self.bool_index.insert(v.name.clone(), self.bools.len() - 1);
        self.bools.len() - 1
    }

    fn fresh(&mut self) -> usize {
        self.ints.push(None);
        self.ints.len() - 1
    }
}

/// A fresh variable of the encoding whose value the query determines (see [`super::bounds`]).
#[derive(Debug, Clone)]
pub enum Fresh {
    /// `quotient = dividend div divisor` (Euclidean).
    Division { dividend: Lin, divisor: i64, quotient: usize },
    /// `var` equals `then` or `other`.
    Ite { var: usize, then: Lin, other: Lin },
}

/// Encodes terms into one formula, collecting definitions of fresh variables on the way.
#[derive(Clone)]
pub struct Encoder {
    pub vars: Vars,
    /// Constraints defining the fresh variables (conjoined with the query).
    pub defs: Vec<Formula>,
    /// The fresh quotients and `ite` results, inner terms first (see [`super::bounds`]).
    pub fresh: Vec<Fresh>,
}

fn overflow(_: Overflow) -> Outside {
    "coefficients beyond 128 bits".to_string()
}

fn is_bool(t: &Term) -> bool {
    match t {
        Term::Bool(_)
        | Term::Cmp(..)
        | Term::Eq(..)
        | Term::Distinct(_)
        | Term::Not(_)
        | Term::And(_)
        | Term::Or(_)
        | Term::Implies(..) => true,
        Term::Var(v) => v.sort == Sort::Bool,
        Term::Ite(_, a, _) => is_bool(a),
        _ => false,
    }
}

impl Encoder {
    pub fn new() -> Encoder {
        Encoder { vars: Vars::default(), defs: Vec::new(), fresh: Vec::new() }
    }

    /// `t` (a Boolean term) when `positive`, else its negation.
    pub fn formula(&mut self, t: &Term, positive: bool) -> Result<Formula, Outside> {
        let junction = |parts: Vec<Formula>, and: bool| {
            if and {
                Formula::And(parts)
            } else {
                Formula::Or(parts)
            }
        };
        Ok(match t {
            Term::Bool(b) => {
                if *b == positive {
                    Formula::TRUE
                } else {
                    Formula::FALSE
                }
            }
            Term::Var(v) if v.sort == Sort::Bool => {
                Formula::Lit(Lit::Bool(self.vars.bool(v), positive))
            }
            Term::Not(a) => self.formula(a, !positive)?,
            Term::And(ts) | Term::Or(ts) => {
                let parts =
                    ts.iter().map(|x| self.formula(x, positive)).collect::<Result<Vec<_>, _>>()?;
                junction(parts, matches!(t, Term::And(_)) == positive)
            }
            Term::Implies(a, b) => {
                // a => b is (not a) or b.
                let (na, b) = (self.formula(a, !positive)?, self.formula(b, positive)?);
                junction(vec![na, b], !positive)
            }
            Term::Cmp(op, a, b) => {
                let (a, b) = (self.int(a)?, self.int(b)?);
                // Normalize to `lhs ≤ 0`; a negated strict comparison is the non-strict converse.
                let (lhs, strict) = match (op, positive) {
                    (CmpOp::Lt, true) | (CmpOp::Ge, false) => (Lin::minus(&a, &b), true),
                    (CmpOp::Le, true) | (CmpOp::Gt, false) => (Lin::minus(&a, &b), false),
                    (CmpOp::Gt, true) | (CmpOp::Le, false) => (Lin::minus(&b, &a), true),
                    (CmpOp::Ge, true) | (CmpOp::Lt, false) => (Lin::minus(&b, &a), false),
                };
                let mut lhs = lhs.map_err(overflow)?;
                if strict {
                    // Over the integers, e < 0 is e + 1 ≤ 0.
                    lhs.constant = add(lhs.constant, 1).map_err(overflow)?;
                }
                Formula::Lit(Lit::Le(lhs))
            }
            Term::Eq(a, b) if is_bool(a) || is_bool(b) => {
                // a = b is (a and b) or (not a and not b); its negation (a and not b) or (not a and b).
                let (pa, pb) = (self.formula(a, true)?, self.formula(b, true)?);
                let (na, nb) = (self.formula(a, false)?, self.formula(b, false)?);
                if positive {
                    Formula::Or(vec![Formula::And(vec![pa, pb]), Formula::And(vec![na, nb])])
                } else {
                    Formula::Or(vec![Formula::And(vec![pa, nb]), Formula::And(vec![na, pb])])
                }
            }
            Term::Eq(a, b) => {
                let d = Lin::minus(&self.int(a)?, &self.int(b)?).map_err(overflow)?;
                Formula::Lit(if positive { Lit::Eq(d) } else { Lit::Ne(d) })
            }
            Term::Distinct(ts) if ts.iter().any(is_bool) => match ts.as_slice() {
                [a, b] => self.formula(&Term::eq(a.clone(), b.clone()), !positive)?,
                [] | [_] => self.formula(&Term::Bool(true), positive)?,
                _ => return Err("distinct over more than two Booleans".into()),
            },
            Term::Distinct(ts) => {
                let lins = ts.iter().map(|x| self.int(x)).collect::<Result<Vec<_>, _>>()?;
                let mut parts = Vec::new();
                for (i, a) in lins.iter().enumerate() {
                    for b in &lins[i + 1..] {
                        let d = Lin::minus(a, b).map_err(overflow)?;
                        parts.push(Formula::Lit(if positive { Lit::Ne(d) } else { Lit::Eq(d) }));
                    }
                }
                junction(parts, positive)
            }
            Term::Ite(c, a, b) => {
                let (pc, nc) = (self.formula(c, true)?, self.formula(c, false)?);
                let (a, b) = (self.formula(a, positive)?, self.formula(b, positive)?);
                Formula::Or(vec![Formula::And(vec![pc, a]), Formula::And(vec![nc, b])])
            }
            _ => return Err(format!("not a Boolean term: {t}")),
        })
    }

    /// The linear form of an integer (or reference) term.
    pub fn int(&mut self, t: &Term) -> Result<Lin, Outside> {
        Ok(match t {
            Term::Int(v) => Lin::constant(i128::from(*v)),
            Term::Null => Lin::constant(0),
            Term::Var(v) if v.sort != Sort::Bool => Lin::var(self.vars.int(v)),
            Term::Add(ts) => {
                let mut sum = Lin::default();
                for x in ts {
                    sum.add_scaled(&self.int(x)?, 1).map_err(overflow)?;
                }
                sum
            }
            Term::Sub(a, b) => Lin::minus(&self.int(a)?, &self.int(b)?).map_err(overflow)?,
            Term::Neg(a) => self.int(a)?.scaled(-1).map_err(overflow)?,
            Term::Mul(c, a) => self.int(a)?.scaled(i128::from(*c)).map_err(overflow)?,
            Term::Div(a, c) | Term::Mod(a, c) => {
                if *c == 0 {
                    // SMT-LIB leaves division by zero unspecified: Z3 decides it.
                    return Err("division by zero".into());
                }
                let a = self.int(a)?;
                let (q, r) = self.division(a, *c)?;
                Lin::var(if matches!(t, Term::Div(..)) { q } else { r })
            }
            Term::NonLinear(op, ..) => {
                return Err(format!("non-linear arithmetic ({}) needs Z3", op.smt_name()))
            }
            Term::Ite(c, a, b) => {
                let v = Lin::var(self.vars.fresh());
                let (pc, nc) = (self.formula(c, true)?, self.formula(c, false)?);
                let (a, b) = (self.int(a)?, self.int(b)?);
                let va = Formula::Lit(Lit::Eq(Lin::minus(&v, &a).map_err(overflow)?));
                let vb = Formula::Lit(Lit::Eq(Lin::minus(&v, &b).map_err(overflow)?));
                if let Some((&var, _)) = v.coeffs.iter().next() {
                    self.fresh.push(Fresh::Ite { var, then: a, other: b });
                }
                self.defs.push(Formula::Or(vec![
                    Formula::And(vec![pc, va]),
                    Formula::And(vec![nc, vb]),
                ]));
                v
            }
            _ => return Err(format!("not an integer term: {t}")),
        })
    }

    /// The fresh quotient and remainder of `a` by `c` (Euclidean), defined once per pair.
    fn division(&mut self, a: Lin, c: i64) -> Result<(usize, usize), Outside> {
        if let Some(&qr) = self.vars.divisions.get(&(a.clone(), c)) {
            return Ok(qr);
        }
        let (q, r) = (self.vars.fresh(), self.vars.fresh());
        // a - c·q - r = 0, -r ≤ 0, r - (|c| - 1) ≤ 0.
        let mut def = a.clone();
        def.add_scaled(&Lin::var(q), -i128::from(c)).map_err(overflow)?;
        def.add_scaled(&Lin::var(r), -1).map_err(overflow)?;
        let mut upper = Lin::var(r);
        upper.constant = 1 - i128::from(c).abs();
        self.defs.push(Formula::And(vec![
            Formula::Lit(Lit::Eq(def)),
            Formula::Lit(Lit::Le(Lin::var(r).scaled(-1).map_err(overflow)?)),
            Formula::Lit(Lit::Le(upper)),
        ]));
        self.fresh.push(Fresh::Division { dividend: a.clone(), divisor: c, quotient: q });
        self.vars.divisions.insert((a, c), (q, r));
        Ok((q, r))
    }
}
