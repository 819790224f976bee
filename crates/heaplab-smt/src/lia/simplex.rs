//! The general simplex of Dutertre and de Moura ("A Fast Linear-Arithmetic Solver for DPLL(T)",
//! CAV 2006), over exact rationals: feasibility of bounds on variables and on linear forms.
//!
//! Every linear form gets a slack variable `s = Σ aᵢ·xᵢ`; constraints are bounds `l ≤ v ≤ u` on
//! variables. The tableau keeps each basic variable as a combination of the non-basic ones; the
//! assignment keeps every non-basic variable within its bounds. `check` repairs basic
//! variables one at a time, choosing pivots by Bland's rule (smallest index), which cannot
//! cycle. A conflict is a basic variable out of bounds whose row cannot move: the bounds are
//! infeasible over the rationals, hence over the integers.
//!
//! Problems here are small (tens of variables), so the tableau is dense and a branch of the
//! integer search is a clone.

use super::rational::{Overflow, Q, R};

/// What [`Simplex::check`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Feasible,
    Infeasible,
    /// The pivot budget ran out.
    GaveUp,
}

#[derive(Debug, Clone)]
pub struct Simplex {
    /// Row `r` is `cells[r·n..(r+1)·n]` for `n` variables, and its `j`-th cell the
    /// coefficient of variable `j` in the row of `basic[r]` (zero for basic variables). One
    /// vector, not one per row: a branch of the integer search clones the simplex, and in wasm
    /// each allocation is a call into the allocator.
    cells: Vec<Q>,
    basic: Vec<usize>,
    /// Per variable, its bounds, value and row: one vector for the same reason as `cells`.
    vars: Vec<Var>,
}

#[derive(Debug, Clone, Copy)]
struct Var {
    lower: Option<Q>,
    upper: Option<Q>,
    value: Q,
    /// The row it is basic in.
    row_of: Option<usize>,
}

impl Simplex {
    /// `vars` structural variables (value 0, unbounded) and one slack variable per form (indices
    /// `vars..`), basic, defined as the form.
    pub fn new<'f>(
        vars: usize,
        forms: impl ExactSizeIterator<Item = &'f [(usize, i128)]>,
    ) -> R<Simplex> {
        let n = vars + forms.len();
        let mut sx = Simplex {
            cells: vec![Q::ZERO; forms.len() * n],
            basic: Vec::with_capacity(forms.len()),
            vars: vec![Var { lower: None, upper: None, value: Q::ZERO, row_of: None }; n],
        };
        for (r, form) in forms.enumerate() {
            let row = &mut sx.cells[r * n..(r + 1) * n];
            for &(j, c) in form {
                if j >= vars {
                    return Err(Overflow);
                }
                row[j] = row[j].add(Q::int(c))?;
            }
            sx.basic.push(vars + r);
            sx.vars[vars + r].row_of = Some(r);
        }
        Ok(sx)
    }

    /// The coefficient of `j` in row `r`.
    fn cell(&self, r: usize, j: usize) -> Q {
        self.cells[r * self.vars.len() + j]
    }

    pub fn value(&self, v: usize) -> Q {
        self.vars[v].value
    }

    /// Tightens the lower bound of `v` to `b` (looser bounds are ignored). `false` when the bounds
    /// of `v` become empty.
    pub fn set_lower(&mut self, v: usize, b: Q) -> R<bool> {
        if let Some(l) = self.vars[v].lower {
            if !b.gt(l)? {
                return Ok(true);
            }
        }
        if let Some(u) = self.vars[v].upper {
            if b.gt(u)? {
                return Ok(false);
            }
        }
        self.vars[v].lower = Some(b);
        if self.vars[v].row_of.is_none() && self.vars[v].value.lt(b)? {
            self.update(v, b)?;
        }
        Ok(true)
    }

    /// Tightens the upper bound of `v` to `b`; see [`Simplex::set_lower`].
    pub fn set_upper(&mut self, v: usize, b: Q) -> R<bool> {
        if let Some(u) = self.vars[v].upper {
            if !b.lt(u)? {
                return Ok(true);
            }
        }
        if let Some(l) = self.vars[v].lower {
            if b.lt(l)? {
                return Ok(false);
            }
        }
        self.vars[v].upper = Some(b);
        if self.vars[v].row_of.is_none() && self.vars[v].value.gt(b)? {
            self.update(v, b)?;
        }
        Ok(true)
    }

    /// Moves the non-basic `x` to `v`, carrying the basic variables along.
    fn update(&mut self, x: usize, v: Q) -> R<()> {
        let delta = v.sub(self.vars[x].value)?;
        for r in 0..self.basic.len() {
            let c = self.cell(r, x);
            if !c.is_zero() {
                let b = self.basic[r];
                self.vars[b].value = self.vars[b].value.add(c.mul(delta)?)?;
            }
        }
        self.vars[x].value = v;
        Ok(())
    }

    fn below(&self, v: usize) -> R<bool> {
        match self.vars[v].lower {
            Some(l) => self.vars[v].value.lt(l),
            None => Ok(false),
        }
    }

    fn above(&self, v: usize) -> R<bool> {
        match self.vars[v].upper {
            Some(u) => self.vars[v].value.gt(u),
            None => Ok(false),
        }
    }

    /// Repairs the assignment until every bound holds (`Feasible`), a row proves the bounds
    /// infeasible, or the `pivots` left are spent (each pivot takes one).
    pub fn check(&mut self, pivots: &mut u32) -> R<Status> {
        loop {
            // Bland's rule: the smallest violated basic variable...
            let mut violated: Option<(usize, usize, bool)> = None;
            for (r, &b) in self.basic.iter().enumerate() {
                let low = self.below(b)?;
                let smaller = !matches!(violated, Some((_, v, _)) if v < b);
                if smaller && (low || self.above(b)?) {
                    violated = Some((r, b, low));
                }
            }
            let Some((r, b, low)) = violated else { return Ok(Status::Feasible) };
            // ...and the smallest non-basic variable that can move it in the right direction.
            let mut entering: Option<usize> = None;
            let n = self.vars.len();
            for (j, &c) in self.cells[r * n..(r + 1) * n].iter().enumerate() {
                if c.is_zero() || self.vars[j].row_of.is_some() {
                    continue;
                }
                let up = (c.signum() > 0) == low;
                let can = if up {
                    match self.vars[j].upper {
                        Some(u) => self.vars[j].value.lt(u)?,
                        None => true,
                    }
                } else {
                    match self.vars[j].lower {
                        Some(l) => self.vars[j].value.gt(l)?,
                        None => true,
                    }
                };
                if can {
                    entering = Some(j);
                    break;
                }
            }
            let Some(j) = entering else { return Ok(Status::Infeasible) };
            if *pivots == 0 {
                return Ok(Status::GaveUp);
            }
            *pivots -= 1;
            let target = if low { self.vars[b].lower } else { self.vars[b].upper };
            let target = target.ok_or(Overflow)?;
            self.pivot_and_update(r, j, target)?;
        }
    }

    /// Sets basic `basic[r]` to `v` by moving non-basic `j`, then swaps their roles.
    fn pivot_and_update(&mut self, r: usize, j: usize, v: Q) -> R<()> {
        let b = self.basic[r];
        let a = self.cell(r, j);
        let theta = v.sub(self.vars[b].value)?.div(a)?;
        self.vars[b].value = v;
        self.vars[j].value = self.vars[j].value.add(theta)?;
        for k in 0..self.basic.len() {
            let c = self.cell(k, j);
            if k != r && !c.is_zero() {
                let bk = self.basic[k];
                self.vars[bk].value = self.vars[bk].value.add(c.mul(theta)?)?;
            }
        }
        self.pivot(r, j)
    }

    /// Row `r` solved for `j`: `j = (b - Σ_{k≠j} a_k·x_k) / a_j`, substituted in every other row.
    fn pivot(&mut self, r: usize, j: usize) -> R<()> {
        let n = self.vars.len();
        let b = self.basic[r];
        let a = self.cell(r, j);
        let inv = Q::ONE.div(a)?;
        let (before, rest) = self.cells.split_at_mut(r * n);
        let (solved, after) = rest.split_at_mut(n);
        // In place: `b`'s cell is zero (it is basic) and becomes `inv`, `j`'s becomes zero.
        for (k, c) in solved.iter_mut().enumerate() {
            if k == j {
                *c = Q::ZERO;
            } else if !c.is_zero() {
                *c = c.neg()?.mul(inv)?;
            }
        }
        solved[b] = inv;
        for row in before.chunks_exact_mut(n).chain(after.chunks_exact_mut(n)) {
            let c = row[j];
            if c.is_zero() {
                continue;
            }
            row[j] = Q::ZERO;
            for (i, &nc) in solved.iter().enumerate() {
                if !nc.is_zero() {
                    row[i] = row[i].add(c.mul(nc)?)?;
                }
            }
        }
        self.basic[r] = j;
        self.vars[j].row_of = Some(r);
        self.vars[b].row_of = None;
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_point_or_proves_infeasibility() {
        // s0 = x + y in [4, 4], s1 = x - y in [3, ∞), y ≥ 1.
        let mut sx =
            Simplex::new(2, [&[(0, 1), (1, 1)][..], &[(0, 1), (1, -1)]].into_iter()).unwrap();
        assert!(sx.set_lower(2, Q::int(4)).unwrap());
        assert!(sx.set_upper(2, Q::int(4)).unwrap());
        assert!(sx.set_lower(3, Q::int(3)).unwrap());
        assert!(sx.set_lower(1, Q::int(0)).unwrap());
        assert_eq!(sx.check(&mut 100).unwrap(), Status::Feasible);
        let (x, y) = (sx.value(0), sx.value(1));
        assert_eq!(x.add(y).unwrap(), Q::int(4));
        assert!(!x.sub(y).unwrap().lt(Q::int(3)).unwrap());
        assert!(sx.set_lower(1, Q::int(1)).unwrap());
        assert_eq!(sx.check(&mut 100).unwrap(), Status::Infeasible);
    }
}
