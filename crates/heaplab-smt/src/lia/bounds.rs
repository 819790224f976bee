//! Bounds the query implies for its variables, added as literals.
//!
//! Why: Java's `int` arithmetic wraps, and the engine writes a wrapped `x + 1` as
//! `(x + 1 + 2³¹) mod 2³² - 2³¹`: a fresh quotient `q` with `x + 1 + 2³¹ = 2³²·q + r`,
//! `0 ≤ r < 2³²`. Nothing in the encoding bounds `q` on its own, and branch and bound on a
//! coefficient of 2³² wanders for thousands of nodes without deciding (AVL trees' heights: every
//! such query of `avl.hl` went to Z3). The query's own range facts (`-2³¹ ≤ x ≤ 2³¹ - 1`) bound
//! the dividend, hence the quotient: one of two or three values. So the ranges of the unit
//! literals are carried through every other literal of the conjunction (interval propagation:
//! `a·x + rest + k ≤ 0` bounds `x` by the least `rest` can be), for a few rounds, and through
//! each `ite` result (between its branches' values). Each added literal follows from the query,
//! so answers do not change.

use super::encode::{Fresh, Lin, Lit};
use super::rational::{ceil_div, checked_mul, floor_div};

pub(super) type Interval = (Option<i128>, Option<i128>);

/// The range of `lin` over the variables' ranges (`None` for an unbounded side).
pub(super) fn range(lin: &Lin, ranges: &[Interval]) -> Interval {
    let mut lo = Some(lin.constant);
    let mut hi = Some(lin.constant);
    for (&x, &c) in &lin.coeffs {
        let (xlo, xhi) = ranges.get(x).copied().unwrap_or((None, None));
        let (low_end, high_end) = if c > 0 { (xlo, xhi) } else { (xhi, xlo) };
        lo = lo.zip(low_end).and_then(|(s, v)| s.checked_add(checked_mul(c, v)?));
        hi = hi.zip(high_end).and_then(|(s, v)| s.checked_add(checked_mul(c, v)?));
    }
    (lo, hi)
}

pub(super) fn tighten(ranges: &mut [Interval], x: usize, (lo, hi): Interval) {
    let (old_lo, old_hi) = ranges[x];
    ranges[x] = (
        match (old_lo, lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        },
        match (old_hi, hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        },
    );
}

/// The range one literal of the conjunction gives its only variable, if it has one.
pub(super) fn unit_range(lit: &Lit) -> Option<(usize, Interval)> {
    let (lin, equal) = match lit {
        Lit::Le(lin) => (lin, false),
        Lit::Eq(lin) => (lin, true),
        _ => return None,
    };
    let mut coeffs = lin.coeffs.iter();
    let (&x, &a) = coeffs.next()?;
    if coeffs.next().is_some() {
        return None;
    }
    // a·x + k ≤ 0 (or = 0): x ≤ -k/a for a > 0, x ≥ -k/a for a < 0.
    let k = lin.constant.checked_neg()?;
    let (upper, lower) = (floor_div(k, a)?, ceil_div(k, a)?);
    Some(match (equal, a > 0) {
        (true, _) => (x, (Some(lower), Some(upper))),
        (false, true) => (x, (None, Some(upper))),
        (false, false) => (x, (Some(lower), None)),
    })
}

/// `lo ≤ x` and `x ≤ hi` as literals, for the known sides.
fn bound_lits(x: usize, (lo, hi): Interval, out: &mut Vec<Lit>) {
    if let Some(lo) = lo {
        // lo - x ≤ 0
        out.push(Lit::Le(Lin { coeffs: [(x, -1)].into(), constant: lo }));
    }
    if let Some(hi) = hi {
        // x - hi ≤ 0
        if let Some(c) = hi.checked_neg() {
            out.push(Lit::Le(Lin { coeffs: [(x, 1)].into(), constant: c }));
        }
    }
}

/// Rounds of propagation through the conjunction's literals: enough for a wrap of a wrap (the
/// ranges travel one literal per round), few enough that bounds creeping up a cycle of
/// literals (`x < y`, `y < x + 5`) stop soon.
const ROUNDS: usize = 4;

/// The bound `a·x ≤ -rest` gives `x`, where `rest` is at least `least`.
fn bound_from(a: i128, least: i128) -> Option<Interval> {
    let k = least.checked_neg()?;
    Some(if a > 0 { (None, Some(floor_div(k, a)?)) } else { (Some(ceil_div(k, a)?), None) })
}

/// Tightens `ranges` through `lin ≤ 0`: each variable's term is at most minus the least the
/// others and the constant can be. Whether any range changed.
fn propagate_le(lin: &Lin, ranges: &mut [Interval]) -> bool {
    if lin.coeffs.len() < 2 {
        return false;
    }
    // The least of each term over its range (`None`: unbounded below).
    let least = |x: usize, c: i128, ranges: &[Interval]| {
        let (lo, hi) = ranges.get(x).copied().unwrap_or((None, None));
        if c > 0 { lo } else { hi }.and_then(|v| checked_mul(c, v))
    };
    let mut changed = false;
    for (&x, &a) in &lin.coeffs {
        let mut rest = Some(lin.constant);
        for (&y, &c) in &lin.coeffs {
            if y != x {
                rest = rest.zip(least(y, c, ranges)).and_then(|(s, t)| s.checked_add(t));
            }
        }
        let Some(bound) = rest.and_then(|r| bound_from(a, r)) else { continue };
        let before = ranges[x];
        tighten(ranges, x, bound);
        changed |= ranges[x] != before;
    }
    changed
}

/// The literals bounding the variables that the conjunction's literals `lits` imply, beyond
/// the unit literals themselves: through the other literals, then through `fresh`'s `ite`
/// results and quotients (in creation order: inner terms first); `ints` is the number of
/// integer variables.
pub fn implied<'a, I>(lits: I, fresh: &[Fresh], ints: usize) -> Vec<Lit>
where
    I: IntoIterator<Item = &'a Lit>,
    I::IntoIter: Clone,
{
    let lits = lits.into_iter();
    let mut ranges: Vec<Interval> = vec![(None, None); ints];
    for (x, r) in lits.clone().filter_map(unit_range) {
        if x < ints {
            tighten(&mut ranges, x, r);
        }
    }
    let given = ranges.clone();
    let in_range = |lin: &Lin| lin.coeffs.keys().all(|&x| x < ints);
    for _ in 0..ROUNDS {
        let mut changed = false;
        for lit in lits.clone() {
            changed |= match lit {
                Lit::Le(lin) if in_range(lin) => propagate_le(lin, &mut ranges),
                Lit::Eq(lin) if in_range(lin) => {
                    let up = propagate_le(lin, &mut ranges);
                    let down = lin.scaled(-1).is_ok_and(|neg| propagate_le(&neg, &mut ranges));
                    up | down
                }
                _ => false,
            };
        }
        if !changed {
            break;
        }
    }
    let mut out = Vec::new();
    for f in fresh {
        let (x, r) = match f {
            Fresh::Division { dividend, divisor, quotient } if *divisor > 0 => {
                let (lo, hi) = range(dividend, &ranges);
                let c = i128::from(*divisor);
                (*quotient, (lo.and_then(|v| floor_div(v, c)), hi.and_then(|v| floor_div(v, c))))
            }
            Fresh::Division { .. } => continue,
            Fresh::Ite { var, then, other } => {
                let (a, b) = (range(then, &ranges), range(other, &ranges));
                (*var, (a.0.zip(b.0).map(|(p, q)| p.min(q)), a.1.zip(b.1).map(|(p, q)| p.max(q))))
            }
        };
        if x < ints {
            tighten(&mut ranges, x, r);
        }
    }
    for (x, (range, before)) in ranges.iter().zip(&given).enumerate() {
        // Only the sides the unit literals did not already say.
        let lo = range.0.filter(|_| range.0 != before.0);
        let hi = range.1.filter(|_| range.1 != before.1);
        bound_lits(x, (lo, hi), &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_follows_the_sign() {
        assert_eq!((floor_div(7, 2), ceil_div(7, 2)), (Some(3), Some(4)));
        assert_eq!((floor_div(-7, 2), ceil_div(-7, 2)), (Some(-4), Some(-3)));
        assert_eq!((floor_div(7, -2), ceil_div(7, -2)), (Some(-4), Some(-3)));
        assert_eq!((floor_div(-6, 3), ceil_div(-6, 3)), (Some(-2), Some(-2)));
    }

    /// x in [-2³¹, 2³¹ - 1] makes (x + 1 + 2³¹) div 2³² one of 0 and 1, and an ite over that
    /// quotient and its negation lies in [-1, 1].
    #[test]
    fn a_wrapped_sum_has_a_quotient_of_zero_or_one() {
        let two31 = 1i128 << 31;
        let lits = vec![
            Lit::Le(Lin::of(&[(0, -1)], -two31)),      // -2³¹ - x ≤ 0
            Lit::Le(Lin::of(&[(0, 1)], -(two31 - 1))), // x - (2³¹ - 1) ≤ 0
        ];
        let fresh = vec![
            Fresh::Division {
                dividend: Lin::of(&[(0, 1)], 1 + two31),
                divisor: 1 << 32,
                quotient: 1,
            },
            Fresh::Ite { var: 2, then: Lin::of(&[(1, 1)], 0), other: Lin::of(&[(1, -1)], 0) },
        ];
        let got = implied(&lits, &fresh, 3);
        assert_eq!(
            got,
            vec![
                Lit::Le(Lin::of(&[(1, -1)], 0)),
                Lit::Le(Lin::of(&[(1, 1)], -1)),
                Lit::Le(Lin::of(&[(2, -1)], -1)),
                Lit::Le(Lin::of(&[(2, 1)], -1)),
            ]
        );
    }

    /// A quotient written as its defining equality (`x = 4·q + r`, `0 ≤ r ≤ 3`, as concolic's
    /// preprocessing writes a wrap) is bounded through it: with `-10 ≤ x ≤ 10`, `-3 ≤ q ≤ 2`.
    #[test]
    fn a_quotient_is_bounded_through_its_defining_equality() {
        let (x, q, r) = (0, 1, 2);
        let lits = vec![
            Lit::Eq(Lin::of(&[(x, 1), (q, -4), (r, -1)], 0)),
            Lit::Le(Lin::of(&[(r, -1)], 0)),
            Lit::Le(Lin::of(&[(r, 1)], -3)),
            Lit::Le(Lin::of(&[(x, -1)], -10)),
            Lit::Le(Lin::of(&[(x, 1)], -10)),
        ];
        let got = implied(&lits, &[], 3);
        assert_eq!(got, vec![Lit::Le(Lin::of(&[(q, -1)], -3)), Lit::Le(Lin::of(&[(q, 1)], -2))]);
    }

    /// Without a range for the dividend nothing is added, and a literal of two variables gives
    /// no range.
    #[test]
    fn unbounded_dividends_add_nothing() {
        let lits = vec![Lit::Le(Lin::of(&[(0, 1), (1, 1)], -5))];
        let fresh =
            vec![Fresh::Division { dividend: Lin::of(&[(0, 1)], 0), divisor: 4, quotient: 2 }];
        assert!(implied(&lits, &fresh, 3).is_empty());
    }
}
