//! The bridge to `heaplab_smt`: a [`PureOracle`] over any [`heaplab_smt::Solver`].
//!
//! The logic's search is synchronous (a stepper, like the engine's explorer), while the solver
//! trait is async so Z3 wasm can await a JS promise. Natively the `z3` process answers on the
//! first poll and [`heaplab_smt::block_on`] drives it; on wasm, callers use the Rust-only
//! procedure ([`crate::NoSolver`]: difference logic is decided exactly without a solver) or an
//! oracle of their own.

use crate::arith::{PureResult, PureValue};
use crate::error::{Error, Result};
use crate::formula::{CmpOp, Pure, Sort, Term, Var};
use crate::oracle::PureOracle;
use heaplab_smt as smt;
use std::collections::{BTreeMap, BTreeSet};

/// A [`PureOracle`] asking an SMT solver, with a count of the queries sent.
pub struct SmtOracle<'a> {
    solver: &'a dyn smt::Solver,
    /// Queries sent to the solver.
    pub queries: u64,
    /// The solver's time limit per query, in milliseconds (a caller with a deadline cuts it
    /// to what is left). Default: [`smt::Query::DEFAULT_TIMEOUT_MS`].
    pub timeout_ms: u32,
}

impl<'a> SmtOracle<'a> {
    pub fn new(solver: &'a dyn smt::Solver) -> SmtOracle<'a> {
        SmtOracle { solver, queries: 0, timeout_ms: smt::Query::DEFAULT_TIMEOUT_MS }
    }
}

/// The solver's variables and assertions for `facts`.
fn encode(
    facts: &[Pure],
    sorts: &BTreeMap<Var, Sort>,
) -> Result<(BTreeMap<Var, smt::Var>, Vec<smt::Term>)> {
    let mut used = BTreeSet::new();
    for f in facts {
        f.free_vars(&mut used);
    }
    let vars: BTreeMap<Var, smt::Var> = used
        .iter()
        .map(|v| {
            let sort = match sorts.get(v) {
                Some(Sort::Bool) => smt::Sort::Bool,
                Some(Sort::Ref(_)) => smt::Sort::Ref,
                _ => smt::Sort::Int,
            };
            (v.clone(), smt::Var::new(v.clone(), sort))
        })
        .collect();
    let mut assertions = Vec::new();
    for f in facts {
        assertions
            .push(pure(f, &vars).ok_or_else(|| Error::Solver(format!("cannot encode `{f}`")))?);
    }
    Ok((vars, assertions))
}

/// The values of `vars` in a solver's model, references as abstract locations.
fn values(vars: &BTreeMap<Var, smt::Var>, model: &smt::Model) -> Option<BTreeMap<Var, PureValue>> {
    let mut locs: BTreeMap<i64, usize> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for (name, var) in vars {
        let value = match (var.sort, model.get(var)) {
            (smt::Sort::Bool, Some(smt::Value::Bool(b))) => PureValue::Bool(b),
            (smt::Sort::Int, Some(smt::Value::Int(i))) => PureValue::Int(i),
            (smt::Sort::Ref, Some(smt::Value::Int(0))) => PureValue::Null,
            (smt::Sort::Ref, Some(smt::Value::Int(i))) => {
                let next = locs.len();
                PureValue::Loc(*locs.entry(i).or_insert(next))
            }
            _ => return None,
        };
        out.insert(name.clone(), value);
    }
    Some(out)
}

/// Linear integer arithmetic decided in-process by `heaplab_smt`'s procedure (no solver
/// process, no cache): for the many small checks of a model grown step by step. `Unknown`
/// outside its fragment.
pub(crate) fn lia(facts: &[Pure], sorts: &BTreeMap<Var, Sort>) -> PureResult {
    let Ok((vars, assertions)) = encode(facts, sorts) else { return PureResult::Unknown };
    let want: Vec<smt::Var> = vars.values().cloned().collect();
    match smt::lia::decide(&assertions, &want) {
        smt::lia::Decision::Unsat => PureResult::Unsat,
        smt::lia::Decision::Outside(_) => PureResult::Unknown,
        smt::lia::Decision::Sat(model) => {
            values(&vars, &model).map_or(PureResult::Unknown, PureResult::Sat)
        }
    }
}

impl PureOracle for SmtOracle<'_> {
    fn check(&mut self, facts: &[Pure], sorts: &BTreeMap<Var, Sort>) -> Result<PureResult> {
        let (vars, assertions) = encode(facts, sorts)?;
        let query =
            smt::Query::new(assertions).want(vars.values().cloned()).timeout_ms(self.timeout_ms);
        self.queries += 1;
        let answer = match smt::block_on(self.solver.check(&query)) {
            Ok(a) => a,
            // Out of time is an answer ("unknown"), not a failure; so is a model whose
            // integers lie beyond 64 bits, which no model of HeapLab's can hold.
            Err(smt::SolverError::Timeout { .. }) => return Ok(PureResult::Unknown),
            Err(smt::SolverError::Malformed(m)) if m.contains("out of range") => {
                return Ok(PureResult::Unknown)
            }
            Err(e) => return Err(Error::Solver(e.to_string())),
        };
        Ok(match answer {
            smt::Answer::Unsat => PureResult::Unsat,
            smt::Answer::Unknown(_) => PureResult::Unknown,
            smt::Answer::Sat(model) => match values(&vars, &model) {
                Some(v) => PureResult::Sat(v),
                None => return Err(Error::Solver("a variable has no value in the model".into())),
            },
        })
    }
}

fn term(t: &Term, vars: &BTreeMap<Var, smt::Var>) -> Option<smt::Term> {
    Some(match t {
        Term::Var(v) => smt::Term::Var(vars.get(v)?.clone()),
        Term::Null => smt::Term::Null,
        Term::Int(i) => smt::Term::Int(*i),
        Term::Bool(b) => smt::Term::Bool(*b),
        Term::Add(a, b) => smt::Term::add([term(a, vars)?, term(b, vars)?]),
        Term::Sub(a, b) => smt::Term::sub(term(a, vars)?, term(b, vars)?),
        Term::Neg(a) => smt::Term::neg(term(a, vars)?),
        Term::Mul(a, b) => match (a.simplify(), b.simplify()) {
            (Term::Int(c), x) | (x, Term::Int(c)) => smt::Term::mul(c, term(&x, vars)?),
            // A product of two unknowns: Z3 decides it (the frontend sends it there).
            (x, y) => smt::Term::nonlinear(smt::NlOp::Mul, term(&x, vars)?, term(&y, vars)?),
        },
    })
}

fn pure(p: &Pure, vars: &BTreeMap<Var, smt::Var>) -> Option<smt::Term> {
    Some(match p {
        Pure::Const(b) => smt::Term::Bool(*b),
        Pure::Cmp(op, a, b) => {
            let (a, b) = (term(a, vars)?, term(b, vars)?);
            match op {
                CmpOp::Eq => smt::Term::eq(a, b),
                CmpOp::Ne => smt::Term::ne(a, b),
                CmpOp::Lt => smt::Term::lt(a, b),
                CmpOp::Le => smt::Term::le(a, b),
            }
        }
        Pure::Not(q) => smt::Term::not(pure(q, vars)?),
        Pure::And(ps) => {
            smt::Term::and(ps.iter().map(|q| pure(q, vars)).collect::<Option<Vec<_>>>()?)
        }
        Pure::Or(ps) => {
            smt::Term::or(ps.iter().map(|q| pure(q, vars)).collect::<Option<Vec<_>>>()?)
        }
    })
}
