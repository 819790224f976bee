//! Facts of the logic (`heaplab_logic`'s [`Pure`] and [`Term`]) as the explorer's [`Sym`]s, so
//! that the `sl` code can hold them against the path condition: the `enum` rule
//! ([`super::enum_rule`]) and the path-end search's solver oracle ([`super::oracle`]). Each
//! caller says what a variable stands for; references are integers with `null` as 0 (the facts
//! only compare them for equality, which integers decide the same way).

use crate::symbolic::term::Sym;
use heaplab_logic::formula::{CmpOp, Pure, Term};

/// `p` as a boolean [`Sym`]; `None` when `var` knows no value for one of its variables.
pub fn pure(p: &Pure, var: &dyn Fn(&str) -> Option<Sym>) -> Option<Sym> {
    Some(match p {
        Pure::Const(b) => Sym::bool(*b),
        Pure::Cmp(op, a, b) => {
            let (x, y) = (term(a, var)?, term(b, var)?);
            match op {
                CmpOp::Eq => Sym::eq(&x, &y),
                CmpOp::Ne => Sym::not(&Sym::eq(&x, &y)),
                CmpOp::Lt => Sym::lt(&x, &y),
                CmpOp::Le => Sym::le(&x, &y),
            }
        }
        Pure::Not(q) => Sym::not(&pure(q, var)?),
        Pure::And(qs) => {
            let mut acc = Sym::bool(true);
            for q in qs {
                acc = Sym::and(&acc, &pure(q, var)?);
            }
            acc
        }
        Pure::Or(qs) => {
            let mut acc = Sym::bool(false);
            for q in qs {
                acc = Sym::or(&acc, &pure(q, var)?);
            }
            acc
        }
    })
}

/// `t` as an integer or boolean [`Sym`].
pub fn term(t: &Term, var: &dyn Fn(&str) -> Option<Sym>) -> Option<Sym> {
    Some(match t {
        Term::Var(v) => var(v)?,
        Term::Int(n) => Sym::int(*n),
        Term::Bool(b) => Sym::bool(*b),
        Term::Null => Sym::int(0),
        Term::Add(a, b) => Sym::add(&term(a, var)?, &term(b, var)?),
        Term::Sub(a, b) => Sym::sub(&term(a, var)?, &term(b, var)?),
        Term::Mul(a, b) => Sym::mul(&term(a, var)?, &term(b, var)?),
        Term::Neg(a) => Sym::neg(&term(a, var)?),
    })
}
