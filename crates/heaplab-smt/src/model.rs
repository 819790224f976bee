//! Models and a Rust evaluator, so that every `sat` answer can be re-checked independently of
//! the solver that produced it.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::{Result, SolverError};
use crate::term::{Sort, Term, Var};

/// A value of a variable. References are `Int` (`null` is `0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Bool(bool),
    Int(i64),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(v) => write!(f, "{v}"),
        }
    }
}

impl Value {
    /// The value a variable of `sort` gets when no constraint mentions it.
    pub fn default_for(sort: Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(false),
            Sort::Int | Sort::Ref => Value::Int(0),
        }
    }
}

/// An assignment of values to variables, keyed by variable name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Model {
    values: BTreeMap<String, Value>,
}

impl Model {
    pub fn new() -> Model {
        Model::default()
    }
    pub fn insert(&mut self, var: &Var, value: Value) {
        self.values.insert(var.name.clone(), value);
    }
    pub fn get(&self, var: &Var) -> Option<Value> {
        self.values.get(&var.name).copied()
    }
    /// The integer (or reference) value of `var`.
    pub fn int(&self, var: &Var) -> Option<i64> {
        match self.get(var)? {
            Value::Int(v) => Some(v),
            Value::Bool(_) => None,
        }
    }
    pub fn bool(&self, var: &Var) -> Option<bool> {
        match self.get(var)? {
            Value::Bool(b) => Some(b),
            Value::Int(_) => None,
        }
    }
    /// `(name, value)` pairs in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Value)> {
        self.values.iter().map(|(k, v)| (k.as_str(), *v))
    }
    pub fn len(&self) -> usize {
        self.values.len()
    }
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// Whether every assertion evaluates to `true` under this model.
    pub fn satisfies(&self, assertions: &[Term]) -> Result<bool> {
        for a in assertions {
            if !eval_bool(a, self)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// [`Model::satisfies`] with intermediate integers in `i128`: the mathematical integers of
    /// SMT-LIB for every term whose values fit there. The path conditions' overflow guards
    /// (`x + 1 > 9223372036854775807`) hold under a model that [`Model::satisfies`] cannot
    /// evaluate; this check accepts such a model exactly when it is one.
    pub fn satisfies_exact(&self, assertions: &[Term]) -> Result<bool> {
        for a in assertions {
            if !wide_bool(a, self)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// A value in [`Model::satisfies_exact`]'s evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wide {
    Bool(bool),
    Int(i128),
}

fn wide_int(t: &Term, m: &Model) -> Result<i128> {
    match wide(t, m)? {
        Wide::Int(v) => Ok(v),
        Wide::Bool(_) => Err(eval_err(format!("expected an Int, got a Bool in {t}"))),
    }
}

/// Evaluates a Boolean term as [`Model::satisfies_exact`] does (integers in `i128`).
pub fn eval_bool_exact(t: &Term, m: &Model) -> Result<bool> {
    wide_bool(t, m)
}

fn wide_bool(t: &Term, m: &Model) -> Result<bool> {
    match wide(t, m)? {
        Wide::Bool(b) => Ok(b),
        Wide::Int(_) => Err(eval_err(format!("expected a Bool, got an Int in {t}"))),
    }
}

fn wide(t: &Term, m: &Model) -> Result<Wide> {
    let of = |v: Option<i128>| v.map(Wide::Int).ok_or_else(|| overflow(t));
    Ok(match t {
        Term::Var(v) => match m.get(v) {
            Some(Value::Int(i)) => Wide::Int(i128::from(i)),
            Some(Value::Bool(b)) => Wide::Bool(b),
            None => return Err(eval_err(format!("no value for variable {}", v.name))),
        },
        Term::Bool(b) => Wide::Bool(*b),
        Term::Int(v) => Wide::Int(i128::from(*v)),
        Term::Null => Wide::Int(0),
        Term::Add(ts) => {
            let mut sum: i128 = 0;
            for x in ts {
                sum = sum.checked_add(wide_int(x, m)?).ok_or_else(|| overflow(t))?;
            }
            Wide::Int(sum)
        }
        Term::Sub(a, b) => of(wide_int(a, m)?.checked_sub(wide_int(b, m)?))?,
        Term::Neg(a) => of(wide_int(a, m)?.checked_neg())?,
        Term::Mul(c, a) => of(wide_int(a, m)?.checked_mul(i128::from(*c)))?,
        Term::Div(a, c) | Term::Mod(a, c) => {
            if *c == 0 {
                return Err(eval_err(format!("division by zero in {t}")));
            }
            let (v, c) = (wide_int(a, m)?, i128::from(*c));
            of(if matches!(t, Term::Div(..)) {
                v.checked_div_euclid(c)
            } else {
                v.checked_rem_euclid(c)
            })?
        }
        Term::NonLinear(op, a, b) => {
            let (x, y) = (wide_int(a, m)?, wide_int(b, m)?);
            if y == 0 && *op != crate::term::NlOp::Mul {
                return Err(eval_err(format!("division by zero in {t}")));
            }
            of(op.apply(x, y))?
        }
        Term::Cmp(op, a, b) => {
            let (x, y) = (wide_int(a, m)?, wide_int(b, m)?);
            Wide::Bool(match op {
                crate::term::CmpOp::Lt => x < y,
                crate::term::CmpOp::Le => x <= y,
                crate::term::CmpOp::Gt => x > y,
                crate::term::CmpOp::Ge => x >= y,
            })
        }
        Term::Eq(a, b) => Wide::Bool(wide(a, m)? == wide(b, m)?),
        Term::Distinct(ts) => {
            let mut seen = Vec::with_capacity(ts.len());
            for x in ts {
                let v = wide(x, m)?;
                if seen.contains(&v) {
                    return Ok(Wide::Bool(false));
                }
                seen.push(v);
            }
            Wide::Bool(true)
        }
        Term::Not(a) => Wide::Bool(!wide_bool(a, m)?),
        Term::And(ts) => {
            for x in ts {
                if !wide_bool(x, m)? {
                    return Ok(Wide::Bool(false));
                }
            }
            Wide::Bool(true)
        }
        Term::Or(ts) => {
            for x in ts {
                if wide_bool(x, m)? {
                    return Ok(Wide::Bool(true));
                }
            }
            Wide::Bool(false)
        }
        Term::Implies(a, b) => Wide::Bool(!wide_bool(a, m)? || wide_bool(b, m)?),
        Term::Ite(c, a, b) => {
            if wide_bool(c, m)? {
                wide(a, m)?
            } else {
                wide(b, m)?
            }
        }
    })
}

fn eval_err(msg: impl Into<String>) -> SolverError {
    SolverError::Eval(msg.into())
}

fn eval_int(t: &Term, m: &Model) -> Result<i64> {
    match eval(t, m)? {
        Value::Int(v) => Ok(v),
        Value::Bool(_) => Err(eval_err(format!("expected an Int, got a Bool in {t}"))),
    }
}

fn eval_bool(t: &Term, m: &Model) -> Result<bool> {
    match eval(t, m)? {
        Value::Bool(b) => Ok(b),
        Value::Int(_) => Err(eval_err(format!("expected a Bool, got an Int in {t}"))),
    }
}

fn overflow(t: &Term) -> SolverError {
    eval_err(format!("integer overflow in {t}"))
}

/// Evaluates `t` under `m` with SMT-LIB semantics (Euclidean `div`/`mod`). Fails on unbound
/// variables, sort errors, overflow of `i64` and division by zero.
pub fn eval(t: &Term, m: &Model) -> Result<Value> {
    Ok(match t {
        Term::Bool(b) => Value::Bool(*b),
        Term::Int(v) => Value::Int(*v),
        Term::Null => Value::Int(0),
        Term::Var(v) => {
            m.get(v).ok_or_else(|| eval_err(format!("no value for variable {}", v.name)))?
        }
        Term::Add(ts) => {
            let mut sum: i64 = 0;
            for x in ts {
                sum = sum.checked_add(eval_int(x, m)?).ok_or_else(|| overflow(t))?;
            }
            Value::Int(sum)
        }
        Term::Sub(a, b) => {
            Value::Int(eval_int(a, m)?.checked_sub(eval_int(b, m)?).ok_or_else(|| overflow(t))?)
        }
        Term::Neg(a) => Value::Int(eval_int(a, m)?.checked_neg().ok_or_else(|| overflow(t))?),
        Term::Mul(c, a) => Value::Int(eval_int(a, m)?.checked_mul(*c).ok_or_else(|| overflow(t))?),
        Term::Div(a, c) | Term::Mod(a, c) => {
            if *c == 0 {
                return Err(eval_err(format!("division by zero in {t}")));
            }
            let v = eval_int(a, m)?;
            let r = if matches!(t, Term::Div(..)) {
                v.checked_div_euclid(*c)
            } else {
                v.checked_rem_euclid(*c)
            };
            Value::Int(r.ok_or_else(|| overflow(t))?)
        }
        Term::NonLinear(op, a, b) => {
            let (x, y) = (eval_int(a, m)?, eval_int(b, m)?);
            if y == 0 && *op != crate::term::NlOp::Mul {
                return Err(eval_err(format!("division by zero in {t}")));
            }
            let r = op.apply(i128::from(x), i128::from(y)).and_then(|v| i64::try_from(v).ok());
            Value::Int(r.ok_or_else(|| overflow(t))?)
        }
        Term::Cmp(op, a, b) => Value::Bool(op.holds(eval_int(a, m)?, eval_int(b, m)?)),
        Term::Eq(a, b) => Value::Bool(eval(a, m)? == eval(b, m)?),
        Term::Distinct(ts) => {
            let mut seen = Vec::with_capacity(ts.len());
            for x in ts {
                let v = eval(x, m)?;
                if seen.contains(&v) {
                    return Ok(Value::Bool(false));
                }
                seen.push(v);
            }
            Value::Bool(true)
        }
        Term::Not(a) => Value::Bool(!eval_bool(a, m)?),
        Term::And(ts) => {
            for x in ts {
                if !eval_bool(x, m)? {
                    return Ok(Value::Bool(false));
                }
            }
            Value::Bool(true)
        }
        Term::Or(ts) => {
            for x in ts {
                if eval_bool(x, m)? {
                    return Ok(Value::Bool(true));
                }
            }
            Value::Bool(false)
        }
        Term::Implies(a, b) => Value::Bool(!eval_bool(a, m)? || eval_bool(b, m)?),
        Term::Ite(c, a, b) => {
            if eval_bool(c, m)? {
                eval(a, m)?
            } else {
                eval(b, m)?
            }
        }
    })
}
