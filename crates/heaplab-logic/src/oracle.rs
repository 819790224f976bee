//! Where the pure part of a formula goes when the Rust procedure ([`crate::arith`]) cannot
//! decide it: a [`PureOracle`], the SMT solver ([`crate::smt::SmtOracle`]) or [`NoSolver`].
//! A leaf, so the search, the base-pair procedures and enumeration can all name it.

use crate::arith::PureResult;
use crate::error::Result;
use crate::formula::{Pure, Sort, Var};
use std::collections::BTreeMap;

/// Decides pure facts the Rust procedure could not ([`PureResult::Unknown`]): the SMT solver.
pub trait PureOracle {
    fn check(&mut self, facts: &[Pure], sorts: &BTreeMap<Var, Sort>) -> Result<PureResult>;
}

/// An oracle that knows no more than the Rust procedure (everything outside difference logic
/// stays unknown). Useful where no solver is available.
pub struct NoSolver;

impl PureOracle for NoSolver {
    fn check(&mut self, _facts: &[Pure], _sorts: &BTreeMap<Var, Sort>) -> Result<PureResult> {
        Ok(PureResult::Unknown)
    }
}
