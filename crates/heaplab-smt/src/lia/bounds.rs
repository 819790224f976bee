//! Bounds the query implies for its fresh quotients and `ite` results, added as literals.
//!
//! Why: Java's `int` arithmetic wraps, and the engine writes a wrapped `x + 1` as
//! `x + 1 - 2³²·((x + 1 + 2³¹) div 2³²)` (with an `ite` for the sign). Nothing in the encoding
//! bounds the quotient, and branch and bound on a coefficient of 2³² wanders for thousands of
//! nodes without deciding (AVL trees' heights: every such query of `avl.hl` went to Z3). The
//! query's own range facts (`-2³¹ ≤ x ≤ 2³¹ - 1`) bound the dividend, hence the quotient: one of
//! two or three values. Each added literal follows from the query (a quotient lies between the
//! quotients of its dividend's bounds; an `ite` between its branches'), so answers do not change.

use super::encode::{Fresh, Lin, Lit};

type Interval = (Option<i128>, Option<i128>);

fn floor_div(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div(b)?;
    Some(if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q })
}

fn ceil_div(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div(b)?;
    Some(if (a % b != 0) && ((a < 0) == (b < 0)) { q + 1 } else { q })
}

/// The range of `lin` over the variables' ranges (`None` for an unbounded side).
fn range(lin: &Lin, ranges: &[Interval]) -> Interval {
    let mut lo = Some(lin.constant);
    let mut hi = Some(lin.constant);
    for (&x, &c) in &lin.coeffs {
        let (xlo, xhi) = ranges.get(x).copied().unwrap_or((None, None));
        let (low_end, high_end) = if c > 0 { (xlo, xhi) } else { (xhi, xlo) };
        lo = lo.zip(low_end).and_then(|(s, v)| s.checked_add(c.checked_mul(v)?));
        hi = hi.zip(high_end).and_then(|(s, v)| s.checked_add(c.checked_mul(v)?));
    }
    (lo, hi)
}

fn tighten(ranges: &mut [Interval], x: usize, (lo, hi): Interval) {
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
fn unit_range(lit: &Lit) -> Option<(usize, Interval)> {
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

/// The literals bounding `fresh`'s variables (in creation order: inner terms first) that the
/// conjunction's literals `lits` imply; `ints` is the number of integer variables.
pub fn implied(lits: &[Lit], fresh: &[Fresh], ints: usize) -> Vec<Lit> {
    let mut ranges: Vec<Interval> = vec![(None, None); ints];
    for (x, r) in lits.iter().filter_map(unit_range) {
        if x < ints {
            tighten(&mut ranges, x, r);
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
        if x >= ints || (r.0.is_none() && r.1.is_none()) {
            continue;
        }
        tighten(&mut ranges, x, r);
        bound_lits(x, r, &mut out);
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
