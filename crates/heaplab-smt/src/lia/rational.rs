//! Exact rationals over `i128` for the simplex: every operation is checked, and an overflow is
//! an [`Overflow`] error that makes the whole query "outside the fragment" (never a guess).

use std::cmp::Ordering;

/// An arithmetic result left `i128`: the procedure gives the query to Z3.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

pub type R<T> = Result<T, Overflow>;

/// A reduced fraction `n / d` with `d > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Q {
    n: i128,
    d: i128,
}

// The operations below take a 64-bit path when their operands fit: almost every number the
// procedure meets is small (coefficients ±1, constants, ranks), and in wasm an `i128`
// multiplication, division or remainder is a call into a software routine, which took a
// twentieth of a `symheap` run there. The answers are the `i128` ones.

pub fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    if let (Ok(mut x), Ok(mut y)) = (u64::try_from(a), u64::try_from(b)) {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        return i128::from(x);
    }
    while b != 0 {
        (a, b) = (b, a % b);
    }
    // Only gcd(i128::MIN, 0) does not fit; callers never build i128::MIN.
    i128::try_from(a).unwrap_or(i128::MAX)
}

/// `a · b`, `None` on overflow.
pub fn checked_mul(a: i128, b: i128) -> Option<i128> {
    if let (Ok(x), Ok(y)) = (i32::try_from(a), i32::try_from(b)) {
        return Some(i128::from(i64::from(x) * i64::from(y)));
    }
    a.checked_mul(b)
}

/// Truncating quotient and remainder, `None` for `b = 0` or overflow.
fn div_rem(a: i128, b: i128) -> Option<(i128, i128)> {
    if let (Ok(x), Ok(y)) = (i64::try_from(a), i64::try_from(b)) {
        if let (Some(q), Some(r)) = (x.checked_div(y), x.checked_rem(y)) {
            return Some((i128::from(q), i128::from(r)));
        }
    }
    Some((a.checked_div(b)?, a.checked_rem(b)?))
}

/// ⌊a / b⌋, `None` for `b = 0` or overflow.
pub fn floor_div(a: i128, b: i128) -> Option<i128> {
    let (q, r) = div_rem(a, b)?;
    Some(if r != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q })
}

/// ⌈a / b⌉, `None` for `b = 0` or overflow.
pub fn ceil_div(a: i128, b: i128) -> Option<i128> {
    let (q, r) = div_rem(a, b)?;
    Some(if r != 0 && ((a < 0) == (b < 0)) { q + 1 } else { q })
}

/// The Euclidean quotient and remainder of `a` by `d > 0` (`0 ≤ r < d`).
pub fn euclid(a: i128, d: i128) -> (i128, i128) {
    match div_rem(a, d) {
        Some((q, r)) if r < 0 => (q - 1, r + d),
        Some(qr) => qr,
        // d > 0: only a division by zero fails, which callers rule out.
        None => (0, a),
    }
}

impl Q {
    pub const ZERO: Q = Q { n: 0, d: 1 };
    pub const ONE: Q = Q { n: 1, d: 1 };

    pub fn int(n: i128) -> Q {
        Q { n, d: 1 }
    }

    /// `n / d` reduced; `d` must not be zero.
    pub fn new(n: i128, d: i128) -> R<Q> {
        if d == 0 {
            return Err(Overflow);
        }
        let g = gcd(n, d).max(1);
        let (mut n, mut d) = (euclid(n, g).0, euclid(d, g).0);
        if d < 0 {
            n = n.checked_neg().ok_or(Overflow)?;
            d = d.checked_neg().ok_or(Overflow)?;
        }
        Ok(Q { n, d })
    }

    pub fn is_zero(self) -> bool {
        self.n == 0
    }

    pub fn is_int(self) -> bool {
        self.d == 1
    }

    pub fn signum(self) -> i128 {
        self.n.signum()
    }

    /// The integer value, if this is an integer.
    pub fn as_int(self) -> Option<i128> {
        (self.d == 1).then_some(self.n)
    }

    pub fn floor(self) -> i128 {
        euclid(self.n, self.d).0
    }

    pub fn ceil(self) -> i128 {
        let (f, r) = euclid(self.n, self.d);
        if r == 0 {
            f
        } else {
            f + 1
        }
    }

    pub fn neg(self) -> R<Q> {
        Ok(Q { n: self.n.checked_neg().ok_or(Overflow)?, d: self.d })
    }

    pub fn add(self, o: Q) -> R<Q> {
        if self.d == 1 && o.d == 1 {
            return Ok(Q::int(self.n.checked_add(o.n).ok_or(Overflow)?));
        }
        let g = gcd(self.d, o.d);
        let (a, b) = (euclid(self.d, g).0, euclid(o.d, g).0);
        let n = mul(self.n, b)?.checked_add(mul(o.n, a)?).ok_or(Overflow)?;
        Q::new(n, mul(self.d, b)?)
    }

    pub fn sub(self, o: Q) -> R<Q> {
        self.add(o.neg()?)
    }

    pub fn mul(self, o: Q) -> R<Q> {
        if self.d == 1 && o.d == 1 {
            return Ok(Q::int(mul(self.n, o.n)?));
        }
        // Cross-reduce first so the products stay small.
        let g1 = gcd(self.n, o.d).max(1);
        let g2 = gcd(o.n, self.d).max(1);
        let exact = |a: i128, g: i128| euclid(a, g).0;
        Q::new(mul(exact(self.n, g1), exact(o.n, g2))?, mul(exact(self.d, g2), exact(o.d, g1))?)
    }

    pub fn div(self, o: Q) -> R<Q> {
        if o.n == 0 {
            return Err(Overflow);
        }
        self.mul(Q::new(o.d, o.n)?)
    }

    /// Exact comparison (overflow of the cross products is an error, not a wrong order).
    pub fn cmp(self, o: Q) -> R<Ordering> {
        if self.d == o.d {
            return Ok(self.n.cmp(&o.n));
        }
        Ok(mul(self.n, o.d)?.cmp(&mul(o.n, self.d)?))
    }

    pub fn lt(self, o: Q) -> R<bool> {
        Ok(self.cmp(o)? == Ordering::Less)
    }

    pub fn gt(self, o: Q) -> R<bool> {
        Ok(self.cmp(o)? == Ordering::Greater)
    }
}

pub fn mul(a: i128, b: i128) -> R<i128> {
    checked_mul(a, b).ok_or(Overflow)
}

pub fn add(a: i128, b: i128) -> R<i128> {
    a.checked_add(b).ok_or(Overflow)
}

impl std::fmt::Display for Q {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.d == 1 {
            write!(f, "{}", self.n)
        } else {
            write!(f, "{}/{}", self.n, self.d)
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_exact_and_reduced() {
        let a = Q::new(1, 3).unwrap();
        let b = Q::new(1, 6).unwrap();
        assert_eq!(a.add(b).unwrap(), Q::new(1, 2).unwrap());
        assert_eq!(a.sub(b).unwrap(), b);
        assert_eq!(a.mul(b).unwrap(), Q::new(1, 18).unwrap());
        assert_eq!(a.div(b).unwrap(), Q::int(2));
        assert_eq!(Q::new(-7, 2).unwrap().floor(), -4);
        assert_eq!(Q::new(-7, 2).unwrap().ceil(), -3);
        assert_eq!(Q::new(7, -2).unwrap(), Q::new(-7, 2).unwrap());
        assert_eq!(Q::int(i128::MAX).add(Q::ONE), Err(Overflow));
    }

    /// The 64-bit paths give the `i128` answers, at and across the edges of their ranges.
    #[test]
    fn small_paths_agree_with_wide_arithmetic() {
        let edges = [
            0,
            1,
            2,
            3,
            7,
            1 << 31,
            (1 << 31) - 1,
            1 << 32,
            i64::MAX as i128,
            1 << 63,
            (1 << 64) + 5,
            i128::MAX / 3,
        ];
        let values: Vec<i128> = edges.iter().flat_map(|&v| [v, -v, v + 1, -v - 1]).collect();
        for &a in &values {
            for &b in &values {
                assert_eq!(checked_mul(a, b), a.checked_mul(b), "{a} * {b}");
                if b != 0 {
                    let wide_gcd = {
                        let (mut x, mut y) = (a.unsigned_abs(), b.unsigned_abs());
                        while y != 0 {
                            (x, y) = (y, x % y);
                        }
                        x
                    };
                    assert_eq!(gcd(a, b).unsigned_abs(), wide_gcd, "gcd({a}, {b})");
                    let q = a.checked_div(b);
                    let floor =
                        q.map(|q| if a % b != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q });
                    let ceil =
                        q.map(|q| if a % b != 0 && ((a < 0) == (b < 0)) { q + 1 } else { q });
                    assert_eq!((floor_div(a, b), ceil_div(a, b)), (floor, ceil), "{a} / {b}");
                    if b > 0 {
                        assert_eq!(euclid(a, b), (a.div_euclid(b), a.rem_euclid(b)), "{a} / {b}");
                    }
                }
            }
        }
    }
}
