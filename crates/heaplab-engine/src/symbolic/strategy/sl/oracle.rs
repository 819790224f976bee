//! The `sl` path-end search's window on the engine's solver ([`super::model`]): the logic
//! decides difference constraints and reference equalities itself and hands the rest (the
//! red-black tree's sizes, products with constants) to a [`PureOracle`]; this one translates
//! those facts back to [`Sym`]s and asks the explorer's [`PathSolver`], so answers are cached and
//! counted with every other query, and an asynchronous solver's `Pending` stops the search.

use super::logic_sym;
use crate::symbolic::solve::{PathSolver, SatAnswer};
use crate::symbolic::term::{Sort, Sym};
use heaplab_logic::arith::{PureResult, PureValue};
use heaplab_logic::formula::{Pure, Sort as LSort};
use heaplab_logic::PureOracle;
use std::collections::BTreeMap;

/// Hands the pure facts the Rust procedure leaves open to the engine's solver: the facts are
/// translated back to [`Sym`]s (state variables keep their numbers, the formula's existentials
/// get numbers above every state variable, references become integers with `null` as 0).
pub struct Oracle<'a> {
    solver: &'a mut dyn PathSolver,
    /// The first number free for the formula's existentials (the state's variable count).
    base: u32,
    /// The solver has not answered yet: the caller undoes the step.
    pub pending: bool,
    /// Some query stayed open (budget spent, solver unknown): an empty search proves nothing.
    pub undecided: bool,
    /// Solver queries left for this completion (see [`ORACLE_BUDGET`]).
    budget: u32,
}

impl<'a> Oracle<'a> {
    /// An oracle for a state with `vars` symbolic variables.
    pub fn new(solver: &'a mut dyn PathSolver, vars: u32) -> Oracle<'a> {
        Oracle { solver, base: vars, pending: false, undecided: false, budget: ORACLE_BUDGET }
    }
}

/// The search may meet many base heaps whose arithmetic is outside difference logic (the
/// red-black tree's black heights and sizes); past this many queries in one completion it answers
/// `Unknown` and the path is completed by running instead. 32 leaves no example path to the run
/// for want of queries (8 left 49 at k = 3, all on the red-black tree, and was slower).
pub const ORACLE_BUDGET: u32 = 32;

impl PureOracle for Oracle<'_> {
    fn check(
        &mut self,
        facts: &[Pure],
        sorts: &BTreeMap<String, LSort>,
    ) -> heaplab_logic::Result<PureResult> {
        if self.budget == 0 {
            self.undecided = true;
            return Ok(PureResult::Unknown);
        }
        self.budget -= 1;
        let mut ids: BTreeMap<String, (u32, Sort)> = BTreeMap::new();
        let mut next = self.base;
        for (v, s) in sorts {
            // A reference is an integer here (`null` is 0): the facts only compare references
            // for (dis)equality, which integers decide the same way.
            let sort = match s {
                LSort::Bool => Sort::Bool,
                LSort::Int | LSort::Ref(_) => Sort::Int,
            };
            let id = match v.strip_prefix("sv").and_then(|n| n.parse::<u32>().ok()) {
                Some(n) => n,
                None => {
                    next += 1;
                    next - 1
                }
            };
            ids.insert(v.clone(), (id, sort));
        }
        let mut conj = Vec::new();
        for f in facts {
            let var = |v: &str| ids.get(v).map(|(id, sort)| Sym::var(*id, *sort));
            match logic_sym::pure(f, &var) {
                Some(s) => conj.push(s),
                None => {
                    self.undecided = true;
                    return Ok(PureResult::Unknown);
                }
            }
        }
        let vars: Vec<(u32, Sort)> = ids.values().copied().collect();
        let m = match self.solver.check_with_model(&conj, &vars) {
            (SatAnswer::Pending, _) => {
                // Stop the search: the step is undone and the whole completion runs again once
                // the answer is in the solver's cache.
                self.pending = true;
                return Err(heaplab_logic::Error::Solver("waiting for the solver".into()));
            }
            (SatAnswer::Unsat, _) => return Ok(PureResult::Unsat),
            (SatAnswer::Sat, Some(m)) => m,
            _ => {
                self.undecided = true;
                return Ok(PureResult::Unknown);
            }
        };
        let mut out = BTreeMap::new();
        let mut locs: BTreeMap<i64, usize> = BTreeMap::new();
        for (v, (id, sort)) in &ids {
            let k = m.get(*id, *sort).unwrap_or(0);
            let value = match (sorts.get(v), sort) {
                (Some(LSort::Ref(_)), _) if k == 0 => PureValue::Null,
                (Some(LSort::Ref(_)), _) => {
                    let n = locs.len();
                    PureValue::Loc(*locs.entry(k).or_insert(n))
                }
                (_, Sort::Int) => PureValue::Int(k),
                (_, Sort::Bool) => PureValue::Bool(k != 0),
            };
            out.insert(v.clone(), value);
        }
        Ok(PureResult::Sat(out))
    }
}
