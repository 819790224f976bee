//! Local decisions for the common case: difference constraints.
//!
//! Path conditions of the papers' subjects are mostly comparisons between input integers and
//! constants (`x0 < x2`, `x3 <= 7`, the i64 range of every input). Such a conjunction is a system
//! of difference constraints `u - v <= c`, satisfiable over the integers exactly when its
//! constraint graph has no negative cycle. So:
//! - if the difference constraints among `pc && c` have a negative cycle, `pc && c` is unsat
//!   (a subset of the conjuncts is already contradictory);
//! - if *every* conjunct is a difference constraint and there is no negative cycle, it is sat.
//!
//! Anything else is left to the solver. Weights are i128 so i64 bounds cannot overflow.

use super::term::{Node, Sort, Sym};
use std::collections::BTreeMap;

/// `u - v <= c`, with node 0 standing for the constant zero.
#[derive(Clone, Copy, Debug)]
struct Edge {
    u: u32,
    v: u32,
    c: i128,
}

/// A linear form `var + k` (`var` = `None` for a constant).
fn linear(s: &Sym) -> Option<(Option<u32>, i128)> {
    match s.node() {
        Node::Int(n) => Some((None, i128::from(*n))),
        Node::Var(id, Sort::Int) => Some((Some(*id), 0)),
        Node::Add(a, b) => match (linear(a)?, linear(b)?) {
            ((x, k1), (None, k2)) | ((None, k1), (x, k2)) => Some((x, k1 + k2)),
            _ => None,
        },
        Node::Sub(a, b) => match (linear(a)?, linear(b)?) {
            ((x, k1), (None, k2)) => Some((x, k1 - k2)),
            _ => None,
        },
        _ => None,
    }
}

fn node_of(v: Option<u32>) -> u32 {
    v.map_or(0, |id| id + 1)
}

/// `a - b <= c` for linear forms: (xa + ka) - (xb + kb) <= c.
fn diff_le(a: (Option<u32>, i128), b: (Option<u32>, i128), c: i128, out: &mut Vec<Edge>) {
    let (u, v) = (node_of(a.0), node_of(b.0));
    let bound = c - a.1 + b.1;
    out.push(Edge { u, v, c: bound });
}

/// The atom as a conjunction of difference edges; `None` if it is not one.
fn atom(s: &Sym, positive: bool, out: &mut Vec<Edge>) -> Option<()> {
    match (s.node(), positive) {
        (Node::Not(inner), p) => atom(inner, !p, out),
        (Node::Lt(a, b), true) => {
            diff_le(linear(a)?, linear(b)?, -1, out);
            Some(())
        }
        (Node::Lt(a, b), false) => {
            diff_le(linear(b)?, linear(a)?, 0, out);
            Some(())
        }
        (Node::Le(a, b), true) => {
            diff_le(linear(a)?, linear(b)?, 0, out);
            Some(())
        }
        (Node::Le(a, b), false) => {
            diff_le(linear(b)?, linear(a)?, -1, out);
            Some(())
        }
        (Node::Eq(a, b), true) => {
            let (a, b) = (linear(a)?, linear(b)?);
            diff_le(a, b, 0, out);
            diff_le(b, a, 0, out);
            Some(())
        }
        (Node::And(a, b), true) => {
            atom(a, true, out)?;
            atom(b, true, out)
        }
        (Node::Bool(true), true) | (Node::Bool(false), false) => Some(()),
        _ => None,
    }
}

/// Whether the edges have a negative cycle (Floyd–Warshall on the nodes they mention).
fn inconsistent(edges: &[Edge]) -> bool {
    let mut index: BTreeMap<u32, usize> = BTreeMap::new();
    for e in edges {
        let n = index.len();
        index.entry(e.u).or_insert(n);
        let n = index.len();
        index.entry(e.v).or_insert(n);
    }
    let n = index.len();
    const INF: i128 = i128::MAX / 4;
    let mut d = vec![vec![INF; n]; n];
    for (i, row) in d.iter_mut().enumerate() {
        row[i] = 0;
    }
    for e in edges {
        let (Some(&u), Some(&v)) = (index.get(&e.u), index.get(&e.v)) else { continue };
        // u - v <= c: an edge v -> u of weight c.
        if e.c < d[v][u] {
            d[v][u] = e.c;
        }
    }
    for k in 0..n {
        for i in 0..n {
            if d[i][k] >= INF {
                continue;
            }
            for j in 0..n {
                if d[k][j] >= INF {
                    continue;
                }
                let via = d[i][k] + d[k][j];
                if via < d[i][j] {
                    d[i][j] = via;
                }
            }
            if d[i][i] < 0 {
                return true;
            }
        }
    }
    (0..n).any(|i| d[i][i] < 0)
}

/// The conjuncts of `pc` that share variables with `c`, transitively (KLEE's constraint
/// independence). Since `pc` is satisfiable, `pc && c` is satisfiable iff `slice && c` is.
pub fn slice(pc: &[Sym], c: &Sym) -> Vec<Sym> {
    let mut wanted: std::collections::BTreeSet<(u32, Sort)> = c.vars().into_iter().collect();
    let mut taken = vec![false; pc.len()];
    let vars: Vec<Vec<(u32, Sort)>> = pc.iter().map(Sym::vars).collect();
    loop {
        let mut changed = false;
        for (i, vs) in vars.iter().enumerate() {
            if !taken[i] && vs.iter().any(|v| wanted.contains(v)) {
                taken[i] = true;
                changed = true;
                wanted.extend(vs.iter().copied());
            }
        }
        if !changed {
            break;
        }
    }
    pc.iter().zip(taken).filter(|(_, t)| *t).map(|(p, _)| p.clone()).collect()
}

/// Decides `pc && c` when difference reasoning suffices: `Some(false)` unsat, `Some(true)` sat,
/// `None` when the solver is needed.
pub fn decide(pc: &[Sym], c: &Sym) -> Option<bool> {
    // A disjunction `!(a && b)` / `a || b` is sat iff one side is.
    match c.node() {
        Node::Or(a, b) => return decide_or(pc, a, b),
        Node::Not(inner) => {
            if let Node::And(a, b) = inner.node() {
                return decide_or(pc, &Sym::not(a), &Sym::not(b));
            }
        }
        _ => {}
    }
    let mut edges = Vec::new();
    let mut complete = true;
    for p in pc {
        let mark = edges.len();
        if atom(p, true, &mut edges).is_none() {
            edges.truncate(mark);
            complete = false;
        }
    }
    let mark = edges.len();
    if atom(c, true, &mut edges).is_none() {
        edges.truncate(mark);
        complete = false;
    }
    if inconsistent(&edges) {
        Some(false)
    } else if complete {
        Some(true)
    } else {
        None
    }
}

fn decide_or(pc: &[Sym], a: &Sym, b: &Sym) -> Option<bool> {
    match (decide(pc, a), decide(pc, b)) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(i: u32) -> Sym {
        Sym::var(i, Sort::Int)
    }

    #[test]
    fn orders_and_bounds() {
        let pc = vec![Sym::lt(&x(0), &x(1)), Sym::lt(&x(1), &x(2))];
        assert_eq!(decide(&pc, &Sym::lt(&x(2), &x(0))), Some(false));
        assert_eq!(decide(&pc, &Sym::lt(&x(0), &x(2))), Some(true));
        assert_eq!(decide(&pc, &Sym::eq(&x(0), &x(1))), Some(false));
        let max = Sym::int(i64::MAX);
        let pc = vec![Sym::le(&x(0), &max)];
        let r = Sym::add(&x(0), &Sym::int(1));
        assert_eq!(decide(&pc, &Sym::not(&Sym::le(&r, &max))), Some(true));
        let pc = vec![Sym::lt(&x(0), &Sym::int(5))];
        assert_eq!(decide(&pc, &Sym::not(&Sym::le(&r, &max))), Some(false));
        // Not a difference constraint: left to the solver.
        assert_eq!(decide(&pc, &Sym::lt(&Sym::mul(&x(0), &x(1)), &Sym::int(3))), None);
    }
}
